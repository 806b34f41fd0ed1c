//! `arbiter serve`: pool, migrations, HTTP server with graceful shutdown.

use std::time::Duration;

use actix_web::{web, HttpServer};
use anyhow::Context;

use super::{build_app, AppState};
use crate::config::Settings;
use crate::store::{self, migrations};

pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    let pool = store::connect(&settings.database).context("opening the database")?;
    {
        let mut conn = pool.get().context("getting a database connection")?;
        let applied = migrations::run_pending(&mut conn)
            .map_err(|e| anyhow::anyhow!("running migrations: {e}"))?;
        for version in &applied {
            tracing::info!(%version, "migration applied");
        }
    }
    if settings.auth.player_token_secret.is_empty() {
        tracing::warn!("auth.player_token_secret is empty: player requests will be refused");
    }

    let listen = settings.server.listen;
    let workers = settings.server.workers;
    let shutdown_timeout = settings.server.shutdown_timeout_secs;
    let state =
        web::Data::new(AppState::new(settings, pool).context("building the application state")?);

    super::spawn_background_tasks(state.clone());
    let mut server = HttpServer::new(move || build_app(state.clone(), |_| {}))
        .shutdown_timeout(shutdown_timeout)
        .client_request_timeout(Duration::from_secs(30));
    if workers > 0 {
        server = server.workers(workers);
    }
    let server = server
        .bind(listen)
        .with_context(|| format!("binding {listen}"))?;
    tracing::info!(%listen, "serving");
    // actix-web stops gracefully on SIGTERM and SIGINT.
    server.run().await.context("HTTP server")?;
    tracing::info!("stopped");
    Ok(())
}
