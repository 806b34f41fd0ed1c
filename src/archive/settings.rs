//! `[archive]` settings.

use serde::{Deserialize, Serialize};

/// How archived games are judged.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveSettings {
    /// Which rule text decides whether a game counts as aborted.
    pub abort_rule: crate::conduct::abort::AbortPreset,
}
