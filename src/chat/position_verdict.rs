//! The board verdict: what the rules core found when it checked a line's mentions against
//! the position at the line's ply. The board check (`context.rs`) builds it, the line's
//! context carries it, and the FFA classifier (`ffa.rs`) reads it.

use super::types::PositionEvidence;

/// What the rules engine found when it checked the line's mentions against the
/// position at the line's ply. Every field is optional: fill in what was checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PositionVerdict {
    pub ply: u32,
    pub fen4: String,
    /// A mentioned move is legal now for a player other than the sender.
    pub move_legal_for_other: Option<bool>,
    /// A mentioned piece is attacked and undefended now.
    pub piece_hanging: Option<bool>,
    /// A mentioned seat is still in the game.
    pub seat_active: Option<bool>,
    /// A mentioned move would clearly be bad for the player it is suggested to.
    pub move_clearly_bad: Option<bool>,
    /// The sender's last move (within the last round) gave check: a bare "check" is its
    /// announcement. Filled in for lines that read as a bare check.
    pub sender_gave_check: Option<bool>,
}

impl PositionVerdict {
    /// The position shows the mentioned thing still matters for the game.
    pub(super) fn confirms(&self) -> bool {
        self.move_legal_for_other == Some(true) || self.piece_hanging == Some(true)
    }

    /// The position shows the line can no longer influence the game.
    pub(super) fn refutes(&self) -> bool {
        self.move_legal_for_other == Some(false)
            || self.piece_hanging == Some(false)
            || self.seat_active == Some(false)
    }

    pub(super) fn evidence(&self, finding: &str) -> PositionEvidence {
        PositionEvidence {
            ply: self.ply,
            fen4: self.fen4.clone(),
            finding: finding.to_string(),
        }
    }
}
