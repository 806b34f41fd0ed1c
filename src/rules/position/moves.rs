//! Moves and move lists: what a move is, the fixed-capacity buffer move generation fills,
//! and what a made move did.

use std::fmt;

use crate::rules::geometry::{Geometry, Seat, Square};
use crate::rules::piece::{Piece, PieceKind};

/// Capacity of a move list (far above any reachable count of legal moves).
pub const MAX_MOVES: usize = 1024;

/// Kind of move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    DoublePush,
    EnPassant,
    CastleShort,
    CastleLong,
}

/// A move: from, to, kind and the promotion piece code (0 when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub promotion: u8,
}

impl Move {
    const NULL: Move = Move {
        from: 0,
        to: 0,
        kind: MoveKind::Normal,
        promotion: 0,
    };

    pub fn promotion_kind(&self) -> Option<PieceKind> {
        PieceKind::from_code(self.promotion)
    }

    /// Long algebraic text without piece letter or capture info: `h2-h3`, `g7-g8=D`, `O-O`.
    pub fn coordinate_text(&self) -> String {
        match self.kind {
            MoveKind::CastleShort => "O-O".into(),
            MoveKind::CastleLong => "O-O-O".into(),
            _ => {
                let mut s = format!("{}-{}", Geometry::name(self.from), Geometry::name(self.to));
                if let Some(k) = self.promotion_kind() {
                    s.push('=');
                    s.push(k.letter());
                }
                s
            }
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.coordinate_text())
    }
}

/// Fixed-capacity move buffer: move generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub(super) fn retain(&mut self, keep: impl FnMut(&Move) -> bool) {
        self.retain_from(0, keep);
    }

    /// Keep the moves from index `start` on that pass `keep` (earlier ones always stay).
    pub(super) fn retain_from(&mut self, start: usize, mut keep: impl FnMut(&Move) -> bool) {
        let mut w = start;
        for r in start..self.len {
            let mv = self.moves[r];
            if keep(&mv) {
                self.moves[w] = mv;
                w += 1;
            }
        }
        self.len = w;
    }
}

/// What a made move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveEffect {
    pub mover: Seat,
    pub piece: Piece,
    /// The captured piece (as it was: live or dead) and its square.
    pub captured: Option<(Piece, Square)>,
    /// A live king was captured: its seat is now out.
    pub king_captured: Option<Seat>,
}
