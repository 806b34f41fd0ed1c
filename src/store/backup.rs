//! Copies of a SQLite database: taken while the service runs, checked, and put back while it
//! is stopped.
//!
//! A backup is `VACUUM INTO`: one read transaction, so it is a consistent snapshot of every
//! commit before it began, and the service's writers go on meanwhile (WAL mode). A restore
//! copies the backup beside the database, checks the copy, and renames it over the database,
//! only when no other connection has the database open.

use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel::sqlite::{Sqlite, SqliteConnection};
use diesel_migrations::MigrationHarness;

use super::migrations::SQLITE_MIGRATIONS;

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} already exists: a backup never overwrites a file")]
    Exists(PathBuf),
    #[error("{0} does not exist")]
    Missing(PathBuf),
    #[error(
        "the database {0} is open in another process (a running `arbiter serve`?); stop it \
         before restoring"
    )]
    InUse(PathBuf),
    #[error("{path} fails SQLite's integrity check: {problem}")]
    Damaged { path: PathBuf, problem: String },
    #[error(
        "{path} holds migrations this build does not know ({versions}): it comes from a newer \
         Arbiter"
    )]
    Newer { path: PathBuf, versions: String },
    #[error("{path}: {cause}")]
    Database {
        path: PathBuf,
        cause: diesel::result::Error,
    },
    #[error("{path}: {cause}")]
    Open {
        path: PathBuf,
        cause: diesel::ConnectionError,
    },
    #[error("{path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("{path}: reading its migrations: {message}")]
    Migrations { path: PathBuf, message: String },
}

/// What a checked copy holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopySummary {
    pub bytes: u64,
    pub games: i64,
    /// The newest migration applied to it.
    pub schema_version: String,
}

/// Copies the database at `database` into the new file `to` while other connections go on
/// writing, then checks the copy.
pub fn backup(database: &Path, to: &Path) -> Result<CopySummary, BackupError> {
    if !database.exists() {
        return Err(BackupError::Missing(database.to_path_buf()));
    }
    if to.exists() {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    let mut conn = open(database)?;
    conn.batch_execute("PRAGMA busy_timeout = 5000")
        .map_err(|source| database_error(database, source))?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<diesel::sql_types::Text, _>(text_path(to)?)
        .execute(&mut conn)
        .map_err(|source| database_error(database, source))?;
    check(to)
}

/// Replaces the database at `database` by the backup `from`, which must pass the integrity
/// check and come from this build or an older one (`arbiter serve` applies the migrations it
/// lacks). Refused while another connection has the database open.
pub fn restore(from: &Path, database: &Path) -> Result<CopySummary, BackupError> {
    if !from.exists() {
        return Err(BackupError::Missing(from.to_path_buf()));
    }
    check(from)?;
    let staged = sibling(database, "restoring");
    remove_if_present(&staged)?;
    {
        let mut source = open(from)?;
        diesel::sql_query("VACUUM INTO ?")
            .bind::<diesel::sql_types::Text, _>(text_path(&staged)?)
            .execute(&mut source)
            .map_err(|source| database_error(from, source))?;
    }
    let summary = check(&staged)?;
    if database.exists() {
        if let Err(e) = empty_log_when_unused(database) {
            remove_if_present(&staged)?;
            return Err(e);
        }
    }
    for stale in [sibling(database, "wal"), sibling(database, "shm")] {
        remove_if_present(&stale)?;
    }
    std::fs::rename(&staged, database).map_err(|source| BackupError::Io {
        path: database.to_path_buf(),
        cause: source,
    })?;
    Ok(summary)
}

/// Checks a database file: SQLite's integrity check, and migrations this build knows.
pub fn check(path: &Path) -> Result<CopySummary, BackupError> {
    let mut conn = open(path)?;
    #[derive(QueryableByName)]
    struct Line {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let lines: Vec<Line> = diesel::sql_query("PRAGMA integrity_check")
        .load(&mut conn)
        .map_err(|source| database_error(path, source))?;
    let problems: Vec<String> = lines
        .into_iter()
        .map(|l| l.integrity_check)
        .filter(|l| l != "ok")
        .collect();
    if !problems.is_empty() {
        return Err(BackupError::Damaged {
            path: path.to_path_buf(),
            problem: problems.join("; "),
        });
    }
    let migrations_error = |e: Box<dyn std::error::Error + Send + Sync>| BackupError::Migrations {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let applied: Vec<String> = conn
        .applied_migrations()
        .map_err(migrations_error)?
        .iter()
        .map(ToString::to_string)
        .collect();
    let known: Vec<String> = MigrationSource::<Sqlite>::migrations(&SQLITE_MIGRATIONS)
        .map_err(migrations_error)?
        .iter()
        .map(|m| m.name().version().to_string())
        .collect();
    let unknown: Vec<&str> = applied
        .iter()
        .filter(|v| !known.contains(v))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        return Err(BackupError::Newer {
            path: path.to_path_buf(),
            versions: unknown.join(", "),
        });
    }
    let games: i64 = super::schema::games::table
        .count()
        .get_result(&mut conn)
        .map_err(|source| database_error(path, source))?;
    let bytes = std::fs::metadata(path)
        .map_err(|source| BackupError::Io {
            path: path.to_path_buf(),
            cause: source,
        })?
        .len();
    Ok(CopySummary {
        bytes,
        games,
        schema_version: applied.into_iter().max().unwrap_or_default(),
    })
}

/// Moves the database's write-ahead log into it and leaves it closed, failing when another
/// connection has it open: in WAL mode every open connection holds a shared lock on the
/// file, so an exclusive one is refused at once.
fn empty_log_when_unused(database: &Path) -> Result<(), BackupError> {
    let mut conn = open(database)?;
    conn.batch_execute(
        "PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;",
    )
    .map_err(|_| BackupError::InUse(database.to_path_buf()))?;
    conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)")
        .map_err(|source| database_error(database, source))?;
    Ok(())
}

fn open(path: &Path) -> Result<SqliteConnection, BackupError> {
    SqliteConnection::establish(text_path(path)?).map_err(|source| BackupError::Open {
        path: path.to_path_buf(),
        cause: source,
    })
}

fn text_path(path: &Path) -> Result<&str, BackupError> {
    path.to_str().ok_or_else(|| BackupError::Io {
        path: path.to_path_buf(),
        cause: std::io::Error::new(std::io::ErrorKind::InvalidInput, "path is not UTF-8"),
    })
}

fn database_error(path: &Path, source: diesel::result::Error) -> BackupError {
    BackupError::Database {
        path: path.to_path_buf(),
        cause: source,
    }
}

/// `database` with `-suffix` appended to its file name (SQLite's `-wal` and `-shm`).
fn sibling(database: &Path, suffix: &str) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(format!("-{suffix}"));
    PathBuf::from(name)
}

fn remove_if_present(path: &Path) -> Result<(), BackupError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(BackupError::Io {
            path: path.to_path_buf(),
            cause: source,
        }),
    }
}
