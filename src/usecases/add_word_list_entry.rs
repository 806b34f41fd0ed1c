//! An admin adds a term to the chat word list or allows a word (docs/chat-analysis.md,
//! "Admins' word list"): stored with who and why, logged, and the list's version raised so
//! that every instance rebuilds its analyser; one transaction.

use chrono::NaiveDateTime;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::Connection;

use crate::chat::{Category, EntryKind, MatchMode, Severity};
use crate::moderation::{AuditAction, PlayerId, WordListEntryId};
use crate::store::modlog::log_admin_action;
use crate::store::word_list::{self, NewEntry, WordListEntryRow};
use crate::store::{enum_name, DbConnection};

/// An entry to add, its text already checked (`chat::word_list::check_term`,
/// `check_allowed_word`).
#[derive(Debug, Clone, PartialEq)]
pub struct EntryToAdd {
    pub kind: EntryKind,
    pub term: String,
    /// `Some` exactly for a term.
    pub term_of: Option<(Category, Severity, MatchMode)>,
    pub reason: String,
}

/// What adding did.
#[derive(Debug, Clone, PartialEq)]
pub enum Added {
    Added(WordListEntryRow),
    /// An entry of this kind and spelling is already in force: remove it first to change it.
    AlreadyInForce(WordListEntryId),
}

/// `admin` (id, name) adds `entry`.
pub fn add_word_list_entry(
    conn: &mut DbConnection,
    admin: (PlayerId, &str),
    entry: &EntryToAdd,
    now: NaiveDateTime,
) -> Result<Added, DieselError> {
    let added = conn.transaction(|conn| {
        if let Some(existing) = word_list::find_in_force(conn, entry.kind, &entry.term)? {
            return Ok(Added::AlreadyInForce(existing));
        }
        let id = word_list::insert(
            conn,
            &NewEntry {
                kind: entry.kind,
                term: &entry.term,
                term_of: entry.term_of,
                added_by: admin.0,
                reason: &entry.reason,
                at: now,
            },
        )?;
        let action = AuditAction::WordListEntryAdded {
            entry: id,
            kind: enum_name(&entry.kind),
            term: entry.term.clone(),
            category: entry.term_of.map(|(c, _, _)| c.name().to_string()),
            severity: entry.term_of.map(|(_, s, _)| enum_name(&s)),
            mode: entry.term_of.map(|(_, _, m)| m.name().to_string()),
        };
        log_admin_action(conn, now, admin.1, &action, &entry.reason)?;
        word_list::raise_version(conn)?;
        let row = word_list::find(conn, id)?.ok_or(DieselError::NotFound)?;
        Ok(Added::Added(row))
    });
    match added {
        // Another admin added the same spelling at the same moment (PostgreSQL).
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            word_list::find_in_force(conn, entry.kind, &entry.term)?
                .map(Added::AlreadyInForce)
                .ok_or(DieselError::NotFound)
        }
        other => other,
    }
}
