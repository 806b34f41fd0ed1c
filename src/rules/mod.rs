//! The embedded rules core: pure four-player chess (no I/O, no database, no clock).

pub mod award;
pub mod draw_reason;
pub mod fen4;
pub mod game;
pub mod geometry;
pub mod perft;
pub mod pgn4;
pub mod piece;
pub mod points_taken;
pub mod position;
pub mod replay;
pub mod ruleset;
pub mod variant;
