//! Admins' notes on a player, newest first.

use crate::api::error::ApiError;
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::views::notes::NoteView;
use crate::moderation::NoteId;
use crate::store::player_notes;
use crate::store::DbConnection;

/// One page of the notes on `player` (a name already checked).
pub fn player_notes(
    conn: &mut DbConnection,
    player: &str,
    page: IdPage,
) -> Result<Page<NoteView>, ApiError> {
    let rows =
        player_notes::of_player(conn, player, page.after_id.map(NoteId), page.fetch_limit())?;
    Ok(Page::from_rows(rows, page, |n| n.id.0, NoteView::from))
}

/// `player_notes` on a pooled connection.
pub async fn read(
    state: &AppState,
    player: String,
    page: IdPage,
) -> Result<Page<NoteView>, ApiError> {
    state
        .read(move |conn| player_notes(conn, &player, page))
        .await
}
