//! Answer an open appeal: uphold, reduce or lift the sanction (standing follows at once).

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::acting_admin::admin_id;
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::appeals::{AppealDecided, AppealView};
use crate::api::views::sanctions::SanctionView;
use crate::api::wire_enums::wire_name;
use crate::moderation::{AppealConflict, AppealDecisionProblem, AppealId};
use crate::store;
use crate::usecases::decide_appeal::{self, AppealAnswer, DecideAppealError};

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

fn answer_of(body: &AppealDecisionBody) -> Result<AppealAnswer, ApiError> {
    let invalid = |message: &str| {
        ApiError::unprocessable(
            "invalid_appeal_decision",
            message.to_string(),
            json!({ "field": "until" }),
        )
    };
    match (body.decision, body.until, body.minutes) {
        (AppealChoice::Reduce, Some(until), None) => Ok(AppealAnswer::ReduceUntil(until)),
        (AppealChoice::Reduce, None, Some(minutes)) => Ok(AppealAnswer::ReduceToMinutes(minutes)),
        (AppealChoice::Reduce, _, _) => {
            Err(invalid("A reduction needs either `until` or `minutes`."))
        }
        (AppealChoice::Lift, None, None) => Ok(AppealAnswer::Lift),
        (_, None, None) => Ok(AppealAnswer::Uphold),
        _ => Err(invalid("`until` and `minutes` go only with `reduce`.")),
    }
}

/// `admin` answers appeal `id`.
pub async fn decide(
    state: &AppState,
    admin: &str,
    id: i64,
    body: AppealDecisionBody,
) -> Result<AppealDecided, ApiError> {
    let answer = answer_of(&body)?;
    let note = body.note;
    let policy = state.moderation.clone();
    let name = admin.to_string();
    let (appeal, sanction) = state
        .write(move |conn| {
            let me = admin_id(conn, &name)?;
            decide_appeal::decide(
                conn,
                AppealId(id),
                (me, &name),
                answer,
                note.as_deref(),
                &policy.appeal,
                store::now(),
            )
            .map_err(|e| decide_error(id, e))
        })
        .await?;
    state.webhooks_wake.notify_one();
    Ok(AppealDecided {
        appeal: AppealView::from_row(appeal)?,
        sanction: SanctionView::from_row(sanction)?,
    })
}

fn decide_error(id: i64, err: DecideAppealError) -> ApiError {
    match err {
        DecideAppealError::NotFound => {
            ApiError::not_found("appeal_not_found", format!("There is no appeal {id}."))
        }
        DecideAppealError::AlreadyDecided { status } => ApiError::Conflict {
            code: "appeal_decided",
            message: format!("Appeal {id} is already decided ({}).", wire_name(&status)),
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
pub fn change_refusal(problem: AppealDecisionProblem) -> ApiError {
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
