//! The one API error type and its JSON envelope:
//! `{"error": {"code": "snake_case", "message": "human sentence", "details": {...}}}`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::store::DbFault;

/// Seconds a caller is asked to wait after a database fault: long enough for a PostgreSQL
/// restart or a fail-over to finish, short enough that the game server's retry is not felt.
pub const FAULT_RETRY_AFTER_SECS: u64 = 5;

/// Why a request was not authenticated; shown to the caller as `details.reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthFailure {
    Missing,
    Malformed,
    Invalid,
    Revoked,
    Expired,
    /// A player token whose `exp` is further ahead than `auth.max_token_lifetime_secs`.
    LifetimeTooLong,
    /// A player token whose `iat` is in the future beyond `auth.clock_skew_secs`.
    IssuedInFuture,
}

impl AuthFailure {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthFailure::Missing => "missing",
            AuthFailure::Malformed => "malformed",
            AuthFailure::Invalid => "invalid",
            AuthFailure::Revoked => "revoked",
            AuthFailure::Expired => "expired",
            AuthFailure::LifetimeTooLong => "lifetime_too_long",
            AuthFailure::IssuedInFuture => "issued_in_future",
        }
    }

    fn sentence(self) -> &'static str {
        match self {
            AuthFailure::Missing => "This route needs an `Authorization: Bearer <token>` header.",
            AuthFailure::Malformed => {
                "The Authorization header is not of the form `Bearer <token>`."
            }
            AuthFailure::Invalid => "The token is not valid.",
            AuthFailure::Revoked => "The token has been revoked.",
            AuthFailure::Expired => "The token has expired.",
            AuthFailure::LifetimeTooLong => {
                "The token's `exp` is further ahead than the longest token lifetime accepted."
            }
            AuthFailure::IssuedInFuture => "The token's `iat` (issued at) is in the future.",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request cannot be read (bad JSON, query string or path parameter).
    #[error("{message}")]
    BadRequest {
        code: &'static str,
        message: String,
        details: Value,
    },
    /// 401: no usable credentials.
    #[error("{}", .0.sentence())]
    Unauthorized(AuthFailure),
    /// 403: authenticated, but the route is for other roles.
    #[error("This route is for the {} role; the caller is {actual}.", .allowed.join(" or "))]
    Forbidden {
        allowed: &'static [&'static str],
        actual: &'static str,
    },
    /// 403: the caller's role may use the route, but not for this (e.g. a report timeout, an
    /// admin who is a party to the case).
    #[error("{message}")]
    Refused {
        code: &'static str,
        message: String,
        details: Value,
    },
    /// 404: no such resource (or no such route).
    #[error("{message}")]
    NotFound { code: &'static str, message: String },
    /// 405: the route exists but not with this method; `allowed` lists the ones it serves.
    #[error("The route does not accept this method; it serves {}.", .allowed.join(", "))]
    MethodNotAllowed { allowed: Vec<&'static str> },
    /// 409: the request conflicts with the current state.
    #[error("{message}")]
    Conflict {
        code: &'static str,
        message: String,
        details: Value,
    },
    /// 413: the body is larger than `server.body_limit_bytes`.
    #[error("The request body is larger than the limit of {limit} bytes.")]
    PayloadTooLarge { limit: usize },
    /// 415: the body's content type is not one the route reads; `accepted` lists those.
    #[error("The request body must be sent as {} (the Content-Type header).", .accepted.join(" or "))]
    UnsupportedMediaType { accepted: &'static [&'static str] },
    /// 422: well-formed but invalid (e.g. an illegal move, an empty name).
    #[error("{message}")]
    Unprocessable {
        code: &'static str,
        message: String,
        details: Value,
    },
    /// 408: the request's body did not arrive within `[server] body_deadline_secs`.
    #[error("The request body did not arrive within {deadline_secs} seconds; nothing was done.")]
    RequestTimeout { deadline_secs: u64 },
    /// 429: too many requests; retry later.
    #[error("Too many requests; retry in {retry_after_secs} seconds.")]
    TooManyRequests { retry_after_secs: u64 },
    /// 429 with a sentence and details of its own (e.g. the report rate limit).
    #[error("{message}")]
    RateLimited {
        code: &'static str,
        message: String,
        retry_after_secs: u64,
        details: Value,
    },
    /// 500: a fault on our side. The cause is logged, never shown.
    #[error("Internal error: {0}")]
    Internal(String),
    /// 503: the database cannot serve (gone, restarting, read-only, full); nothing was
    /// written. Clears by itself when the database is back.
    #[error("{} Retry in {FAULT_RETRY_AFTER_SECS} seconds.", fault.sentence())]
    Unavailable { fault: DbFault },
    /// 503: SQLite's one writer did not reach this write within `[database]
    /// write_deadline_ms`; nothing was written.
    #[error("The database is busy with other writes; nothing was written. Retry in {retry_after_secs} seconds.")]
    WriterBusy { retry_after_secs: u64 },
}

impl ApiError {
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::BadRequest {
            code,
            message: message.into(),
            details: json!({}),
        }
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::NotFound {
            code,
            message: message.into(),
        }
    }

    pub fn unprocessable(code: &'static str, message: impl Into<String>, details: Value) -> Self {
        ApiError::Unprocessable {
            code,
            message: message.into(),
            details,
        }
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Conflict {
            code,
            message: message.into(),
            details: json!({}),
        }
    }

    pub fn internal(cause: impl std::fmt::Display) -> Self {
        ApiError::Internal(cause.to_string())
    }

    /// Seconds the caller is asked to wait (`Retry-After`), for the refusals that say so.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            ApiError::TooManyRequests { retry_after_secs }
            | ApiError::WriterBusy { retry_after_secs }
            | ApiError::RateLimited {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            ApiError::Unavailable { .. } => Some(FAULT_RETRY_AFTER_SECS),
            _ => None,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest { code, .. }
            | ApiError::NotFound { code, .. }
            | ApiError::Conflict { code, .. }
            | ApiError::Unprocessable { code, .. }
            | ApiError::Refused { code, .. }
            | ApiError::RateLimited { code, .. } => code,
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::Forbidden { .. } => "forbidden",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::UnsupportedMediaType { .. } => "unsupported_media_type",
            ApiError::TooManyRequests { .. } => "rate_limited",
            ApiError::RequestTimeout { .. } => "request_timeout",
            ApiError::Internal(_) => "internal",
            ApiError::Unavailable { .. } => "unavailable",
            ApiError::WriterBusy { .. } => "busy",
        }
    }

    fn details(&self) -> Value {
        match self {
            ApiError::BadRequest { details, .. }
            | ApiError::Conflict { details, .. }
            | ApiError::Unprocessable { details, .. }
            | ApiError::Refused { details, .. }
            | ApiError::RateLimited { details, .. } => details.clone(),
            ApiError::Unauthorized(reason) => json!({ "reason": reason.as_str() }),
            ApiError::Forbidden { allowed, actual } => {
                json!({ "allowed_roles": allowed, "caller_role": actual })
            }
            ApiError::PayloadTooLarge { limit } => json!({ "limit_bytes": limit }),
            ApiError::UnsupportedMediaType { accepted } => json!({ "accepted": accepted }),
            ApiError::MethodNotAllowed { allowed } => json!({ "allowed": allowed }),
            ApiError::RequestTimeout { deadline_secs } => json!({ "deadline_secs": deadline_secs }),
            ApiError::TooManyRequests { retry_after_secs }
            | ApiError::WriterBusy { retry_after_secs } => {
                json!({ "retry_after_secs": retry_after_secs })
            }
            ApiError::Unavailable { fault } => {
                json!({ "reason": fault.reason(), "retry_after_secs": FAULT_RETRY_AFTER_SECS })
            }
            _ => json!({}),
        }
    }

    /// The sentence shown to the caller; internal causes stay in the log.
    fn public_message(&self) -> String {
        match self {
            ApiError::Internal(_) => "An internal error occurred; it has been logged.".to_string(),
            other => other.to_string(),
        }
    }

    pub fn envelope(&self) -> ErrorEnvelope {
        ErrorEnvelope {
            error: ErrorBody {
                code: self.code().to_string(),
                message: self.public_message(),
                details: self.details(),
            },
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden { .. } | ApiError::Refused { .. } => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::RequestTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            ApiError::Conflict { .. } => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooManyRequests { .. } | ApiError::RateLimited { .. } => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable { .. } | ApiError::WriterBusy { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            ApiError::Internal(cause) => tracing::error!(error.cause = %cause, "internal error"),
            ApiError::Unavailable { fault } => {
                tracing::warn!(reason = fault.reason(), "database unavailable")
            }
            ApiError::WriterBusy { .. } => tracing::warn!("write refused: the writer is busy"),
            _ => {}
        }
        let mut response = HttpResponse::build(self.status_code());
        match self {
            ApiError::Unauthorized(_) => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            ApiError::MethodNotAllowed { allowed } => {
                response.insert_header((header::ALLOW, allowed.join(", ")));
            }
            _ => {}
        }
        if let Some(secs) = self.retry_after_secs() {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.json(self.envelope())
    }
}

/// Every error response has this shape.
#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorEnvelope {
    pub error: ErrorBody,
}

#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Stable machine-readable code, e.g. `invalid_json`, `forbidden`.
    #[schema(example = "not_found")]
    pub code: String,
    /// A sentence for humans; may change between versions.
    pub message: String,
    /// Structured context (field names, limits, ...); an empty object when there is none.
    #[schema(value_type = Object)]
    pub details: Value,
}

impl From<diesel::result::Error> for ApiError {
    fn from(err: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match err {
            Error::NotFound => ApiError::not_found("not_found", "The resource does not exist."),
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => ApiError::Conflict {
                code: "conflict",
                message: "The resource already exists.".to_string(),
                details: json!({ "constraint": info.constraint_name() }),
            },
            other => match DbFault::of(&other) {
                Some(fault) => {
                    tracing::warn!(error = %other, reason = fault.reason(), "database fault");
                    ApiError::Unavailable { fault }
                }
                None => ApiError::internal(format!("database: {other}")),
            },
        }
    }
}

impl From<diesel::r2d2::PoolError> for ApiError {
    fn from(err: diesel::r2d2::PoolError) -> Self {
        tracing::warn!(error = %err, "database pool");
        ApiError::Unavailable {
            fault: DbFault::Unreachable,
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(err: actix_web::error::BlockingError) -> Self {
        ApiError::internal(format!("blocking task failed: {err}"))
    }
}
