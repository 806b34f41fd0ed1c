//! The application: every route, the API documentation, the console and the middleware
//! around them.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::{from_fn, ErrorHandlers};
use actix_web::{web, App, HttpRequest, HttpResponse};

use super::error::ApiError;
use super::state::AppState;
use super::{
    body_deadline, console, docs_page, frame_headers, json, limits, metrics_endpoint, middleware,
    route_table,
};

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
        // Before the /api/v1 scope, which would otherwise claim /api/v1/openapi.json.
        .configure(docs_page::configure)
        .configure(console::configure)
        .configure(route_table::configure)
        .configure(|cfg| metrics_endpoint::configure_on_api_listener(cfg, &metrics))
        .configure(extra)
        .default_service(web::to(not_found))
        .wrap(from_fn(middleware::refuse_nul))
        .wrap(from_fn(body_deadline::enforce))
        .wrap(ErrorHandlers::new().handler(
            StatusCode::METHOD_NOT_ALLOWED,
            middleware::method_not_allowed,
        ))
        .wrap(from_fn(limits::middleware::enforce))
        .wrap(from_fn(middleware::observe))
        // Outermost, so refusals by the middleware above and contained panics carry it too.
        .wrap(from_fn(frame_headers::deny_framing))
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found(
        "route_not_found",
        format!("No route matches {} {}.", req.method(), req.path()),
    ))
}
