//! Why a filing is refused, as the API answers it: a player's report and an admin's own
//! entry are checked by the same rules (`usecases::check_filing`).

use std::collections::HashMap;

use serde_json::json;

use crate::api::error::ApiError;
use crate::moderation::{PlayerId, RateWindow, ReportProblem};
use crate::usecases::file_report::FileError;

/// A refused filing as one answer: the rules' problems, a timeout or ban, or the rate limit.
pub fn file_error(err: FileError) -> ApiError {
    match err {
        FileError::Invalid { problems, names } => invalid_report(&problems, &names),
        FileError::MayNotReport { until, club_banned } => {
            let (code, what) = if club_banned {
                ("club_banned", "You are banned from the club")
            } else {
                ("report_timeout", "You have a report timeout")
            };
            let message = match until {
                Some(until) => format!(
                    "{what} until {}; you cannot send reports before then.",
                    until.to_rfc3339()
                ),
                None => format!("{what}; you cannot send reports."),
            };
            ApiError::Refused {
                code,
                message,
                details: json!({ "until": until }),
            }
        }
        FileError::RateLimited(retry) => ApiError::RateLimited {
            code: "report_rate_limited",
            message: format!(
                "Too many reports in the last {}; you can report again at {}.",
                match retry.window {
                    RateWindow::Hour => "hour",
                    RateWindow::Day => "day",
                },
                retry.at.to_rfc3339()
            ),
            retry_after_secs: u64::try_from(retry.seconds).unwrap_or(1),
            details: json!({
                "retry_at": retry.at,
                "retry_after_secs": retry.seconds,
                "window": retry.window,
            }),
        },
        FileError::Db(err) => err.into(),
    }
}

/// The reporting rules' problems as one 422: the first problem's code and field, every
/// sentence (with player names), and the list in `details.problems`.
fn invalid_report(problems: &[ReportProblem], names: &HashMap<PlayerId, String>) -> ApiError {
    let name = |id: &PlayerId| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let sentence = |p: &ReportProblem| match p {
        ReportProblem::DuplicateAccused { player } => {
            format!("Player {} is named more than once.", name(player))
        }
        ReportProblem::AccusedNotInGame { player, game } => {
            format!("Player {} did not play in game {game}.", name(player))
        }
        ReportProblem::UnknownPlayer { player } => format!(
            "No player {} has played a game here; check the spelling (names match exactly), \
             or cite the game.",
            name(player)
        ),
        other => other.message(),
    };
    let listed: Vec<serde_json::Value> = problems
        .iter()
        .map(|p| {
            let mut value = serde_json::to_value(p).unwrap_or_else(|_| json!({}));
            if let Some(object) = value.as_object_mut() {
                for key in ["player"] {
                    if let Some(id) = object.get(key).and_then(|v| v.as_i64()) {
                        object.insert(key.into(), json!(name(&PlayerId(id))));
                    }
                }
                object.insert("field".into(), json!(p.field()));
                object.insert("message".into(), json!(sentence(p)));
            }
            value
        })
        .collect();
    let first = problems.first();
    let code = match first {
        Some(ReportProblem::UnknownGame { .. }) => "unknown_game",
        Some(ReportProblem::FfaOnlyReason { .. }) => "reason_not_for_variant",
        Some(ReportProblem::SelfReport { .. }) => "self_report",
        Some(ReportProblem::InvalidGameNumber { .. }) => "invalid_game_number",
        Some(ReportProblem::UnknownPlayer { .. }) => "unknown_player",
        _ => "invalid_report",
    };
    let mut details = json!({
        "field": first.map(|p| p.field()),
        "problems": listed,
    });
    if let Some(
        ReportProblem::UnknownGame { game } | ReportProblem::InvalidGameNumber { game, .. },
    ) = first
    {
        details["game"] = json!(game.0);
    }
    ApiError::unprocessable(
        code,
        problems.iter().map(sentence).collect::<Vec<_>>().join(" "),
        details,
    )
}
