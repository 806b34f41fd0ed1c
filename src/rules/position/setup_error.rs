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
    /// A second king of one seat (live or dead): `first` is where the first one stands.
    TwoKings {
        seat: Seat,
        first: String,
        second: String,
    },
    /// A seat still in play (not marked eliminated) without a king.
    MissingKing {
        seat: Seat,
    },
    /// A seat still in play whose only king is written dead (`drK`): it could never move.
    KingMarkedDead {
        seat: Seat,
        square: String,
    },
    /// A live pawn on its seat's promotion rank: it should have promoted on arriving there.
    PawnOnPromotionRank {
        seat: Seat,
        square: String,
        /// The rule set's promotion rank, 1-based from the seat's own edge.
        rank: u8,
    },
    BadTurn(char),
    BadExtra(String),
    /// The named setup needs an 8-square arm.
    SetupNeedsEightWideArms,
    UnknownSetup(String),
    /// Empty or whitespace-only setup text (it used to mean `4PC` silently).
    EmptySetup,
    /// A named start for another board than the rule set's (`Quatro` with `ffa`).
    SetupForOtherBoard {
        setup: String,
        setup_squares: usize,
        rules_squares: usize,
    },
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
            SetupError::TwoKings {
                seat,
                first,
                second,
            } => write!(
                f,
                "{seat} has more than one king: on {first} and on {second}"
            ),
            SetupError::MissingKing { seat } => write!(
                f,
                "{seat} has no king but is still in play \
                 (mark {seat} eliminated in the FEN4's dead field if it is out)"
            ),
            SetupError::KingMarkedDead { seat, square } => write!(
                f,
                "{seat} is still in play but its king on {square} is written dead \
                 (write it live, or mark {seat} eliminated in the FEN4's dead field)"
            ),
            SetupError::PawnOnPromotionRank { seat, square, rank } => write!(
                f,
                "{seat} pawn on {square} stands on its promotion rank \
                 (rank {rank} from {seat}'s side) and should have promoted"
            ),
            SetupError::BadTurn(c) => write!(f, "bad side to move '{c}'"),
            SetupError::BadExtra(s) => write!(f, "bad FEN4 extra {s}"),
            SetupError::SetupNeedsEightWideArms => {
                write!(f, "the named setups need arms 8 squares wide")
            }
            SetupError::UnknownSetup(s) => write!(f, "unknown setup '{s}'"),
            SetupError::EmptySetup => {
                write!(
                    f,
                    "empty setup: give a FEN4 or a setup name (4PC, 4PCo, Quatro)"
                )
            }
            SetupError::SetupForOtherBoard {
                setup,
                setup_squares,
                rules_squares,
            } => write!(
                f,
                "setup '{setup}' is for the {setup_squares}-square board, but the rule set plays \
                 on the {rules_squares}-square board"
            ),
        }
    }
}

impl std::error::Error for SetupError {}
