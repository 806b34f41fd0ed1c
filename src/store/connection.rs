//! One connection type for both backends, its pool, and per-connection set-up.

use std::path::{Path, PathBuf};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, CustomizeConnection, ManageConnection, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use diesel::{Connection, ConnectionError};

use super::settings::{DatabaseSettings, SqliteSynchronous};

/// A connection to either backend. Queries are written once against this type; the
/// derive dispatches them to the inner connection.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Postgres(PgConnection),
    Sqlite(SqliteConnection),
}

impl DbConnection {
    pub fn backend(&self) -> Backend {
        match self {
            DbConnection::Postgres(_) => Backend::Postgres,
            DbConnection::Sqlite(_) => Backend::Sqlite,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

pub type DbPool = r2d2::Pool<DbConnectionManager>;
pub type PooledConnection = r2d2::PooledConnection<DbConnectionManager>;

/// Where a database URL points. Chosen by scheme, never by trial: trying PostgreSQL first and
/// falling back to SQLite would turn an unreachable server into a stray local file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseTarget {
    Postgres(String),
    Sqlite(PathBuf),
}

#[derive(Debug, thiserror::Error)]
#[error("unsupported database url scheme (expected sqlite://, postgres:// or postgresql://)")]
pub struct UnsupportedUrl;

impl DatabaseTarget {
    pub fn parse(url: &str) -> Result<DatabaseTarget, UnsupportedUrl> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(DatabaseTarget::Postgres(url.to_string()))
        } else if let Some(path) = url.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(UnsupportedUrl);
            }
            Ok(DatabaseTarget::Sqlite(PathBuf::from(path)))
        } else {
            Err(UnsupportedUrl)
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            DatabaseTarget::Postgres(_) => Backend::Postgres,
            DatabaseTarget::Sqlite(_) => Backend::Sqlite,
        }
    }
}

/// Opens connections of the configured backend for the r2d2 pool.
#[derive(Debug)]
pub struct DbConnectionManager {
    target: DatabaseTarget,
}

impl DbConnectionManager {
    pub fn new(target: DatabaseTarget) -> Self {
        DbConnectionManager { target }
    }
}

impl ManageConnection for DbConnectionManager {
    type Connection = DbConnection;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConnection, r2d2::Error> {
        match &self.target {
            DatabaseTarget::Postgres(url) => PgConnection::establish(url)
                .map(DbConnection::Postgres)
                .map_err(r2d2::Error::ConnectionError),
            DatabaseTarget::Sqlite(path) => {
                let path = path.to_str().ok_or_else(|| {
                    r2d2::Error::ConnectionError(ConnectionError::InvalidConnectionUrl(
                        "sqlite path is not valid UTF-8".to_string(),
                    ))
                })?;
                configure_sqlite_library();
                SqliteConnection::establish(path)
                    .map(DbConnection::Sqlite)
                    .map_err(r2d2::Error::ConnectionError)
            }
        }
    }

    /// Run on every checkout. A PostgreSQL session can die with its server or network, so it
    /// is pinged; an open SQLite file cannot go away, and a ping there would only add a
    /// statement to every request.
    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        match conn {
            DbConnection::Postgres(_) => conn.ping().map_err(r2d2::Error::QueryError),
            DbConnection::Sqlite(_) => Ok(()),
        }
    }

    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        conn.is_broken()
    }
}

/// Process-wide SQLite settings, set once before the first connection opens (SQLite accepts
/// them only before it initialises; every connection opens through the pool manager above).
/// Multi-thread mode instead of serialized: the pool hands a connection to one thread at a
/// time, so SQLite's own per-call connection mutex is redundant. No memory statistics: they
/// take a process-wide mutex on every allocation, which the hot read paths feel under load.
#[allow(unsafe_code)]
fn configure_sqlite_library() {
    static CONFIGURED: std::sync::Once = std::sync::Once::new();
    CONFIGURED.call_once(|| {
        use libsqlite3_sys as ffi;
        // SAFETY: `sqlite3_config` must not run concurrently with other SQLite calls or after
        // initialisation; the `Once` runs it before this process's first connection opens and
        // blocks every other opener until it is done. A refusal (`SQLITE_MISUSE` if something
        // initialised SQLite first) leaves the defaults, which are correct, only slower.
        let results = unsafe {
            [
                ffi::sqlite3_config(ffi::SQLITE_CONFIG_MULTITHREAD),
                ffi::sqlite3_config(ffi::SQLITE_CONFIG_MEMSTATUS, 0 as std::ffi::c_int),
            ]
        };
        if results.iter().any(|&code| code != ffi::SQLITE_OK) {
            tracing::debug!(
                ?results,
                "SQLite kept its default threading and memory settings"
            );
        }
    });
}

/// Per-connection settings applied when the pool opens a connection. SQLite keeps these
/// per connection, so every pooled connection must get them.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionSetup {
    pub busy_timeout: Duration,
    /// SQLite: the log size (pages) at which a commit checkpoints.
    pub wal_autocheckpoint_pages: u32,
    /// SQLite: whether a commit is on disk before it is acknowledged.
    pub synchronous: SqliteSynchronous,
    /// SQLite: the database's ceiling in pages; 0 for none.
    pub max_pages: u32,
}

/// SQLite's own default: a commit that brings the log to 1,000 pages checkpoints it.
pub const WAL_AUTOCHECKPOINT_PAGES: u32 = 1_000;
/// With background checkpoints (`[database] checkpoint_interval_ms`), commits checkpoint only
/// if those fall this far behind (64 MB of 4 KB pages), so the log stays bounded.
pub const WAL_AUTOCHECKPOINT_BEHIND_PAGES: u32 = 16_384;

impl CustomizeConnection<DbConnection, r2d2::Error> for ConnectionSetup {
    fn on_acquire(&self, conn: &mut DbConnection) -> Result<(), r2d2::Error> {
        match conn {
            DbConnection::Sqlite(sqlite) => {
                // busy_timeout first, so switching to WAL waits instead of failing when another
                // connection holds the lock.
                let pragmas = format!(
                    "PRAGMA busy_timeout = {};\
                     PRAGMA journal_mode = WAL;\
                     PRAGMA synchronous = {};\
                     PRAGMA foreign_keys = ON;\
                     PRAGMA wal_autocheckpoint = {};",
                    self.busy_timeout.as_millis(),
                    self.synchronous.pragma_value(),
                    self.wal_autocheckpoint_pages
                );
                let ceiling = if self.max_pages > 0 {
                    format!("PRAGMA max_page_count = {};", self.max_pages)
                } else {
                    String::new()
                };
                sqlite
                    .batch_execute(&(pragmas + &ceiling))
                    .map_err(r2d2::Error::QueryError)
            }
            DbConnection::Postgres(pg) => pg
                // Every timestamp is UTC; make the session agree so now() and casts do too.
                .batch_execute("SET TIME ZONE 'UTC'")
                .map_err(r2d2::Error::QueryError),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PoolSetupError {
    #[error("database url: {0}")]
    Url(#[from] UnsupportedUrl),
    #[error("cannot create database directory {path}: {source}")]
    Directory {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot connect to the database: {0}")]
    Connect(#[from] r2d2::PoolError),
}

/// Builds the pool and checks that one connection can be opened.
pub fn connect(settings: &DatabaseSettings) -> Result<DbPool, PoolSetupError> {
    let builder = pool_builder(settings)?;
    let manager = manager_for(settings)?;
    Ok(builder.build(manager)?)
}

/// Builds the pool without connecting; connections are opened on demand. Used where start-up
/// must not wait for the database (and by tests of an unreachable database).
pub fn connect_lazy(settings: &DatabaseSettings) -> Result<DbPool, PoolSetupError> {
    let builder = pool_builder(settings)?;
    let manager = manager_for(settings)?;
    Ok(builder.build_unchecked(manager))
}

fn manager_for(settings: &DatabaseSettings) -> Result<DbConnectionManager, PoolSetupError> {
    let target = DatabaseTarget::parse(&settings.url)?;
    if let DatabaseTarget::Sqlite(path) = &target {
        ensure_parent_dir(path)?;
    }
    Ok(DbConnectionManager::new(target))
}

fn pool_builder(
    settings: &DatabaseSettings,
) -> Result<r2d2::Builder<DbConnectionManager>, PoolSetupError> {
    Ok(r2d2::Pool::builder()
        .max_size(settings.pool_size)
        // Open connections on demand; a burst grows the pool up to max_size.
        .min_idle(Some(1))
        .connection_timeout(Duration::from_secs(settings.connect_timeout_secs))
        .connection_customizer(Box::new(ConnectionSetup {
            busy_timeout: Duration::from_millis(settings.busy_timeout_ms),
            wal_autocheckpoint_pages: if settings.checkpoint_interval_ms > 0 {
                WAL_AUTOCHECKPOINT_BEHIND_PAGES
            } else {
                WAL_AUTOCHECKPOINT_PAGES
            },
            synchronous: settings.sqlite_synchronous,
            max_pages: settings.sqlite_max_pages,
        })))
}

fn ensure_parent_dir(path: &Path) -> Result<(), PoolSetupError> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|source| PoolSetupError::Directory {
                path: dir.display().to_string(),
                source,
            })
        }
        _ => Ok(()),
    }
}

/// A trivial round trip, for readiness checks.
pub fn ping(conn: &mut DbConnection) -> diesel::QueryResult<()> {
    conn.batch_execute("SELECT 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_targets() {
        assert_eq!(
            DatabaseTarget::parse("sqlite://data/a.db").ok(),
            Some(DatabaseTarget::Sqlite(PathBuf::from("data/a.db")))
        );
        assert_eq!(
            DatabaseTarget::parse("sqlite:///tmp/a.db").ok(),
            Some(DatabaseTarget::Sqlite(PathBuf::from("/tmp/a.db")))
        );
        assert!(matches!(
            DatabaseTarget::parse("postgres://u@h/db"),
            Ok(DatabaseTarget::Postgres(_))
        ));
        assert!(DatabaseTarget::parse("mysql://h/db").is_err());
        assert!(DatabaseTarget::parse("sqlite://").is_err());
    }
}

/// What one SQLite checkpoint did (`PRAGMA wal_checkpoint`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, diesel::QueryableByName)]
pub struct WalCheckpoint {
    /// 1 when the checkpoint could not finish (a full or restart checkpoint was blocked).
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pub busy: i32,
    /// Pages in the write-ahead log.
    #[diesel(sql_type = diesel::sql_types::Integer, column_name = log)]
    pub log_pages: i32,
    /// Of those, pages now copied into the database file.
    #[diesel(sql_type = diesel::sql_types::Integer, column_name = checkpointed)]
    pub checkpointed_pages: i32,
}

/// Copies the SQLite write-ahead log into the database file as far as readers allow, without
/// waiting for or blocking writers (a passive checkpoint). `None` on PostgreSQL.
pub fn checkpoint_wal(conn: &mut DbConnection) -> diesel::QueryResult<Option<WalCheckpoint>> {
    use diesel::RunQueryDsl;
    match conn {
        DbConnection::Sqlite(c) => diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)")
            .get_result(c)
            .map(Some),
        DbConnection::Postgres(_) => Ok(None),
    }
}

/// After a bulk load, PostgreSQL's planner statistics are refreshed (`ANALYZE`), so queries on
/// the grown tables are planned for their sizes: autovacuum would do it later, or never where
/// it is off, and until then a prepared statement's generic plan may scan a whole table
/// (issue #41). SQLite plans by its indexes alone and needs nothing here.
pub fn refresh_planner_statistics(conn: &mut DbConnection) -> diesel::QueryResult<()> {
    match conn {
        DbConnection::Sqlite(_) => Ok(()),
        DbConnection::Postgres(c) => c.batch_execute("ANALYZE"),
    }
}
