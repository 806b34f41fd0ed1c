//! Whether warnings wait for the player's acknowledgement (`config/moderation.toml`,
//! `[warnings]`): a file of its own so the moderation policy can hold it without importing
//! warnings and their texts.

use serde::{Deserialize, Serialize};

/// Whether warnings wait for the player's acknowledgement (`config/moderation.toml`,
/// `[warnings]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarningPolicy {
    /// On: a new warning is shown in the player's standing until they acknowledge it.
    pub require_acknowledgement: bool,
}

impl Default for WarningPolicy {
    fn default() -> Self {
        WarningPolicy {
            require_acknowledgement: true,
        }
    }
}
