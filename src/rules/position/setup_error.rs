//! Why a position could not be set up (named setups, piece lists, FEN4 records).

use std::fmt;

use super::MAX_PIECES;
use crate::rules::geometry::Seat;

/// A position could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A piece letter this core cannot play (fairy pieces).
    UnsupportedPiece {
        letter: char,
        square: String,
    },
    /// Walls (`X`) on real squares: custom board shapes are not supported.
    UnsupportedWall {
        square: String,
    },
    BadSeat {
        letter: char,
        square: String,
    },
    RowCount {
        expected: usize,
        found: usize,
    },
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    PieceOffBoard {
        square: String,
    },
    TooManyPieces {
        seat: Seat,
    },
    TwoKings {
        seat: Seat,
    },
    BadTurn(char),
    BadExtra(String),
    /// The named setup needs an 8-square arm.
    SetupNeedsEightWideArms,
    UnknownSetup(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnsupportedPiece { letter, square } => write!(
                f,
                "unsupported piece type '{letter}' on {square} (supported: P N B R Q K D)"
            ),
            SetupError::UnsupportedWall { square } => write!(
                f,
                "unsupported wall 'X' on {square} (custom board shapes are not supported)"
            ),
            SetupError::BadSeat { letter, square } => {
                write!(f, "unknown player colour '{letter}' on {square}")
            }
            SetupError::RowCount { expected, found } => {
                write!(f, "FEN4 has {found} rows, the board has {expected}")
            }
            SetupError::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "FEN4 row {row} covers {found} squares, the board is {expected} wide"
            ),
            SetupError::PieceOffBoard { square } => {
                write!(f, "piece on {square}, which is not a square of this board")
            }
            SetupError::TooManyPieces { seat } => {
                write!(f, "{seat} has more than {MAX_PIECES} pieces")
            }
            SetupError::TwoKings { seat } => write!(f, "{seat} has more than one king"),
            SetupError::BadTurn(c) => write!(f, "bad side to move '{c}'"),
            SetupError::BadExtra(s) => write!(f, "bad FEN4 extra {s}"),
            SetupError::SetupNeedsEightWideArms => {
                write!(f, "the named setups need arms 8 squares wide")
            }
            SetupError::UnknownSetup(s) => write!(f, "unknown setup '{s}'"),
        }
    }
}

impl std::error::Error for SetupError {}
