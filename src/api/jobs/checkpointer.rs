//! The SQLite checkpointer: copies the write-ahead log into the database file every
//! `[database] checkpoint_interval_ms`.
//!
//! Why: by default the writer whose commit fills 1,000 log pages copies them, fsyncs included,
//! before it returns, and every other writer in the process waits for its turn meanwhile
//! (`AppState::write`). A passive checkpoint on its own connection runs alongside the
//! writers instead. Commits still checkpoint if this falls far behind
//! (`store::connection::WAL_AUTOCHECKPOINT_BEHIND_PAGES`), so the log stays bounded.

use std::time::Duration;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::store::{self, Backend};

/// Log length (pages) past which the checkpointer finishes a pass in a writer turn.
const FINISH_IN_TURN_PAGES: i32 = 4_096;

pub struct Checkpointer {
    interval: Duration,
}

impl Job for Checkpointer {
    const NAME: &'static str = "SQLite checkpointer";

    /// Only SQLite has a log to copy, and an interval of 0 switches the job off.
    fn for_instance(state: &AppState) -> Option<Self> {
        let interval = state.settings.database.checkpoint_interval_ms;
        (state.backend == Backend::Sqlite && interval > 0).then(|| Checkpointer {
            interval: Duration::from_millis(interval),
        })
    }

    fn pause(&self) -> Duration {
        self.interval
    }

    /// A failed checkpoint loses nothing: the log keeps the pages for the next one.
    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        let Some(mut done) = state.read(store::checkpoint_wal).await? else {
            return Ok(AfterPass::Stop);
        };
        // SQLite starts the log over from its beginning only once every page in it has been
        // copied, and writers keep appending while a passive checkpoint copies: under steady
        // writes the log would grow until commits checkpoint it themselves. Past a few
        // thousand pages the remainder (what was written during this pass) is copied in a
        // writer turn, where nothing is appended.
        if done.log_pages >= FINISH_IN_TURN_PAGES {
            if let Ok(Some(finished)) = state.write_bulk(store::checkpoint_wal).await {
                done = finished;
            }
        }
        state
            .metrics
            .sqlite_wal_behind
            .set(i64::from(done.log_pages - done.checkpointed_pages).max(0));
        Ok(AfterPass::Pause)
    }
}
