//! An admin's note on a player.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::player_notes::NoteListing;
use crate::store::to_utc;

/// A note, as written: append-only, never edited.
#[derive(Debug, Serialize, ToSchema)]
pub struct NoteView {
    pub id: i64,
    /// The player the note is about.
    pub player: String,
    /// The admin who wrote it.
    pub author: String,
    /// The case it was written for, if any.
    pub case_id: Option<i64>,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

impl From<NoteListing> for NoteView {
    fn from(note: NoteListing) -> Self {
        NoteView {
            id: note.id.0,
            player: note.player,
            author: note.author,
            case_id: note.case_id.map(|id| id.0),
            text: note.text,
            created_at: to_utc(note.created_at),
        }
    }
}
