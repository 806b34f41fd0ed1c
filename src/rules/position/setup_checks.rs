//! The checks a position read from text must pass before play: every seat in play has one
//! live king, and no live pawn stands on its promotion rank. Named setups and piece lists are
//! built by code and skip them (tests set up kingless endgames on purpose).

use super::{Position, SeatStatus, SetupError};
use crate::rules::geometry::{Geometry, Seat};
use crate::rules::piece::*;

impl Position {
    /// The first check the position fails, seat by seat in turn order. Run after the seats'
    /// status is known: eliminated seats may have lost their king, and their pawns are inert.
    pub(super) fn check_playable(&self) -> Result<(), SetupError> {
        for seat in Seat::ALL {
            if self.status[seat.index()] != SeatStatus::Out {
                self.check_king(seat)?;
            }
            self.check_pawns(seat)?;
        }
        Ok(())
    }

    /// A seat in play (a walking king included) needs its king live: a dead one never moves.
    /// A second king was already refused when the pieces were placed.
    fn check_king(&self, seat: Seat) -> Result<(), SetupError> {
        let Some(square) = self.king_square(seat) else {
            return Err(SetupError::MissingKing { seat });
        };
        if self.piece_at(square).is_some_and(|king| king.dead) {
            return Err(SetupError::KingMarkedDead {
                seat,
                square: Geometry::name(square),
            });
        }
        Ok(())
    }

    /// A pawn promotes on arriving there, so no game reaches a pawn standing on that rank
    /// (move generation would march it on unpromoted).
    fn check_pawns(&self, seat: Seat) -> Result<(), SetupError> {
        let promotion = self.rules.promotion_rank as i16 - 1;
        for &sq in self.pieces_of(seat) {
            let code = self.board[sq as usize];
            if kind_of(code) == PAWN
                && code & DEAD == 0
                && self.geometry.relative_rank(seat, sq) == promotion
            {
                return Err(SetupError::PawnOnPromotionRank {
                    seat,
                    square: Geometry::name(sq),
                    rank: self.rules.promotion_rank,
                });
            }
        }
        Ok(())
    }
}
