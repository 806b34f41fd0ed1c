//! Who opposes whom: the seats a seat attacks and may capture (partners are spared),
//! and which pieces are capturable at all.

use super::Position;
use crate::rules::geometry::Seat;
use crate::rules::piece::{is_piece, seat_of, DEAD};

impl Position {
    /// Seats whose live pieces attack `seat`: all but its friends (partners, or the other
    /// colour of the same player).
    #[inline(always)]
    pub(super) fn enemy_mask(&self, seat: usize) -> u8 {
        0x0F & !self.rules.friends[seat]
    }

    /// Seats whose pieces `seat` may not capture: itself and its friends.
    #[inline(always)]
    pub(super) fn friendly_mask(&self, seat: usize) -> u8 {
        self.rules.friends[seat]
    }

    /// Whether `a` and `b` are opponents (neither the same seat nor friends).
    pub fn are_opponents(&self, a: Seat, b: Seat) -> bool {
        (self.rules.friends[a.index()] >> b.index()) & 1 == 0
    }

    /// Dead pieces belong to nobody: anyone may take them where the rules allow it, even
    /// their former owner's walking king (real games: `Kd14xd13` onto a dead Yellow pawn in
    /// `ffa/cc_game_0189_4pco`-style records).
    #[inline(always)]
    pub(super) fn capturable(&self, code: u8, friendly: u8) -> bool {
        is_piece(code)
            && if code & DEAD == 0 {
                (friendly >> seat_of(code)) & 1 == 0
            } else {
                self.rules.dead_capturable
            }
    }
}
