//! What an admin does with a case: dismiss it (unjustified or not actionable), warn, or
//! sanction.

use super::abuse::ReportOutcome;
use super::types::{DecisionKind, SanctionDuration, SanctionKind};

/// What the admin does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionAction {
    DismissUnjustified,
    DismissNotActionable,
    Warn,
    Sanction {
        sanction: SanctionKind,
        duration: SanctionDuration,
    },
}

impl DecisionAction {
    pub fn kind(&self) -> DecisionKind {
        match self {
            DecisionAction::DismissUnjustified => DecisionKind::DismissUnjustified,
            DecisionAction::DismissNotActionable => DecisionKind::DismissNotActionable,
            DecisionAction::Warn => DecisionKind::Warn,
            DecisionAction::Sanction { .. } => DecisionKind::Sanction,
        }
    }

    /// How the case's reports count for their reporters.
    pub fn report_outcome(&self) -> ReportOutcome {
        match self {
            DecisionAction::DismissUnjustified => ReportOutcome::DismissedUnjustified,
            DecisionAction::DismissNotActionable => ReportOutcome::DismissedNotActionable,
            DecisionAction::Warn | DecisionAction::Sanction { .. } => ReportOutcome::Upheld,
        }
    }
}
