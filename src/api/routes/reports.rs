//! Players' reports: filing (`POST /api/v1/reports`) and their own list
//! (`GET /api/v1/reports/mine`).

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::api::actions::report_refusals::file_error;
use crate::api::auth::PlayerCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::player_names::check_player_name;
use crate::api::state::AppState;
use crate::api::views::reports::{FiledReport, ReportView};
use crate::moderation::{ReportId, ReportReason};
use crate::store::{self, reports};
use crate::usecases::file_report::{file_report as file, Filing};

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
        report: ReportView::from_own(view, &state.moderation.reporters)?,
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
    let page = page.by_id(&state.cursor_key)?;
    let rows = state
        .read(move |conn| {
            reports::own_page(
                conn,
                &player.player,
                page.after_id.map(ReportId),
                page.fetch_limit(),
            )
        })
        .await?;
    let policy = &state.moderation.reporters;
    Ok(web::Json(Page::try_from_rows(
        rows,
        page,
        |r| r.id.0,
        |r| ReportView::from_own(r, policy),
    )?))
}
