//! The embedded rules core: pure four-player chess (no I/O, no database, no clock).

pub mod fen4;
pub mod pgn4;
