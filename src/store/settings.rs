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
    /// SQLite only: whether a commit reaches the disk before it is acknowledged.
    pub sqlite_synchronous: SqliteSynchronous,
    /// SQLite only: a ceiling on the database file, in pages of 4 KiB (`PRAGMA
    /// max_page_count`); 0 is no ceiling but the disk's. Reaching it answers like a full disk.
    pub sqlite_max_pages: u32,
    /// PostgreSQL only: machine writes (game ingest, the jobs) running at once; the rest wait
    /// in the service, so people's writes and reads always find a pooled connection.
    pub postgres_bulk_writers: u32,
}

/// SQLite's `PRAGMA synchronous` in WAL mode (SQLite documentation, "PRAGMA synchronous" and
/// "Write-Ahead Logging"). Either way the database survives a crash of the process intact;
/// they differ on a crash of the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SqliteSynchronous {
    /// The log is flushed to disk at every commit: an acknowledged write survives a power
    /// cut or an OS crash.
    Full,
    /// The log is flushed only at checkpoints: faster commits, but the last acknowledged
    /// ones can be lost to a power cut or an OS crash (never to `kill -9`).
    Normal,
}

impl SqliteSynchronous {
    /// The value `PRAGMA synchronous` takes.
    pub fn pragma_value(self) -> &'static str {
        match self {
            SqliteSynchronous::Full => "FULL",
            SqliteSynchronous::Normal => "NORMAL",
        }
    }
}

/// Upper bound of `[database] write_deadline_ms`.
pub const MAX_WRITE_DEADLINE_MS: u64 = 60_000;
/// Upper bound of `[database] checkpoint_interval_ms`.
pub const MAX_CHECKPOINT_INTERVAL_MS: u64 = 60_000;
