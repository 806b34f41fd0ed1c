//! An admin opens a case about what they saw themselves: their entry opens the accused's case
//! of that reason or joins the open one.

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::report_refusals::file_error;
use crate::api::error::ApiError;
use crate::api::player_names::check_player_name;
use crate::api::state::AppState;
use crate::api::views::cases::AdminEntryView;
use crate::moderation::{validate_note, ReportReason};
use crate::store;
use crate::usecases::open_case::{open_case, AdminFiling};

/// What the admin saw.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AdminEntryBody {
    /// The player the case is about.
    #[schema(example = "Spaksi")]
    pub accused: String,
    pub reason: ReportReason,
    /// Site game numbers the accused played, the main one first (none for a case about
    /// conduct outside games).
    #[serde(default)]
    pub games: Vec<i64>,
    /// What the admin saw (required; at most as long as a report's message).
    #[schema(example = "Left three games in a row at move 2 while losing.")]
    pub note: String,
}

/// `admin` files an entry about what they saw.
pub async fn open(
    state: &AppState,
    admin: &str,
    body: AdminEntryBody,
) -> Result<AdminEntryView, ApiError> {
    let accused = body.accused.trim().to_string();
    check_player_name("accused", &accused)?;
    let note = validate_note(&body.note, &state.moderation).map_err(|problem| {
        ApiError::unprocessable(
            "invalid_note",
            problem.to_string(),
            json!({ "field": "note" }),
        )
    })?;
    let filing = AdminFiling {
        admin: admin.to_string(),
        accused,
        reason: body.reason,
        games: body.games,
        note,
    };
    let policy = state.moderation.clone();
    let filed = state
        .write(move |conn| {
            open_case(conn, &filing, &policy, store::now())
                .map_err(|err| in_admin_fields(file_error(err)))
        })
        .await?;
    Ok(AdminEntryView {
        case_id: filed.case_id.0,
        report_id: filed.report_id.0,
        opened: filed.opened,
    })
}

/// A report problem names the report's fields (`game`, `supporting_games`, `message`); this
/// body has one list, `games`, and a `note`.
fn in_admin_fields(err: ApiError) -> ApiError {
    let rename = |field: &mut serde_json::Value| match field.as_str() {
        Some("game" | "supporting_games") => *field = json!("games"),
        Some("message") => *field = json!("note"),
        _ => {}
    };
    match err {
        ApiError::Unprocessable {
            code,
            message,
            mut details,
        } => {
            if let Some(field) = details.get_mut("field") {
                rename(field);
            }
            if let Some(problems) = details.get_mut("problems").and_then(|p| p.as_array_mut()) {
                for problem in problems {
                    if let Some(field) = problem.get_mut("field") {
                        rename(field);
                    }
                }
            }
            ApiError::Unprocessable {
                code,
                message,
                details,
            }
        }
        other => other,
    }
}
