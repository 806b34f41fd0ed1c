//! Shared application state, one per process, handed to every worker.

use std::sync::Arc;

use actix_web::web;

use super::auth::player::PlayerTokenVerifier;
use super::error::ApiError;
use super::metrics::Metrics;
use crate::chat::{Analyzer, AnalyzerError};
use crate::conduct::ConductPolicy;
use crate::config::Settings;
use crate::moderation::ModerationPolicy;
use crate::store::conduct::{self, AppliedBatch};
use crate::store::{self, Backend, DatabaseTarget, DbConnection, DbPool};

#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    pub pool: DbPool,
    /// The pool's backend, from the database URL.
    pub backend: Backend,
    pub metrics: Arc<Metrics>,
    /// None when `auth.player_token_secret` is empty: player tokens are then refused.
    pub player_tokens: Option<Arc<PlayerTokenVerifier>>,
    /// The chat analyser, built once per process and shared by every worker.
    pub chat: Arc<Analyzer>,
    /// The conduct policy (`config/conduct.toml`, built in).
    pub conduct: Arc<ConductPolicy>,
    /// The moderation policy (`[moderation] policy_file`, else the built-in one).
    pub moderation: Arc<ModerationPolicy>,
    /// SQLite has one writer at a time; ingest writers queue here (see `db_write`).
    sqlite_writer: Option<Arc<std::sync::Mutex<()>>>,
}

/// The state could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("chat analyser: {0}")]
    Chat(#[from] AnalyzerError),
    #[error("{0}")]
    Moderation(String),
    #[error("{0}")]
    Database(String),
}

impl AppState {
    pub fn new(settings: Settings, pool: DbPool) -> Result<AppState, StateError> {
        let player_tokens = PlayerTokenVerifier::from_settings(&settings.auth).map(Arc::new);
        let moderation = settings
            .moderation
            .load_policy()
            .map_err(StateError::Moderation)?;
        let backend = DatabaseTarget::parse(&settings.database.url)
            .map(|target| target.backend())
            .map_err(|e| StateError::Database(format!("database.url: {e}")))?;
        Ok(AppState {
            backend,
            settings: Arc::new(settings),
            pool,
            metrics: Arc::new(Metrics::new()?),
            player_tokens,
            chat: Analyzer::shared()?,
            conduct: Arc::new(ConductPolicy::default()),
            moderation: Arc::new(moderation),
            sqlite_writer: (backend == Backend::Sqlite)
                .then(|| Arc::new(std::sync::Mutex::new(()))),
        })
    }

    /// Runs blocking store code that writes, like `db`: game ingest, the one write path that
    /// runs at volume. On SQLite these writers take turns in the process: a writer that finds
    /// the database locked otherwise sleeps in SQLite's busy handler (1, 2, 5, 10 ... ms
    /// between tries) while the file sits idle; queued here, the next writer starts as soon as
    /// the previous one commits. The turn is taken before the pooled connection, so waiting
    /// writers leave the connections to readers. Writers elsewhere (the CLI, the other
    /// routes) still meet the busy timeout.
    pub async fn db_write<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let writer = self.sqlite_writer.clone();
        web::block(move || {
            // A poisoned lock only means another writer panicked; its transaction rolled back.
            let _turn = writer
                .as_ref()
                .map(|w| w.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
            let mut conn = pool.get()?;
            work(&mut conn).map_err(Into::into)
        })
        .await?
    }

    /// Applies one batch of queued games to their players' conduct records. On SQLite it takes
    /// writer turns like ingest, but only for its writes: it reads and applies the batch
    /// before its turn (`conduct::apply_pending_taking_turns`).
    pub async fn apply_conduct_batch(&self) -> Result<AppliedBatch, ApiError> {
        let policy = self.conduct.clone();
        let moderation = self.moderation.clone();
        let batch = i64::from(self.settings.conduct.apply_batch);
        let writer = self.sqlite_writer.clone();
        let done = self
            .db(move |conn| {
                let turn = || {
                    writer
                        .as_ref()
                        .map(|w| w.lock().unwrap_or_else(|p| p.into_inner()))
                };
                conduct::apply_pending_taking_turns(
                    conn,
                    &policy,
                    &moderation,
                    batch,
                    store::now(),
                    turn,
                )
            })
            .await?;
        for (game, reason) in &done.unreadable {
            tracing::error!(game, %reason, "queued conduct outcomes unreadable: dropped (run `arbiter conduct rebuild`)");
        }
        self.metrics.conduct_applied.inc_by(done.applied as u64);
        Ok(done)
    }

    /// Applies queued games until the queue is empty; returns how many were taken off it.
    /// The applier runs this every `[conduct] apply_interval_ms`; tests call it to bring the
    /// records up to date.
    pub async fn apply_conduct_backlog(&self) -> Result<usize, ApiError> {
        let full = self.settings.conduct.apply_batch as usize;
        let mut taken = 0;
        loop {
            let done = self.apply_conduct_batch().await?.taken();
            taken += done;
            if done < full {
                return Ok(taken);
            }
        }
    }

    /// Runs blocking store code on a pooled connection, off the async workers.
    pub async fn db<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let pool = self.pool.clone();
        web::block(move || {
            let mut conn = pool.get()?;
            work(&mut conn).map_err(Into::into)
        })
        .await?
    }

    /// Runs a short, read-only piece of store code. On SQLite, when a pooled connection is
    /// idle, it runs right here on the async worker: an indexed read of a local file takes a
    /// few microseconds, less than the trip to the blocking pool and back, and WAL readers do
    /// not wait for writers. On PostgreSQL (network round trips) or with no idle connection it
    /// goes to the blocking pool like `db`. `work` must not write: a write could wait for the
    /// write lock and stall every request on this worker.
    pub async fn db_read_only<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        if self.backend == Backend::Sqlite {
            if let Some(mut conn) = self.pool.try_get() {
                return work(&mut conn).map_err(Into::into);
            }
        }
        self.db(work).await
    }
}
