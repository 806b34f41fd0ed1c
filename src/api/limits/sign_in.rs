//! Console sign-in failures per client address: after each failure the next attempt must wait
//! longer (`[limits] sign_in_delay_ms`, doubled with each failure), and after
//! `sign_in_lockout_failures` of them the address is locked out for `sign_in_lockout_secs`.
//! A success forgets the address's failures; so does a quiet lockout period. This bounds
//! guessing of admin tokens through the sign-in form to a few dozen tries a day per address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most addresses remembered; beyond it, the oldest records make room.
const MAX_ADDRESSES: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignInPolicy {
    /// The wait after the first failure; each further failure doubles it.
    pub delay: Duration,
    /// Failures that lock the address out.
    pub lockout_failures: u32,
    /// How long a lockout lasts, and how long failures are remembered.
    pub lockout: Duration,
}

/// One address's recent failures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Failures {
    count: u32,
    last: Instant,
}

impl SignInPolicy {
    /// Whether an attempt may be made now, or how long to wait.
    pub fn admits(&self, failures: Option<Failures>, now: Instant) -> Result<(), Duration> {
        let Some(failures) = failures.filter(|f| !self.forgotten(f, now)) else {
            return Ok(());
        };
        let wait = if failures.count >= self.lockout_failures {
            self.lockout
        } else {
            self.delay_after(failures.count)
        };
        let next = failures.last + wait;
        if now < next {
            Err(next - now)
        } else {
            Ok(())
        }
    }

    /// The record after one more failure.
    pub fn failed(&self, failures: Option<Failures>, now: Instant) -> Failures {
        let count = failures
            .filter(|f| !self.forgotten(f, now))
            .map_or(0, |f| f.count);
        Failures {
            count: count.saturating_add(1),
            last: now,
        }
    }

    /// The wait after `count` failures: the delay doubled per failure after the first,
    /// never more than a lockout.
    pub fn delay_after(&self, count: u32) -> Duration {
        let doublings = count.saturating_sub(1).min(20);
        self.delay.saturating_mul(1 << doublings).min(self.lockout)
    }

    fn forgotten(&self, failures: &Failures, now: Instant) -> bool {
        now.saturating_duration_since(failures.last) >= self.lockout
    }
}

/// The failures of every address, for one instance.
#[derive(Debug)]
pub struct SignInThrottle {
    policy: SignInPolicy,
    failures: Mutex<HashMap<IpAddr, Failures>>,
}

impl SignInThrottle {
    pub fn new(policy: SignInPolicy) -> SignInThrottle {
        SignInThrottle {
            policy,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `address` may try now, or how long it must wait.
    pub fn admits(&self, address: IpAddr, now: Instant) -> Result<(), Duration> {
        let failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        self.policy.admits(failures.get(&address).copied(), now)
    }

    /// Records a failed attempt; returns how long the address must now wait.
    pub fn failed(&self, address: IpAddr, now: Instant) -> Duration {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() >= MAX_ADDRESSES && !failures.contains_key(&address) {
            let policy = self.policy;
            failures.retain(|_, f| !policy.forgotten(f, now));
        }
        let record = self.policy.failed(failures.get(&address).copied(), now);
        failures.insert(address, record);
        self.policy
            .admits(Some(record), now)
            .err()
            .unwrap_or_default()
    }

    /// A successful sign-in forgets the address's failures.
    pub fn succeeded(&self, address: IpAddr) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        failures.remove(&address);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: SignInPolicy = SignInPolicy {
        delay: Duration::from_secs(1),
        lockout_failures: 4,
        lockout: Duration::from_secs(900),
    };

    #[test]
    fn each_failure_doubles_the_wait_until_the_lockout() {
        let throttle = SignInThrottle::new(POLICY);
        let here: IpAddr = "198.51.100.1".parse().expect("address");
        let start = Instant::now();
        assert!(throttle.admits(here, start).is_ok());
        assert_eq!(throttle.failed(here, start), Duration::from_secs(1));
        assert_eq!(throttle.admits(here, start), Err(Duration::from_secs(1)));
        let t1 = start + Duration::from_secs(1);
        assert!(throttle.admits(here, t1).is_ok());
        assert_eq!(throttle.failed(here, t1), Duration::from_secs(2));
        let t2 = t1 + Duration::from_secs(2);
        assert_eq!(throttle.failed(here, t2), Duration::from_secs(4));
        let t3 = t2 + Duration::from_secs(4);
        assert_eq!(
            throttle.failed(here, t3),
            Duration::from_secs(900),
            "locked out"
        );
        assert!(throttle
            .admits(here, t3 + Duration::from_secs(899))
            .is_err());
        assert!(throttle.admits(here, t3 + Duration::from_secs(900)).is_ok());
        let other: IpAddr = "198.51.100.2".parse().expect("address");
        assert!(throttle.admits(other, t3).is_ok(), "per address");
    }

    #[test]
    fn a_success_forgets_the_failures() {
        let throttle = SignInThrottle::new(POLICY);
        let here: IpAddr = "198.51.100.1".parse().expect("address");
        let start = Instant::now();
        throttle.failed(here, start);
        throttle.succeeded(here);
        assert!(throttle.admits(here, start).is_ok());
    }
}
