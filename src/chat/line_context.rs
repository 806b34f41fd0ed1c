//! The situation a line was written in: the variant, the channel, whether the game was
//! still being played, and what the board showed when the rules core looked.

use super::position_verdict::PositionVerdict;

pub use crate::rules::variant::Variant;

/// Where a line was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Channel {
    #[default]
    Game,
    /// Teammates only (Teams games).
    Team,
    Spectator,
}

/// The situation a line was written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineContext {
    pub variant: Variant,
    pub channel: Channel,
    /// The game was still being played when the line was sent.
    pub in_progress: bool,
    /// Diplomacy games allow negotiation: the FFA chat rules do not apply.
    pub diplomacy: bool,
    /// What the rules engine found at the line's ply, when it has looked.
    pub position: Option<PositionVerdict>,
}

impl Default for LineContext {
    fn default() -> Self {
        LineContext::ffa_in_progress()
    }
}

impl LineContext {
    pub fn ffa_in_progress() -> LineContext {
        LineContext {
            variant: Variant::Ffa,
            channel: Channel::Game,
            in_progress: true,
            diplomacy: false,
            position: None,
        }
    }

    /// Whether the FFA chat rules (no begging, offering, suggesting, revealing,
    /// colluding) apply to this line.
    pub fn ffa_rules_apply(&self) -> bool {
        matches!(self.variant, Variant::Ffa | Variant::Solo)
            && self.channel == Channel::Game
            && self.in_progress
            && !self.diplomacy
    }
}
