//! HTTP layer (actix-web): application assembly, auth extractors, error envelope, OpenAPI.
//! Handlers stay thin: extract, call store/pure code, map to a typed response.

pub mod auth;
pub mod checkpointer;
pub mod conduct_applier;
pub mod console;
pub mod error;
pub mod json;
pub mod metrics;
pub mod metrics_endpoint;
pub mod middleware;
pub mod openapi;
pub mod pagination;
pub mod retention_job;
pub mod routes;
pub mod server;
pub mod sqlite_writer;
pub mod state;
pub mod statuses;
pub mod submission_schema;
pub mod views;
pub mod webhook_deliverer;
pub mod webhook_signature;
pub mod wire_enums;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::{from_fn, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse};
use utoipa_swagger_ui::SwaggerUi;

pub use error::ApiError;
pub use state::AppState;

/// Starts the background tasks every `arbiter serve` instance runs on the current actix
/// runtime: the conduct applier, the retention job, the webhook deliverer and, on SQLite, the
/// checkpointer.
pub fn spawn_background_tasks(state: web::Data<AppState>) {
    conduct_applier::spawn(state.clone());
    if state.settings.retention.enabled {
        retention_job::spawn(state.clone());
    }
    if state.settings.webhooks.enabled {
        webhook_deliverer::spawn(state.clone());
    }
    checkpointer::spawn(state);
}

/// Builds the application. `extra` mounts additional services (tests use it for fault
/// injection routes); production passes `|_| {}`.
pub fn build_app<F>(
    state: web::Data<AppState>,
    extra: F,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
>
where
    F: FnOnce(&mut web::ServiceConfig),
{
    let body_limit = state.settings.server.body_limit_bytes;
    let metrics = state.settings.metrics.clone();
    App::new()
        .app_data(state)
        .app_data(web::PayloadConfig::new(body_limit))
        .app_data(json::json_config(body_limit))
        .app_data(json::query_config())
        .app_data(json::path_config())
        .service(web::resource("/docs").route(web::get().to(docs_redirect)))
        // Before the /api/v1 scope, which would otherwise claim /api/v1/openapi.json.
        .service(SwaggerUi::new("/docs/{_:.*}").url(openapi::OPENAPI_PATH, openapi::document()))
        .configure(console::configure)
        .configure(routes::configure)
        .configure(|cfg| metrics_endpoint::configure_on_api_listener(cfg, &metrics))
        .configure(extra)
        .default_service(web::to(not_found))
        .wrap(from_fn(middleware::refuse_nul))
        .wrap(ErrorHandlers::new().handler(
            StatusCode::METHOD_NOT_ALLOWED,
            middleware::method_not_allowed,
        ))
        .wrap(from_fn(middleware::observe))
}

async fn docs_redirect() -> HttpResponse {
    HttpResponse::Found()
        .insert_header((actix_web::http::header::LOCATION, "/docs/"))
        .finish()
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found(
        "route_not_found",
        format!("No route matches {} {}.", req.method(), req.path()),
    ))
}
