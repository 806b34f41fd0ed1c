//! The readiness probe's write: one row large enough to need new pages, written and deleted.
//! It fails exactly when real writes fail on a fault (a full disk or `[database]
//! sqlite_max_pages`, a read-only database, a lost server). No explicit transaction: SQLite
//! rolls a transaction back by itself on a full disk, and diesel's rollback would then report
//! "no transaction is active" instead of the fault. A row left by a probe that failed halfway
//! is deleted by the next.

use diesel::prelude::*;

use super::schema::write_probes;
use super::DbConnection;

/// Bytes written: two SQLite pages, so the row spills onto freshly allocated overflow pages.
const PROBE_BYTES: usize = 8 * 1024;

/// Writes and deletes the probe row.
pub fn probe(conn: &mut DbConnection) -> QueryResult<()> {
    let filler = "x".repeat(PROBE_BYTES);
    diesel::delete(write_probes::table).execute(conn)?;
    diesel::insert_into(write_probes::table)
        .values(write_probes::filler.eq(&filler))
        .execute(conn)?;
    diesel::delete(write_probes::table).execute(conn)?;
    Ok(())
}
