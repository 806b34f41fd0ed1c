//! The retention job: purges the chat text and connection data whose period has passed
//! (`store::retention`), one batch per write, every `[retention] interval_secs`.
//!
//! Each batch is one transaction on the bulk write line, so on SQLite people's writes and game
//! ingest take turns with it; a pass that finds nothing due costs one indexed read per kind.
//! Several instances on one PostgreSQL database may purge the same batch: the deletes and
//! updates are idempotent.

use std::time::Duration;

use diesel::Connection;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::moderation::retention::PersonalData;
use crate::store::{self, retention};

pub struct RetentionJob {
    interval: Duration,
}

impl Job for RetentionJob {
    const NAME: &'static str = "retention";

    fn for_instance(state: &AppState) -> Option<Self> {
        Some(RetentionJob {
            interval: Duration::from_secs(state.settings.retention.interval_secs),
        })
    }

    fn pause(&self) -> Duration {
        self.interval
    }

    /// Nothing is half done: a failed batch rolled back and is due again next pass.
    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        purge_due(state).await.map(|_| AfterPass::Pause)
    }
}

/// One pass over both kinds of data; returns what was purged.
pub async fn purge_due(state: &AppState) -> Result<[retention::Purged; 2], ApiError> {
    let mut totals = [retention::Purged::default(); 2];
    for (i, kind) in PersonalData::ALL.into_iter().enumerate() {
        let mut after = None;
        loop {
            let settings = state.settings.retention.clone();
            let (done, next) = state
                .write_bulk(move |conn| {
                    conn.transaction(|conn| {
                        retention::purge_batch(conn, &settings, kind, after, store::now(), false)
                    })
                })
                .await?;
            totals[i].add(&done);
            match next {
                Some(cursor) => after = Some(cursor),
                None => break,
            }
        }
        if totals[i].games > 0 {
            tracing::info!(
                data = kind.as_str(),
                games = totals[i].games,
                held = totals[i].held,
                chat_lines = totals[i].chat_lines,
                events = totals[i].events,
                fingerprinted_seats = totals[i].fingerprinted_seats,
                "retention: purged"
            );
        }
    }
    Ok(totals)
}
