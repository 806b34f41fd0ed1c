//! One token bucket per key (a client address, a credential), in a bounded table: when it
//! holds `MAX_KEYS`, buckets that have refilled completely (clients gone quiet) are dropped,
//! and if none has, the newcomer is limited as one shared "overflow" client, so a flood of
//! fresh addresses cannot grow memory without bound.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::token_bucket::{Rate, TokenBucket};

/// Most keys a limiter remembers.
const MAX_KEYS: usize = 100_000;

#[derive(Debug)]
pub struct KeyedLimiter<K> {
    rate: Rate,
    buckets: Mutex<HashMap<Option<K>, TokenBucket>>,
}

impl<K: Eq + Hash + Clone> KeyedLimiter<K> {
    pub fn new(rate: Rate) -> KeyedLimiter<K> {
        KeyedLimiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request for `key`, or says how long it must wait.
    pub fn take(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let slot = Some(key.clone());
        if !buckets.contains_key(&slot) && buckets.len() >= MAX_KEYS {
            let rate = self.rate;
            buckets.retain(|_, bucket| !bucket.is_full(rate, now));
        }
        let slot = if buckets.contains_key(&slot) || buckets.len() < MAX_KEYS {
            slot
        } else {
            None
        };
        buckets
            .entry(slot)
            .or_insert_with(|| TokenBucket::full(self.rate, now))
            .take(self.rate, 1.0, now)
    }

    /// Whether `key` has a request left, without taking it.
    pub fn check(&self, key: &K, now: Instant) -> Result<(), Duration> {
        let buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        match buckets.get(&Some(key.clone())) {
            Some(bucket) => {
                let mut probe = *bucket;
                probe.take(self.rate, 1.0, now)
            }
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_buckets_of_their_own() {
        let limiter = KeyedLimiter::new(Rate {
            per_second: 1.0,
            burst: 2.0,
        });
        let now = Instant::now();
        assert!(limiter.take(&"a", now).is_ok());
        assert!(limiter.take(&"a", now).is_ok());
        assert!(limiter.check(&"a", now).is_err());
        assert!(limiter.take(&"a", now).is_err());
        assert!(limiter.take(&"b", now).is_ok());
        assert!(limiter.check(&"b", now).is_ok());
    }
}
