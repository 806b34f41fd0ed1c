//! The stats job: a pass of `usecases::roll_stats` every minute, at the instance's clock: the
//! log read on a pooled connection, the days written on the bulk write line; again at once
//! while closed days wait (a first start rolls the log's history a month per pass). Several
//! instances may roll the same day: each writes the same tally, the last one stays.

use std::time::Duration;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::usecases::roll_stats::{store_days, tally_days, RollPass, LINES_PER_READ};

pub struct StatsRoller;

impl Job for StatsRoller {
    const NAME: &'static str = "stats";

    fn for_instance(_state: &AppState) -> Option<Self> {
        Some(StatsRoller)
    }

    fn pause(&self) -> Duration {
        Duration::from_secs(60)
    }

    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        let pass = stats_pass(state).await?;
        Ok(if pass.behind {
            AfterPass::Again
        } else {
            AfterPass::Pause
        })
    }
}

/// One pass now (the job's, and what tests call before reading): the days read and tallied
/// on a pooled connection, then stored at a bulk write turn.
pub async fn stats_pass(state: &AppState) -> Result<RollPass, ApiError> {
    let now = state.clock.now();
    let tallied = state
        .read(move |conn| tally_days(conn, now, LINES_PER_READ))
        .await?;
    state
        .write_bulk(move |conn| store_days(conn, &tallied, now))
        .await
}
