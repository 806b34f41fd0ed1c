//! Responses of working a case: a claim, a release and a decision.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::views::sanctions::SanctionView;
use crate::api::views::warnings::WarningView;
use crate::moderation::{DecisionKind, Ground, LadderStep, ReportOutcome};

/// A running claim.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimView {
    pub case_id: i64,
    pub claimed_by: String,
    pub claimed_until: DateTime<Utc>,
    pub outcome: ClaimOutcomeName,
}

/// `claimed`, `taken_over` (another admin's claim had expired) or `renewed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClaimOutcomeName {
    Claimed,
    TakenOver,
    Renewed,
}

/// A released claim.
#[derive(Debug, Serialize, ToSchema)]
pub struct Released {
    pub case_id: i64,
    pub released: bool,
}

/// A report timeout a decision gave a reporter.
#[derive(Debug, Serialize, ToSchema)]
pub struct TimeoutView {
    pub player: String,
    /// 1 for the first step of the ladder (1 day), 2 for the second (7 days)...
    pub level: u32,
    pub starts_at: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

/// What a decision did.
#[derive(Debug, Serialize, ToSchema)]
pub struct DecisionView {
    pub decision_id: i64,
    pub case_id: i64,
    pub accused: String,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    /// Distinct games behind the decision.
    pub evidence_games: Vec<i64>,
    /// How the case's reports count for their reporters.
    pub report_outcome: ReportOutcome,
    pub sanction: Option<SanctionView>,
    /// A warning decision's warning, as the player is told it.
    pub warning: Option<WarningView>,
    pub report_timeouts: Vec<TimeoutView>,
    /// The escalation ladder's suggestion for the accused's next offence of this kind.
    #[schema(value_type = Object)]
    pub next_step: LadderStep,
    /// A separation's members by name, the accused first; empty for any other decision.
    pub separated: Vec<String>,
    pub decided_at: DateTime<Utc>,
}

/// An admin's own entry and the case it opened or joined.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminEntryView {
    pub case_id: i64,
    pub report_id: i64,
    /// True when the entry opened the case; false when it joined the accused's open case of
    /// that reason.
    pub opened: bool,
}
