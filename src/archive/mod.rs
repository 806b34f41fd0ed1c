//! The game archive's pure part: validating a submitted game against its replay and deriving
//! the facts stored with it (per-seat results, eliminations, aborts, points taken). No I/O:
//! `store::games` writes what `ingest::prepare` returns. The abort rule it applies lives in
//! `conduct::abort`, with the rest of what a seat's conduct in a game is judged by.

pub mod ingest;
pub mod settings;

pub use crate::conduct::abort::{classify, classify_with_leaves, Abort, AbortPreset, TimeControl};
pub use ingest::{
    conduct_outcomes, prepare, prepare_with, ChatReview, ConductInput, ConductOutcomes,
    IngestError, PreparedGame, SeatColour, Submission,
};
pub use settings::ArchiveSettings;
