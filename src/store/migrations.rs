//! Embedded migrations: `migrations/sqlite` and `migrations/postgres`, kept in step (same
//! directory names, same versions).

use diesel::connection::SimpleConnection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use super::connection::DbConnection;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// Arbitrary constant naming the advisory lock that serialises migrations when several
/// instances start against one PostgreSQL database.
const MIGRATION_LOCK_KEY: i64 = 0x0041_7262_6974_6572;

pub type MigrationError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Applies every pending migration; returns the versions applied.
pub fn run_pending(conn: &mut DbConnection) -> Result<Vec<String>, MigrationError> {
    match conn {
        DbConnection::Sqlite(c) => Ok(versions(c.run_pending_migrations(SQLITE_MIGRATIONS)?)),
        DbConnection::Postgres(c) => {
            c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))?;
            let applied = c.run_pending_migrations(POSTGRES_MIGRATIONS).map(versions);
            c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))?;
            applied
        }
    }
}

fn versions(list: Vec<diesel::migration::MigrationVersion<'_>>) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

/// Reverts every applied migration, newest first; returns the versions reverted.
pub fn revert_all(conn: &mut DbConnection) -> Result<Vec<String>, MigrationError> {
    Ok(versions(match conn {
        DbConnection::Sqlite(c) => c.revert_all_migrations(SQLITE_MIGRATIONS)?,
        DbConnection::Postgres(c) => c.revert_all_migrations(POSTGRES_MIGRATIONS)?,
    }))
}

/// Versions not yet applied.
pub fn pending(conn: &mut DbConnection) -> Result<Vec<String>, MigrationError> {
    let pending = match conn {
        DbConnection::Sqlite(c) => c
            .pending_migrations(SQLITE_MIGRATIONS)?
            .iter()
            .map(|m| m.name().version().to_string())
            .collect(),
        DbConnection::Postgres(c) => c
            .pending_migrations(POSTGRES_MIGRATIONS)?
            .iter()
            .map(|m| m.name().version().to_string())
            .collect(),
    };
    Ok(pending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::migration::MigrationSource;

    /// Both sets must hold the same migrations in the same order.
    #[test]
    fn migration_sets_are_in_step() {
        let names = |set: &EmbeddedMigrations| -> Vec<String> {
            MigrationSource::<diesel::sqlite::Sqlite>::migrations(set)
                .expect("embedded migrations load")
                .iter()
                .map(|m| m.name().to_string())
                .collect()
        };
        let sqlite = names(&SQLITE_MIGRATIONS);
        let postgres = names(&POSTGRES_MIGRATIONS);
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, postgres);
    }
}
