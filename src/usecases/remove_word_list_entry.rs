//! An admin removes an entry of the chat word list (docs/chat-analysis.md, "Admins' word
//! list"): the row stays with who removed it and why, the removal is logged, and the list's
//! version raised; one transaction.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::Connection;

use crate::moderation::{AuditAction, PlayerId, WordListEntryId};
use crate::store::modlog::log_admin_action;
use crate::store::word_list::{self, WordListEntryRow};
use crate::store::{enum_name, DbConnection};

/// What removing did.
#[derive(Debug, Clone, PartialEq)]
pub enum Removed {
    Removed(WordListEntryRow),
    /// It was removed before; the row says by whom.
    AlreadyRemoved(WordListEntryRow),
    NoSuchEntry,
}

/// `admin` (id, name) removes entry `id` for `reason`.
pub fn remove_word_list_entry(
    conn: &mut DbConnection,
    admin: (PlayerId, &str),
    id: WordListEntryId,
    reason: &str,
    now: NaiveDateTime,
) -> Result<Removed, DieselError> {
    conn.transaction(|conn| {
        let Some(entry) = word_list::find(conn, id)? else {
            return Ok(Removed::NoSuchEntry);
        };
        if !word_list::mark_removed(conn, id, admin.0, reason, now)? {
            return Ok(Removed::AlreadyRemoved(entry));
        }
        let action = AuditAction::WordListEntryRemoved {
            entry: id,
            kind: enum_name(&entry.kind),
            term: entry.term.clone(),
        };
        log_admin_action(conn, now, admin.1, &action, reason)?;
        word_list::raise_version(conn)?;
        let row = word_list::find(conn, id)?.ok_or(DieselError::NotFound)?;
        Ok(Removed::Removed(row))
    })
}
