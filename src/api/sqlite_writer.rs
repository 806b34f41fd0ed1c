//! The one writer of a SQLite database: every write of `arbiter serve` runs on one
//! connection, one at a time, in the order the writes arrived.
//!
//! Why: SQLite lets one transaction write at a time. Writers on several pooled connections
//! would meet the lock and sleep in SQLite's busy handler (1, 2, 5, 10 ... ms between tries),
//! waking in no particular order; a writer that had read first could not upgrade at all and
//! failed with "database is locked". Here a writer waits for its turn in a first-come,
//! first-served queue instead, and the next starts as soon as the previous one commits. A
//! write still waiting after `[database] write_deadline_ms` answers 503 with `Retry-After`.
//! Readers keep the pool: in WAL mode they never wait for the writer.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
use tokio::sync::Semaphore;

use super::ApiError;
use crate::config::DatabaseSettings;
use crate::store::{self, DbConnection, DbPool, PoolSetupError};

/// Seconds a caller refused for a busy writer is asked to wait before trying again.
const RETRY_AFTER_SECS: u64 = 1;

pub struct SqliteWriter {
    /// One permit: the turn. Tokio's semaphore hands permits out in request order.
    turn: Arc<Semaphore>,
    /// A pool of one connection, used only by the holder of the turn.
    connection: DbPool,
    deadline: Duration,
}

impl SqliteWriter {
    /// The writer of the database `settings` name (its connection opens on first use).
    pub fn new(settings: &DatabaseSettings) -> Result<SqliteWriter, PoolSetupError> {
        let mut one = settings.clone();
        one.pool_size = 1;
        Ok(SqliteWriter {
            turn: Arc::new(Semaphore::new(1)),
            connection: store::connect_lazy(&one)?,
            deadline: Duration::from_millis(settings.write_deadline_ms),
        })
    }

    /// Runs `work` on the writer connection at this write's turn, off the async workers.
    pub async fn run<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let waiting = self.turn.clone().acquire_owned();
        let turn = match actix_web::rt::time::timeout(self.deadline, waiting).await {
            Ok(Ok(turn)) => turn,
            // The semaphore is never closed; a timeout is the only way to get here.
            Ok(Err(_)) | Err(_) => {
                return Err(ApiError::WriterBusy {
                    retry_after_secs: RETRY_AFTER_SECS,
                })
            }
        };
        let connection = self.connection.clone();
        web::block(move || {
            let _turn = turn;
            let mut conn = connection.get()?;
            work(&mut conn).map_err(Into::into)
        })
        .await?
    }
}
