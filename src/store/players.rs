//! Players known to moderation (`players`): a stable id per site name. Rows are created on
//! first need (a report naming the player, an admin acting) rather than at ingest, so the
//! archive stays independent of moderation.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::connection::DbConnection;
use super::schema::{erased_names, players};
use crate::moderation::{Language, PlayerId};

/// The id of a player by name, if moderation has seen them.
pub fn find_id(conn: &mut DbConnection, name: &str) -> QueryResult<Option<PlayerId>> {
    players::table
        .filter(players::name.eq(name))
        .select(players::id)
        .first(conn)
        .optional()
}

/// The players a name answers for: the player under that name, and the players erased under
/// its keyed hash `name_key` (`PrivacySettings::erased_name_key`), whose sanctions still hold
/// for their old name. Resolved first, so that what is read about them goes by the indexed
/// player id: a name and an erased name joined with OR in one query defeated every index on
/// PostgreSQL, which then read every sanction in force on each standing check (issue #41).
pub fn answering_to(
    conn: &mut DbConnection,
    name: &str,
    name_key: Option<&str>,
) -> QueryResult<Vec<PlayerId>> {
    let named = players::table
        .filter(players::name.eq(name))
        .select(players::id);
    let mut ids: Vec<PlayerId> = match name_key.filter(|k| !k.is_empty()) {
        Some(key) => {
            let erased = erased_names::table
                .filter(erased_names::name_key.eq(key))
                .select(erased_names::player_id);
            on_backend!(conn, c => named.union_all(erased).load(c))?
        }
        None => on_backend!(conn, c => named.load(c))?,
    };
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// The names of these player ids, by id.
pub fn names(conn: &mut DbConnection, ids: &[PlayerId]) -> QueryResult<HashMap<PlayerId, String>> {
    Ok(players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::name))
        .load::<(PlayerId, String)>(conn)?
        .into_iter()
        .collect())
}

/// The id of a player by name, creating the row if needed. Safe under concurrency: a writer
/// that loses the race on the unique name reads the winner's row. Call it inside the caller's
/// transaction on PostgreSQL only through a savepoint (diesel's nested `transaction`), since a
/// failed insert aborts the enclosing transaction there.
pub fn id_or_create(
    conn: &mut DbConnection,
    name: &str,
    now: chrono::NaiveDateTime,
) -> QueryResult<PlayerId> {
    if let Some(id) = find_id(conn, name)? {
        return Ok(id);
    }
    let inserted = conn.transaction(|conn| {
        diesel::insert_into(players::table)
            .values((players::name.eq(name), players::created_at.eq(now)))
            .execute(conn)
    });
    match inserted {
        Ok(_) | Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            find_id(conn, name)?.ok_or(DieselError::NotFound)
        }
        Err(e) => Err(e),
    }
}

/// Creates the rows of these players where missing, in name order: the order in which the
/// conduct applier creates them too, so the two cannot deadlock.
pub fn create_all(
    conn: &mut DbConnection,
    names: &[&str],
    now: chrono::NaiveDateTime,
) -> QueryResult<()> {
    let mut names = names.to_vec();
    names.sort_unstable();
    names.dedup();
    for name in names {
        on_backend!(conn, c => diesel::insert_into(players::table)
            .values((players::name.eq(name), players::created_at.eq(now)))
            .on_conflict_do_nothing()
            .execute(c))?;
    }
    Ok(())
}

/// The player's row, created if needed and locked for this transaction; returns its id. The
/// first statement writes, so SQLite takes its write lock before anything is read (a
/// read-then-write transaction could not upgrade while another writer commits); PostgreSQL
/// locks the row, so one reporter's filings run one at a time (rate limit and merging read
/// then write).
pub fn lock(
    conn: &mut DbConnection,
    name: &str,
    now: chrono::NaiveDateTime,
) -> QueryResult<PlayerId> {
    on_backend!(conn, c => diesel::insert_into(players::table)
        .values((players::name.eq(name), players::created_at.eq(now)))
        .on_conflict_do_nothing()
        .execute(c))?;
    diesel::update(players::table.filter(players::name.eq(name)))
        .set(players::created_at.eq(players::created_at))
        .execute(conn)?;
    players::table
        .filter(players::name.eq(name))
        .select(players::id)
        .first(conn)
}

/// The name of a player by id.
pub fn name(conn: &mut DbConnection, id: PlayerId) -> QueryResult<String> {
    players::table.find(id).select(players::name).first(conn)
}

/// Each player's last known language, where known.
pub fn languages(
    conn: &mut DbConnection,
    ids: &[PlayerId],
) -> QueryResult<HashMap<PlayerId, Language>> {
    let rows: Vec<(PlayerId, Option<Language>)> = players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::language))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, language)| language.map(|l| (id, l)))
        .collect())
}

/// Keeps `language` as the player's last known one, creating their row if moderation never
/// saw them (their first request may be the report that would create it); returns whether
/// it changed.
pub fn remember_language(
    conn: &mut DbConnection,
    name: &str,
    language: Language,
    now: chrono::NaiveDateTime,
) -> QueryResult<bool> {
    id_or_create(conn, name, now)?;
    let changed = diesel::update(
        players::table.filter(players::name.eq(name)).filter(
            players::language
                .is_null()
                .or(players::language.ne(language)),
        ),
    )
    .set(players::language.eq(language))
    .execute(conn)?;
    Ok(changed > 0)
}
