//! Legal moves: check and pin detection from the king, and the filter that turns pseudo-legal
//! moves into legal ones (cheaply when not in check).

use super::directions::{pawn_capture_steps, step, ALL_DIRECTIONS, KNIGHT_JUMPS};
use super::{Move, MoveList, Position, SeatStatus};
use crate::rules::geometry::{Square, CELLS};
use crate::rules::piece::*;

impl Position {
    /// All legal moves of the side to move into `out` (cleared first).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out {
            return;
        }
        let king = self.kings[s];
        let enemies = self.enemy_mask(s);
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves(s, out, &[], false);
            return;
        }
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        let checked = self.king_safety(s, king, enemies, &mut pins, &mut pin_count);
        if checked {
            self.pseudo_moves(s, out, &[], false);
            out.retain(|mv| self.leaves_king_safe(*mv, s));
        } else {
            self.pseudo_moves(s, out, &pins[..pin_count], true);
        }
    }

    /// Number of legal moves (perft's last ply).
    pub fn count_legal_moves(&self, buf: &mut MoveList) -> usize {
        self.legal_moves(buf);
        buf.len()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut buf = MoveList::new();
        self.has_legal_move_with(&mut buf)
    }

    /// `has_legal_move` with a caller's buffer (no 1024-entry buffer set-up per call).
    pub fn has_legal_move_with(&self, buf: &mut MoveList) -> bool {
        buf.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out {
            return false;
        }
        let king = self.kings[s];
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves(s, buf, &[], false);
            return !buf.is_empty();
        }
        let enemies = self.enemy_mask(s);
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        if self.king_safety(s, king, enemies, &mut pins, &mut pin_count) {
            // In check: stop at the first pseudo-legal move that gets out of it.
            // King moves first: they are the usual way out.
            self.pseudo_moves(s, buf, &[], false);
            buf.iter()
                .filter(|mv| mv.from == king)
                .chain(buf.iter().filter(|mv| mv.from != king))
                .any(|mv| self.leaves_king_safe(*mv, s))
        } else {
            self.pseudo_moves(s, buf, &pins[..pin_count], true);
            !buf.is_empty()
        }
    }

    /// Legal moves of the piece on `from` (side to move), cheaper than generating them all:
    /// what a replay needs to check one written move.
    pub fn legal_moves_from(&self, from: Square, out: &mut MoveList) {
        out.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out || from as usize >= CELLS {
            return;
        }
        let king = self.kings[s];
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves_of(s, out, &[], false, Some(from));
            return;
        }
        let enemies = self.enemy_mask(s);
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        if self.king_safety(s, king, enemies, &mut pins, &mut pin_count) {
            self.pseudo_moves_of(s, out, &[], false, Some(from));
            out.retain(|mv| self.leaves_king_safe(*mv, s));
        } else {
            self.pseudo_moves_of(s, out, &pins[..pin_count], true, Some(from));
        }
    }

    /// Look from the king: are we in check, and which own pieces are pinned (square and ray)?
    pub(super) fn king_safety(
        &self,
        s: usize,
        king: Square,
        enemies: u8,
        pins: &mut [(Square, i16); 8],
        pin_count: &mut usize,
    ) -> bool {
        let b = &self.board;
        for &j in &KNIGHT_JUMPS {
            let c = b[step(king, j) as usize];
            if is_live(c) && kind_of(c) == KNIGHT && (enemies >> seat_of(c)) & 1 != 0 {
                return true;
            }
        }
        let mut checked = false;
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let slides = |k: u8| {
                if orth {
                    slides_orthogonally(k)
                } else {
                    slides_diagonally(k)
                }
            };
            let mut t = step(king, d);
            let mut dist = 1;
            while b[t as usize] == EMPTY {
                t = step(t, d);
                dist += 1;
            }
            let c = b[t as usize];
            if c == OFF {
                continue;
            }
            if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                let k = kind_of(c);
                if slides(k)
                    || (dist == 1
                        && (k == KING
                            || (!orth
                                && k == PAWN
                                && pawn_capture_steps(seat_of(c)).contains(&-d))))
                {
                    checked = true;
                }
                continue;
            }
            if seat_of(c) == s && c & DEAD == 0 {
                let pinned = t;
                let mut u = step(t, d);
                while b[u as usize] == EMPTY {
                    u = step(u, d);
                }
                let c2 = b[u as usize];
                if is_live(c2) && (enemies >> seat_of(c2)) & 1 != 0 && slides(kind_of(c2)) {
                    pins[*pin_count] = (pinned, d);
                    *pin_count += 1;
                }
            }
        }
        checked
    }

    /// After `mv` by seat `s`, is `s`'s king safe from live opponent pieces?
    pub(super) fn leaves_king_safe(&self, mv: Move, s: usize) -> bool {
        let mut next = *self;
        next.make_board_only(mv, s);
        let king = next.kings[s];
        king == 0 || !next.is_attacked_by(king, next.enemy_mask(s))
    }
}
