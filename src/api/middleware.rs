//! The outermost middleware: request id, tracing span, access log, metrics, and panic
//! containment (a panicking handler yields a 500 envelope, not a dropped connection).

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::InternalError;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::{ErrorHandlerResponse, Next};
use actix_web::{web, HttpMessage, ResponseError};
use futures_util::FutureExt;
use tracing::Instrument;

use super::error::ApiError;
use super::state::AppState;

pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// Longest accepted incoming request id; longer or odd ones are replaced.
const MAX_REQUEST_ID_LEN: usize = 128;

/// The request's id, available to handlers through request extensions.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl RequestId {
    fn from_request(req: &ServiceRequest) -> RequestId {
        let incoming = req
            .headers()
            .get(REQUEST_ID_HEADER)
            .and_then(|v| v.to_str().ok())
            .filter(|v| {
                !v.is_empty()
                    && v.len() <= MAX_REQUEST_ID_LEN
                    && v.bytes().all(|b| b.is_ascii_graphic())
            });
        match incoming {
            Some(id) => RequestId(id.to_string()),
            None => RequestId(uuid::Uuid::new_v4().to_string()),
        }
    }
}

pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let started = Instant::now();
    let request_id = RequestId::from_request(&req);
    req.extensions_mut().insert(request_id.clone());
    // Standard methods only, so arbitrary ones cannot grow the metric label set.
    let method = match req.method().as_str() {
        m @ ("GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS") => m.to_string(),
        _ => "OTHER".to_string(),
    };
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let span = tracing::info_span!(
        "request",
        request_id = %request_id.0,
        method = %method,
        route = tracing::field::Empty,
        caller = tracing::field::Empty,
    );
    // The request cannot be kept (routing needs sole ownership of it), so failures below are
    // returned as errors that carry their finished response.
    let outcome = AssertUnwindSafe(next.call(req))
        .catch_unwind()
        .instrument(span.clone())
        .await;
    // The pattern, not the path: bounded label values and no ids in metrics. Read after
    // routing, which remembers the matched resource; asked before, actix walks every route's
    // pattern again. A request that never reached a response has no pattern to report.
    let route = match &outcome {
        Ok(Ok(response)) => response
            .request()
            .match_pattern()
            .unwrap_or_else(|| "unmatched".to_string()),
        _ => "unknown".to_string(),
    };
    span.record("route", route.as_str());
    let result = match outcome {
        Ok(Ok(response)) => Ok(response.map_into_boxed_body()),
        Ok(Err(err)) => Err(err.error_response()),
        Err(panic) => {
            let _entered = span.enter();
            let error = ApiError::internal(format!("handler panicked: {}", panic_message(&*panic)));
            Err(error.error_response())
        }
    };
    let header_value = HeaderValue::from_str(&request_id.0).ok();
    let with_id = |headers: &mut actix_web::http::header::HeaderMap| {
        if let Some(value) = header_value.clone() {
            headers.insert(HeaderName::from_static(REQUEST_ID_HEADER), value);
        }
    };
    let status = match &result {
        Ok(response) => response.status(),
        Err(response) => response.status(),
    };
    record(
        &span,
        state.as_ref().map(|s| s.get_ref()),
        &method,
        &route,
        status.as_u16(),
        started.elapsed(),
    );
    match result {
        Ok(mut response) => {
            with_id(response.headers_mut());
            Ok(response)
        }
        Err(mut response) => {
            with_id(response.headers_mut());
            Err(InternalError::from_response("request failed", response).into())
        }
    }
}

fn record(
    span: &tracing::Span,
    state: Option<&AppState>,
    method: &str,
    route: &str,
    status: u16,
    elapsed: std::time::Duration,
) {
    if let Some(state) = state {
        state
            .metrics
            .observe_request(method, route, status, elapsed);
    }
    span.in_scope(|| {
        tracing::info!(
            status,
            latency_ms = elapsed.as_secs_f64() * 1000.0,
            "request finished"
        )
    });
}

fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

/// Replaces actix's empty 405 (a known path, another method) with the envelope and the
/// `Allow` header RFC 9110 requires, listing the route's methods as the document gives them.
pub fn method_not_allowed<B>(
    response: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let (request, _) = response.into_parts();
    let allowed = super::openapi::allowed_methods(request.path()).unwrap_or_default();
    let answer = ApiError::MethodNotAllowed { allowed }.error_response();
    let response = ServiceResponse::new(request, answer);
    Ok(ErrorHandlerResponse::Response(
        response.map_into_right_body(),
    ))
}

/// Refuses a path or query string carrying an encoded NUL (`%00`): no name, filter or id
/// holds one, and PostgreSQL cannot compare text with it.
pub async fn refuse_nul(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let has_nul = |text: &str| {
        text.as_bytes()
            .windows(3)
            .any(|w| w[0] == b'%' && w[1] == b'0' && w[2] == b'0')
    };
    if has_nul(req.uri().path()) {
        return Err(ApiError::bad_request(
            "invalid_path",
            "The path holds a NUL character (%00); no name or id has one.",
        )
        .into());
    }
    if req.uri().query().is_some_and(has_nul) {
        return Err(ApiError::bad_request(
            "invalid_query",
            "The query string holds a NUL character (%00); no parameter takes one.",
        )
        .into());
    }
    next.call(req).await
}
