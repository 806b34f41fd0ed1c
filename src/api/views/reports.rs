//! A player's own report and the answer to a filing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::ReportStatus;
use crate::moderation::{ReportOutcome, ReportReason};
use crate::store::reports::OwnReport;
use crate::store::to_utc;

/// One of the caller's own reports. Never shows other reporters or admin notes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportView {
    pub id: i64,
    pub reason: ReportReason,
    pub accused: Vec<String>,
    /// The game number the report was filed from.
    pub game: Option<i64>,
    pub supporting_games: Vec<i64>,
    pub message: Option<String>,
    pub filed_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// `open` until an admin decides the report's case, then `decided`.
    pub status: ReportStatus,
    /// Set once decided.
    pub outcome: Option<ReportOutcome>,
    pub decided_at: Option<DateTime<Utc>>,
}

impl ReportView {
    pub fn from_own(r: OwnReport) -> Result<ReportView, ApiError> {
        Ok(ReportView {
            id: r.id.0,
            reason: r.reason,
            accused: r.accused,
            game: r.game,
            supporting_games: r.supporting_games,
            message: r.message,
            filed_at: to_utc(r.filed_at),
            updated_at: to_utc(r.updated_at),
            status: if r.outcome.is_some() {
                ReportStatus::Decided
            } else {
                ReportStatus::Open
            },
            outcome: r.outcome,
            decided_at: r.decided_at.map(to_utc),
        })
    }
}

/// The answer to a filing.
#[derive(Debug, Serialize, ToSchema)]
pub struct FiledReport {
    /// True when the filing was merged into the caller's earlier report about the same game
    /// and reason (200) rather than stored as a new one (201).
    pub merged: bool,
    /// True when the merged message was cut to the message limit.
    pub message_truncated: bool,
    pub report: ReportView,
}
