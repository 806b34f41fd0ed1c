//! The conduct applier: a background task of every `arbiter serve` instance that applies
//! queued games (`conduct_pending`, written by ingest in the game's own transaction) to their
//! players' conduct records in batches, and files the automatic reports their signals call
//! for. Each batch is one transaction (`usecases::apply_conduct::apply_pending`).
//!
//! Why a queue: applying a game reads, updates and rewrites four player records. Inside the
//! game's own transaction that cost about as much as storing the game; batched, a player's
//! record is read and written once per batch and the batch commits once.
//!
//! Several instances may share a PostgreSQL database: each takes rows with `SKIP LOCKED`.
//! Records and conduct reports trail ingest by about `[conduct] apply_interval_ms`; a queued
//! game survives a restart and is applied by the next applier that runs.

use std::time::Duration;

use actix_web::web;

use super::AppState;

/// Starts the applier on the current actix runtime; it runs until the runtime stops.
pub fn spawn(state: web::Data<AppState>) -> actix_web::rt::task::JoinHandle<()> {
    actix_web::rt::spawn(run(state))
}

async fn run(state: web::Data<AppState>) {
    let interval = Duration::from_millis(state.settings.conduct.apply_interval_ms);
    loop {
        match state.apply_conduct_backlog().await {
            Ok(taken) if taken > 0 => {
                tracing::debug!(taken, "conduct applied");
            }
            Ok(_) => {}
            // The queue is durable: a failed batch rolled back and is tried again next time.
            Err(e) => tracing::error!(error = %e, "conduct applier: batch failed"),
        }
        let pending = state.read(crate::store::conduct::pending_count).await;
        if let Ok(n) = pending {
            state
                .metrics
                .conduct_pending
                .set(i64::try_from(n).unwrap_or(i64::MAX));
        }
        actix_web::rt::time::sleep(interval).await;
    }
}
