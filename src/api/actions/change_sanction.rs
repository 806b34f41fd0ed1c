//! Shorten or lift a sanction outside an appeal, with a note (logged as `sanction_reduced` or
//! `sanction_lifted`); standing follows at once.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::decide_appeal::change_refusal;
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::sanctions::SanctionView;
use crate::moderation::{validate_note, SanctionId};
use crate::store;
use crate::usecases::change_sanction::{self, ChangeSanctionError, SanctionChange};

/// What an admin does to a sanction outside an appeal.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SanctionAction {
    /// End it earlier: `until`, or `minutes` from its start.
    Shorten,
    /// End it now and take it off the record (it no longer climbs the ladder).
    Lift,
}

/// A change to a sanction in force.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SanctionChangeBody {
    pub action: SanctionAction,
    /// `shorten`: the new end (RFC 3339).
    pub until: Option<DateTime<Utc>>,
    /// `shorten`: the new length in minutes from the start.
    #[schema(minimum = 0)]
    pub minutes: Option<u32>,
    /// Why; required, logged with the change.
    pub note: String,
}

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::Unprocessable {
        code: "invalid_sanction_change",
        message: message.to_string(),
        details: json!({ "field": field }),
    }
}

fn change_of(body: &SanctionChangeBody) -> Result<SanctionChange, ApiError> {
    match (body.action, body.until, body.minutes) {
        (SanctionAction::Shorten, Some(until), None) => Ok(SanctionChange::ShortenUntil(until)),
        (SanctionAction::Shorten, None, Some(minutes)) => {
            Ok(SanctionChange::ShortenToMinutes(minutes))
        }
        (SanctionAction::Shorten, _, _) => Err(invalid(
            "until",
            "`shorten` needs either `until` or `minutes`.",
        )),
        (SanctionAction::Lift, None, None) => Ok(SanctionChange::Lift),
        (SanctionAction::Lift, _, _) => Err(invalid(
            "until",
            "`until` and `minutes` go only with `shorten`.",
        )),
    }
}

/// `admin` changes sanction `id`; the answer is the sanction as it now stands.
pub async fn change(
    state: &AppState,
    admin: &str,
    id: i64,
    body: SanctionChangeBody,
) -> Result<SanctionView, ApiError> {
    let note = validate_note(&body.note, &state.moderation)
        .map_err(|problem| invalid("note", &problem.to_string()))?;
    let change = change_of(&body)?;
    let name = admin.to_string();
    let row = state
        .write(move |conn| {
            change_sanction::change(conn, SanctionId(id), &name, change, &note, store::now())
                .map_err(|err| match err {
                    ChangeSanctionError::NotFound => ApiError::NotFound {
                        code: "sanction_not_found",
                        message: format!("No sanction has id {id}."),
                    },
                    ChangeSanctionError::Refused(problem) => change_refusal(problem),
                    ChangeSanctionError::ChangedMeanwhile => ApiError::conflict(
                        "sanction_changed",
                        "Another admin changed this sanction meanwhile; read it again.",
                    ),
                    ChangeSanctionError::Db(err) => err.into(),
                })
        })
        .await?;
    state.webhooks_wake.notify_one();
    SanctionView::from_row(row)
}
