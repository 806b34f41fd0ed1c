//! Steps on the padded mailbox board: the direction tables of the pieces and the helpers that
//! walk them.

use crate::rules::geometry::{Geometry, Seat, Square, STRIDE};

pub(super) const ORTHOGONAL: [i16; 4] = [1, -1, STRIDE, -STRIDE];
pub(super) const DIAGONAL: [i16; 4] = [STRIDE + 1, STRIDE - 1, -STRIDE + 1, -STRIDE - 1];
pub(super) const ALL_DIRECTIONS: [i16; 8] = [
    1,
    -1,
    STRIDE,
    -STRIDE,
    STRIDE + 1,
    STRIDE - 1,
    -STRIDE + 1,
    -STRIDE - 1,
];
pub(super) const KNIGHT_JUMPS: [i16; 8] = [
    2 * STRIDE + 1,
    2 * STRIDE - 1,
    -2 * STRIDE + 1,
    -2 * STRIDE - 1,
    STRIDE + 2,
    STRIDE - 2,
    -STRIDE + 2,
    -STRIDE - 2,
];

#[inline(always)]
pub(super) fn step(sq: Square, d: i16) -> Square {
    (sq as i16 + d) as Square
}

/// The two diagonal steps of a pawn of `seat` toward the squares it captures on.
#[inline(always)]
pub(super) fn pawn_capture_steps(seat: usize) -> [i16; 2] {
    let s = Seat::from_index(seat);
    [s.forward() + s.sideways(), s.forward() - s.sideways()]
}

/// Step from `a` toward `b` if they share a rank or file.
pub(super) fn direction_between(a: Square, b: Square) -> Option<i16> {
    let (af, ar) = Geometry::file_rank(a);
    let (bf, br) = Geometry::file_rank(b);
    if ar == br && af != bf {
        Some(if bf > af { 1 } else { -1 })
    } else if af == bf && ar != br {
        Some(if br > ar { STRIDE } else { -STRIDE })
    } else {
        None
    }
}
