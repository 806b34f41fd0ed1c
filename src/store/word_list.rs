//! The admins' word list (`word_list_entries`, `chat_strictness`, `word_list_version`): rows
//! and queries only. The changes are the use cases `usecases::add_word_list_entry`,
//! `remove_word_list_entry` and `set_chat_strictness`; each raises the version, which every
//! instance polls to rebuild its analyser (`api::jobs::word_list_reloader`).

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::players;
use super::schema::{chat_strictness, word_list_entries, word_list_version};
use crate::chat::{
    AddedTerm, Category, EntryKind, MatchMode, Severity, Strictness, StrictnessLevels, WordList,
};
use crate::moderation::{PlayerId, WordListEntryId};

/// An entry as stored, people by id.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = word_list_entries)]
struct StoredEntry {
    id: WordListEntryId,
    kind: EntryKind,
    term: String,
    category: Option<Category>,
    severity: Option<Severity>,
    mode: Option<MatchMode>,
    added_by: PlayerId,
    added_reason: String,
    added_at: NaiveDateTime,
    removed_by: Option<PlayerId>,
    removed_reason: Option<String>,
    removed_at: Option<NaiveDateTime>,
}

/// An entry as read: people by their current names.
#[derive(Debug, Clone, PartialEq)]
pub struct WordListEntryRow {
    pub id: WordListEntryId,
    pub kind: EntryKind,
    pub term: String,
    /// Set for a term, `None` for an allowed word.
    pub category: Option<Category>,
    pub severity: Option<Severity>,
    pub mode: Option<MatchMode>,
    pub added_by: String,
    pub added_reason: String,
    pub added_at: NaiveDateTime,
    pub removed_by: Option<String>,
    pub removed_reason: Option<String>,
    pub removed_at: Option<NaiveDateTime>,
}

/// A category's strictness as last set, with who set it and why.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictnessRow {
    pub category: Category,
    pub strictness: Strictness,
    pub set_by: String,
    pub reason: String,
    pub set_at: NaiveDateTime,
}

/// A new entry: a term with its category, severity and mode, or an allowed word.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEntry<'a> {
    pub kind: EntryKind,
    pub term: &'a str,
    /// `Some` exactly for a term.
    pub term_of: Option<(Category, Severity, MatchMode)>,
    pub added_by: PlayerId,
    pub reason: &'a str,
    pub at: NaiveDateTime,
}

/// The version every change raises.
pub fn version(conn: &mut DbConnection) -> QueryResult<i64> {
    word_list_version::table
        .select(word_list_version::version)
        .first(conn)
}

/// Raises the version; runs inside the change's transaction.
pub fn raise_version(conn: &mut DbConnection) -> QueryResult<()> {
    diesel::update(word_list_version::table)
        .set(word_list_version::version.eq(word_list_version::version + 1))
        .execute(conn)?;
    Ok(())
}

/// An entry in force as the analyser reads it: kind, term, and a term's category, severity
/// and mode.
type EntryInForce = (
    EntryKind,
    String,
    Option<Category>,
    Option<Severity>,
    Option<MatchMode>,
);

/// The word list in force, and the version it is at, in one transaction.
pub fn in_force(conn: &mut DbConnection) -> QueryResult<(i64, WordList)> {
    conn.transaction(|conn| {
        let version = version(conn)?;
        let entries: Vec<EntryInForce> = word_list_entries::table
            .filter(word_list_entries::removed_at.is_null())
            .select((
                word_list_entries::kind,
                word_list_entries::term,
                word_list_entries::category,
                word_list_entries::severity,
                word_list_entries::mode,
            ))
            .order(word_list_entries::id)
            .load(conn)?;
        let mut list = WordList::default();
        for (kind, term, category, severity, mode) in entries {
            match (kind, category, severity, mode) {
                (EntryKind::Term, Some(category), Some(severity), Some(mode)) => {
                    list.terms.push(AddedTerm {
                        term,
                        category,
                        severity,
                        mode,
                    })
                }
                _ => list.allowed.push(term),
            }
        }
        list.strictness = strictness_levels(conn)?;
        Ok((version, list))
    })
}

fn strictness_levels(conn: &mut DbConnection) -> QueryResult<StrictnessLevels> {
    let rows: Vec<(Category, Strictness)> = chat_strictness::table
        .select((chat_strictness::category, chat_strictness::strictness))
        .load(conn)?;
    let mut levels = StrictnessLevels::default();
    for (category, strictness) in rows {
        levels.set(category, strictness);
    }
    Ok(levels)
}

/// The entry of `kind` spelled `term` that is in force, if any.
pub fn find_in_force(
    conn: &mut DbConnection,
    kind: EntryKind,
    term: &str,
) -> QueryResult<Option<WordListEntryId>> {
    word_list_entries::table
        .filter(word_list_entries::kind.eq(kind))
        .filter(word_list_entries::term.eq(term))
        .filter(word_list_entries::removed_at.is_null())
        .select(word_list_entries::id)
        .first(conn)
        .optional()
}

pub fn insert(conn: &mut DbConnection, entry: &NewEntry<'_>) -> QueryResult<WordListEntryId> {
    let (category, severity, mode) = match entry.term_of {
        Some((c, s, m)) => (Some(c), Some(s), Some(m)),
        None => (None, None, None),
    };
    let values = (
        word_list_entries::kind.eq(entry.kind),
        word_list_entries::term.eq(entry.term),
        word_list_entries::category.eq(category),
        word_list_entries::severity.eq(severity),
        word_list_entries::mode.eq(mode),
        word_list_entries::added_by.eq(entry.added_by),
        word_list_entries::added_reason.eq(entry.reason),
        word_list_entries::added_at.eq(entry.at),
    );
    insert_returning_id!(
        conn,
        word_list_entries::table,
        values,
        word_list_entries::id
    )
    .map(WordListEntryId)
}

/// Marks entry `id` removed, if it is in force; returns whether it was.
pub fn mark_removed(
    conn: &mut DbConnection,
    id: WordListEntryId,
    by: PlayerId,
    reason: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = diesel::update(
        word_list_entries::table
            .filter(word_list_entries::id.eq(id))
            .filter(word_list_entries::removed_at.is_null()),
    )
    .set((
        word_list_entries::removed_by.eq(Some(by)),
        word_list_entries::removed_reason.eq(Some(reason)),
        word_list_entries::removed_at.eq(Some(at)),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Sets a category's strictness (the row keeps who set it last and why).
pub fn set_strictness(
    conn: &mut DbConnection,
    category: Category,
    strictness: Strictness,
    by: PlayerId,
    reason: &str,
    at: NaiveDateTime,
) -> QueryResult<()> {
    // One row per category: the upsert is the backend's own (the multi-backend connection has
    // none).
    on_backend!(conn, c => diesel::insert_into(chat_strictness::table)
        .values((
            chat_strictness::category.eq(category),
            chat_strictness::strictness.eq(strictness),
            chat_strictness::set_by.eq(by),
            chat_strictness::reason.eq(reason),
            chat_strictness::set_at.eq(at),
        ))
        .on_conflict(chat_strictness::category)
        .do_update()
        .set((
            chat_strictness::strictness.eq(strictness),
            chat_strictness::set_by.eq(by),
            chat_strictness::reason.eq(reason),
            chat_strictness::set_at.eq(at),
        ))
        .execute(c))?;
    Ok(())
}

/// The strictness a category has now (medium when never set).
pub fn strictness_of(conn: &mut DbConnection, category: Category) -> QueryResult<Strictness> {
    Ok(chat_strictness::table
        .filter(chat_strictness::category.eq(category))
        .select(chat_strictness::strictness)
        .first(conn)
        .optional()?
        .unwrap_or_default())
}

/// One entry by id.
pub fn find(conn: &mut DbConnection, id: WordListEntryId) -> QueryResult<Option<WordListEntryRow>> {
    let stored: Option<StoredEntry> = word_list_entries::table
        .filter(word_list_entries::id.eq(id))
        .select(StoredEntry::as_select())
        .first(conn)
        .optional()?;
    Ok(named(conn, stored.into_iter().collect())?.pop())
}

/// The entries, newest first: those in force, and with `removed` the removed ones too.
pub fn list(conn: &mut DbConnection, removed: bool) -> QueryResult<Vec<WordListEntryRow>> {
    let mut query = word_list_entries::table
        .select(StoredEntry::as_select())
        .order(word_list_entries::id.desc())
        .into_boxed();
    if !removed {
        query = query.filter(word_list_entries::removed_at.is_null());
    }
    let stored = query.load(conn)?;
    named(conn, stored)
}

/// Every category's strictness row that was ever set.
pub fn strictness_rows(conn: &mut DbConnection) -> QueryResult<Vec<StrictnessRow>> {
    let rows: Vec<(Category, Strictness, PlayerId, String, NaiveDateTime)> = chat_strictness::table
        .select((
            chat_strictness::category,
            chat_strictness::strictness,
            chat_strictness::set_by,
            chat_strictness::reason,
            chat_strictness::set_at,
        ))
        .load(conn)?;
    let ids: Vec<PlayerId> = rows.iter().map(|r| r.2).collect();
    let names = players::names(conn, &ids)?;
    Ok(rows
        .into_iter()
        .map(|(category, strictness, by, reason, set_at)| StrictnessRow {
            category,
            strictness,
            set_by: name_of(&names, by),
            reason,
            set_at,
        })
        .collect())
}

fn named(conn: &mut DbConnection, stored: Vec<StoredEntry>) -> QueryResult<Vec<WordListEntryRow>> {
    let ids: Vec<PlayerId> = stored
        .iter()
        .flat_map(|e| std::iter::once(e.added_by).chain(e.removed_by))
        .collect();
    let names = players::names(conn, &ids)?;
    Ok(stored
        .into_iter()
        .map(|e| WordListEntryRow {
            id: e.id,
            kind: e.kind,
            term: e.term,
            category: e.category,
            severity: e.severity,
            mode: e.mode,
            added_by: name_of(&names, e.added_by),
            added_reason: e.added_reason,
            added_at: e.added_at,
            removed_by: e.removed_by.map(|id| name_of(&names, id)),
            removed_reason: e.removed_reason,
            removed_at: e.removed_at,
        })
        .collect())
}

fn name_of(names: &HashMap<PlayerId, String>, id: PlayerId) -> String {
    names.get(&id).cloned().unwrap_or_default()
}
