//! The variant family a game belongs to, as moderation and the chat rules tell games apart.
//! The rules core itself plays from a `ruleset::RuleSet`; this is the coarser name the site
//! shows in its lobby.

use serde::{Deserialize, Serialize};

/// The game variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Teams,
    Ffa,
    Solo,
    /// Anything else (custom or experimental variants).
    Other,
}

impl Variant {
    /// FFA-only report reasons and chat rules apply to every-player-for-themselves games: FFA
    /// and Solo (Solo is rated FFA, winner takes all).
    pub fn is_free_for_all(self) -> bool {
        matches!(self, Variant::Ffa | Variant::Solo)
    }
}
