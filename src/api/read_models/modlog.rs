//! The moderation log: every recorded action, newest first, by player, admin, kind, case and
//! time range.

use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;

use crate::api::error::ApiError;
use crate::api::json::{invalid_query, query_instant};
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::views::modlog::ModlogEntryView;
use crate::api::wire_enums::ModlogKind;
use crate::moderation::{AuditAction, CaseId};
use crate::store::modlog::{self, ModlogFilter};

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

impl ModlogQuery {
    pub fn filter(self) -> Result<ModlogFilter, ApiError> {
        if let Some(kind) = &self.kind {
            if !AuditAction::KINDS.contains(&kind.as_str()) {
                return Err(ApiError::BadRequest {
                    code: "invalid_query",
                    message: format!("`kind` must be one of {}.", AuditAction::KINDS.join(", ")),
                    details: json!({ "field": "kind", "allowed": AuditAction::KINDS }),
                });
            }
        }
        let since = query_instant("since", self.since.as_deref())?;
        let until = query_instant("until", self.until.as_deref())?;
        if let (Some(since), Some(until)) = (since, until) {
            if since > until {
                return Err(invalid_query(
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
            case_id: self.case_id.map(CaseId),
        })
    }
}

/// One page of the log lines `filter` selects, newest first.
pub async fn read_modlog(
    state: &AppState,
    filter: ModlogFilter,
    page: IdPage,
) -> Result<Page<ModlogEntryView>, ApiError> {
    let rows = state
        .read(move |conn| modlog::page(conn, &filter, page.after_id, page.fetch_limit()))
        .await?;
    Page::try_from_rows(rows, page, |row| row.id, ModlogEntryView::from_row)
}
