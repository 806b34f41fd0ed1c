//! A sanction as stored, with its end after appeals.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::{Ground, ReportReason, SanctionKind};
use crate::store::sanctions::SanctionRow;
use crate::store::to_utc;

/// A sanction as stored, with its end after appeals.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionView {
    pub id: i64,
    pub case_id: Option<i64>,
    #[schema(value_type = SanctionKind)]
    pub kind: String,
    #[schema(value_type = ReportReason)]
    pub reason: String,
    #[schema(value_type = Ground)]
    pub ground: String,
    pub starts_at: DateTime<Utc>,
    /// The planned end; null for a permanent sanction.
    pub ends_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    /// When it ends after appeals (null: never).
    pub effective_end: Option<DateTime<Utc>>,
}

impl From<SanctionRow> for SanctionView {
    fn from(row: SanctionRow) -> Self {
        let effective_end = row.to_policy().ok().and_then(|s| s.effective_end());
        SanctionView {
            id: row.id,
            case_id: row.case_id,
            kind: row.kind,
            reason: row.reason,
            ground: row.ground,
            starts_at: to_utc(row.starts_at),
            ends_at: row.ends_at.map(to_utc),
            reduced_until: row.reduced_until.map(to_utc),
            lifted_at: row.lifted_at.map(to_utc),
            effective_end,
        }
    }
}
