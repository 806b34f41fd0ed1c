//! `[limits]`: request rates per client address and per credential, failed authentications
//! per address, and console sign-in failures per address (see `api::limits`). A rate of 0
//! turns that limit off.

use std::net::IpAddr;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// Requests per second one client address may make, on average; 0: no limit.
    pub address_per_second: u32,
    /// Requests one client address may make at once before the rate applies.
    pub address_burst: u32,
    /// Requests per second one credential (API or player token) may make; 0: no limit.
    pub credential_per_second: u32,
    /// Requests one credential may make at once before the rate applies.
    pub credential_burst: u32,
    /// Requests answered 401 one client address may cause per minute; 0: no limit.
    pub failed_auth_per_minute: u32,
    /// The wait after a failed console sign-in, doubled with each further failure.
    pub sign_in_delay_ms: u64,
    /// Failed console sign-ins that lock an address out.
    pub sign_in_lockout_failures: u32,
    /// How long a lockout lasts (and how long failures are remembered).
    pub sign_in_lockout_secs: u64,
    /// Reverse proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
}

/// Upper bound of `[limits] sign_in_lockout_secs`: a day.
pub const MAX_LOCKOUT_SECS: u64 = 86_400;

impl LimitSettings {
    /// The first key whose value is out of bounds, and why.
    pub fn problem(&self) -> Option<(&'static str, String)> {
        let pairs = [
            (
                "limits.address_burst",
                self.address_per_second,
                self.address_burst,
            ),
            (
                "limits.credential_burst",
                self.credential_per_second,
                self.credential_burst,
            ),
        ];
        for (key, rate, burst) in pairs {
            if rate > 0 && burst < rate {
                return Some((
                    key,
                    "must be at least the rate per second it goes with".into(),
                ));
            }
        }
        if self.sign_in_lockout_failures == 0 {
            return Some((
                "limits.sign_in_lockout_failures",
                "must be greater than 0".into(),
            ));
        }
        if !(1..=MAX_LOCKOUT_SECS).contains(&self.sign_in_lockout_secs) {
            return Some((
                "limits.sign_in_lockout_secs",
                format!("must be between 1 and {MAX_LOCKOUT_SECS}"),
            ));
        }
        if self.sign_in_delay_ms == 0 || self.sign_in_delay_ms / 1000 > self.sign_in_lockout_secs {
            return Some((
                "limits.sign_in_delay_ms",
                "must be greater than 0 and at most the lockout".into(),
            ));
        }
        None
    }
}
