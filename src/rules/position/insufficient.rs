//! Insufficient material as the site judges it, read from the position alone (no tags), so
//! replay and the conduct rules see the end the site saw.

use super::{Position, SeatStatus};
use crate::rules::piece::PieceKind;

impl Position {
    /// No player still in play can mate (`docs/scoring.md`): no pawn, rook or queen of either
    /// kind is left to any of them, and either every one has a lone king (docs/rules.md,
    /// "Multiplayer chess proposal"; `ffa/cc_game_0134`), or one player is still active and has
    /// a single bishop or knight against walking kings (`ffa/cc_game_0100`, `cc_game_0091`: the
    /// game ends when the second-last active player resigns). A king and a minor piece against
    /// another active king is not enough: the site plays on (`ffa/cc_game_0091` from ply 442,
    /// `cc_game_0192_4pco` from ply 212).
    pub fn insufficient_material(&self) -> bool {
        let mut minors = 0;
        for seat in self.seats_in_play() {
            for &sq in self.pieces_of(seat) {
                match self.piece_at(sq) {
                    Some(p) if p.dead || p.kind == PieceKind::King => {}
                    Some(p) if matches!(p.kind, PieceKind::Bishop | PieceKind::Knight) => {
                        minors += 1;
                    }
                    Some(_) => return false,
                    None => {}
                }
            }
        }
        let active = self
            .seats_in_play()
            .filter(|&s| self.status(s) == SeatStatus::Active)
            .count();
        minors == 0 || (minors == 1 && active == 1)
    }
}
