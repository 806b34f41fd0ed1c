//! The conduct applier: applies queued games (`conduct_pending`, written by ingest in the
//! game's own transaction) to their players' conduct records in batches, and files the
//! automatic reports their signals call for. Each batch is one transaction
//! (`usecases::apply_conduct::apply_pending`).
//!
//! Why a queue: applying a game reads, updates and rewrites four player records. Inside the
//! game's own transaction that cost about as much as storing the game; batched, a player's
//! record is read and written once per batch and the batch commits once.
//!
//! Several instances may share a PostgreSQL database: each takes rows with `SKIP LOCKED`.
//! Records and conduct reports trail ingest by about `[conduct] apply_interval_ms`; a queued
//! game survives a restart and is applied by the next applier that runs.

use std::time::Duration;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;

pub struct ConductApplier {
    interval: Duration,
}

impl Job for ConductApplier {
    const NAME: &'static str = "conduct applier";

    fn for_instance(state: &AppState) -> Option<Self> {
        Some(ConductApplier {
            interval: Duration::from_millis(state.settings.conduct.apply_interval_ms),
        })
    }

    fn pause(&self) -> Duration {
        self.interval
    }

    /// Applies the whole backlog, then reports what is left queued (another instance's
    /// share, or games posted meanwhile) as a metric. The queue is durable: a failed batch
    /// rolled back and is applied on the next pass.
    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        let applied = state.apply_conduct_backlog().await;
        if let Ok(taken @ 1..) = applied {
            tracing::debug!(taken, "conduct applied");
        }
        if let Ok(pending) = state.read(crate::store::conduct::pending_count).await {
            state
                .metrics
                .conduct_pending
                .set(i64::try_from(pending).unwrap_or(i64::MAX));
        }
        applied.map(|_| AfterPass::Pause)
    }
}
