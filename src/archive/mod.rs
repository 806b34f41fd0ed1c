//! The game archive's pure part: validating a submitted game against its replay and deriving
//! the facts stored with it (per-seat results, eliminations, aborts, points taken). No I/O:
//! `store::games` writes what `ingest::prepare` returns.

pub mod abort;
pub mod ingest;

pub use abort::{classify, classify_with_leaves, Abort, AbortPreset, TimeControl};
pub use ingest::{
    conduct_outcomes, prepare, prepare_with, ChatReview, ConductInput, ConductOutcomes,
    IngestError, PreparedGame, SeatColour, Submission,
};
