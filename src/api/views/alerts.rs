//! Alerts as admins read them (docs/moderation.md, "Alerts").

use serde::Serialize;
use utoipa::ToSchema;

use chrono::{DateTime, Utc};

use crate::store::alerts::AlertListing;
use crate::store::to_utc;

/// One alert a rule fired.
#[derive(Debug, Serialize, ToSchema)]
pub struct AlertView {
    #[schema(example = 3)]
    pub id: i64,
    /// The rule's name in `[alerts]`.
    #[schema(example = "high_priority")]
    pub rule: String,
    /// The case it is about; null for the queue's depth.
    pub case_id: Option<i64>,
    /// The one line the `case_needs_attention` event carried.
    #[schema(example = "Case 17 (offensive chat / spamming) reached priority 64 [high_priority]")]
    pub message: String,
    pub fired_at: DateTime<Utc>,
    /// Queue alerts: when the queue fell back under the depth.
    pub cleared_at: Option<DateTime<Utc>>,
    pub acknowledged_by: Option<String>,
    pub acknowledged_at: Option<DateTime<Utc>>,
}

impl From<AlertListing> for AlertView {
    fn from(alert: AlertListing) -> Self {
        AlertView {
            id: alert.id.0,
            rule: alert.rule,
            case_id: alert.case_id.map(|c| c.0),
            message: alert.message,
            fired_at: to_utc(alert.fired_at),
            cleared_at: alert.cleared_at.map(to_utc),
            acknowledged_by: alert.acknowledged_by,
            acknowledged_at: alert.acknowledged_at.map(to_utc),
        }
    }
}
