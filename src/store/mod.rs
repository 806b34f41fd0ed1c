//! Storage: diesel over SQLite or PostgreSQL with one set of queries.
//!
//! Layout: `schema` (tables), `connection` (backend choice, pool, per-connection set-up),
//! `migrations` (embedded, both backends), then one module of row types and queries per
//! table or aggregate (`api_tokens`, ...). Functions here take `&mut DbConnection` and are
//! blocking; the HTTP layer runs them on the blocking thread pool.

pub mod api_tokens;
pub mod automatic_reports;
pub mod chat_flags;
pub mod conduct;
pub mod connection;
pub mod games;
pub mod migrations;
pub mod modlog;
pub mod players;
pub mod queue;
pub mod schema;

pub use connection::{
    connect, connect_lazy, ping, Backend, DatabaseTarget, DbConnection, DbPool, PooledConnection,
};

use chrono::{DateTime, NaiveDateTime, SubsecRound, Utc};

/// The current time as stored: UTC, microsecond precision (PostgreSQL's), so a value reads
/// back exactly as written on both backends.
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc().trunc_subsecs(6)
}

/// A stored (UTC) timestamp as a zoned value for the API.
pub fn to_utc(stored: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(stored, Utc)
}
