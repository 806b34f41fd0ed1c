//! Players' reports: filing (`POST /api/v1/reports`) and their own list
//! (`GET /api/v1/reports/mine`).

use std::collections::HashMap;

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::PlayerCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::player_names::check_player_name;
use crate::api::state::AppState;
use crate::api::views::reports::{FiledReport, ReportView};
use crate::moderation::{PlayerId, ReportProblem, ReportReason};
use crate::store::{self, reports};
use crate::usecases::file_report::{file_report as file, FileError, Filing};

/// A report about one game (or none), naming every involved player.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    /// Every involved player, by name (1 to 3).
    pub accused: Vec<String>,
    pub reason: ReportReason,
    /// What happened; required for `other`.
    #[serde(default)]
    pub message: Option<String>,
    /// The game number the report is filed from.
    #[serde(default)]
    pub game: Option<i64>,
    /// Further game numbers showing the same behaviour.
    #[serde(default)]
    pub supporting_games: Vec<i64>,
}

/// File a report. A second report about the same game and reason merges into the first.
#[utoipa::path(post, path = "/api/v1/reports", tag = "reports",
    security(("bearer" = [])),
    request_body = ReportBody,
    responses(
        (status = 201, description = "Report filed", body = FiledReport),
        (status = 200, description = "Merged into the caller's earlier report", body = FiledReport),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player, or a report timeout runs (`report_timeout`, with `until`)", body = ErrorEnvelope),
        (status = 422, description = "The report breaks a reporting rule; `details.field` names the field", body = ErrorEnvelope),
        (status = 429, description = "Rate limit; Retry-After header and `details.retry_at`", body = ErrorEnvelope),
    ))]
pub async fn file_report(
    player: PlayerCaller,
    state: web::Data<AppState>,
    body: ApiJson<ReportBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let filing = Filing {
        reporter_key: state.settings.privacy.erased_name_key(&player.player),
        reporter: player.player,
        accused: body.accused.iter().map(|n| n.trim().to_string()).collect(),
        reason: body.reason,
        message: body.message,
        game: body.game,
        supporting_games: body.supporting_games,
    };
    check_accused_names(&filing.accused)?;
    let policy = state.moderation.clone();
    let (filed, view) = state
        .write(move |conn| {
            let now = store::now();
            let filed = file(conn, &filing, &policy, now).map_err(file_error)?;
            let view = reports::own_report(conn, filed.report_id)?
                .ok_or_else(|| ApiError::internal("filed report not found"))?;
            Ok::<_, ApiError>((filed, view))
        })
        .await?;
    let body = FiledReport {
        merged: filed.merged,
        message_truncated: filed.message_truncated,
        report: ReportView::from_own(view)?,
    };
    Ok(if filed.merged {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::Created().json(body)
    })
}

/// Each name (trimmed) must be a possible player name.
fn check_accused_names(names: &[String]) -> Result<(), ApiError> {
    for (index, name) in names.iter().enumerate() {
        check_player_name(&format!("accused[{index}]"), name)?;
    }
    Ok(())
}

pub(crate) fn file_error(err: FileError) -> ApiError {
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
                    crate::moderation::RateWindow::Hour => "hour",
                    crate::moderation::RateWindow::Day => "day",
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

/// The caller's own reports, newest first, with their status and outcome.
#[utoipa::path(get, path = "/api/v1/reports/mine", tag = "reports",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the caller's reports", body = Page<ReportView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
    ))]
pub async fn my_reports(
    player: PlayerCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<ReportView>>, ApiError> {
    let page = page.by_id()?;
    let rows = state
        .read(move |conn| {
            reports::own_page(conn, &player.player, page.after_id, page.fetch_limit())
        })
        .await?;
    Ok(web::Json(Page::try_from_rows(
        rows,
        page,
        |r| r.id,
        ReportView::from_own,
    )?))
}
