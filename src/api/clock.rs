//! The time the background jobs act at: the system's, plus an offset that only tests move, so
//! that a rule which waits hours (an alert for a case left unclaimed) is tested without
//! waiting. Requests keep the system's time.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{NaiveDateTime, TimeDelta};

use crate::store;

/// A clock shared by an instance's jobs.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    pub fn now(&self) -> NaiveDateTime {
        store::now() + TimeDelta::milliseconds(self.offset_ms.load(Ordering::Relaxed))
    }

    /// Moves this clock forward by `by` (tests).
    pub fn advance(&self, by: TimeDelta) {
        self.offset_ms
            .fetch_add(by.num_milliseconds(), Ordering::Relaxed);
    }
}
