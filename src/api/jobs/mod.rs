//! Background work of every `arbiter serve` instance: each job is one [`job::Job`], a pass
//! repeated after a pause, and [`start::start_all`] is the one place that starts them.
//!
//! The jobs live under `api` because they share the instance's state with the handlers: the
//! SQLite write lines (`state::AppState::write_bulk`), the metrics and the webhook wake-up.

pub mod alerter;
pub mod checkpointer;
pub mod conduct_applier;
pub mod job;
pub mod retention;
pub mod start;
pub mod stats_roller;
pub mod webhook_deliverer;
pub mod word_list_reloader;
