//! The game archive's pure part: validating a submitted game against its replay and deriving
//! the facts stored with it (per-seat results, eliminations, aborts, points taken). No I/O:
//! `store::games` writes what `ingest::prepare` returns. The abort rule it applies lives in
//! `conduct::abort`, with the rest of what a seat's conduct in a game is judged by.
//!
//! - `submission`: the wire types a game server posts;
//! - `validate`: the submission checked against its replay;
//! - `result_agreement`: the `Result` and `Termination` tags checked against the replay;
//! - `error`: why a submission was refused;
//! - `facts`: the rows derived from the replay;
//! - `chat_review`: flags and automatic reports from the chat;
//! - `conduct`: the seats' conduct outcomes from the stored facts;
//! - `ingest`: `prepare`, which runs all of the above.

pub mod chat_review;
pub mod conduct;
pub mod error;
pub mod facts;
pub mod ingest;
pub mod player_name;
pub mod result_agreement;
pub mod settings;
pub mod submission;
mod validate;

pub use crate::conduct::abort::{classify, classify_with_leaves, Abort, AbortPreset, TimeControl};
pub use chat_review::{severity_name, ChatReview, FlagFacts, ReportFacts, WindowCheck};
pub use conduct::{conduct_outcomes, ConductInput, ConductOutcomes, StoredEvent};
pub use error::{replay_error, IngestError};
pub use facts::{points_taken, ChatRow, EventFacts, GameFacts, SeatFacts};
pub use ingest::{prepare, prepare_with, CollusionFacts, PreparedGame};
pub use player_name::{name_problem, NameProblem};
pub use result_agreement::{check_result, RESULT_MISMATCH};
pub use settings::ArchiveSettings;
pub use submission::{
    ChatChannel, ChatInput, EventInput, EventKind, SeatColour, SeatInput, Submission,
    MAX_CHAT_CHARS, MAX_NAME_CHARS,
};
