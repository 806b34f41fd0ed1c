//! The consistency check of a position: piece lists, king squares and the incremental hash
//! agree with the board.

use super::Position;
use crate::rules::geometry::{Geometry, Seat};
use crate::rules::piece::*;

impl Position {
    /// Consistency check used by tests: lists match the board, kings match, hash matches.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = 0usize;
        for s in 0..4 {
            for &sq in self.pieces_of(Seat::from_index(s)) {
                let code = self.board[sq as usize];
                if !is_piece(code) || seat_of(code) != s {
                    return Err(format!(
                        "list of seat {s} names {} wrongly",
                        Geometry::name(sq)
                    ));
                }
                if kind_of(code) == KING && self.kings[s] != sq {
                    return Err(format!("king of seat {s} not tracked"));
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
            return Err(format!("{on_board} pieces on the board, {seen} in lists"));
        }
        if self.hash != self.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        Ok(())
    }
}
