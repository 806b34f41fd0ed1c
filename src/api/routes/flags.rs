//! Chat analysis flags stored at ingest (admin role): per game and per player.

use actix_web::web;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::flags;
use crate::api::state::AppState;
use crate::api::views::flags::{FlagView, GameFlags};

/// The chat analysis flags of one game, in chat order.
#[utoipa::path(get, path = "/api/v1/games/{id}/flags", tag = "games",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id", example = 1)),
    responses(
        (status = 200, description = "The game's flags", body = GameFlags),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such game", body = ErrorEnvelope),
    ))]
pub async fn game_flags(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<GameFlags>, ApiError> {
    Ok(web::Json(
        flags::read_game_flags(&state, id.into_inner()).await?,
    ))
}

/// The chat analysis flags on a player's lines, newest first.
#[utoipa::path(get, path = "/api/v1/players/{name}/flags", tag = "games",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi"), PageQuery),
    responses(
        (status = 200, description = "One page of flags", body = Page<FlagView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn player_flags(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<FlagView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    Ok(web::Json(
        flags::read_player_flags(&state, name.into_inner(), page).await?,
    ))
}
