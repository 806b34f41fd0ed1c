//! The `warning_issued` event: what game servers are told when a decision warns a player, so
//! the site can show the warning at once (docs/webhooks.md, "warning_issued").

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::language::Language;
use super::types::{CaseId, Ground, ReportReason};
use super::warning::Warning;
use super::webhook_event_kind::WebhookEventKind;

/// The warning as the event states it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarningState {
    pub id: i64,
    pub player: String,
    pub case_id: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    /// The language of `text`: the player's last known one, else English.
    pub language: Language,
    /// What the player is told, in `language`.
    pub text: String,
    /// The same in English.
    pub text_en: String,
    /// Whether the player must acknowledge it (`POST /api/v1/warnings/{id}/acknowledgement`)
    /// before the standing stops carrying it.
    pub must_acknowledge: bool,
    pub issued_at: DateTime<Utc>,
}

/// The event, serialised as the webhook's body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarningIssuedEvent {
    /// Unique per event: receivers deduplicate redeliveries by it.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: WebhookEventKind,
    pub created_at: DateTime<Utc>,
    pub warning: WarningState,
}

impl WarningIssuedEvent {
    pub fn new(id: String, warning: &Warning, now: DateTime<Utc>) -> WarningIssuedEvent {
        WarningIssuedEvent {
            id,
            kind: WebhookEventKind::WarningIssued,
            created_at: now,
            warning: WarningState {
                id: warning.id.0,
                player: warning.player.clone(),
                case_id: warning.case,
                reason: warning.reason,
                ground: warning.ground,
                language: warning.language,
                text: warning.text.clone(),
                text_en: warning.text_en.clone(),
                must_acknowledge: warning.awaits_acknowledgement(),
                issued_at: warning.issued_at,
            },
        }
    }
}
