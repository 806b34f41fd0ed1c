//! Database faults: errors that say the database cannot serve right now (gone, restarting,
//! read-only, full), as opposed to errors in what was asked of it. A fault is answered 503
//! with `Retry-After` and clears by itself when the database is back; nothing was written,
//! since every write is one transaction.
//!
//! SQLite reports the kind only in its message here (diesel maps constraint codes alone), so
//! the fixed English texts of `sqlite3_errstr` are matched (https://sqlite.org/rescode.html).
//! PostgreSQL's SQLSTATE classes 08 (connection), 57P (operator intervention) and 53 (disk
//! full) arrive as a closed connection or as their server message
//! (https://www.postgresql.org/docs/current/errcodes-appendix.html).

use diesel::result::{DatabaseErrorKind, Error};

/// Why the database cannot serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DbFault {
    /// The server is gone, restarting, or closed the connection mid-transaction.
    Unreachable,
    /// Writes are refused: a read-only file or server, a standby.
    ReadOnly,
    /// The disk (or `[database] sqlite_max_pages`) is full.
    Full,
    /// The operating system failed a read or write.
    Io,
    /// SQLite rolled the transaction back itself (it does on a full disk, an I/O error or a
    /// lack of memory), so diesel's own rollback failed and the first error is lost
    /// (https://sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction").
    Aborted,
}

impl DbFault {
    /// The fault named in an error body's `details.reason`.
    pub fn reason(self) -> &'static str {
        match self {
            DbFault::Unreachable => "database_unreachable",
            DbFault::ReadOnly => "database_read_only",
            DbFault::Full => "database_full",
            DbFault::Io => "database_io_error",
            DbFault::Aborted => "database_write_aborted",
        }
    }

    /// The sentence shown to callers.
    pub fn sentence(self) -> &'static str {
        match self {
            DbFault::Unreachable => {
                "The database is unreachable or restarting; nothing was written."
            }
            DbFault::ReadOnly => "The database refuses writes (read-only); nothing was written.",
            DbFault::Full => "The database's disk is full; nothing was written.",
            DbFault::Io => "The database's disk failed a read or write; nothing was written.",
            DbFault::Aborted => {
                "The database aborted the write (a full disk, an I/O error or a lack of memory); \
                 nothing was written."
            }
        }
    }

    /// The fault an error reports, if it is one.
    pub fn of(err: &Error) -> Option<DbFault> {
        match err {
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, _)
            | Error::DatabaseError(DatabaseErrorKind::UnableToSendCommand, _)
            | Error::BrokenTransactionManager => Some(DbFault::Unreachable),
            Error::DatabaseError(DatabaseErrorKind::ReadOnlyTransaction, _) => {
                Some(DbFault::ReadOnly)
            }
            Error::DatabaseError(_, info) => of_message(info.message()),
            Error::RollbackErrorOnCommit {
                rollback_error,
                commit_error,
            } => DbFault::of(commit_error).or_else(|| DbFault::of(rollback_error)),
            _ => None,
        }
    }
}

/// The fault a server or library message names.
fn of_message(message: &str) -> Option<DbFault> {
    const FAULTS: &[(&str, DbFault)] = &[
        // SQLite (sqlite3_errstr).
        ("database or disk is full", DbFault::Full),
        ("attempt to write a readonly database", DbFault::ReadOnly),
        ("disk I/O error", DbFault::Io),
        ("unable to open database file", DbFault::Unreachable),
        (
            "cannot rollback - no transaction is active",
            DbFault::Aborted,
        ),
        // PostgreSQL server and libpq.
        ("No space left on device", DbFault::Full),
        ("could not extend file", DbFault::Full),
        ("read-only transaction", DbFault::ReadOnly),
        ("terminating connection", DbFault::Unreachable),
        ("the database system is", DbFault::Unreachable),
        ("server closed the connection", DbFault::Unreachable),
        ("no connection to the server", DbFault::Unreachable),
        ("connection to server", DbFault::Unreachable),
        ("could not receive data from server", DbFault::Unreachable),
        ("could not send data to server", DbFault::Unreachable),
    ];
    FAULTS
        .iter()
        .find(|(text, _)| message.contains(text))
        .map(|&(_, fault)| fault)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(message: &str) -> Error {
        Error::DatabaseError(DatabaseErrorKind::Unknown, Box::new(message.to_string()))
    }

    #[test]
    fn sqlite_and_postgres_faults_are_named() {
        assert_eq!(
            DbFault::of(&unknown("database or disk is full")),
            Some(DbFault::Full)
        );
        assert_eq!(
            DbFault::of(&unknown("attempt to write a readonly database")),
            Some(DbFault::ReadOnly)
        );
        assert_eq!(
            DbFault::of(&unknown(
                "terminating connection due to administrator command"
            )),
            Some(DbFault::Unreachable)
        );
        assert_eq!(
            DbFault::of(&unknown("the database system is shutting down")),
            Some(DbFault::Unreachable)
        );
        assert_eq!(
            DbFault::of(&unknown(
                "could not extend file \"base/1/2\": No space left on device"
            )),
            Some(DbFault::Full)
        );
        let closed = Error::DatabaseError(
            DatabaseErrorKind::ClosedConnection,
            Box::new("server closed the connection unexpectedly".to_string()),
        );
        assert_eq!(DbFault::of(&closed), Some(DbFault::Unreachable));
        let on_commit = Error::RollbackErrorOnCommit {
            rollback_error: Box::new(Error::BrokenTransactionManager),
            commit_error: Box::new(unknown("database or disk is full")),
        };
        assert_eq!(DbFault::of(&on_commit), Some(DbFault::Full));
        assert_eq!(
            DbFault::of(&unknown("cannot rollback - no transaction is active")),
            Some(DbFault::Aborted)
        );
    }

    #[test]
    fn errors_in_the_request_are_not_faults() {
        assert_eq!(DbFault::of(&Error::NotFound), None);
        assert_eq!(DbFault::of(&unknown("no such table: games")), None);
        let unique = Error::DatabaseError(
            DatabaseErrorKind::UniqueViolation,
            Box::new("UNIQUE constraint failed".to_string()),
        );
        assert_eq!(DbFault::of(&unique), None);
    }
}
