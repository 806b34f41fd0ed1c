//! `GET /api/v1/players/{name}/conduct`: a player's conduct record, as each role may see it.

use actix_web::web;
use chrono::Utc;

use crate::api::auth::AnyCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::state::AppState;
use crate::api::views::conduct::{ConductRecordView, ConductResponse, ConductViewName};
use crate::store::conduct;

#[utoipa::path(get, path = "/api/v1/players/{name}/conduct", tag = "games",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    responses(
        (status = 200, description = "The record in the caller's view", body = ConductResponse),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "A player asking about another player", body = ErrorEnvelope),
        (status = 404, description = "No games recorded for this player", body = ErrorEnvelope),
    ))]
pub async fn player_conduct(
    caller: AnyCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<web::Json<ConductResponse>, ApiError> {
    let player = name.into_inner();
    if let AnyCaller::Player(p) = &caller {
        if p.player != player {
            return Err(ApiError::Forbidden {
                allowed: &["admin", "server"],
                actual: "player",
            });
        }
    }
    let lookup = player.clone();
    let record = state
        .read(move |conn| conduct::record(conn, &lookup))
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "player_not_found",
                format!("No games are recorded for player {player:?}."),
            )
        })?;
    let view = match caller {
        AnyCaller::Admin(_) => ConductViewName::Admin,
        AnyCaller::Player(_) => ConductViewName::Player,
        AnyCaller::Server(_) => ConductViewName::Server,
    };
    Ok(web::Json(ConductResponse {
        player,
        view,
        conduct: ConductRecordView::of(view, &record, Utc::now(), &state.conduct),
    }))
}
