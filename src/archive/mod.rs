//! The game archive's pure part: validating a submitted game against its replay and deriving
//! the facts stored with it (per-seat results, eliminations, aborts, points taken). No I/O:
//! `store::games` writes what `ingest::prepare` returns.

pub mod abort;
pub mod ingest;

pub use abort::{classify, Abort, AbortPreset, TimeControl};
pub use ingest::{
    prepare, prepare_with, ChatReview, IngestError, PreparedGame, SeatColour, Submission,
};
