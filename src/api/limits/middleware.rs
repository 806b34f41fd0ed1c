//! Refuses a request with 429 and `Retry-After` when its client address or its credential has
//! used up its rate, or its address has caused too many 401s lately; counts the 401s.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{header, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, ResponseError};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::client_address::client_address;
use super::request_limits::{CredentialKey, RequestLimits};
use crate::api::error::ApiError;
use crate::api::state::AppState;

/// Which limit refused a request, as `details.limit` names it.
#[derive(Debug, Clone, Copy)]
enum Limit {
    Address,
    Credential,
    FailedAuthentication,
}

impl Limit {
    fn name(self) -> &'static str {
        match self {
            Limit::Address => "address",
            Limit::Credential => "credential",
            Limit::FailedAuthentication => "failed_authentication",
        }
    }

    fn sentence(self) -> &'static str {
        match self {
            Limit::Address => "Too many requests from this address",
            Limit::Credential => "Too many requests with this credential",
            Limit::FailedAuthentication => {
                "Too many requests with bad credentials from this address"
            }
        }
    }
}

pub async fn enforce(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return next
            .call(req)
            .await
            .map(ServiceResponse::map_into_left_body);
    };
    let limits = &state.limits;
    let address = request_address(req.request(), limits);
    let credential = credential_key(&req);
    if let Err((limit, wait)) = admit(limits, address, credential.as_ref(), Instant::now()) {
        let refusal = refusal(limit, wait);
        let (http_req, _) = req.into_parts();
        return Ok(ServiceResponse::new(http_req, refusal.error_response()).map_into_right_body());
    }
    let response = next.call(req).await?;
    if response.status() == StatusCode::UNAUTHORIZED {
        if let (Some(address), Some(failed)) = (address, &limits.failed_auth) {
            // Counted whether or not it is over: the refusal comes on the next request.
            let _ = failed.take(&address, Instant::now());
        }
    }
    Ok(response.map_into_left_body())
}

/// The client address of a request, as limits count it.
pub fn request_address(req: &HttpRequest, limits: &RequestLimits) -> Option<IpAddr> {
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    client_address(
        req.peer_addr().map(|peer| peer.ip()),
        forwarded,
        &limits.trusted_proxies,
    )
}

fn admit(
    limits: &RequestLimits,
    address: Option<IpAddr>,
    credential: Option<&CredentialKey>,
    now: Instant,
) -> Result<(), (Limit, Duration)> {
    if let Some(address) = address {
        if let Some(failed) = &limits.failed_auth {
            failed
                .check(&address, now)
                .map_err(|wait| (Limit::FailedAuthentication, wait))?;
        }
        if let Some(per_address) = &limits.per_address {
            per_address
                .take(&address, now)
                .map_err(|wait| (Limit::Address, wait))?;
        }
    }
    if let (Some(credential), Some(per_credential)) = (credential, &limits.per_credential) {
        per_credential
            .take(credential, now)
            .map_err(|wait| (Limit::Credential, wait))?;
    }
    Ok(())
}

/// The bearer credential of a request, hashed.
fn credential_key(req: &ServiceRequest) -> Option<CredentialKey> {
    let value = req.headers().get(header::AUTHORIZATION)?;
    let digest = Sha256::digest(value.as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    Some(key)
}

fn refusal(limit: Limit, wait: Duration) -> ApiError {
    let retry_after_secs = whole_seconds(wait);
    ApiError::RateLimited {
        code: "rate_limited",
        message: format!("{}; retry in {retry_after_secs} seconds.", limit.sentence()),
        retry_after_secs,
        details: json!({ "limit": limit.name(), "retry_after_secs": retry_after_secs }),
    }
}

/// A wait as `Retry-After` gives it: whole seconds, rounded up, at least one.
pub fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}
