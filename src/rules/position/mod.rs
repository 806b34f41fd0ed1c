//! A four-player position: padded mailbox board, piece lists per seat, turn, seat status,
//! castling rights, one en-passant field per seat, half-move clock, points and an incremental
//! Zobrist hash. Positions are plain `Copy` data, so search and replay use copy-make.
//!
//! `Position` and its read-only accessors live in `state.rs`; the other submodules add its
//! other methods, one idea each.

mod attacks;
mod directions;
mod fen4;
mod insufficient;
mod legal;
mod make;
mod movegen;
mod moves;
mod setup;
mod setup_checks;
mod setup_error;
#[cfg(test)]
mod setup_tests;
mod sides;
mod state;
mod validate;
mod zobrist;

pub use make::KingFate;
pub use moves::{Move, MoveEffect, MoveKind, MoveList, MAX_MOVES};
pub use setup_error::SetupError;
pub use state::{Position, SeatStatus, MAX_PIECES};
pub use validate::ValidationError;
