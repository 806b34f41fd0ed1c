//! The limiters of one instance, built from `[limits]`.

use std::net::IpAddr;
use std::time::Duration;

use super::keyed::KeyedLimiter;
use super::sign_in::{SignInPolicy, SignInThrottle};
use super::token_bucket::Rate;
use crate::config::LimitSettings;

/// A credential as the limiter knows it: the first bytes of its SHA-256, so the table holds
/// no token.
pub type CredentialKey = [u8; 16];

#[derive(Debug)]
pub struct RequestLimits {
    /// Requests per client address; `None` when off.
    pub per_address: Option<KeyedLimiter<IpAddr>>,
    /// Requests per credential; `None` when off.
    pub per_credential: Option<KeyedLimiter<CredentialKey>>,
    /// Requests answered 401 per client address; `None` when off.
    pub failed_auth: Option<KeyedLimiter<IpAddr>>,
    /// Failed console sign-ins per client address.
    pub sign_in: SignInThrottle,
    pub trusted_proxies: Vec<IpAddr>,
}

impl RequestLimits {
    pub fn from_settings(limits: &LimitSettings) -> RequestLimits {
        RequestLimits {
            per_address: per_second(limits.address_per_second, limits.address_burst),
            per_credential: per_second(limits.credential_per_second, limits.credential_burst),
            failed_auth: (limits.failed_auth_per_minute > 0).then(|| {
                KeyedLimiter::new(Rate {
                    per_second: f64::from(limits.failed_auth_per_minute) / 60.0,
                    burst: f64::from(limits.failed_auth_per_minute),
                })
            }),
            sign_in: SignInThrottle::new(SignInPolicy {
                delay: Duration::from_millis(limits.sign_in_delay_ms),
                lockout_failures: limits.sign_in_lockout_failures,
                lockout: Duration::from_secs(limits.sign_in_lockout_secs),
            }),
            trusted_proxies: limits.trusted_proxies.clone(),
        }
    }
}

/// A limiter of `rate` requests a second with bursts of `burst`; `None` when `rate` is 0.
fn per_second<K: Eq + std::hash::Hash + Clone>(rate: u32, burst: u32) -> Option<KeyedLimiter<K>> {
    (rate > 0).then(|| {
        KeyedLimiter::new(Rate {
            per_second: f64::from(rate),
            burst: f64::from(burst.max(rate)),
        })
    })
}
