//! What the console answers when a page cannot be shown: a redirect to sign-in, or a page
//! that says what went wrong in a sentence (never JSON, never a stack trace).

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use maud::html;

use super::document::bare_page;
use super::session_state::SessionState;
use super::text::url_encoded;
use crate::api::error::ApiError;

#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// No running session: sign in, then come back to `next`.
    #[error("sign in first")]
    SignIn {
        next: Option<String>,
        reason: Option<SessionState>,
    },
    #[error("The form could not be checked (its security token is missing or stale). Reload the page and try again.")]
    CsrfRefused,
    #[error("{0}")]
    Api(ApiError),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadForm(String),
    #[error("Something went wrong on the server; it has been logged. Try again in a moment.")]
    Internal,
}

impl From<ApiError> for ConsoleError {
    fn from(error: ApiError) -> ConsoleError {
        ConsoleError::Api(error)
    }
}

impl ConsoleError {
    /// Seconds to wait before trying again, when the refusal says so.
    fn retry_after_secs(&self) -> Option<u64> {
        match self {
            ConsoleError::Api(error) => error.retry_after_secs(),
            _ => None,
        }
    }

    /// The sentence a page shows for this error. An internal error's cause goes to the log,
    /// not to the page.
    pub fn sentence(&self) -> String {
        match self {
            ConsoleError::Api(ApiError::Internal(_)) => ConsoleError::Internal.to_string(),
            other => other.to_string(),
        }
    }
}

/// Free text from a form, refused when it holds NUL (PostgreSQL stores no such text).
pub fn without_nul(text: &str) -> Result<&str, ConsoleError> {
    if text.contains('\0') {
        Err(ConsoleError::BadForm(
            "The text holds a NUL character.".into(),
        ))
    } else {
        Ok(text)
    }
}

/// `reason` as the sign-in page's query names it.
pub fn reason_code(reason: SessionState) -> &'static str {
    match reason {
        SessionState::Live => "live",
        SessionState::SignedOut => "signed_out",
        SessionState::Expired => "expired",
        SessionState::TokenRevoked => "revoked",
    }
}

impl ResponseError for ConsoleError {
    fn status_code(&self) -> StatusCode {
        match self {
            ConsoleError::SignIn { .. } => StatusCode::SEE_OTHER,
            ConsoleError::CsrfRefused => StatusCode::FORBIDDEN,
            ConsoleError::Api(error) => error.status_code(),
            ConsoleError::NotFound(_) => StatusCode::NOT_FOUND,
            ConsoleError::BadForm(_) => StatusCode::BAD_REQUEST,
            ConsoleError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ConsoleError::SignIn { next, reason } = self {
            let mut location = "/admin/sign-in".to_string();
            let mut separator = '?';
            if let Some(reason) = reason {
                location.push_str(&format!("{separator}reason={}", reason_code(*reason)));
                separator = '&';
            }
            if let Some(next) = next {
                location.push_str(&format!("{separator}next={}", url_encoded(next)));
            }
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, location))
                .finish();
        }
        match self {
            ConsoleError::Api(ApiError::Internal(cause)) => {
                tracing::error!(error.cause = %cause, "console: internal error");
            }
            ConsoleError::Internal => tracing::error!("console: internal error"),
            _ => {}
        }
        let status = self.status_code();
        let title = match status {
            StatusCode::NOT_FOUND => "Not found",
            StatusCode::FORBIDDEN => "Refused",
            StatusCode::CONFLICT => "Not possible now",
            s if s.is_server_error() => "Server error",
            _ => "Not done",
        };
        let mut page = bare_page(
            status,
            title,
            html! {
                p.error role="alert" { (self.sentence()) }
                p { a href="/admin/" { "Back to the queue" } }
            },
        );
        if let Some(secs) = self.retry_after_secs() {
            page.headers_mut().insert(header::RETRY_AFTER, secs.into());
        }
        page
    }
}
