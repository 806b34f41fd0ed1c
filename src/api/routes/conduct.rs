//! `GET /api/v1/players/{name}/conduct`: a player's conduct record, as each role may see it.

use actix_web::web;

use crate::api::auth::AnyCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::read_models::conduct;
use crate::api::state::AppState;
use crate::api::views::conduct::{ConductResponse, ConductViewName};

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
    let audience = match &caller {
        AnyCaller::Admin(_) => ConductViewName::Admin,
        AnyCaller::Server(_) => ConductViewName::Server,
        AnyCaller::Player(p) if p.player == player => ConductViewName::Player,
        AnyCaller::Player(_) => {
            return Err(ApiError::Forbidden {
                allowed: &["admin", "server"],
                actual: "player",
            })
        }
    };
    Ok(web::Json(
        conduct::response(&state, player, audience).await?,
    ))
}
