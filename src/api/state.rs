//! Shared application state, one per process, handed to every worker.

use std::sync::Arc;

use actix_web::web;

use super::auth::player::PlayerTokenVerifier;
use super::error::ApiError;
use super::low_priority::LowPriorityWorker;
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
    /// SQLite: where the conduct applier reads and applies its batches, at
    /// `[conduct] applier_niceness` (see `apply_conduct_batch`).
    conduct_worker: Option<Arc<LowPriorityWorker>>,
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
    #[error("conduct applier thread: {0}")]
    Worker(#[from] std::io::Error),
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
        let conduct_worker = if backend == Backend::Sqlite && settings.conduct.enabled {
            let worker = LowPriorityWorker::start(settings.conduct.applier_niceness)?;
            Some(Arc::new(worker))
        } else {
            None
        };
        Ok(AppState {
            backend,
            conduct_worker,
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
            let _turn = take_turn(&writer);
            let mut conn = pool.get()?;
            work(&mut conn).map_err(Into::into)
        })
        .await?
    }

    /// Applies one batch of queued games to their players' conduct records.
    ///
    /// SQLite: the batch is read and applied in memory on the low-priority worker, and only
    /// its writes take a writer turn, at normal priority, like ingest
    /// (`conduct::read_queued`, `prepare_batch`, `write_prepared`). PostgreSQL (or with no
    /// worker): one call of `conduct::apply_pending_taking_turns`.
    pub async fn apply_conduct_batch(&self) -> Result<AppliedBatch, ApiError> {
        let done = match self.conduct_worker.clone() {
            Some(worker) => self.apply_conduct_batch_on(&worker).await?,
            None => {
                let policy = self.conduct.clone();
                let moderation = self.moderation.clone();
                let batch = i64::from(self.settings.conduct.apply_batch);
                let writer = self.sqlite_writer.clone();
                self.db(move |conn| {
                    conduct::apply_pending_taking_turns(
                        conn,
                        &policy,
                        &moderation,
                        batch,
                        store::now(),
                        || take_turn(&writer),
                    )
                })
                .await?
            }
        };
        for (game, reason) in &done.unreadable {
            tracing::error!(game, %reason, "queued conduct outcomes unreadable: dropped (run `arbiter conduct rebuild`)");
        }
        self.metrics.conduct_applied.inc_by(done.applied as u64);
        Ok(done)
    }

    /// The SQLite batch, its reading and applying on `worker`.
    async fn apply_conduct_batch_on(
        &self,
        worker: &LowPriorityWorker,
    ) -> Result<AppliedBatch, ApiError> {
        let batch = i64::from(self.settings.conduct.apply_batch);
        let pool = self.pool.clone();
        let read = worker
            .run(move || {
                let mut conn = pool.get()?;
                conduct::read_queued(&mut conn, batch).map_err(ApiError::from)
            })
            .await??;
        let Some(read) = read else {
            return Ok(AppliedBatch::default());
        };
        let read = if read.missing().is_empty() {
            read
        } else {
            let policy = self.conduct.clone();
            let writer = self.sqlite_writer.clone();
            self.db(move |conn| {
                let _turn = take_turn(&writer);
                conduct::create_missing_records(conn, &policy, &read, store::now()).map(|()| read)
            })
            .await?
        };
        let (pool, policy, moderation) = (
            self.pool.clone(),
            self.conduct.clone(),
            self.moderation.clone(),
        );
        let prepared = worker
            .run(move || {
                let mut conn = pool.get()?;
                let now = store::now();
                Ok::<_, ApiError>(conduct::prepare_batch(
                    &mut conn,
                    read,
                    &policy,
                    &moderation,
                    now,
                ))
            })
            .await??;
        let (policy, moderation) = (self.conduct.clone(), self.moderation.clone());
        let writer = self.sqlite_writer.clone();
        self.db(move |conn| {
            let _turn = take_turn(&writer);
            conduct::write_prepared(conn, prepared, &policy, &moderation, batch, store::now())
        })
        .await
    }

    /// Applies queued games until the queue is empty; returns how many were taken off it.
    /// The applier runs this every `[conduct] apply_interval_ms`; tests call it to bring the
    /// records up to date.
    pub async fn apply_conduct_backlog(&self) -> Result<usize, ApiError> {
        let full = self.settings.conduct.apply_batch as usize;
        let mut taken = 0;
        loop {
            let done = self.apply_conduct_batch().await?;
            taken += done.taken();
            if done.examined() < full {
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

/// Takes this process's SQLite writer turn (nothing on PostgreSQL); held until the guard
/// drops. A poisoned lock only means another writer panicked; its transaction rolled back.
fn take_turn(writer: &Option<Arc<std::sync::Mutex<()>>>) -> Option<std::sync::MutexGuard<'_, ()>> {
    writer
        .as_ref()
        .map(|w| w.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}
