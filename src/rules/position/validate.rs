//! The consistency check of a position (piece lists, king squares and the incremental hash
//! agree with the board) and the error naming the rule it found broken.

use std::fmt;

use super::Position;
use crate::rules::geometry::{Geometry, Seat, Square};
use crate::rules::piece::*;

/// The first consistency rule a position breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValidationError {
    /// A seat's piece list names a square that holds no piece of that seat.
    ListNamesWrongSquare { seat: Seat, square: Square },
    /// A king in a seat's piece list is not on the square kept as that seat's king.
    KingNotTracked { seat: Seat },
    /// The board holds a different number of pieces than the piece lists.
    PieceCountDiffers { on_board: usize, in_lists: usize },
    /// The incrementally kept hash differs from the hash computed from scratch.
    HashDiffers { incremental: u64, recomputed: u64 },
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Seats by index, as the check has always reported them.
        match self {
            ValidationError::ListNamesWrongSquare { seat, square } => write!(
                f,
                "list of seat {} names {} wrongly",
                seat.index(),
                Geometry::name(*square)
            ),
            ValidationError::KingNotTracked { seat } => {
                write!(f, "king of seat {} not tracked", seat.index())
            }
            ValidationError::PieceCountDiffers { on_board, in_lists } => {
                write!(f, "{on_board} pieces on the board, {in_lists} in lists")
            }
            ValidationError::HashDiffers { .. } => {
                write!(f, "incremental hash differs from recomputed hash")
            }
        }
    }
}

impl std::error::Error for ValidationError {}

impl Position {
    /// Consistency check used by tests: lists match the board, kings match, hash matches.
    pub fn validate(&self) -> Result<(), ValidationError> {
        let mut seen = 0usize;
        for seat in Seat::ALL {
            let s = seat.index();
            for &sq in self.pieces_of(seat) {
                let code = self.board[sq as usize];
                if !is_piece(code) || seat_of(code) != s {
                    return Err(ValidationError::ListNamesWrongSquare { seat, square: sq });
                }
                if kind_of(code) == KING && self.kings[s] != sq {
                    return Err(ValidationError::KingNotTracked { seat });
                }
            }
            seen += self.piece_count[s] as usize;
        }
        let on_board = self
            .geometry
            .squares()
            .filter(|&sq| is_piece(self.board[sq as usize]))
            .count();
        if on_board != seen {
            return Err(ValidationError::PieceCountDiffers {
                on_board,
                in_lists: seen,
            });
        }
        let recomputed = self.compute_hash();
        if self.hash != recomputed {
            return Err(ValidationError::HashDiffers {
                incremental: self.hash,
                recomputed,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ruleset::RuleSet;

    #[test]
    fn messages_name_the_broken_rule() {
        let e4 = Geometry::FOUR_PLAYER.parse_square("e4").expect("e4");
        let cases = [
            (
                ValidationError::ListNamesWrongSquare {
                    seat: Seat::Yellow,
                    square: e4,
                },
                "list of seat 2 names e4 wrongly",
            ),
            (
                ValidationError::KingNotTracked { seat: Seat::Blue },
                "king of seat 1 not tracked",
            ),
            (
                ValidationError::PieceCountDiffers {
                    on_board: 63,
                    in_lists: 64,
                },
                "63 pieces on the board, 64 in lists",
            ),
            (
                ValidationError::HashDiffers {
                    incremental: 1,
                    recomputed: 2,
                },
                "incremental hash differs from recomputed hash",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn a_start_position_is_consistent_and_a_stale_hash_is_found() {
        let mut pos = Position::standard(&RuleSet::teams(), false).expect("start");
        assert_eq!(pos.validate(), Ok(()));
        pos.hash ^= 1;
        assert!(matches!(
            pos.validate(),
            Err(ValidationError::HashDiffers { .. })
        ));
    }
}
