//! No response of this service may be shown inside another site's frame, where a page could
//! lay invisible buttons over the console or `/docs/` (clickjacking; OWASP, "Clickjacking
//! Defense Cheat Sheet"). `X-Frame-Options` for older browsers, the CSP directive
//! `frame-ancestors` for current ones. A response that already sets either keeps its own:
//! the console's fuller policy also forbids framing (`console::CONTENT_SECURITY_POLICY`).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::InternalError;
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::middleware::Next;

/// The policy of every response that sets none: framing only, nothing else restricted.
pub const FRAME_POLICY: &str = "frame-ancestors 'none'";

/// Adds the frame headers to every response, refusals by the inner middleware included.
pub async fn deny_framing(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    match next.call(req).await {
        Ok(mut response) => {
            add_frame_headers(response.headers_mut());
            Ok(response)
        }
        Err(error) => {
            let mut response = error.error_response();
            add_frame_headers(response.headers_mut());
            Err(InternalError::from_response(error, response).into())
        }
    }
}

fn add_frame_headers(headers: &mut HeaderMap) {
    if !headers.contains_key(header::X_FRAME_OPTIONS) {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(FRAME_POLICY),
        );
    }
}
