//! Appeals: a player appeals their own sanction (`POST /api/v1/sanctions/{id}/appeal`); an
//! admin answers (`POST /api/v1/admin/appeals/{id}/decision`).

use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::{AdminCaller, PlayerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::routes::admin_cases::admin_id;
use crate::api::state::AppState;
use crate::api::views::appeals::{AppealDecided, AppealView};
use crate::api::views::sanctions::SanctionView;
use crate::moderation::{AppealConflict, AppealDecisionProblem, AppealProblem};
use crate::store::{self};
use crate::usecases::decide_appeal::{self, AppealAnswer, DecideAppealError};
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
            file_appeal::file(conn, id, &player.player, &text, &policy, store::now())
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

/// The admin's answer.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppealChoice {
    Uphold,
    Reduce,
    Lift,
}

/// An answer to an appeal. `reduce` takes `until` (a time) or `minutes` (the sanction's new
/// length from its start).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealDecisionBody {
    pub decision: AppealChoice,
    #[serde(default)]
    pub until: Option<DateTime<Utc>>,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 4294967295.0)]
    pub minutes: Option<u32>,
    #[serde(default)]
    pub note: Option<String>,
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
    let id = id.into_inner();
    let body = body.into_inner();
    let invalid = |message: &str| {
        ApiError::unprocessable(
            "invalid_appeal_decision",
            message.to_string(),
            json!({ "field": "until" }),
        )
    };
    let answer = match (body.decision, body.until, body.minutes) {
        (AppealChoice::Reduce, Some(until), None) => AppealAnswer::ReduceUntil(until),
        (AppealChoice::Reduce, None, Some(minutes)) => AppealAnswer::ReduceToMinutes(minutes),
        (AppealChoice::Reduce, _, _) => {
            return Err(invalid("A reduction needs either `until` or `minutes`."))
        }
        (_, None, None) => match body.decision {
            AppealChoice::Lift => AppealAnswer::Lift,
            _ => AppealAnswer::Uphold,
        },
        _ => return Err(invalid("`until` and `minutes` go only with `reduce`.")),
    };
    let note = body.note;
    let policy = state.moderation.clone();
    let (appeal, sanction) = state
        .write(move |conn| {
            let me = admin_id(conn, &admin.name)?;
            decide_appeal::decide(
                conn,
                id,
                (me, &admin.name),
                answer,
                note.as_deref(),
                &policy.appeal,
                store::now(),
            )
            .map_err(|e| decide_error(id, e))
        })
        .await?;
    state.webhooks_wake.notify_one();
    Ok(web::Json(AppealDecided {
        appeal: AppealView::from_row(appeal)?,
        sanction: SanctionView::from_row(sanction)?,
    }))
}

fn decide_error(id: i64, err: DecideAppealError) -> ApiError {
    match err {
        DecideAppealError::NotFound => {
            ApiError::not_found("appeal_not_found", format!("There is no appeal {id}."))
        }
        DecideAppealError::AlreadyDecided { status } => ApiError::Conflict {
            code: "appeal_decided",
            message: format!("Appeal {id} is already decided ({status})."),
            details: json!({ "status": status }),
        },
        DecideAppealError::Conflict(AppealConflict::OwnSanction) => ApiError::Refused {
            code: "conflict_of_interest",
            message: "This is an appeal against your own sanction; another admin must decide it."
                .to_string(),
            details: json!({}),
        },
        DecideAppealError::Conflict(AppealConflict::ImposedIt) => ApiError::Refused {
            code: "four_eyes",
            message: "You imposed this sanction, so another admin must decide its appeal \
                      (moderation policy `appeal.four_eyes`)."
                .to_string(),
            details: json!({}),
        },
        DecideAppealError::Refused(problem) => change_refusal(problem),
        DecideAppealError::Db(err) => err.into(),
    }
}

/// A refused reduction or lift, on appeal or by an admin directly.
pub(crate) fn change_refusal(problem: AppealDecisionProblem) -> ApiError {
    let code = match problem {
        AppealDecisionProblem::AlreadyLifted => {
            return ApiError::conflict("sanction_lifted", problem.to_string())
        }
        AppealDecisionProblem::NotShorter { .. } => "reduction_not_shorter",
        AppealDecisionProblem::BeforeStart { .. } => "reduction_before_start",
    };
    ApiError::unprocessable(
        code,
        problem.to_string(),
        json!({ "field": "until", "problem": problem }),
    )
}
