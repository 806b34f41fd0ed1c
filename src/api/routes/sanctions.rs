//! Sanction listings: a player's own sanctions (player role) and the sanctions of every player,
//! in force by default (admin role); an admin's change to a sanction.

use actix_web::web;

use crate::api::actions::change_sanction::{self, SanctionChangeBody};
use crate::api::auth::{AdminCaller, PlayerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::sanctions::{read_sanctions, SanctionListQuery};
use crate::api::state::AppState;
use crate::api::views::sanction_listing::SanctionListingView;
use crate::api::views::sanctions::SanctionView;
use crate::store;
use crate::store::sanction_listing::SanctionFilter;

/// Sanctions of every player, newest first: those in force unless `status=all`.
#[utoipa::path(get, path = "/api/v1/admin/sanctions", tag = "sanctions",
    security(("bearer" = [])),
    params(SanctionListQuery, PageQuery),
    responses(
        (status = 200, description = "One page of sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_sanctions(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<SanctionListQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let filter = query.into_inner().filter(store::now())?;
    Ok(web::Json(read_sanctions(&state, filter, page).await?))
}

/// The caller's own sanctions, newest first, in force or not, each with its reason, end,
/// appeal and how long it can still be appealed.
#[utoipa::path(get, path = "/api/v1/sanctions/mine", tag = "sanctions",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the player's sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
    ))]
pub async fn my_sanctions(
    player: PlayerCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let filter = SanctionFilter {
        player: Some(player.player),
        ..SanctionFilter::default()
    };
    Ok(web::Json(read_sanctions(&state, filter, page).await?))
}

/// Shorten or lift a sanction, with a note (logged as `sanction_reduced` or
/// `sanction_lifted`); standing follows at once.
#[utoipa::path(post, path = "/api/v1/admin/sanctions/{id}/change", tag = "sanctions",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Sanction id", example = 1)),
    request_body = SanctionChangeBody,
    responses(
        (status = 200, description = "The sanction as it now stands", body = SanctionView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such sanction", body = ErrorEnvelope),
        (status = 409, description = "Already lifted, or changed by another admin meanwhile", body = ErrorEnvelope),
        (status = 422, description = "A shortening that does not shorten, a missing `until`/`minutes`, or an empty note", body = ErrorEnvelope),
    ))]
pub async fn change_sanction(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<SanctionChangeBody>,
) -> Result<web::Json<SanctionView>, ApiError> {
    let changed =
        change_sanction::change(&state, &admin.name, id.into_inner(), body.into_inner()).await?;
    Ok(web::Json(changed))
}
