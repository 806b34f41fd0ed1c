//! Add a note: an admin writes what the next admin should know about a player, optionally
//! for a case; logged in the same transaction.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::Connection;

use crate::moderation::{AuditAction, CaseId, PlayerId};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::player_notes::{self, NoteListing};
use crate::store::{cases, players, DbConnection};

/// Why a note was not stored.
#[derive(Debug)]
pub enum AddNoteError {
    /// The case it names does not exist.
    NoSuchCase(CaseId),
    Db(DieselError),
}

impl From<DieselError> for AddNoteError {
    fn from(err: DieselError) -> Self {
        AddNoteError::Db(err)
    }
}

/// Adds a note on `player` by `author` (id, name), optionally for a case, and logs it; one
/// transaction. `text` is already validated.
pub fn add(
    conn: &mut DbConnection,
    player: &str,
    author: (PlayerId, &str),
    case_id: Option<CaseId>,
    text: &str,
    now: NaiveDateTime,
) -> Result<NoteListing, AddNoteError> {
    let (author_id, author_name) = author;
    conn.transaction(|conn| {
        if let Some(case_id) = case_id {
            if cases::find(conn, case_id)?.is_none() {
                return Err(AddNoteError::NoSuchCase(case_id));
            }
        }
        let player_id = players::id_or_create(conn, player, now)?;
        let id = player_notes::insert(conn, player_id, author_id, case_id, text, now)?;
        log_action(
            conn,
            now,
            LogActor {
                kind: LogActorKind::Admin,
                name: Some(author_name),
            },
            &AuditAction::NoteAdded {
                note: id,
                player: player_id,
                author: author_id,
                case: case_id,
            },
            LogRefs {
                subject: Some(player),
                case_id,
                why: Some(text),
                ..LogRefs::default()
            },
        )?;
        Ok(NoteListing {
            id,
            player: player.to_string(),
            author: author_name.to_string(),
            case_id,
            text: text.to_string(),
            created_at: now,
        })
    })
}
