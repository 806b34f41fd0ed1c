//! `[database]` settings.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    pub url: String,
    pub pool_size: u32,
    pub connect_timeout_secs: u64,
    pub busy_timeout_ms: u64,
    /// SQLite only: how long a write waits for its turn at the one writer before the request
    /// answers 503 with `Retry-After`.
    pub write_deadline_ms: u64,
    /// SQLite only: how often `arbiter serve` copies the write-ahead log into the database
    /// file, off the writers' path; 0 leaves it to the committing writer.
    pub checkpoint_interval_ms: u64,
}

/// Upper bound of `[database] write_deadline_ms`.
pub const MAX_WRITE_DEADLINE_MS: u64 = 60_000;
/// Upper bound of `[database] checkpoint_interval_ms`.
pub const MAX_CHECKPOINT_INTERVAL_MS: u64 = 60_000;
