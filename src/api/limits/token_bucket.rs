//! A token bucket: up to `burst` requests at once, refilled at `per_second`. Pure: the caller
//! passes the time.

use std::time::{Duration, Instant};

/// A bucket's rate and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

#[derive(Debug, Clone, Copy)]
pub struct TokenBucket {
    tokens: f64,
    updated: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn full(rate: Rate, now: Instant) -> TokenBucket {
        TokenBucket {
            tokens: rate.burst,
            updated: now,
        }
    }

    /// Takes `cost` tokens, or says how long until they are there.
    pub fn take(&mut self, rate: Rate, cost: f64, now: Instant) -> Result<(), Duration> {
        self.refill(rate, now);
        if self.tokens >= cost {
            self.tokens -= cost;
            return Ok(());
        }
        let missing = cost - self.tokens;
        Err(Duration::from_secs_f64(
            missing / rate.per_second.max(f64::MIN_POSITIVE),
        ))
    }

    /// Whether the bucket has refilled completely: it then holds nothing worth keeping.
    pub fn is_full(&self, rate: Rate, now: Instant) -> bool {
        let mut probe = *self;
        probe.refill(rate, now);
        probe.tokens >= rate.burst
    }

    fn refill(&mut self, rate: Rate, now: Instant) {
        let elapsed = now.saturating_duration_since(self.updated).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.updated = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: Rate = Rate {
        per_second: 2.0,
        burst: 3.0,
    };

    #[test]
    fn a_burst_then_the_rate() {
        let start = Instant::now();
        let mut bucket = TokenBucket::full(RATE, start);
        for _ in 0..3 {
            assert!(bucket.take(RATE, 1.0, start).is_ok());
        }
        let wait = bucket.take(RATE, 1.0, start).expect_err("empty");
        assert_eq!(wait, Duration::from_millis(500));
        let later = start + Duration::from_millis(500);
        assert!(bucket.take(RATE, 1.0, later).is_ok());
        assert!(bucket.take(RATE, 1.0, later).is_err());
        assert!(!bucket.is_full(RATE, later));
        assert!(bucket.is_full(RATE, later + Duration::from_secs(2)));
    }
}
