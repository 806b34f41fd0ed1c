//! When an upheld case owes refunds (`config/moderation.toml`, `[refunds]`): a file of its own
//! so the moderation policy can hold it without importing the refund computation.

use serde::{Deserialize, Serialize};

use super::types::ReportReason;

/// When refunds are owed and which games count (`config/moderation.toml`, `[refunds]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefundPolicy {
    /// Off: no refund is ever worked out.
    pub enabled: bool,
    /// Besides the case's own games, every game the offenders shared in this many days before
    /// the decision counts (0: the case's games only).
    pub shared_games_window_days: u32,
    /// The report reasons whose upheld cases owe refunds.
    pub reasons: Vec<ReportReason>,
}

impl Default for RefundPolicy {
    fn default() -> Self {
        RefundPolicy {
            enabled: true,
            shared_games_window_days: 30,
            reasons: vec![
                ReportReason::PrearrangedTeaming,
                ReportReason::SelfPartnering,
                ReportReason::Abandoning,
            ],
        }
    }
}
