//! `arbiter serve`: pool, migrations, HTTP server with graceful shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{web, HttpServer};
use anyhow::Context;

use super::app::build_app;
use super::connection_limits::ConnectionLimits;
use super::jobs::start::start_all;
use super::jobs::word_list_reloader::reload_word_list;
use super::metrics_endpoint::metrics_only_app;
use super::state::AppState;
use crate::config::{PrivacySettings, Settings, WebhookSettings};
use crate::store::webhook_sealing::SealingKey;
use crate::store::{self, migrations, DbConnection, DbPool};
use crate::usecases::check_erasure_key::{self, KeyAccepted, KeyRefused};
use crate::usecases::seal_webhook_secrets::{self, SealingAccepted, SealingRefused};

pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    let pool = open_database(&settings)?;
    if settings.auth.player_token_secret.is_empty() {
        tracing::warn!("auth.player_token_secret is empty: player requests will be refused");
    }
    let state =
        web::Data::new(AppState::new(settings, pool).context("building the application state")?);
    // The admins' word list applies from the first request.
    reload_word_list(&state)
        .await
        .map_err(|e| anyhow::anyhow!("reading the chat word list: {e}"))?;
    start_all(&state);
    // actix-web stops gracefully on SIGTERM and SIGINT.
    Listeners::start(state, true)?.run().await?;
    tracing::info!("stopped");
    Ok(())
}

/// The database `serve` runs on: connected, migrated, and refused when erased names exist
/// and `[privacy] erasure_key` is not the key they were erased under, or when webhook secrets
/// are sealed and `[webhooks] sealing_key` is not the key they were sealed under.
pub fn open_database(settings: &Settings) -> anyhow::Result<DbPool> {
    let pool = store::connect(&settings.database).context("opening the database")?;
    let mut conn = pool.get().context("getting a database connection")?;
    let applied = migrations::run_pending(&mut conn)
        .map_err(|e| anyhow::anyhow!("running migrations: {e}"))?;
    for version in &applied {
        tracing::info!(%version, "migration applied");
    }
    check_erasure_key(&mut conn, &settings.privacy)?;
    check_webhook_sealing(&mut conn, &settings.webhooks)?;
    drop(conn);
    Ok(pool)
}

/// Refuses a key under which erased players' names would no longer match their bans.
fn check_erasure_key(conn: &mut DbConnection, privacy: &PrivacySettings) -> anyhow::Result<()> {
    const SETTING: &str = "privacy.erasure_key (ARBITER_PRIVACY__ERASURE_KEY)";
    let key_check = privacy.erasure_key_check();
    match check_erasure_key::check(conn, key_check.as_deref(), store::now()) {
        Ok(KeyAccepted::NothingErased | KeyAccepted::Matches) => Ok(()),
        Ok(KeyAccepted::RecordedNow) => {
            tracing::warn!(
                "{SETTING}: names were erased before key checks were recorded; the configured \
                 key is taken to be theirs and recorded"
            );
            Ok(())
        }
        Err(KeyRefused::Missing) => Err(anyhow::anyhow!(
            "{SETTING} is empty, but players were erased under a key: set it to that key, or \
             their bans stop matching their old names"
        )),
        Err(KeyRefused::Mismatch) => Err(anyhow::anyhow!(
            "{SETTING} is not the key players were erased under: set it back to that key, or \
             their bans stop matching their old names"
        )),
        Err(KeyRefused::Db(e)) => Err(anyhow::anyhow!("checking {SETTING}: {e}")),
    }
}

/// Refuses a sealing key that cannot open the sealed webhook secrets; with a good one, seals
/// those stored before sealing.
fn check_webhook_sealing(conn: &mut DbConnection, hooks: &WebhookSettings) -> anyhow::Result<()> {
    const SETTING: &str = "webhooks.sealing_key (ARBITER_WEBHOOKS__SEALING_KEY)";
    let key = SealingKey::from_setting(&hooks.sealing_key);
    match seal_webhook_secrets::check_and_seal(conn, key.as_ref(), store::now()) {
        Ok(SealingAccepted::NoKey { legacy: 0 } | SealingAccepted::Key { sealed_now: 0 }) => Ok(()),
        Ok(SealingAccepted::NoKey { legacy }) => {
            tracing::warn!(
                legacy,
                "{SETTING} is empty: webhook secrets stored before sealing stay in plain text, \
                 and new subscriptions are refused"
            );
            Ok(())
        }
        Ok(SealingAccepted::Key { sealed_now }) => {
            tracing::info!(
                sealed_now,
                "webhook secrets stored before sealing are sealed"
            );
            Ok(())
        }
        Err(SealingRefused::Missing) => Err(anyhow::anyhow!(
            "{SETTING} is empty, but webhook secrets are sealed: set it to the key they were \
             sealed under, or no webhook can be signed"
        )),
        Err(SealingRefused::Mismatch) => Err(anyhow::anyhow!(
            "{SETTING} is not the key webhook secrets were sealed under: set it back to that \
             key, or no webhook can be signed"
        )),
        Err(SealingRefused::Db(e)) => Err(anyhow::anyhow!("checking {SETTING}: {e}")),
    }
}

/// The running HTTP listeners: the API on `server.listen` and, when `[metrics] listen` is set,
/// `/metrics` alone on that address.
pub struct Listeners {
    pub api_addrs: Vec<SocketAddr>,
    /// Empty when `/metrics` is served on the API listener.
    pub metrics_addrs: Vec<SocketAddr>,
    api: Server,
    metrics: Option<Server>,
}

impl Listeners {
    /// Binds every listener (a bind failure names its key) and starts serving on the current
    /// actix runtime. With `handle_signals`, SIGTERM and SIGINT stop them gracefully.
    pub fn start(state: web::Data<AppState>, handle_signals: bool) -> anyhow::Result<Listeners> {
        let server = &state.settings.server;
        let (listen, workers, shutdown_timeout) =
            (server.listen, server.workers, server.shutdown_timeout_secs);
        let metrics_listen = state.settings.metrics.listen_addr();

        let api_state = state.clone();
        let connections = ConnectionLimits::new(server.max_connections_per_address);
        let worker_count = if workers > 0 {
            workers
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        };
        let mut api = HttpServer::new(move || build_app(api_state.clone(), |_| {}))
            .shutdown_timeout(shutdown_timeout)
            .client_request_timeout(Duration::from_secs(server.header_deadline_secs))
            .max_connections(server.max_connections.div_ceil(worker_count))
            .on_connect(move |connection, extensions| {
                connections.on_connect(connection, extensions)
            })
            .workers(worker_count);
        if !handle_signals {
            api = api.disable_signals();
        }
        let api = api
            .bind(listen)
            .with_context(|| format!("binding server.listen {listen}"))?;
        let api_addrs = api.addrs();

        let metrics = match metrics_listen {
            Some(addr) => {
                let metrics_state = state.clone();
                // One worker is plenty for a scraper; the API listener's signal handling stops
                // this one too (see `run`).
                let server = HttpServer::new(move || metrics_only_app(metrics_state.clone()))
                    .workers(1)
                    .shutdown_timeout(shutdown_timeout)
                    .client_request_timeout(Duration::from_secs(30))
                    .disable_signals()
                    .bind(addr)
                    .with_context(|| format!("binding metrics.listen {addr}"))?;
                Some(server)
            }
            None => None,
        };
        let metrics_addrs = metrics.as_ref().map(|m| m.addrs()).unwrap_or_default();
        tracing::info!(listen = ?api_addrs, "serving");
        if !metrics_addrs.is_empty() {
            tracing::info!(listen = ?metrics_addrs, "serving /metrics");
        }
        Ok(Listeners {
            api_addrs,
            metrics_addrs,
            api: api.run(),
            metrics: metrics.map(|m| m.run()),
        })
    }

    /// Stops the API listener gracefully (and so the metrics listener, see `run`).
    pub fn api_handle(&self) -> ServerHandle {
        self.api.handle()
    }

    /// Serves until the API listener stops, then stops the metrics listener.
    pub async fn run(self) -> anyhow::Result<()> {
        let metrics = self
            .metrics
            .map(|server| (server.handle(), actix_web::rt::spawn(server)));
        let served = self.api.await.context("HTTP server");
        if let Some((handle, task)) = metrics {
            handle.stop(true).await;
            let _ = task.await;
        }
        served
    }
}
