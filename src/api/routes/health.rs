//! Liveness, readiness and metrics: public, for orchestrators and scrapers.

use std::time::Duration;

use actix_web::{web, HttpResponse};

use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::state::AppState;
use crate::api::views::health::{Health, HealthStatus};
use crate::store::{self, write_probe, DbFault};

/// Longest a readiness probe waits for a database connection.
const READY_TIMEOUT: Duration = Duration::from_secs(2);

/// The process is alive and serving HTTP.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "Alive", body = Health)))]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: HealthStatus::Ok,
    })
}

/// The database is reachable and takes writes: the instance can take traffic. After a write
/// failed on a database fault, each probe writes (and deletes) a scratch row until that works
/// again, so the answer turns ready by itself once the fault is gone.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "The database is unreachable, or refuses writes (`details.reason`), with `Retry-After`", body = ErrorEnvelope),
    ))]
pub async fn readyz(state: web::Data<AppState>) -> Result<web::Json<Health>, ApiError> {
    let pool = state.pool.clone();
    let reachable = web::block(move || -> Result<(), String> {
        let mut conn = pool.get_timeout(READY_TIMEOUT).map_err(|e| e.to_string())?;
        store::ping(&mut conn).map_err(|e| e.to_string())
    })
    .await?;
    if let Err(cause) = reachable {
        tracing::warn!(%cause, "readiness check failed");
        return Err(ApiError::Unavailable {
            fault: DbFault::Unreachable,
        });
    }
    if state.write_health.failing().is_some() {
        state.write(write_probe::probe).await?;
    }
    Ok(web::Json(Health {
        status: HealthStatus::Ready,
    }))
}

/// Prometheus metrics in the text exposition format. Served beside the API unless
/// `[metrics] listen` names a listener of its own (then only there: 404 here); when
/// `[metrics] token` is set, the scraper must send it as a bearer token.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses(
        (status = 200, description = "Prometheus text format", body = String, content_type = "text/plain"),
        (status = 401, description = "`[metrics] token` is set and the request lacks it", body = ErrorEnvelope),
        (status = 404, description = "Served on the separate `[metrics] listen` address instead", body = ErrorEnvelope),
    ))]
pub async fn metrics(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let text = state
        .metrics
        .render(&state.pool)
        .map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(text))
}
