//! Pieces and their one-byte encoding on the mailbox board.
//!
//! A cell byte is `EMPTY`, `OFF` (not a square) or `seat << 4 | dead << 3 | kind`. A live piece
//! of seat `s` and kind `k` is exactly `s << 4 | k`, so attack tests compare one byte.

use serde::{Deserialize, Serialize};

use super::geometry::Seat;

pub const EMPTY: u8 = 0;
pub const OFF: u8 = 0x80;
pub const DEAD: u8 = 0x08;

/// Kind of a piece. `OnePointQueen` moves like a queen but is worth 1 point (FFA `=D`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
    OnePointQueen = 7,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
        PieceKind::OnePointQueen,
    ];

    pub fn from_code(code: u8) -> Option<PieceKind> {
        match code & 7 {
            1 => Some(PieceKind::Pawn),
            2 => Some(PieceKind::Knight),
            3 => Some(PieceKind::Bishop),
            4 => Some(PieceKind::Rook),
            5 => Some(PieceKind::Queen),
            6 => Some(PieceKind::King),
            7 => Some(PieceKind::OnePointQueen),
            _ => None,
        }
    }

    /// Letter in PGN4/FEN4: `P N B R Q K D`.
    /// The piece's name in prose (explanations, chat verdicts).
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
            PieceKind::OnePointQueen => "1-point queen",
        }
    }

    pub fn letter(self) -> char {
        ['?', 'P', 'N', 'B', 'R', 'Q', 'K', 'D'][self as usize]
    }

    pub fn from_letter(c: char) -> Option<PieceKind> {
        match c {
            'P' => Some(PieceKind::Pawn),
            'N' => Some(PieceKind::Knight),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'Q' => Some(PieceKind::Queen),
            'K' => Some(PieceKind::King),
            'D' => Some(PieceKind::OnePointQueen),
            _ => None,
        }
    }

    /// FFA capture value of an active piece (docs/scoring.md, "The rules and their evidence").
    pub fn ffa_value(self) -> i32 {
        match self {
            PieceKind::Pawn | PieceKind::OnePointQueen => 1,
            PieceKind::Knight => 3,
            PieceKind::Bishop | PieceKind::Rook => 5,
            PieceKind::Queen => 9,
            PieceKind::King => 20,
        }
    }

    /// Moves like a queen (queen or 1-point queen).
    pub fn is_queenlike(self) -> bool {
        matches!(self, PieceKind::Queen | PieceKind::OnePointQueen)
    }
}

/// A decoded piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub seat: Seat,
    pub kind: PieceKind,
    /// Inert: belongs to an eliminated player; blocks, never attacks.
    pub dead: bool,
}

impl Piece {
    pub fn new(seat: Seat, kind: PieceKind) -> Piece {
        Piece {
            seat,
            kind,
            dead: false,
        }
    }

    pub fn code(self) -> u8 {
        ((self.seat as u8) << 4) | if self.dead { DEAD } else { 0 } | self.kind as u8
    }

    /// Decode a cell byte; `None` for empty and off-board cells.
    pub fn from_code(code: u8) -> Option<Piece> {
        if code == EMPTY || code & OFF != 0 {
            return None;
        }
        Some(Piece {
            seat: Seat::from_index((code >> 4) as usize),
            kind: PieceKind::from_code(code)?,
            dead: code & DEAD != 0,
        })
    }
}

/// Cell holds a piece (live or dead).
#[inline(always)]
pub fn is_piece(code: u8) -> bool {
    code != EMPTY && code & OFF == 0
}

/// Cell holds a live piece.
#[inline(always)]
pub fn is_live(code: u8) -> bool {
    code != EMPTY && code & (OFF | DEAD) == 0
}

#[inline(always)]
pub fn seat_of(code: u8) -> usize {
    ((code >> 4) & 3) as usize
}

#[inline(always)]
pub fn kind_of(code: u8) -> u8 {
    code & 7
}

pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;
pub const ONE_POINT_QUEEN: u8 = 7;

/// Kind codes that slide along ranks and files.
#[inline(always)]
pub fn slides_orthogonally(kind: u8) -> bool {
    matches!(kind, ROOK | QUEEN | ONE_POINT_QUEEN)
}

/// Kind codes that slide along diagonals.
#[inline(always)]
pub fn slides_diagonally(kind: u8) -> bool {
    matches!(kind, BISHOP | QUEEN | ONE_POINT_QUEEN)
}
