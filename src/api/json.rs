//! Request-body and parameter errors in the envelope.
//!
//! `ApiJson<T>` replaces `web::Json<T>` for request bodies: it reports the path of the field
//! that failed (`details.field`, e.g. `moves[3].from`) with serde_json's line and column.

use std::future::Future;
use std::ops::Deref;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::{JsonPayloadError, PathError, PayloadError, QueryPayloadError};
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::error::ApiError;

/// What a JSON body route accepts; a 415 names it.
pub const JSON_BODY: &[&str] = &["application/json"];

/// A JSON request body deserialised into `T`, with field-precise errors.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T> ApiJson<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for ApiJson<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json_content = is_json_content_type(req);
        let limit = body_limit(req);
        // Reads at most the configured PayloadConfig limit.
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !json_content {
                return Err(ApiError::UnsupportedMediaType {
                    accepted: JSON_BODY,
                });
            }
            let bytes = body
                .await
                .map_err(|err| match err.as_error::<PayloadError>() {
                    Some(PayloadError::Overflow) => ApiError::PayloadTooLarge { limit },
                    _ => ApiError::bad_request(
                        "unreadable_body",
                        format!("The request body could not be read: {err}."),
                    ),
                })?;
            parse_json(&bytes).map(ApiJson)
        })
    }
}

/// Deserialises `bytes`, naming the failing field on error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if let Some(field) = nul_field(bytes) {
        return Err(ApiError::BadRequest {
            code: "invalid_json",
            message: format!(
                "Invalid JSON body at `{field}`: text may not contain the NUL character (\\u0000)."
            ),
            details: json!({ "field": field }),
        });
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        json_error((path != ".").then_some(path), err.inner())
    })?;
    // Trailing garbage after the value is malformed too.
    deserializer.end().map_err(|err| json_error(None, &err))?;
    Ok(value)
}

/// Where the body holds a NUL character, if it does: no text field takes one (PostgreSQL
/// cannot store it). JSON can only carry NUL escaped, so bodies without `\u0000` are not
/// parsed twice.
fn nul_field(bytes: &[u8]) -> Option<String> {
    if !bytes.windows(6).any(|w| w == b"\\u0000") {
        return None;
    }
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    find_nul(&value, "")
}

fn find_nul(value: &serde_json::Value, path: &str) -> Option<String> {
    let here = || (if path.is_empty() { "." } else { path }).to_string();
    match value {
        serde_json::Value::String(text) => text.contains('\0').then(here),
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| find_nul(item, &format!("{path}[{i}]"))),
        serde_json::Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            if key.contains('\0') {
                Some(at)
            } else {
                find_nul(item, &at)
            }
        }),
        _ => None,
    }
}

fn json_error(field: Option<String>, inner: &serde_json::Error) -> ApiError {
    let message = match &field {
        Some(field) => format!("Invalid JSON body at `{field}`: {inner}."),
        None => format!("Invalid JSON body: {inner}."),
    };
    ApiError::BadRequest {
        code: "invalid_json",
        message,
        details: json!({
            "field": field,
            "line": inner.line(),
            "column": inner.column(),
        }),
    }
}

fn is_json_content_type(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(accepted_json_type)
}

/// `application/json`, with at most `charset=utf-8`: JSON is UTF-8 (RFC 8259, section 8.1),
/// and a body declared in another charset or as another `+json` type (`json-patch+json`) means
/// something this API does not do, so it is refused rather than guessed at.
pub fn accepted_json_type(content_type: &str) -> bool {
    is_utf8_type(content_type, "application/json")
}

/// Whether `content_type` is `essence`, with at most `charset=utf-8`.
pub fn is_utf8_type(content_type: &str, essence: &str) -> bool {
    let mut parts = content_type.split(';');
    if !parts
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case(essence)
    {
        return false;
    }
    parts.all(|param| {
        let param = param.trim();
        match param.split_once('=') {
            Some((name, value)) => {
                name.trim().eq_ignore_ascii_case("charset")
                    && value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
            }
            // A bare `;` at the end is harmless.
            None => param.is_empty(),
        }
    })
}

fn body_limit(req: &HttpRequest) -> usize {
    req.app_data::<web::Data<super::state::AppState>>()
        .map(|state| state.settings.server.body_limit_bytes)
        .unwrap_or(0)
}

/// `web::Json` errors, for handlers that use it anyway.
pub fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .content_type_required(true)
        .content_type(|mime| accepted_json_type(mime.as_ref()))
        .error_handler(move |err, _req| {
            let api_error = match err {
                JsonPayloadError::Overflow { .. }
                | JsonPayloadError::OverflowKnownLength { .. } => {
                    ApiError::PayloadTooLarge { limit }
                }
                JsonPayloadError::ContentType => ApiError::UnsupportedMediaType {
                    accepted: JSON_BODY,
                },
                JsonPayloadError::Deserialize(inner) => json_error(None, &inner),
                other => ApiError::bad_request(
                    "unreadable_body",
                    format!("The request body could not be read: {other}."),
                ),
            };
            api_error.into()
        })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default().error_handler(|err, _req| {
        let QueryPayloadError::Deserialize(inner) = &err else {
            return ApiError::bad_request("invalid_query", format!("Invalid query string: {err}."))
                .into();
        };
        ApiError::bad_request("invalid_query", format!("Invalid query string: {inner}.")).into()
    })
}

pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| {
        let message = match &err {
            PathError::Deserialize(inner) => format!("Invalid path parameter: {inner}."),
            other => format!("Invalid path parameter: {other}."),
        };
        ApiError::bad_request("invalid_path", message).into()
    })
}

/// A 400 naming the query parameter `field`.
pub fn invalid_query(field: &str, message: String) -> ApiError {
    ApiError::BadRequest {
        code: "invalid_query",
        message,
        details: json!({ "field": field }),
    }
}

/// An optional RFC 3339 time from the query parameter `field`, in stored (UTC) form.
pub fn query_instant(
    field: &str,
    text: Option<&str>,
) -> Result<Option<chrono::NaiveDateTime>, ApiError> {
    text.map(|text| {
        chrono::DateTime::parse_from_rfc3339(text)
            .map(|at| at.naive_utc())
            .map_err(|_| {
                invalid_query(
                    field,
                    format!("`{field}` must be an RFC 3339 time such as 2026-06-07T18:00:00Z."),
                )
            })
    })
    .transpose()
}

/// One of a wire enum's values from the query parameter `field`; a 400 lists the allowed ones.
pub fn query_enum<T: DeserializeOwned + serde::Serialize>(
    field: &str,
    text: &str,
    all: &[T],
) -> Result<T, ApiError> {
    serde_json::from_value(json!(text)).map_err(|_| {
        let known: Vec<String> = all
            .iter()
            .filter_map(|v| serde_json::to_value(v).ok())
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        invalid_query(
            field,
            format!("`{field}` must be one of {}.", known.join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::accepted_json_type;

    #[test]
    fn only_json_in_utf8_is_accepted() {
        for ok in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"",
            "application/json;",
        ] {
            assert!(accepted_json_type(ok), "{ok}");
        }
        for refused in [
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/json; charset=latin1",
            "application/json; charset=utf-16",
            "application/json; version=2",
            "text/json",
            "text/plain",
            "",
        ] {
            assert!(!accepted_json_type(refused), "{refused}");
        }
    }
}
