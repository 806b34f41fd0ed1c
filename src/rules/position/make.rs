//! Changing a position: making a move, passing the turn, eliminating a player and adding
//! points.

use super::directions::{direction_between, step};
use super::state::{CASTLE_LONG, CASTLE_SHORT};
use super::{Move, MoveEffect, MoveKind, Position, SeatStatus};
use crate::rules::geometry::{Seat, Square};
use crate::rules::piece::*;
use crate::rules::ruleset::EnPassant;

/// What happens to an eliminated player's king.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KingFate {
    /// Stays on the board as an inert piece (the site).
    Dead,
    /// Keeps moving automatically (`DeadKingWalking`).
    Walking,
    /// Leaves the board (docs/rules.md, "Multiplayer chess proposal", "Quatro Chess").
    Removed,
}

impl Position {
    /// Play a move of the side to move (assumed legal) and pass the turn to the next seat in
    /// play. Capturing a live king puts its seat out.
    pub fn make(&mut self, mv: Move) -> MoveEffect {
        let s = self.turn.index();
        let effect = self.make_board_only(mv, s);
        self.advance_turn();
        effect
    }

    /// Pass the turn to the next seat (clockwise) that is still in play. The game rules call it
    /// when the seat to move has just gone out.
    pub(in crate::rules) fn advance_turn(&mut self) {
        let s = self.turn.index();
        for i in 1..=4 {
            let next = (s + i) & 3;
            if self.status[next] != SeatStatus::Out {
                self.set_turn(Seat::from_index(next));
                return;
            }
        }
    }

    /// A copy with the turn given to `seat`, to ask which moves `seat` would have here; a copy
    /// so that the position itself changes only through its moves.
    pub fn with_turn(&self, seat: Seat) -> Position {
        let mut copy = *self;
        copy.set_turn(seat);
        copy
    }

    /// Take a player out of play: their army becomes inert (dead); the king stays dead, keeps
    /// walking, or leaves the board.
    pub(in crate::rules) fn eliminate(&mut self, seat: Seat, king: KingFate) {
        let s = seat.index();
        let status = if king == KingFate::Walking {
            SeatStatus::Walking
        } else {
            SeatStatus::Out
        };
        self.set_status(s, status);
        self.set_ep(s, 0);
        let mut i = 0;
        while i < self.piece_count[s] as usize {
            let sq = self.pieces[s][i];
            let code = self.board[sq as usize];
            if kind_of(code) == KING {
                match king {
                    KingFate::Walking => {}
                    KingFate::Dead => self.set_cell(sq, code | DEAD),
                    KingFate::Removed => {
                        self.set_cell(sq, EMPTY);
                        self.kings[s] = 0;
                        self.remove_from_list(s, sq);
                        continue;
                    }
                }
            } else {
                self.set_cell(sq, code | DEAD);
            }
            i += 1;
        }
        if king != KingFate::Walking && self.castling[s] != 0 {
            self.set_castling(s, 0);
        }
    }

    /// Add to a seat's points: what scores is decided by the game rules, not the position.
    pub(in crate::rules) fn add_points(&mut self, seat: Seat, points: i32) {
        self.points[seat.index()] += points;
    }

    /// Board part of a move by seat `s`: pieces, rights, e.p. fields, clock, king capture.
    pub(super) fn make_board_only(&mut self, mv: Move, s: usize) -> MoveEffect {
        let code = self.board[mv.from as usize];
        let piece =
            Piece::from_code(code).unwrap_or(Piece::new(Seat::from_index(s), PieceKind::Pawn));
        let capture_sq = self.capture_square(mv, s);
        self.close_en_passant_windows(s);
        let (captured, king_captured) = self.take_victim(capture_sq);
        self.move_piece(mv, s, code);
        if matches!(mv.kind, MoveKind::CastleShort | MoveKind::CastleLong) {
            self.move_castling_rook(mv, s);
        }
        if self.castling.iter().any(|&c| c != 0) {
            self.drop_rook_rights(mv.from, capture_sq);
        }
        if mv.kind == MoveKind::DoublePush {
            self.set_ep(s, step(mv.from, Seat::from_index(s).forward()));
        }
        if kind_of(code) == PAWN || captured.is_some() {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if let Some(victim) = king_captured {
            self.eliminate(victim, KingFate::Removed);
        }
        MoveEffect {
            mover: Seat::from_index(s),
            piece,
            captured,
            king_captured,
        }
    }

    /// The square a move by seat `s` captures on: its target, or for en passant the pawn that
    /// skipped that square (the target itself when no seat's field names it).
    #[inline(always)]
    fn capture_square(&self, mv: Move, s: usize) -> Square {
        if mv.kind == MoveKind::EnPassant {
            (0..4)
                .find(|&p| p != s && self.ep[p] == mv.to)
                .map(|p| step(mv.to, Seat::from_index(p).forward()))
                .unwrap_or(mv.to)
        } else {
            mv.to
        }
    }

    /// En-passant window: the mover's own field always ends; with the narrow window every
    /// field ends once anyone moves.
    #[inline(always)]
    fn close_en_passant_windows(&mut self, s: usize) {
        match self.rules.en_passant {
            EnPassant::NextPlayer => {
                for p in 0..4 {
                    self.set_ep(p, 0);
                }
            }
            _ => self.set_ep(s, 0),
        }
    }

    /// Removes whatever stands on `capture_sq`: the captured piece and its square, and the
    /// seat whose live king it was.
    #[inline(always)]
    fn take_victim(&mut self, capture_sq: Square) -> (Option<(Piece, Square)>, Option<Seat>) {
        let mut captured = None;
        let mut king_captured = None;
        let victim_code = self.board[capture_sq as usize];
        if is_piece(victim_code) {
            let victim_seat = seat_of(victim_code);
            self.remove_from_list(victim_seat, capture_sq);
            self.set_cell(capture_sq, EMPTY);
            if let Some(victim) = Piece::from_code(victim_code) {
                captured = Some((victim, capture_sq));
                if victim.kind == PieceKind::King && self.kings[victim_seat] == capture_sq {
                    self.kings[victim_seat] = 0;
                    if victim_code & DEAD == 0 {
                        king_captured = Some(victim.seat);
                    }
                }
            }
        }
        (captured, king_captured)
    }

    /// Moves the piece (`code`) from its square to the target, promoted if the move says so;
    /// a king moving gives up its castling rights.
    #[inline(always)]
    fn move_piece(&mut self, mv: Move, s: usize, code: u8) {
        let placed = if mv.promotion != 0 {
            ((s as u8) << 4) | mv.promotion
        } else {
            code
        };
        self.set_cell(mv.from, EMPTY);
        self.set_cell(mv.to, placed);
        self.relocate_in_list(s, mv.from, mv.to);
        if kind_of(code) == KING {
            self.kings[s] = mv.to;
            if self.castling[s] != 0 {
                self.set_castling(s, 0);
            }
        }
    }

    /// The rook of a castling move lands on the square the king crossed.
    #[inline]
    fn move_castling_rook(&mut self, mv: Move, s: usize) {
        let side = usize::from(mv.kind == MoveKind::CastleLong);
        let rook = self.castle_rooks[s][side];
        if let Some(d) = direction_between(mv.from, rook) {
            let rook_to = step(mv.from, d);
            let rook_code = self.board[rook as usize];
            self.set_cell(rook, EMPTY);
            self.set_cell(rook_to, rook_code);
            self.relocate_in_list(s, rook, rook_to);
        }
    }

    /// A rook leaving or captured on its castling square takes that side's right with it.
    #[inline]
    fn drop_rook_rights(&mut self, from: Square, capture_sq: Square) {
        for seat in 0..4 {
            for (side, bit) in [(0, CASTLE_SHORT), (1, CASTLE_LONG)] {
                let r = self.castle_rooks[seat][side];
                if self.castling[seat] & bit != 0 && (r == from || r == capture_sq) {
                    let bits = self.castling[seat] & !bit;
                    self.set_castling(seat, bits);
                }
            }
        }
    }

    fn remove_from_list(&mut self, seat: usize, sq: Square) {
        let n = self.piece_count[seat] as usize;
        for i in 0..n {
            if self.pieces[seat][i] == sq {
                self.pieces[seat][i] = self.pieces[seat][n - 1];
                self.piece_count[seat] -= 1;
                return;
            }
        }
    }

    fn relocate_in_list(&mut self, seat: usize, from: Square, to: Square) {
        let n = self.piece_count[seat] as usize;
        for i in 0..n {
            if self.pieces[seat][i] == from {
                self.pieces[seat][i] = to;
                return;
            }
        }
    }
}
