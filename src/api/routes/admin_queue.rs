//! The review queue (admin role): open cases in priority order, one case with its evidence
//! gathered, and the appeals waiting for a decision.

use actix_web::web;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::Page;
use crate::api::read_models::appeals::{read_appeals, AppealListQuery};
use crate::api::read_models::case_detail::read_case;
use crate::api::read_models::queue::{read_cases, CaseListQuery};
use crate::api::state::AppState;
use crate::api::views::appeals::QueuedAppeal;
use crate::api::views::queue::{CaseDetailView, CasePage};

/// The review queue: cases by priority (age included) descending, then oldest first, then id.
#[utoipa::path(get, path = "/api/v1/admin/cases", tag = "moderation",
    security(("bearer" = [])),
    params(CaseListQuery),
    responses(
        (status = 200, description = "One page of the queue", body = CasePage),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_cases(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<CaseListQuery>,
) -> Result<web::Json<CasePage>, ApiError> {
    Ok(web::Json(read_cases(&state, query.into_inner()).await?))
}

/// One case with its evidence gathered: entries, games, flagged chat with context, the
/// accused's history and, for pair reasons, the pair's shared games and fingerprints.
#[utoipa::path(get, path = "/api/v1/admin/cases/{id}", tag = "moderation",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "The case", body = CaseDetailView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
    ))]
pub async fn get_case(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<CaseDetailView>, ApiError> {
    Ok(web::Json(read_case(&state, id.into_inner()).await?))
}

/// Appeals, oldest first (open ones by default): the sanction and the appellant's text.
#[utoipa::path(get, path = "/api/v1/admin/appeals", tag = "moderation",
    security(("bearer" = [])),
    params(AppealListQuery),
    responses(
        (status = 200, description = "One page of appeals", body = Page<QueuedAppeal>),
        (status = 400, description = "Bad status, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_appeals(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<AppealListQuery>,
) -> Result<web::Json<Page<QueuedAppeal>>, ApiError> {
    Ok(web::Json(read_appeals(&state, query.into_inner()).await?))
}
