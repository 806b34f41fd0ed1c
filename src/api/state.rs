//! Shared application state, one per process, handed to every worker, and the three ways
//! handlers run store code: `read`, `read_inline` and `write`.

use std::collections::HashMap;
use std::sync::Arc;

use actix_web::web;

use super::auth::player::PlayerTokenVerifier;
use super::clock::Clock;
use super::cursor_key::CursorKey;
use super::error::ApiError;
use super::limits::RequestLimits;
use super::live_analyzer::LiveAnalyzer;
use super::metrics::Metrics;
use super::sqlite_writer::{SqliteWriter, WriteLine};
use super::write_health::WriteHealth;
use crate::chat::{Analyzer, AnalyzerError};
use crate::collusion::CollusionPolicy;
use crate::conduct::ConductPolicy;
use crate::config::Settings;
use crate::moderation::{DecisionPresets, Language, ModerationPolicy, Texts};
use crate::store::{self, players, Backend, DatabaseTarget, DbConnection, DbPool};
use crate::usecases::apply_conduct::{self, AppliedBatch};

#[derive(Clone)]
pub struct AppState {
    pub settings: Arc<Settings>,
    /// Readers' connections (and every connection on PostgreSQL).
    pub pool: DbPool,
    /// The pool's backend, from the database URL.
    pub backend: Backend,
    pub metrics: Arc<Metrics>,
    /// None when `auth.player_token_secret` is empty: player tokens are then refused.
    pub player_tokens: Option<Arc<PlayerTokenVerifier>>,
    /// The chat analyser every worker judges with: the built-in one with the admins' word list
    /// over it, rebuilt when the list changes.
    pub chat: Arc<LiveAnalyzer>,
    /// The conduct policy (`config/conduct.toml`, built in).
    pub conduct: Arc<ConductPolicy>,
    /// The collusion policy (`[collusion]`).
    pub collusion: Arc<CollusionPolicy>,
    /// The moderation policy (`[moderation] policy_file`, else the built-in one).
    pub moderation: Arc<ModerationPolicy>,
    /// Decision presets (`[moderation] presets_file`, else the built-in ones).
    pub presets: Arc<DecisionPresets>,
    /// The preset texts and their words in every language (`config/presets/`).
    pub texts: Arc<Texts>,
    /// The language last remembered for each player by this instance, so that a request
    /// writes only when a player's language changes.
    languages_seen: Arc<std::sync::Mutex<HashMap<String, Language>>>,
    /// Seals list cursors (`[api] cursor_key`, else a key of this process alone).
    pub cursor_key: CursorKey,
    /// The time the background jobs act at (tests move it forward).
    pub clock: Clock,
    /// Wakes this instance's webhook deliverer after a change that emitted sanction events.
    pub webhooks_wake: Arc<tokio::sync::Notify>,
    /// Request rate limits and the console's sign-in throttle (`[limits]`).
    pub limits: Arc<RequestLimits>,
    /// Whether this instance's writes are failing on a database fault (`/readyz`).
    pub write_health: Arc<WriteHealth>,
    /// PostgreSQL: turns for machine writes (`[database] postgres_bulk_writers`).
    postgres_bulk_writers: Arc<tokio::sync::Semaphore>,
    /// SQLite: the one writer every write goes through. `None` on PostgreSQL, whose writers
    /// share the pool and wait for each other's row locks.
    sqlite_writer: Option<Arc<SqliteWriter>>,
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
        let collusion = Arc::new(settings.collusion.policy());
        let moderation = settings
            .moderation
            .load_policy()
            .map_err(StateError::Moderation)?;
        let presets = settings
            .moderation
            .load_presets()
            .map_err(StateError::Moderation)?;
        let texts = Texts::built_in().map_err(|e| StateError::Moderation(e.to_string()))?;
        let backend = DatabaseTarget::parse(&settings.database.url)
            .map(|target| target.backend())
            .map_err(|e| StateError::Database(format!("database.url: {e}")))?;
        let sqlite_writer = match backend {
            Backend::Sqlite => Some(Arc::new(
                SqliteWriter::new(&settings.database)
                    .map_err(|e| StateError::Database(e.to_string()))?,
            )),
            Backend::Postgres => None,
        };
        let cursor_key = CursorKey::from_setting(&settings.api.cursor_key);
        let limits = Arc::new(RequestLimits::from_settings(&settings.limits));
        let bulk_writers = settings
            .database
            .postgres_bulk_writers
            .clamp(1, settings.database.pool_size.max(1));
        let postgres_bulk_writers = Arc::new(tokio::sync::Semaphore::new(bulk_writers as usize));
        Ok(AppState {
            postgres_bulk_writers,
            backend,
            cursor_key,
            sqlite_writer,
            settings: Arc::new(settings),
            pool,
            metrics: Arc::new(Metrics::new()?),
            player_tokens,
            chat: Arc::new(LiveAnalyzer::new(Analyzer::shared()?)),
            conduct: Arc::new(ConductPolicy::default()),
            collusion,
            moderation: Arc::new(moderation),
            presets: Arc::new(presets),
            texts: Arc::new(texts),
            languages_seen: Arc::default(),
            webhooks_wake: Arc::new(tokio::sync::Notify::new()),
            clock: Clock::default(),
            write_health: Arc::new(WriteHealth::default()),
            limits,
        })
    }

    /// Keeps `language` as the player's last known one (the texts they are sent are written
    /// in it). Writes only when this instance has not seen it for them yet; a failed write is
    /// logged and leaves the request alone.
    pub async fn remember_language(&self, player: &str, language: Language) {
        /// Bounds the memory: when full it starts over (a few redundant writes follow).
        const SEEN_MAX: usize = 100_000;
        {
            let Ok(mut seen) = self.languages_seen.lock() else {
                return;
            };
            if seen.get(player) == Some(&language) {
                return;
            }
            if seen.len() >= SEEN_MAX {
                seen.clear();
            }
            seen.insert(player.to_string(), language);
        }
        let name = player.to_string();
        let now = store::now();
        let kept = self
            .write(move |conn| players::remember_language(conn, &name, language, now))
            .await;
        if let Err(err) = kept {
            tracing::warn!(error = %err, "could not keep a player's language");
            if let Ok(mut seen) = self.languages_seen.lock() {
                seen.remove(player);
            }
        }
    }

    /// Runs store code that writes for a person (a report, a decision, a claim, an appeal, a
    /// token), off the async workers. On SQLite it runs on the one writer connection at its
    /// turn, before any bulk write waiting (`sqlite_writer`), or answers 503 with
    /// `Retry-After` when the turn does not come within `[database] write_deadline_ms`. On
    /// PostgreSQL it runs on a pooled connection.
    pub async fn write<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        self.write_in(WriteLine::People, work).await
    }

    /// Runs store code that writes for a machine (game ingest, the conduct applier,
    /// checkpoints, token bookkeeping): like `write`, behind the people waiting on SQLite.
    pub async fn write_bulk<T, E, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        self.write_in(WriteLine::Bulk, work).await
    }

    async fn write_in<T, E, F>(&self, line: WriteLine, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let outcome = match (&self.sqlite_writer, line) {
            (Some(writer), _) => writer.run(line, work).await,
            (None, WriteLine::People) => self.read(work).await,
            (None, WriteLine::Bulk) => {
                // Waits here, holding neither a connection nor a transaction (issue #41).
                let _turn = self.postgres_bulk_writers.acquire().await;
                self.read(work).await
            }
        };
        self.write_health.observe(&outcome);
        outcome
    }

    /// Runs store code that only reads on a pooled connection, off the async workers.
    pub async fn read<T, E, F>(&self, work: F) -> Result<T, ApiError>
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

    /// Runs a short, read-only piece of store code (the standing check, the live chat
    /// check). On SQLite, when a pooled connection is idle, it runs right here on the async
    /// worker: an indexed read of a local file takes a few microseconds, less than the trip to
    /// the blocking pool and back, and WAL readers do not wait for the writer. Otherwise it
    /// goes to the blocking pool like `read`. `work` must not write.
    pub async fn read_inline<T, E, F>(&self, work: F) -> Result<T, ApiError>
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
        self.read(work).await
    }

    /// Applies one batch of queued games to their players' conduct records, in one write.
    pub async fn apply_conduct_batch(&self) -> Result<AppliedBatch, ApiError> {
        let policy = self.conduct.clone();
        let moderation = self.moderation.clone();
        let batch = i64::from(self.settings.conduct.apply_batch);
        let done = self
            .write_bulk(move |conn| {
                apply_conduct::apply_pending(conn, &policy, &moderation, batch, store::now())
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
            let done = self.apply_conduct_batch().await?;
            taken += done.taken();
            if done.taken() < full {
                return Ok(taken);
            }
        }
    }
}
