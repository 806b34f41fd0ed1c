//! Appeals: a player appeals their own sanction (`POST /api/v1/sanctions/{id}/appeal`); an
//! admin answers (`POST /api/v1/admin/appeals/{id}/decision`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::decide_appeal::{self, AppealDecisionBody};
use crate::api::auth::{AdminCaller, PlayerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::state::AppState;
use crate::api::views::appeals::{AppealDecided, AppealView};
use crate::moderation::{AppealProblem, SanctionId};
use crate::store::{self};
use crate::usecases::file_appeal::{self, FileAppealError};

/// The appeal's text.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealBody {
    pub text: String,
}

fn sanction_not_found(id: i64) -> ApiError {
    ApiError::not_found("sanction_not_found", format!("You have no sanction {id}."))
}

/// Appeal one of the caller's own sanctions (once, within the appeal window).
#[utoipa::path(post, path = "/api/v1/sanctions/{id}/appeal", tag = "sanctions",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Sanction id", example = 1)),
    request_body = AppealBody,
    responses(
        (status = 201, description = "Appeal filed", body = AppealView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
        (status = 404, description = "No such sanction of the caller's", body = ErrorEnvelope),
        (status = 409, description = "Already appealed, or already lifted", body = ErrorEnvelope),
        (status = 422, description = "Text too short or too long, or the appeal window closed", body = ErrorEnvelope),
    ))]
pub async fn file_appeal(
    player: PlayerCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<AppealBody>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let policy = state.moderation.clone();
    let text = body.into_inner().text;
    let appeal = state
        .write(move |conn| {
            file_appeal::file(
                conn,
                SanctionId(id),
                &player.player,
                &text,
                &policy,
                store::now(),
            )
            .map_err(|e| file_error(id, e))
        })
        .await?;
    Ok(HttpResponse::Created().json(AppealView::from_row(appeal)?))
}

fn file_error(id: i64, err: FileAppealError) -> ApiError {
    match err {
        FileAppealError::NotFound => sanction_not_found(id),
        FileAppealError::Db(err) => err.into(),
        FileAppealError::Problems(problems) => {
            let Some(first) = problems.first() else {
                return ApiError::internal("appeal refused without a problem");
            };
            let message = first.message();
            match first {
                AppealProblem::NotOwnSanction => sanction_not_found(id),
                AppealProblem::AlreadyAppealed { appeal } => ApiError::Conflict {
                    code: "already_appealed",
                    message,
                    details: json!({ "appeal": appeal }),
                },
                AppealProblem::AlreadyLifted => ApiError::conflict("sanction_lifted", message),
                AppealProblem::WindowClosed { closed_at } => ApiError::unprocessable(
                    "appeal_window_closed",
                    message,
                    json!({ "field": "sanction", "closed_at": closed_at }),
                ),
                AppealProblem::TextTooShort { chars, min } => ApiError::unprocessable(
                    "invalid_appeal",
                    message,
                    json!({ "field": "text", "chars": chars, "min": min }),
                ),
                AppealProblem::TextTooLong { chars, max } => ApiError::unprocessable(
                    "invalid_appeal",
                    message,
                    json!({ "field": "text", "chars": chars, "max": max }),
                ),
            }
        }
    }
}

/// Answer an open appeal: uphold, reduce or lift the sanction (standing follows at once).
#[utoipa::path(post, path = "/api/v1/admin/appeals/{id}/decision", tag = "sanctions",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Appeal id", example = 1)),
    request_body = AppealDecisionBody,
    responses(
        (status = 200, description = "Decided", body = AppealDecided),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin, the admin's own sanction (`conflict_of_interest`), or one the admin imposed (`four_eyes`)", body = ErrorEnvelope),
        (status = 404, description = "No such appeal", body = ErrorEnvelope),
        (status = 409, description = "Already decided", body = ErrorEnvelope),
        (status = 422, description = "A reduction that does not shorten the sanction, or a missing `until`/`minutes`", body = ErrorEnvelope),
    ))]
pub async fn decide_appeal(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<AppealDecisionBody>,
) -> Result<web::Json<AppealDecided>, ApiError> {
    let decided =
        decide_appeal::decide(&state, &admin.name, id.into_inner(), body.into_inner()).await?;
    Ok(web::Json(decided))
}
