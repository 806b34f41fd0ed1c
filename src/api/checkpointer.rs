//! The SQLite checkpointer: a background task of `arbiter serve` that copies the write-ahead
//! log into the database file every `[database] checkpoint_interval_ms`.
//!
//! Why: by default the writer whose commit fills 1,000 log pages copies them, fsyncs included,
//! before it returns, and every other writer in the process waits for its turn meanwhile
//! (`AppState::write`). A passive checkpoint on its own connection runs alongside the
//! writers instead. Commits still checkpoint if this falls far behind
//! (`store::connection::WAL_AUTOCHECKPOINT_BEHIND_PAGES`), so the log stays bounded.

use std::time::Duration;

use actix_web::web;

use super::state::AppState;
use crate::store::{self, Backend};

/// Starts the checkpointer on the current actix runtime when the store is SQLite and the
/// interval is not 0; it runs until the runtime stops.
pub fn spawn(state: web::Data<AppState>) -> Option<actix_web::rt::task::JoinHandle<()>> {
    let interval = state.settings.database.checkpoint_interval_ms;
    (state.backend == Backend::Sqlite && interval > 0)
        .then(|| actix_web::rt::spawn(run(state, Duration::from_millis(interval))))
}

/// Log length (pages) past which the checkpointer finishes a pass in a writer turn.
const FINISH_IN_TURN_PAGES: i32 = 4_096;

async fn run(state: web::Data<AppState>, interval: Duration) {
    loop {
        match state.read(store::checkpoint_wal).await {
            Ok(Some(mut done)) => {
                // SQLite starts the log over from its beginning only once every page in it
                // has been copied, and writers keep appending while a passive checkpoint
                // copies: under steady writes the log would grow until commits checkpoint
                // it themselves. Past a few thousand pages the remainder (what was written
                // during this pass) is copied in a writer turn, where nothing is appended.
                if done.log_pages >= FINISH_IN_TURN_PAGES {
                    if let Ok(Some(finished)) = state.write_bulk(store::checkpoint_wal).await {
                        done = finished;
                    }
                }
                state
                    .metrics
                    .sqlite_wal_behind
                    .set(i64::from(done.log_pages - done.checkpointed_pages).max(0));
            }
            Ok(None) => return,
            // A failed checkpoint loses nothing: the log keeps the pages for the next one.
            Err(e) => tracing::warn!(error = %e, "SQLite checkpoint failed"),
        }
        actix_web::rt::time::sleep(interval).await;
    }
}
