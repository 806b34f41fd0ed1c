//! Chat analysis flags stored at ingest: per game and per player.

use crate::api::error::ApiError;
use crate::api::pagination::{IdPage, Page};
use crate::api::read_models::games::game_not_found;
use crate::api::state::AppState;
use crate::api::views::flags::{FlagView, GameFlags};
use crate::store::chat_flags;
use crate::store::DbConnection;

/// One page of the flags on `player`'s lines, newest first.
pub fn player_flags(
    conn: &mut DbConnection,
    player: &str,
    page: IdPage,
) -> Result<Page<FlagView>, ApiError> {
    let rows = chat_flags::for_player_page(conn, player, page.after_id, page.fetch_limit())?;
    Page::try_from_rows(rows, page, |(f, _)| f.id, FlagView::from_row)
}

/// `player_flags` on a pooled connection.
pub async fn read_player_flags(
    state: &AppState,
    player: String,
    page: IdPage,
) -> Result<Page<FlagView>, ApiError> {
    state
        .read(move |conn| player_flags(conn, &player, page))
        .await
}

/// The flags of game `id`, in chat order; 404 for a game the archive does not hold.
pub async fn read_game_flags(state: &AppState, id: i64) -> Result<GameFlags, ApiError> {
    let rows = state
        .read(move |conn| {
            if !chat_flags::game_exists(conn, id)? {
                return Ok(None);
            }
            chat_flags::for_game(conn, id).map(Some)
        })
        .await?
        .ok_or_else(|| game_not_found(id))?;
    Ok(GameFlags {
        game_id: id,
        items: rows
            .into_iter()
            .map(FlagView::from_row)
            .collect::<Result<_, _>>()?,
    })
}
