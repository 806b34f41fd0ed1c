//! Attack queries: whether a square is attacked, whether a king is in check, and which pieces
//! of a seat give a check.

use super::directions::{pawn_capture_steps, step, ALL_DIRECTIONS, KNIGHT_JUMPS};
use super::Position;
use crate::rules::geometry::{Seat, Square};
use crate::rules::piece::*;

impl Position {
    /// Whether a live piece of a seat in `enemies` (bit mask) attacks `sq`.
    pub fn is_attacked_by(&self, sq: Square, enemies: u8) -> bool {
        let b = &self.board;
        for &j in &KNIGHT_JUMPS {
            let c = b[step(sq, j) as usize];
            if is_live(c) && kind_of(c) == KNIGHT && (enemies >> seat_of(c)) & 1 != 0 {
                return true;
            }
        }
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let mut t = step(sq, d);
            let mut c = b[t as usize];
            if c != EMPTY {
                if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                    let k = kind_of(c);
                    if k == KING
                        || (if orth {
                            slides_orthogonally(k)
                        } else {
                            slides_diagonally(k)
                                || (k == PAWN && pawn_capture_steps(seat_of(c)).contains(&-d))
                        })
                    {
                        return true;
                    }
                }
                continue;
            }
            loop {
                t = step(t, d);
                c = b[t as usize];
                if c != EMPTY {
                    break;
                }
            }
            if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                let k = kind_of(c);
                if if orth {
                    slides_orthogonally(k)
                } else {
                    slides_diagonally(k)
                } {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `seat`'s king is attacked by a live piece of one of its opponents.
    pub fn in_check(&self, seat: Seat) -> bool {
        let k = self.kings[seat.index()];
        k != 0
            && is_live(self.board[k as usize])
            && self.is_attacked_by(k, self.enemy_mask(seat.index()))
    }

    /// Live pieces of `by` attacking `sq` (for checks given by a move).
    pub fn attackers_of_seat(&self, sq: Square, by: Seat) -> Vec<(Square, PieceKind)> {
        let mut found = Vec::new();
        let b = &self.board;
        let s = by.index();
        let live = |c: u8| is_live(c) && seat_of(c) == s;
        for &j in &KNIGHT_JUMPS {
            let t = step(sq, j);
            if live(b[t as usize]) && kind_of(b[t as usize]) == KNIGHT {
                found.push((t, PieceKind::Knight));
            }
        }
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let mut t = step(sq, d);
            let mut dist = 1;
            while b[t as usize] == EMPTY {
                t = step(t, d);
                dist += 1;
            }
            let c = b[t as usize];
            if !live(c) {
                continue;
            }
            let k = kind_of(c);
            let hits = if orth {
                slides_orthogonally(k)
            } else {
                slides_diagonally(k)
            } || (dist == 1
                && (k == KING || (!orth && k == PAWN && pawn_capture_steps(s).contains(&-d))));
            if hits {
                if let Some(kind) = PieceKind::from_code(k) {
                    found.push((t, kind));
                }
            }
        }
        found
    }
}
