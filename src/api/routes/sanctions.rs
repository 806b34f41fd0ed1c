//! Sanction listings: a player's own sanctions (player role) and the sanctions of every player,
//! in force by default (admin role).

use actix_web::web;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::{AdminCaller, PlayerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::sanctions::{read_sanctions, SanctionListQuery};
use crate::api::routes::appeals::change_refusal;
use crate::api::state::AppState;
use crate::api::views::sanction_listing::SanctionListingView;
use crate::api::views::sanctions::SanctionView;
use crate::moderation::validate_note;
use crate::store;
use crate::store::sanction_listing::SanctionFilter;
use crate::usecases::change_sanction::{self, ChangeSanctionError, SanctionChange};

/// Sanctions of every player, newest first: those in force unless `status=all`.
#[utoipa::path(get, path = "/api/v1/admin/sanctions", tag = "sanctions",
    security(("bearer" = [])),
    params(SanctionListQuery, PageQuery),
    responses(
        (status = 200, description = "One page of sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_sanctions(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<SanctionListQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id()?;
    let filter = query.into_inner().filter(store::now())?;
    Ok(web::Json(read_sanctions(&state, filter, page).await?))
}

/// The caller's own sanctions, newest first, in force or not, each with its reason, end,
/// appeal and how long it can still be appealed.
#[utoipa::path(get, path = "/api/v1/sanctions/mine", tag = "sanctions",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the player's sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
    ))]
pub async fn my_sanctions(
    player: PlayerCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id()?;
    let filter = SanctionFilter {
        player: Some(player.player),
        ..SanctionFilter::default()
    };
    Ok(web::Json(read_sanctions(&state, filter, page).await?))
}

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

/// Shorten or lift a sanction, with a note (logged as `sanction_reduced` or
/// `sanction_lifted`); standing follows at once.
#[utoipa::path(post, path = "/api/v1/admin/sanctions/{id}/change", tag = "sanctions",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Sanction id", example = 1)),
    request_body = SanctionChangeBody,
    responses(
        (status = 200, description = "The sanction as it now stands", body = SanctionView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such sanction", body = ErrorEnvelope),
        (status = 409, description = "Already lifted, or changed by another admin meanwhile", body = ErrorEnvelope),
        (status = 422, description = "A shortening that does not shorten, a missing `until`/`minutes`, or an empty note", body = ErrorEnvelope),
    ))]
pub async fn change_sanction(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<SanctionChangeBody>,
) -> Result<web::Json<SanctionView>, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner();
    let invalid = |field: &str, message: String| ApiError::Unprocessable {
        code: "invalid_sanction_change",
        message,
        details: json!({ "field": field }),
    };
    let note = validate_note(&body.note, &state.moderation)
        .map_err(|problem| invalid("note", problem.to_string()))?;
    let change = match (body.action, body.until, body.minutes) {
        (SanctionAction::Shorten, Some(until), None) => SanctionChange::ShortenUntil(until),
        (SanctionAction::Shorten, None, Some(minutes)) => SanctionChange::ShortenToMinutes(minutes),
        (SanctionAction::Shorten, _, _) => {
            return Err(invalid(
                "until",
                "`shorten` needs either `until` or `minutes`.".to_string(),
            ))
        }
        (SanctionAction::Lift, None, None) => SanctionChange::Lift,
        (SanctionAction::Lift, _, _) => {
            return Err(invalid(
                "until",
                "`until` and `minutes` go only with `shorten`.".to_string(),
            ))
        }
    };
    let row = state
        .write(move |conn| {
            change_sanction::change(conn, id, &admin.name, change, &note, store::now()).map_err(
                |err| match err {
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
                },
            )
        })
        .await?;
    state.webhooks_wake.notify_one();
    Ok(web::Json(SanctionView::from_row(row)?))
}
