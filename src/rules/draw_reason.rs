//! Why a game was drawn.

use std::fmt;

/// Why a game was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Stalemate,
    FiftyMoves,
    Repetition,
    InsufficientMaterial,
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::Stalemate => "stalemate",
            DrawReason::FiftyMoves => "50-move rule",
            DrawReason::Repetition => "threefold repetition",
            DrawReason::InsufficientMaterial => "insufficient material",
        })
    }
}
