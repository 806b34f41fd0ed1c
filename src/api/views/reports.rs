//! A player's own report and the answer to a filing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::ReportStatus;
use crate::moderation::{
    reporter_notice, DecisionKind, DisclosedMeasure, ReportOutcome, ReportReason, ReporterPolicy,
    SanctionKind,
};
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
    /// Set once decided: whether a warning or a sanction followed.
    pub action_taken: Option<bool>,
    /// The measure, only where the site discloses it (`[reporters] disclose = "measure"`);
    /// otherwise null.
    pub measure: Option<MeasureView>,
    /// The moderators' note to reporters, if the decision carried one. Never their notes to
    /// each other or to the accused.
    pub reporter_note: Option<String>,
}

/// A measure as a reporter is told it.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeasureView {
    /// `warn` or `sanction`.
    pub decision: DecisionKind,
    /// The sanction's kind; null for a warning.
    pub sanction: Option<SanctionKind>,
    /// The sanction's length decided, in minutes; null for a warning or a permanent one.
    pub minutes: Option<u32>,
    pub permanent: bool,
}

impl From<DisclosedMeasure> for MeasureView {
    fn from(measure: DisclosedMeasure) -> Self {
        MeasureView {
            decision: measure.decision,
            sanction: measure.sanction,
            minutes: measure.minutes,
            permanent: measure.permanent,
        }
    }
}

impl ReportView {
    /// The report as its reporter sees it, what they learn of the measure as `policy` says.
    pub fn from_own(r: OwnReport, policy: &ReporterPolicy) -> Result<ReportView, ApiError> {
        let notice = r
            .outcome
            .map(|outcome| reporter_notice(outcome, r.measure, r.reporter_note, policy));
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
            action_taken: notice.as_ref().map(|n| n.action_taken),
            measure: notice
                .as_ref()
                .and_then(|n| n.measure)
                .map(|m| DisclosedMeasure::from(m).into()),
            reporter_note: notice.and_then(|n| n.note),
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
