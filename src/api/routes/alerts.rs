//! Alerts (admin role): what the alert rules fired, and the acknowledgement that says someone
//! has one in hand (docs/moderation.md, "Alerts").

use actix_web::web;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::actions::acting_admin::admin_id;
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::state::AppState;
use crate::api::views::alerts::AlertView;
use crate::moderation::AlertId;
use crate::store::{self, alerts};
use crate::usecases::acknowledge_alert as usecase;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AlertFilter {
    /// Only alerts nobody has acknowledged yet.
    pub unacknowledged: Option<bool>,
}

/// The alerts, newest first.
#[utoipa::path(get, path = "/api/v1/admin/alerts", tag = "admin",
    security(("bearer" = [])),
    params(AlertFilter, PageQuery),
    responses(
        (status = 200, description = "One page of alerts", body = Page<AlertView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_alerts(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    filter: web::Query<AlertFilter>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<AlertView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let unacknowledged = filter.unacknowledged.unwrap_or(false);
    let rows = state
        .read(move |conn| {
            alerts::page(
                conn,
                unacknowledged,
                page.after_id.map(AlertId),
                page.fetch_limit(),
            )
        })
        .await?;
    Ok(web::Json(Page::try_from_rows(
        rows,
        page,
        |a| a.id.0,
        |a| Ok::<_, ApiError>(AlertView::from(a)),
    )?))
}

/// Acknowledge an alert: someone has it in hand. The first acknowledgement is kept with its
/// admin; acknowledging again answers the same and changes nothing.
#[utoipa::path(post, path = "/api/v1/admin/alerts/{id}/acknowledgement", tag = "admin",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Alert id", example = 1)),
    responses(
        (status = 200, description = "The alert, acknowledged", body = AlertView),
        (status = 400, description = "An id that is not a number (`invalid_path`)", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such alert", body = ErrorEnvelope),
    ))]
pub async fn acknowledge_alert(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<AlertView>, ApiError> {
    let id = id.into_inner();
    let alert = state
        .write(move |conn| {
            let me = admin_id(conn, &admin.name)?;
            Ok::<_, ApiError>(usecase::acknowledge_alert(
                conn,
                AlertId(id),
                me,
                store::now(),
            )?)
        })
        .await?
        .ok_or_else(|| {
            ApiError::not_found("alert_not_found", format!("There is no alert {id}."))
        })?;
    Ok(web::Json(AlertView::from(alert)))
}
