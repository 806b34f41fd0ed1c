//! `arbiter backup PATH` and `arbiter restore PATH`: a consistent copy of the configured
//! SQLite database taken while the service runs, and putting one back while it is stopped.
//! PostgreSQL has its own tools (`pg_dump`, `pg_restore`), named in the refusal.

use std::path::PathBuf;

use anyhow::bail;
use clap::Args;

use crate::config::Settings;
use crate::store::backup::{self, CopySummary};
use crate::store::DatabaseTarget;

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The new file to write (never overwritten).
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A file written by `arbiter backup`.
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

pub fn run_backup(settings: &Settings, args: &BackupArgs) -> anyhow::Result<()> {
    let database = sqlite_path(settings, "backup")?;
    let copy = backup::backup(&database, &args.path)?;
    println!(
        "backed up {} to {}: {}",
        database.display(),
        args.path.display(),
        describe(&copy)
    );
    Ok(())
}

pub fn run_restore(settings: &Settings, args: &RestoreArgs) -> anyhow::Result<()> {
    let database = sqlite_path(settings, "restore")?;
    let copy = backup::restore(&args.path, &database)?;
    println!(
        "restored {} from {}: {}; `arbiter serve` applies any newer migrations",
        database.display(),
        args.path.display(),
        describe(&copy)
    );
    Ok(())
}

fn describe(copy: &CopySummary) -> String {
    format!(
        "{} games, {} bytes, schema {}, integrity ok",
        copy.games, copy.bytes, copy.schema_version
    )
}

fn sqlite_path(settings: &Settings, verb: &str) -> anyhow::Result<PathBuf> {
    match DatabaseTarget::parse(&settings.database.url)? {
        DatabaseTarget::Sqlite(path) => Ok(path),
        DatabaseTarget::Postgres(_) => bail!(
            "`arbiter {verb}` copies a SQLite database; for PostgreSQL use its own tools: \
             pg_dump --format=custom --file=PATH DATABASE_URL, and pg_restore --clean \
             --if-exists --dbname=DATABASE_URL PATH (see docs/personal-data.md)"
        ),
    }
}
