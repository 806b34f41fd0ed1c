//! Finding a player (admin role): by name prefix, ignoring ASCII case.

use actix_web::web;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::Page;
use crate::api::read_models::player_search::{read_players, PlayerSearchQuery};
use crate::api::state::AppState;
use crate::api::views::players::PlayerFoundView;

/// Players by name prefix, in name order (ASCII case ignored), each with their games count,
/// open cases and sanctions in force.
#[utoipa::path(get, path = "/api/v1/admin/players", tag = "moderation",
    security(("bearer" = [])),
    params(PlayerSearchQuery),
    responses(
        (status = 200, description = "One page of players", body = Page<PlayerFoundView>),
        (status = 400, description = "Too long a prefix, bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn search_players(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<PlayerSearchQuery>,
) -> Result<web::Json<Page<PlayerFoundView>>, ApiError> {
    Ok(web::Json(read_players(&state, query.into_inner()).await?))
}
