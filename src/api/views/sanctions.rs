//! Sanctions as the API answers them: as they now stand (with their end after appeals), and
//! as a case's history or an appeal shows them (with the deciding admin's note).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::moderation::{Ground, ReportReason, SanctionKind};
use crate::store::sanctions::SanctionRow;
use crate::store::to_utc;

/// A sanction as stored, with its end after appeals.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionView {
    pub id: i64,
    pub case_id: Option<i64>,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: DateTime<Utc>,
    /// The planned end; null for a permanent sanction.
    pub ends_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    /// When it ends after appeals (null: never).
    pub effective_end: Option<DateTime<Utc>>,
}

impl SanctionView {
    pub fn from_row(row: SanctionRow) -> Result<SanctionView, ApiError> {
        let sanction = row.to_policy();
        Ok(SanctionView {
            id: row.id.0,
            case_id: row.case_id.map(|id| id.0),
            kind: sanction.kind,
            reason: sanction.reason,
            ground: sanction.ground,
            starts_at: to_utc(row.starts_at),
            ends_at: row.ends_at.map(to_utc),
            reduced_until: row.reduced_until.map(to_utc),
            lifted_at: row.lifted_at.map(to_utc),
            effective_end: sanction.effective_end(),
        })
    }
}

/// A sanction in the accused's history or under appeal.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionRecordView {
    pub id: i64,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub case_id: Option<i64>,
    pub starts_at: DateTime<Utc>,
    /// Null: permanent.
    pub ends_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    pub note: String,
}

impl SanctionRecordView {
    pub fn from_row(row: SanctionRow) -> Result<SanctionRecordView, ApiError> {
        let sanction = row.to_policy();
        Ok(SanctionRecordView {
            id: row.id.0,
            kind: sanction.kind,
            reason: sanction.reason,
            ground: sanction.ground,
            case_id: row.case_id.map(|id| id.0),
            starts_at: to_utc(row.starts_at),
            ends_at: row.ends_at.map(to_utc),
            reduced_until: row.reduced_until.map(to_utc),
            lifted_at: row.lifted_at.map(to_utc),
            note: row.note,
        })
    }
}
