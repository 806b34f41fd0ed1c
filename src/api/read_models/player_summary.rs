//! A player's archive record: games by variant, placements, aborted games.

use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::players::{Placements, PlayerSummaryView, VariantCount};
use crate::store::{archive_players, DbConnection};

/// `player`'s record (zeros for a player the archive does not know).
pub fn summary(conn: &mut DbConnection, player: String) -> Result<PlayerSummaryView, ApiError> {
    let s = archive_players::summary(conn, &player)?;
    Ok(PlayerSummaryView {
        player,
        games: s.games,
        by_variant: s
            .by_variant
            .into_iter()
            .map(|(variant, games)| VariantCount { variant, games })
            .collect(),
        placements: Placements {
            first: s.placements[0],
            second: s.placements[1],
            third: s.placements[2],
            fourth: s.placements[3],
        },
        aborted: s.aborted,
    })
}

/// `summary` on a pooled connection.
pub async fn read(state: &AppState, player: String) -> Result<PlayerSummaryView, ApiError> {
    state.read(move |conn| summary(conn, player)).await
}
