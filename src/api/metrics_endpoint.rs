//! Where `GET /metrics` is served (on the API listener, or alone on `[metrics] listen`) and who
//! may read it (anyone, or callers presenting `[metrics] token`).

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::{from_fn, ErrorHandlers, Next};
use actix_web::{web, App, HttpRequest, HttpResponse, ResponseError};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::auth::bearer_token;
use super::error::{ApiError, AuthFailure};
use super::middleware;
use super::routes::health;
use super::state::AppState;
use crate::config::MetricsSettings;

pub const METRICS_PATH: &str = "/metrics";

/// The configured scrape token, kept as its digest: comparing digests of equal length in
/// constant time tells a caller nothing about the token's length or prefix.
#[derive(Clone)]
pub struct MetricsToken([u8; 32]);

impl MetricsToken {
    /// None when `[metrics] token` is empty (open).
    pub fn from_settings(settings: &MetricsSettings) -> Option<MetricsToken> {
        (!settings.token.is_empty()).then(|| MetricsToken(digest(&settings.token)))
    }

    fn admits(&self, presented: &str) -> bool {
        bool::from(self.0.ct_eq(&digest(presented)))
    }
}

fn digest(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// Mounts `/metrics` on the API app, unless `[metrics] listen` moves it to its own listener.
pub fn configure_on_api_listener(cfg: &mut web::ServiceConfig, settings: &MetricsSettings) {
    if settings.listen_addr().is_none() {
        cfg.service(metrics_resource(settings));
    }
}

fn metrics_resource(
    settings: &MetricsSettings,
) -> actix_web::Resource<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let token = MetricsToken::from_settings(settings);
    web::resource(METRICS_PATH)
        .route(web::get().to(health::metrics))
        .wrap(from_fn(move |req, next| {
            let token = token.clone();
            require_token(token, req, next)
        }))
}

/// The app of the separate metrics listener: `/metrics` and nothing else.
pub fn metrics_only_app(
    state: web::Data<AppState>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let resource = metrics_resource(&state.settings.metrics);
    App::new()
        .app_data(state)
        .service(resource)
        .default_service(web::to(not_found))
        .wrap(ErrorHandlers::new().handler(
            StatusCode::METHOD_NOT_ALLOWED,
            middleware::method_not_allowed,
        ))
        .wrap(from_fn(middleware::observe))
}

async fn require_token(
    token: Option<MetricsToken>,
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if let Some(token) = token {
        let refusal = match bearer_token(req.request()) {
            Ok(presented) if token.admits(&presented) => None,
            Ok(_) => Some(ApiError::Unauthorized(AuthFailure::Invalid)),
            Err(missing_or_malformed) => Some(missing_or_malformed),
        };
        // A response, not an error: the access log and metrics then see the route pattern.
        if let Some(refusal) = refusal {
            return Ok(req.into_response(refusal.error_response()));
        }
    }
    Ok(next.call(req).await?.map_into_boxed_body())
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found(
        "route_not_found",
        format!(
            "No route matches {} {}; this listener serves only GET {METRICS_PATH}.",
            req.method(),
            req.path()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_configured_token_is_admitted() {
        let settings = MetricsSettings {
            listen: String::new(),
            token: "scrape-0123456789abcdef".to_string(),
        };
        let token = MetricsToken::from_settings(&settings).expect("configured");
        assert!(token.admits("scrape-0123456789abcdef"));
        assert!(!token.admits("scrape-0123456789abcde"));
        assert!(!token.admits("scrape-0123456789abcdeF"));
        assert!(!token.admits(""));
        let open = MetricsSettings {
            token: String::new(),
            ..settings
        };
        assert!(MetricsToken::from_settings(&open).is_none());
    }
}
