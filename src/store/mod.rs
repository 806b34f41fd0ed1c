//! Storage: diesel over SQLite or PostgreSQL with one set of queries.
//!
//! Layout: `schema` (tables), `connection` (backend choice, pool, per-connection set-up),
//! `migrations` (embedded, both backends), then one module of row types and queries per
//! table or aggregate (`api_tokens`, ...). Functions here take `&mut DbConnection` and are
//! blocking; the HTTP layer runs them on the blocking thread pool.
//!
//! The multi-step writes are use cases (`crate::usecases`): storing a game, filing a report,
//! deciding a case and the rest. Store modules hold the rows and queries they use.

/// Inserts one row and returns its id: `RETURNING id` on PostgreSQL, the connection's last
/// rowid on SQLite (the multi-backend connection has no RETURNING).
macro_rules! insert_returning_id {
    ($conn:expr, $table:expr, $values:expr, $id:expr) => {
        match $conn {
            $crate::store::DbConnection::Sqlite(c) => {
                diesel::insert_into($table).values($values).execute(c)?;
                diesel::select($crate::store::last_insert_rowid()).get_result::<i64>(c)
            }
            $crate::store::DbConnection::Postgres(c) => diesel::insert_into($table)
                .values($values)
                .returning($id)
                .get_result::<i64>(c),
        }
    };
}

/// Runs `$body` with `$c` bound to the backend's own connection. For what the multi-backend
/// connection lacks (batch inserts) and for the hot paths' reads: the native connection's
/// statement cache keys on the query's type, where the multi-backend one rebuilds the SQL text
/// on every call to look it up.
macro_rules! on_backend {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn {
            $crate::store::DbConnection::Sqlite($c) => $body,
            $crate::store::DbConnection::Postgres($c) => $body,
        }
    };
}

/// A multi-row insert on the backend's own connection; runs inside the caller's transaction.
macro_rules! insert_all {
    ($conn:expr, $table:expr, $rows:expr) => {
        on_backend!($conn, c => diesel::insert_into($table).values($rows).execute(c))
    };
}

pub mod alerts;
pub mod api_tokens;
pub mod appeals;
pub mod archive_pairs;
pub mod archive_players;
pub mod automatic_reports;
pub mod backup;
pub mod case_evidence;
pub mod case_tallies;
pub mod cases;
pub mod chat_flags;
pub mod claims;
pub mod collusion;
pub mod collusion_reported;
mod column_types;
pub mod conduct;
pub mod connection;
pub mod console_sessions;
pub mod decisions;
pub mod erasure;
pub mod fault;
pub mod fingerprint_matches;
pub mod game_search;
pub mod games;
pub mod key_checks;
pub mod migrations;
pub mod modlog;
pub mod played_order;
pub mod player_export;
pub mod player_notes;
pub mod player_search;
pub mod players;
pub mod queue;
pub mod refunds;
pub mod report_timeouts;
pub mod reports;
pub mod retention;
pub mod sanction_changes;
pub mod sanction_listing;
pub mod sanctions;
pub mod schema;
pub mod separations;
pub mod settings;
pub mod stats_days;
pub mod warnings;
pub mod webhook_outbox;
pub mod webhook_sealing;
pub mod webhook_subscriptions;
pub mod webhook_url;
pub mod word_list;
pub mod write_probe;

pub use connection::{
    checkpoint_wal, connect, connect_lazy, ping, refresh_planner_statistics, Backend,
    DatabaseTarget, DbConnection, DbPool, PoolSetupError, PooledConnection,
};
pub use fault::DbFault;
pub use settings::{
    DatabaseSettings, SqliteSynchronous, MAX_CHECKPOINT_INTERVAL_MS, MAX_WRITE_DEADLINE_MS,
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

/// A zoned time as stored (UTC, microseconds).
pub fn from_utc(at: DateTime<Utc>) -> NaiveDateTime {
    at.naive_utc().trunc_subsecs(6)
}

diesel::define_sql_function! {
    /// SQLite: the rowid of this connection's last insert.
    fn last_insert_rowid() -> diesel::sql_types::BigInt;
}

/// The snake_case name of a policy enum (`ReportReason`, `SanctionKind`, ...), as stored.
pub(crate) fn enum_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// A stored snake_case name back as its policy enum.
pub(crate) fn parse_enum<T: serde::de::DeserializeOwned>(name: &str) -> diesel::QueryResult<T> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).map_err(|e| {
        diesel::result::Error::DeserializationError(format!("stored value {name:?}: {e}").into())
    })
}
