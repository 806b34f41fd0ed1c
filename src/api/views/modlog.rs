//! A line of the moderation log.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::ActorKind;
use crate::api::wire_enums::stored;
use crate::api::wire_enums::ModlogKind;
use crate::store::modlog::ModlogRow;
use crate::store::to_utc;

/// One line of the moderation log.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModlogEntryView {
    pub id: i64,
    pub at: DateTime<Utc>,
    pub actor_kind: ActorKind,
    /// The acting player's or admin's name; null for the system.
    pub actor: Option<String>,
    // The recorded action's tag (`AuditAction::kind`): the actions carry data, so their kinds
    // are a list of names (`AuditAction::KINDS`) rather than an enum of their own.
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
    pub(crate) fn from_row(row: ModlogRow) -> Result<ModlogEntryView, ApiError> {
        // Details are written from serde_json; text that does not read back is shown as is.
        let details = serde_json::from_str(&row.details).unwrap_or(Value::String(row.details));
        Ok(ModlogEntryView {
            id: row.id,
            at: to_utc(row.at),
            actor_kind: stored("actor kind", &row.actor_kind)?,
            actor: row.actor,
            kind: row.kind,
            subject: row.subject,
            case_id: row.case_id.map(|id| id.0),
            report_id: row.report_id.map(|id| id.0),
            sanction_id: row.sanction_id.map(|id| id.0),
            appeal_id: row.appeal_id.map(|id| id.0),
            why: row.why,
            details,
        })
    }
}
