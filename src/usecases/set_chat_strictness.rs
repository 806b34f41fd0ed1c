//! An admin sets how strictly one chat category is acted on (docs/chat-analysis.md,
//! "Strictness"): stored with who and why, logged with the level before, and the word list's
//! version raised so that every instance rebuilds its analyser; one transaction.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::Connection;

use crate::chat::{Category, Strictness};
use crate::moderation::{AuditAction, PlayerId};
use crate::store::modlog::log_admin_action;
use crate::store::word_list;
use crate::store::DbConnection;

/// `admin` (id, name) sets `category` to `strictness` for `reason`; returns the level before.
pub fn set_chat_strictness(
    conn: &mut DbConnection,
    admin: (PlayerId, &str),
    category: Category,
    strictness: Strictness,
    reason: &str,
    now: NaiveDateTime,
) -> Result<Strictness, DieselError> {
    conn.transaction(|conn| {
        let before = word_list::strictness_of(conn, category)?;
        word_list::set_strictness(conn, category, strictness, admin.0, reason, now)?;
        let action = AuditAction::ChatStrictnessSet {
            category: category.name().to_string(),
            strictness: strictness.name().to_string(),
            before: before.name().to_string(),
        };
        log_admin_action(conn, now, admin.1, &action, reason)?;
        word_list::raise_version(conn)?;
        Ok(before)
    })
}
