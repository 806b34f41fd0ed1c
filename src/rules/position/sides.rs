//! Who opposes whom: the seats a seat attacks and may capture (in Teams partners are spared),
//! and which pieces are capturable at all.

use super::Position;
use crate::rules::geometry::Seat;
use crate::rules::piece::{is_piece, seat_of, DEAD};

impl Position {
    /// Seats whose live pieces attack `seat` (all others; in Teams the two opponents).
    #[inline(always)]
    pub(super) fn enemy_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            (1 << ((seat + 1) & 3)) | (1 << ((seat + 3) & 3))
        } else {
            0x0F & !(1 << seat)
        }
    }

    /// Seats whose pieces `seat` may not capture (itself and, in Teams, its partner).
    #[inline(always)]
    pub(super) fn friendly_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            (1 << seat) | (1 << ((seat + 2) & 3))
        } else {
            1 << seat
        }
    }

    /// Whether `attacker` and `victim` are opponents (in Teams partners are not).
    pub fn are_opponents(&self, a: Seat, b: Seat) -> bool {
        a != b && (!self.rules.teams || a.partner() != b)
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
