//! The game archive as admins read it: pages of games by player, pair, variant, termination
//! and time; one game in full; one game as PGN4.

use actix_web::web;
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;

use crate::api::error::ApiError;
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::statuses::Termination;
use crate::api::views::games::{GameSummary, GameView};
use crate::api::wire_enums::wire_names;
use crate::rules::replay;
use crate::store::game_search::{self, GameFilter};
use crate::store::games;
use crate::store::DbConnection;

/// Archive filters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GameListQuery {
    /// Games this player played.
    pub player: Option<String>,
    /// ... together with this player.
    pub with: Option<String>,
    /// `FFA`, `Teams`, `Solo`, ...
    pub variant: Option<String>,
    #[param(value_type = Option<Termination>)]
    pub termination: Option<String>,
    pub aborted: Option<bool>,
    /// Played at or after (RFC 3339 or YYYY-MM-DD).
    pub from: Option<String>,
    /// Played before (RFC 3339 or YYYY-MM-DD).
    pub to: Option<String>,
}

fn parse_instant(field: &str, text: &str) -> Result<NaiveDateTime, ApiError> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&Utc).naive_utc());
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .ok_or_else(|| ApiError::BadRequest {
            code: "invalid_query",
            message: format!("`{field}` must be an RFC 3339 time or a YYYY-MM-DD date."),
            details: json!({ "field": field }),
        })
}

impl GameListQuery {
    pub fn filter(&self) -> Result<GameFilter, ApiError> {
        let nonempty = |s: &Option<String>| s.clone().filter(|s| !s.trim().is_empty());
        if let Some(termination) = &self.termination {
            if Termination::parse(termination).is_none() {
                return Err(ApiError::BadRequest {
                    code: "invalid_query",
                    message: format!(
                        "`termination` must be one of {}.",
                        wire_names(&Termination::ALL).join(", ")
                    ),
                    details: json!({
                        "field": "termination",
                        "allowed": wire_names(&Termination::ALL),
                    }),
                });
            }
        }
        Ok(GameFilter {
            player: nonempty(&self.player),
            with: nonempty(&self.with),
            variant: nonempty(&self.variant),
            termination: self.termination.clone(),
            aborted: self.aborted,
            from: self
                .from
                .as_deref()
                .map(|t| parse_instant("from", t))
                .transpose()?,
            to: self
                .to
                .as_deref()
                .map(|t| parse_instant("to", t))
                .transpose()?,
        })
    }
}

pub fn game_not_found(id: i64) -> ApiError {
    ApiError::not_found("game_not_found", format!("No game has id {id}."))
}

/// One page of the games `filter` selects, newest first.
pub fn games_page(
    conn: &mut DbConnection,
    filter: &GameFilter,
    page: IdPage,
) -> Result<Page<GameSummary>, ApiError> {
    let rows = game_search::list_page(conn, filter, page.after_id, page.fetch_limit())?;
    Page::try_from_rows(
        rows,
        page,
        |(g, _)| g.id,
        |(g, s)| GameSummary::from_rows(g, &s),
    )
}

/// `games_page` on a pooled connection.
pub async fn read_games(
    state: &AppState,
    filter: GameFilter,
    page: IdPage,
) -> Result<Page<GameSummary>, ApiError> {
    state
        .read(move |conn| games_page(conn, &filter, page))
        .await
}

/// One game in full, and its record as stored (the PGN4 it replays from), from one read.
pub struct GameWithRecord {
    pub view: GameView,
    pub pgn4: String,
}

/// Game `id` in full; 404 for a game the archive does not hold. The replay runs off the
/// async workers.
pub async fn read_game(state: &AppState, id: i64) -> Result<GameWithRecord, ApiError> {
    let detail = state
        .read(move |conn| games::get(conn, id))
        .await?
        .ok_or_else(|| game_not_found(id))?;
    let pgn4 = detail.pgn4.clone();
    let view = web::block(move || GameView::from_detail(detail)).await??;
    Ok(GameWithRecord { view, pgn4 })
}

/// Game `id` as PGN4 (tags and the main line as replayed); it replays to the same game.
pub async fn read_pgn4_export(state: &AppState, id: i64) -> Result<String, ApiError> {
    let text = state
        .read(move |conn| games::pgn4(conn, id))
        .await?
        .ok_or_else(|| game_not_found(id))?;
    web::block(move || {
        replay::replay(&text)
            .map(|r| r.to_pgn4())
            .map_err(|e| ApiError::internal(format!("stored game {id} does not replay: {e}")))
    })
    .await?
}
