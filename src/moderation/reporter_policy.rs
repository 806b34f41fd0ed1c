//! What reporters learn of a measure (`config/moderation.toml`, `[reporters]`): a file of its
//! own so the moderation policy can hold it without importing what reporters are told.

use serde::{Deserialize, Serialize};

/// How much of the measure a reporter learns (`config/moderation.toml`, `[reporters]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disclosure {
    /// Only that action was taken (a warning or a sanction), not which or how long.
    ActionTaken,
    /// The measure: a warning, or the sanction's kind and length.
    Measure,
}

/// What reporters are told (`config/moderation.toml`, `[reporters]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReporterPolicy {
    pub disclose: Disclosure,
}

impl Default for ReporterPolicy {
    fn default() -> Self {
        ReporterPolicy {
            disclose: Disclosure::ActionTaken,
        }
    }
}
