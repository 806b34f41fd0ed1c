//! The moderation log (admin role): every recorded action, newest first.

use actix_web::web;
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::state::AppState;
use crate::api::statuses::ActorKind;
use crate::api::wire_enums::ModlogKind;
use crate::moderation::AuditAction;
use crate::store::modlog::{self, ModlogFilter, ModlogRow};
use crate::store::to_utc;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ModlogQuery {
    /// Lines about this player (the subject), by name.
    pub player: Option<String>,
    /// Lines by this admin (the actor), by name.
    pub admin: Option<String>,
    /// Lines of this kind only.
    #[param(value_type = Option<ModlogKind>)]
    pub kind: Option<String>,
    /// At or after this time (RFC 3339).
    #[param(format = DateTime)]
    pub since: Option<String>,
    /// Before this time (RFC 3339).
    #[param(format = DateTime)]
    pub until: Option<String>,
    /// Lines about this case.
    pub case_id: Option<i64>,
}

fn invalid(field: &str, message: String) -> ApiError {
    ApiError::BadRequest {
        code: "invalid_query",
        message,
        details: json!({ "field": field }),
    }
}

fn instant(field: &str, text: Option<&str>) -> Result<Option<NaiveDateTime>, ApiError> {
    text.map(|text| {
        DateTime::parse_from_rfc3339(text)
            .map(|at| at.with_timezone(&Utc).naive_utc())
            .map_err(|_| {
                invalid(
                    field,
                    format!("`{field}` must be an RFC 3339 time such as 2026-06-07T18:00:00Z."),
                )
            })
    })
    .transpose()
}

impl ModlogQuery {
    fn filter(self) -> Result<ModlogFilter, ApiError> {
        if let Some(kind) = &self.kind {
            if !AuditAction::KINDS.contains(&kind.as_str()) {
                return Err(ApiError::BadRequest {
                    code: "invalid_query",
                    message: format!("`kind` must be one of {}.", AuditAction::KINDS.join(", ")),
                    details: json!({ "field": "kind", "allowed": AuditAction::KINDS }),
                });
            }
        }
        let since = instant("since", self.since.as_deref())?;
        let until = instant("until", self.until.as_deref())?;
        if let (Some(since), Some(until)) = (since, until) {
            if since > until {
                return Err(invalid(
                    "until",
                    "`until` must not be before `since`.".to_string(),
                ));
            }
        }
        let name = |value: Option<String>| value.filter(|v| !v.trim().is_empty());
        Ok(ModlogFilter {
            subject: name(self.player),
            actor: name(self.admin),
            kind: self.kind,
            since,
            until,
            case_id: self.case_id,
        })
    }
}

/// One line of the moderation log.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModlogEntryView {
    pub id: i64,
    pub at: DateTime<Utc>,
    #[schema(value_type = ActorKind)]
    pub actor_kind: String,
    /// The acting player's or admin's name; null for the system.
    pub actor: Option<String>,
    #[schema(value_type = ModlogKind)]
    pub kind: String,
    /// The player the action is about.
    pub subject: Option<String>,
    pub case_id: Option<i64>,
    pub report_id: Option<i64>,
    pub sanction_id: Option<i64>,
    pub appeal_id: Option<i64>,
    /// The note, message or rule behind the action.
    pub why: Option<String>,
    /// The whole action as recorded.
    #[schema(value_type = Object)]
    pub details: Value,
}

impl ModlogEntryView {
    fn from_row(row: ModlogRow) -> ModlogEntryView {
        // Details are written from serde_json; text that does not read back is shown as is.
        let details = serde_json::from_str(&row.details).unwrap_or(Value::String(row.details));
        ModlogEntryView {
            id: row.id,
            at: to_utc(row.at),
            actor_kind: row.actor_kind,
            actor: row.actor,
            kind: row.kind,
            subject: row.subject,
            case_id: row.case_id,
            report_id: row.report_id,
            sanction_id: row.sanction_id,
            appeal_id: row.appeal_id,
            why: row.why,
            details,
        }
    }
}

/// The append-only moderation log, newest first.
#[utoipa::path(get, path = "/api/v1/admin/modlog", tag = "moderation",
    security(("bearer" = [])),
    params(ModlogQuery, PageQuery),
    responses(
        (status = 200, description = "One page of the log", body = Page<ModlogEntryView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_modlog(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<ModlogQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<ModlogEntryView>>, ApiError> {
    let page = page.by_id()?;
    let filter = query.into_inner().filter()?;
    let rows = state
        .read(move |conn| modlog::page(conn, &filter, page.after_id, page.fetch_limit()))
        .await?;
    Ok(web::Json(Page::from_rows(
        rows,
        page,
        |row| row.id,
        ModlogEntryView::from_row,
    )))
}
