//! Working a case (admin role): claim, release, decide.

use actix_web::web;

use crate::api::actions::claim_case;
use crate::api::actions::decide_case::{self, DecisionBody};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::state::AppState;
use crate::api::views::cases::{ClaimView, DecisionView, Released};

/// Claim a case: only the holder may decide it until the claim expires
/// (`[claim] expiry_minutes`). Claiming again renews.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/claim", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "The caller holds the case", body = ClaimView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin, or the admin is a party to the case (`conflict_of_interest`)", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "Another admin holds it (`case_claimed`, with `holder` and `until`), or it is decided", body = ErrorEnvelope),
    ))]
pub async fn claim_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<ClaimView>, ApiError> {
    Ok(web::Json(
        claim_case::claim(&state, &admin.name, id.into_inner()).await?,
    ))
}

/// Give up the caller's claim on a case.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/release", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "Released", body = Released),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "The caller holds no running claim on it", body = ErrorEnvelope),
    ))]
pub async fn release_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<Released>, ApiError> {
    Ok(web::Json(
        claim_case::release(&state, &admin.name, id.into_inner()).await?,
    ))
}

/// Decide a case the caller holds: dismiss (unjustified counts against the reporters; not
/// actionable does not), warn, or sanction. The several-games rule (docs/moderation.md)
/// applies to habitual grounds.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/decision", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    request_body = DecisionBody,
    responses(
        (status = 200, description = "Decided", body = DecisionView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin, or a party to the case", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "Already decided, or the caller holds no running claim", body = ErrorEnvelope),
        (status = 422, description = "The decision breaks a rule (`single_game_evidence`, `ground_required`...); `details.field` names it", body = ErrorEnvelope),
    ))]
pub async fn decide_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<DecisionBody>,
) -> Result<web::Json<DecisionView>, ApiError> {
    let decided =
        decide_case::decide(&state, &admin.name, id.into_inner(), body.into_inner()).await?;
    Ok(web::Json(decided))
}
