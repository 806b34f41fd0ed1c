//! A player's conduct record in one audience's view.

use chrono::{DateTime, Utc};

use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::conduct::{ConductRecordView, ConductResponse, ConductViewName};
use crate::conduct::{AdminConductView, ConductPolicy, PlayerRecord};
use crate::store::{conduct, DbConnection};

/// The record of `player`; `None` when no game of theirs is recorded.
pub fn record(conn: &mut DbConnection, player: &str) -> Result<Option<PlayerRecord>, ApiError> {
    Ok(conduct::record(conn, player)?)
}

/// The admin's view of `player`'s record at `now`, if any game of theirs is recorded.
pub fn admin_record(
    conn: &mut DbConnection,
    player: &str,
    now: DateTime<Utc>,
    policy: &ConductPolicy,
) -> Result<Option<AdminConductView>, ApiError> {
    Ok(record(conn, player)?.map(|r| crate::conduct::admin_view(&r, now, policy)))
}

/// `player`'s record as `audience` sees it now; 404 when no game of theirs is recorded.
pub async fn response(
    state: &AppState,
    player: String,
    audience: ConductViewName,
) -> Result<ConductResponse, ApiError> {
    let lookup = player.clone();
    let record = state
        .read(move |conn| record(conn, &lookup))
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "player_not_found",
                format!("No games are recorded for player {player:?}."),
            )
        })?;
    Ok(ConductResponse {
        conduct: ConductRecordView::of(audience, &record, Utc::now(), &state.conduct),
        view: audience,
        player,
    })
}
