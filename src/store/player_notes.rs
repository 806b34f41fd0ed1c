//! Admins' notes on players (`player_notes`): append-only (triggers on both backends refuse
//! updates and deletes), each logged in the moderation log in the same transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::connection::DbConnection;
use super::modlog::{log_action, ActorKind, LogActor, LogRefs};
use super::schema::{cases, player_notes, players};
use crate::moderation::{AuditAction, CaseId, NoteId, PlayerId};

/// A stored note with its author's name.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteListing {
    pub id: i64,
    pub player: String,
    pub author: String,
    pub case_id: Option<i64>,
    pub text: String,
    pub created_at: NaiveDateTime,
}

/// Why a note was not stored.
#[derive(Debug)]
pub enum AddNoteError {
    /// The case it names does not exist.
    NoSuchCase(i64),
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
    author: (i64, &str),
    case_id: Option<i64>,
    text: &str,
    now: NaiveDateTime,
) -> Result<NoteListing, AddNoteError> {
    let (author_id, author_name) = author;
    conn.transaction(|conn| {
        if let Some(case_id) = case_id {
            let exists: i64 = cases::table
                .filter(cases::id.eq(case_id))
                .count()
                .get_result(conn)?;
            if exists == 0 {
                return Err(AddNoteError::NoSuchCase(case_id));
            }
        }
        let player_id = super::players::id_or_create(conn, player, now)?;
        let id = insert_returning_id!(
            conn,
            player_notes::table,
            (
                player_notes::player_id.eq(player_id),
                player_notes::author_id.eq(author_id),
                player_notes::case_id.eq(case_id),
                player_notes::text.eq(text),
                player_notes::created_at.eq(now),
            ),
            player_notes::id
        )?;
        log_action(
            conn,
            now,
            LogActor {
                kind: ActorKind::Admin,
                name: Some(author_name),
            },
            &AuditAction::NoteAdded {
                note: NoteId(id),
                player: PlayerId(player_id),
                author: PlayerId(author_id),
                case: case_id.map(CaseId),
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

/// A player's notes, newest first: at most `limit` with id below `before_id`.
pub fn of_player(
    conn: &mut DbConnection,
    player: &str,
    before_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<NoteListing>> {
    let Some(player_id) = super::players::find_id(conn, player)? else {
        return Ok(Vec::new());
    };
    let authors = diesel::alias!(players as authors);
    let mut query = player_notes::table
        .inner_join(authors.on(authors.field(players::id).eq(player_notes::author_id)))
        .filter(player_notes::player_id.eq(player_id))
        .select((
            player_notes::id,
            authors.field(players::name),
            player_notes::case_id,
            player_notes::text,
            player_notes::created_at,
        ))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(player_notes::id.lt(before));
    }
    let rows: Vec<(i64, String, Option<i64>, String, NaiveDateTime)> = query
        .order(player_notes::id.desc())
        .limit(limit)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, author, case_id, text, created_at)| NoteListing {
            id,
            player: player.to_string(),
            author,
            case_id,
            text,
            created_at,
        })
        .collect())
}
