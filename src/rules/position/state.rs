//! The `Position` itself: its fields, its read-only accessors, and whether each seat still
//! takes turns. The fields are open to the rest of `position`, whose files add the other
//! methods.

use std::fmt;

use crate::rules::geometry::{Geometry, Seat, Square, CELLS};
use crate::rules::piece::*;
use crate::rules::ruleset::MoveRules;

/// Most pieces one seat may own (custom positions may exceed the usual 16).
pub const MAX_PIECES: usize = 32;

/// Bits of `Position::castling`.
pub(super) const CASTLE_SHORT: u8 = 1;
pub(super) const CASTLE_LONG: u8 = 2;

/// Whether a seat still takes turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeatStatus {
    /// Playing.
    Active,
    /// Resigned or timed out with `DeadKingWalking`: the army is dead, the king still moves
    /// (automatically) and can be captured for points.
    Walking,
    /// Out of the game: skipped in turn order.
    Out,
}

/// A four-player position.
#[derive(Clone, Copy)]
pub struct Position {
    pub(super) board: [u8; CELLS],
    pub(super) pieces: [[Square; MAX_PIECES]; 4],
    pub(super) piece_count: [u8; 4],
    /// Square of each seat's king (live or dead), 0 when it has none.
    pub(super) kings: [Square; 4],
    pub(super) turn: Seat,
    pub(super) status: [SeatStatus; 4],
    /// `CASTLE_SHORT | CASTLE_LONG` bits per seat.
    pub(super) castling: [u8; 4],
    /// Rook squares of each seat's short and long castling (0 when none).
    pub(super) castle_rooks: [[Square; 2]; 4],
    /// Square a seat's last double step skipped (0 when none).
    pub(super) ep: [Square; 4],
    pub(super) halfmove: u32,
    pub(super) points: [i32; 4],
    pub(super) hash: u64,
    pub(super) geometry: Geometry,
    pub(super) rules: MoveRules,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({})",
            crate::rules::fen4::write(&self.to_fen4())
        )
    }
}

impl PartialEq for Position {
    /// Same pieces on the same squares, same side to move, rights and status (points and the
    /// half-move clock included).
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry
            && self.turn == other.turn
            && self.status == other.status
            && self.castling == other.castling
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.points == other.points
            && self
                .geometry
                .squares()
                .all(|sq| self.board[sq as usize] == other.board[sq as usize])
    }
}

impl Position {
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn rules(&self) -> &MoveRules {
        &self.rules
    }

    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn status(&self, seat: Seat) -> SeatStatus {
        self.status[seat.index()]
    }

    pub fn points(&self) -> [i32; 4] {
        self.points
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq as usize >= CELLS {
            return None;
        }
        Piece::from_code(self.board[sq as usize])
    }

    pub fn king_square(&self, seat: Seat) -> Option<Square> {
        match self.kings[seat.index()] {
            0 => None,
            sq => Some(sq),
        }
    }

    /// Squares of all pieces (live and dead) of a seat.
    pub fn pieces_of(&self, seat: Seat) -> &[Square] {
        let s = seat.index();
        &self.pieces[s][..self.piece_count[s] as usize]
    }

    /// Seats still taking turns (active or walking).
    pub fn seats_in_play(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(|s| self.status[s.index()] != SeatStatus::Out)
    }

    pub fn castling_rights(&self, seat: Seat) -> (bool, bool) {
        let c = self.castling[seat.index()];
        (c & CASTLE_SHORT != 0, c & CASTLE_LONG != 0)
    }

    /// Square skipped by `seat`'s last double step, while it may still be taken en passant.
    pub fn en_passant_square(&self, seat: Seat) -> Option<Square> {
        match self.ep[seat.index()] {
            0 => None,
            sq => Some(sq),
        }
    }

    /// Material per seat: (live piece count, FFA value of live pieces excluding the king).
    pub fn material(&self, seat: Seat) -> (usize, i32) {
        let mut count = 0;
        let mut value = 0;
        for &sq in self.pieces_of(seat) {
            if let Some(p) = self.piece_at(sq) {
                if !p.dead {
                    count += 1;
                    if p.kind != PieceKind::King {
                        value += p.kind.ffa_value();
                    }
                }
            }
        }
        (count, value)
    }
}
