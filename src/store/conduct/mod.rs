//! Conduct tracking in the database: one idea per file.
//!
//! - [`outcomes`]: `conduct_outcomes`, one row per recorded game (its seats' outcomes).
//! - [`records`]: `conduct_records`, one bounded `PlayerRecord` per player.
//! - [`queue`]: `conduct_pending`, games stored but not yet applied (both backends).
//! - [`writer`]: [`ConductWriter`], which applies games to the records they touch and hands
//!   back the automatic reports their signals raise, within the caller's transaction.
//!
//! Ingest queues a game in the game's own transaction; the applier (the use case
//! `apply_conduct`) applies queued games in batches (`docs/design/conduct-queue.md`).
//! `PlayerRecord::apply` keys everything by the game's `played_at`, so applying games in any
//! order gives the record a rebuild in played order gives.

pub mod outcomes;
pub mod queue;
pub mod records;
pub mod writer;

pub use outcomes::{all_outcomes, kind_name, outcomes_of_game, OutcomeRow};
pub use queue::{enqueue, pending_count, take_off_queue};
pub use records::{all_records, clear, record, record_count};
pub use writer::{ConductWriter, SeatToRecord, CONDUCT_REPORT_REASON};
