//! A deadline on every request body: a client that announces a body and then sends it
//! slowly, or not at all, is answered 408 and its connection closed once `[server]
//! body_deadline_secs` have passed since its headers arrived, whatever the handler was doing
//! with the body. (The headers have their own deadline, `[server] header_deadline_secs`, which
//! actix-web enforces with a 408 of its own.) Without it one connection could be held for ever
//! with no credentials at all.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::http::ConnectionType;
use actix_web::middleware::Next;
use actix_web::rt::time::{sleep, Sleep};
use actix_web::web::Bytes;
use actix_web::{web, ResponseError};
use futures_util::Stream;

use super::error::ApiError;
use super::state::AppState;

/// Wraps the request's body in the deadline and answers 408 when it passed.
pub async fn enforce(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let deadline_secs = req
        .app_data::<web::Data<AppState>>()
        .map(|state| state.settings.server.body_deadline_secs)
        .unwrap_or(0);
    if deadline_secs == 0 || !announces_body(&req) {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body);
    }
    let expired = Arc::new(AtomicBool::new(false));
    let (http_req, payload) = req.into_parts();
    let timed = TimedPayload {
        inner: payload,
        deadline: Box::pin(sleep(Duration::from_secs(deadline_secs))),
        expired: expired.clone(),
    };
    let req = ServiceRequest::from_parts(
        http_req,
        Payload::Stream {
            payload: Box::pin(timed),
        },
    );
    let outcome = next.call(req).await;
    if !expired.load(Ordering::Acquire) {
        return outcome.map(ServiceResponse::map_into_left_body);
    }
    tracing::warn!(deadline_secs, "request body deadline passed");
    let refusal = ApiError::RequestTimeout { deadline_secs };
    match outcome {
        Ok(response) => {
            let (http_req, _) = response.into_parts();
            let mut answer = refusal.error_response();
            answer.head_mut().set_connection_type(ConnectionType::Close);
            Ok(ServiceResponse::new(http_req, answer).map_into_right_body())
        }
        Err(_) => Err(refusal.into()),
    }
}

/// Whether the request says a body follows (a length above zero, or chunks).
fn announces_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|length| length > 0)
}

/// The body, ending in a timed-out error once the deadline passes before its last byte.
struct TimedPayload {
    inner: Payload,
    deadline: Pin<Box<Sleep>>,
    expired: Arc<AtomicBool>,
}

impl Stream for TimedPayload {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired.load(Ordering::Acquire) {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.expired.store(true, Ordering::Release);
                    Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the request body deadline passed",
                    )))))
                }
                Poll::Pending => Poll::Pending,
            },
            ready => ready,
        }
    }
}
