//! Points awarded in a points game, each with the scoring rule that gave it, so a disagreement
//! with the site's `Result` tag can be traced to one ply and one rule (`arbiter replay
//! --explain`).

use std::fmt;

use super::draw_reason::DrawReason;
use super::geometry::Seat;
use super::piece::PieceKind;

/// The scoring rule behind an award (docs/rules.md, "Site FFA rules" and "4 Man Chess", and
/// the real games where those texts are silent; see `docs/scoring.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoringRule {
    /// Capture of an active piece, worth its FFA value.
    Capture(PieceKind),
    /// Capture of a walking (resigned or timed-out) king.
    WalkingKingCaptured(Seat),
    Checkmate(Seat),
    /// Being stalemated on one's own turn.
    SelfStalemate,
    /// Another player stalemated (+10 to each remaining player in the 4 Man Chess Points Game:
    /// docs/rules.md, "4 Man Chess").
    OpponentStalemated(Seat),
    /// A walking king stalemated: its points shared among the active players.
    WalkingKingStalemated(Seat),
    /// One move checking two or three active kings.
    MultiCheck {
        kings: usize,
        reduced: bool,
    },
    /// Each remaining player's share of a draw.
    Draw(DrawReason),
    /// Walking kings left on the board at a draw, shared among the active players.
    WalkingKingsAtDraw(i32),
    /// Walking kings left on the board when one player remains.
    WalkingKingsToLastPlayer(i32),
    /// Every other king still in play, to the player who claims the win.
    ClaimedWin(i32),
}

impl fmt::Display for ScoringRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoringRule::Capture(kind) => write!(f, "captured an active {}", kind.name()),
            ScoringRule::WalkingKingCaptured(seat) => {
                write!(f, "captured {seat}'s walking king")
            }
            ScoringRule::Checkmate(seat) => write!(f, "checkmated {seat}"),
            ScoringRule::SelfStalemate => f.write_str("stalemated on own turn"),
            ScoringRule::OpponentStalemated(seat) => write!(f, "{seat} stalemated"),
            ScoringRule::WalkingKingStalemated(seat) => {
                write!(f, "share of {seat}'s stalemated walking king")
            }
            ScoringRule::MultiCheck { kings, reduced } => write!(
                f,
                "{} check{}",
                if *kings == 3 { "triple" } else { "double" },
                if *reduced { " (reduced bonus)" } else { "" }
            ),
            ScoringRule::Draw(reason) => write!(f, "draw by {reason}"),
            ScoringRule::WalkingKingsAtDraw(kings) => {
                write!(f, "share of {kings} walking king(s) at the draw")
            }
            ScoringRule::WalkingKingsToLastPlayer(kings) => {
                write!(f, "{kings} walking king(s) left to the last player")
            }
            ScoringRule::ClaimedWin(kings) => write!(f, "claimed the win over {kings} king(s)"),
        }
    }
}

/// Points given to one seat by one rule at one ply (0-based; the number of plies for awards
/// made after the last ply, such as a draw the `Termination` tag states).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Award {
    pub ply: usize,
    pub seat: Seat,
    pub points: i32,
    pub rule: ScoringRule,
}

impl fmt::Display for Award {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:+}: {}", self.seat, self.points, self.rule)
    }
}
