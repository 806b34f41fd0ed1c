//! `[conduct]` settings: whether conduct is tracked at ingest and how the applier batches.

use serde::{Deserialize, Serialize};

/// Conduct tracking at ingest (outcomes, player records, signals); thresholds in
/// `config/conduct.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConductSettings {
    /// Record outcomes and update player records when a game is stored.
    pub enabled: bool,
    /// How often the conduct applier looks for stored games not yet applied to their
    /// players' records (milliseconds). A full batch is followed by the next at once.
    pub apply_interval_ms: u64,
    /// Most stored games the applier applies in one transaction.
    pub apply_batch: u32,
}

/// Bounds of `[conduct] apply_batch` (its ids are bound parameters of one statement).
pub const MAX_CONDUCT_APPLY_BATCH: u32 = 5000;
/// Upper bound of `[conduct] apply_interval_ms`: records may not trail ingest by more.
pub const MAX_CONDUCT_APPLY_INTERVAL_MS: u64 = 60_000;
