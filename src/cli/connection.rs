//! The database connection of a one-shot command.

use anyhow::Context;

use crate::config::Settings;
use crate::store::{self, migrations};

/// A single connection for one-shot commands, with migrations applied.
pub(crate) fn migrated_connection(settings: &Settings) -> anyhow::Result<store::PooledConnection> {
    let mut conn = open_connection(settings)?;
    migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("running migrations: {e}"))?;
    Ok(conn)
}

/// A single connection for one-shot commands, the migrations as they stand (`arbiter migrate`
/// applies or reverts them).
pub(super) fn open_connection(settings: &Settings) -> anyhow::Result<store::PooledConnection> {
    let mut database = settings.database.clone();
    database.pool_size = 1;
    let pool = store::connect(&database).context("opening the database")?;
    pool.get().context("getting a database connection")
}
