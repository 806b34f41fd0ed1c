//! Claim a case (only the holder may decide it until the claim runs out) and release it.

use serde_json::json;

use crate::api::actions::acting_admin::admin_id;
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::cases::{ClaimOutcomeName, ClaimView, Released};
use crate::moderation::{CaseId, ClaimOutcome, Conflict};
use crate::store;
use crate::usecases::claim_case::{self, ClaimResult, ReleaseResult};

pub fn case_not_found(id: i64) -> ApiError {
    ApiError::not_found("case_not_found", format!("There is no case {id}."))
}

pub fn case_decided(id: i64) -> ApiError {
    ApiError::conflict("case_decided", format!("Case {id} is already decided."))
}

fn party_refusal(conflict: Conflict) -> ApiError {
    ApiError::Refused {
        code: "conflict_of_interest",
        message: conflict.to_string(),
        details: json!({ "conflict": conflict }),
    }
}

/// `admin` claims case `id`, or renews their claim.
pub async fn claim(state: &AppState, admin: &str, id: i64) -> Result<ClaimView, ApiError> {
    let policy = state.moderation.clone();
    let name = admin.to_string();
    let result = state
        .write(move |conn| {
            let me = admin_id(conn, &name)?;
            Ok::<_, ApiError>(claim_case::claim(
                conn,
                CaseId(id),
                (me, &name),
                &policy,
                store::now(),
            )?)
        })
        .await?;
    match result {
        ClaimResult::Granted { until, outcome } => Ok(ClaimView {
            case_id: id,
            claimed_by: admin.to_string(),
            claimed_until: until,
            outcome: match outcome {
                ClaimOutcome::TakeOver { .. } => ClaimOutcomeName::TakenOver,
                ClaimOutcome::Renew { .. } => ClaimOutcomeName::Renewed,
                _ => ClaimOutcomeName::Claimed,
            },
        }),
        ClaimResult::Held { holder, until } => Err(ApiError::Conflict {
            code: "case_claimed",
            message: format!(
                "Case {id} is claimed by {holder} until {}.",
                until.to_rfc3339()
            ),
            details: json!({ "holder": holder, "until": until }),
        }),
        ClaimResult::Party(conflict) => Err(party_refusal(conflict)),
        ClaimResult::Decided => Err(case_decided(id)),
        ClaimResult::NotFound => Err(case_not_found(id)),
    }
}

/// `admin` gives up their running claim on case `id`.
pub async fn release(state: &AppState, admin: &str, id: i64) -> Result<Released, ApiError> {
    let name = admin.to_string();
    let result = state
        .write(move |conn| {
            let me = admin_id(conn, &name)?;
            Ok::<_, ApiError>(claim_case::release(
                conn,
                CaseId(id),
                (me, &name),
                store::now(),
            )?)
        })
        .await?;
    match result {
        ReleaseResult::Released => Ok(Released {
            case_id: id,
            released: true,
        }),
        ReleaseResult::NotHeld => Err(ApiError::conflict(
            "claim_required",
            format!("You hold no running claim on case {id}."),
        )),
        ReleaseResult::NotFound => Err(case_not_found(id)),
    }
}
