//! The stats job: a pass of `usecases::roll_stats` every minute, at the instance's clock, on
//! the bulk write line; again at once while closed days wait (a first start rolls the log's
//! history a month per pass). Several instances may roll the same day: each writes the same
//! tally, the last one stays.

use std::time::Duration;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::usecases::roll_stats::{roll_stats, RollPass};

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

/// One pass now (the job's, and what tests call before reading).
pub async fn stats_pass(state: &AppState) -> Result<RollPass, ApiError> {
    let now = state.clock.now();
    state.write_bulk(move |conn| roll_stats(conn, now)).await
}
