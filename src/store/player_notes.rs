//! Admins' notes on players (`player_notes`): append-only (triggers on both backends refuse
//! updates and deletes). Adding one, logged in the same transaction, is the use case
//! `add_note`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{player_notes, players};
use crate::moderation::{CaseId, NoteId, PlayerId};

/// A stored note with its author's name.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteListing {
    pub id: NoteId,
    pub player: String,
    pub author: String,
    pub case_id: Option<CaseId>,
    pub text: String,
    pub created_at: NaiveDateTime,
}

/// Stores a note on player `player_id` by `author_id`, optionally for a case; returns its id.
pub fn insert(
    conn: &mut DbConnection,
    player_id: PlayerId,
    author_id: PlayerId,
    case_id: Option<CaseId>,
    text: &str,
    now: NaiveDateTime,
) -> QueryResult<NoteId> {
    insert_returning_id!(
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
    )
    .map(NoteId)
}

/// A player's notes, newest first: at most `limit` with id below `before_id`.
pub fn of_player(
    conn: &mut DbConnection,
    player: &str,
    before_id: Option<NoteId>,
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
    let rows: Vec<(NoteId, String, Option<CaseId>, String, NaiveDateTime)> = query
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
