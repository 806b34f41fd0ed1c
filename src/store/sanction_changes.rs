//! The writes that change a sanction in force (`sanctions.reduced_until`, `lifted_at`): an
//! admin's change outside an appeal, and an appeal's answer.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::from_utc;
use super::schema::sanctions;
use crate::moderation::{Sanction, SanctionId};

/// Writes the changed end of sanction `id` only if nobody changed it since the read (it is not
/// lifted and still ends at `before`): of two simultaneous changes one applies. Returns the
/// rows changed.
pub fn set_end_if_unchanged(
    conn: &mut DbConnection,
    id: SanctionId,
    before: Option<NaiveDateTime>,
    changed: &Sanction,
) -> QueryResult<usize> {
    let unchanged = sanctions::table
        .filter(sanctions::id.eq(id))
        .filter(sanctions::lifted_at.is_null());
    match before {
        Some(before) => diesel::update(unchanged.filter(sanctions::reduced_until.eq(before)))
            .set((
                sanctions::reduced_until.eq(changed.reduced_until.map(from_utc)),
                sanctions::lifted_at.eq(changed.lifted_at.map(from_utc)),
            ))
            .execute(conn),
        None => diesel::update(unchanged.filter(sanctions::reduced_until.is_null()))
            .set((
                sanctions::reduced_until.eq(changed.reduced_until.map(from_utc)),
                sanctions::lifted_at.eq(changed.lifted_at.map(from_utc)),
            ))
            .execute(conn),
    }
}

/// Writes the changed end of sanction `id`.
pub fn set_end(conn: &mut DbConnection, id: SanctionId, changed: &Sanction) -> QueryResult<usize> {
    diesel::update(sanctions::table.find(id))
        .set((
            sanctions::reduced_until.eq(changed.reduced_until.map(from_utc)),
            sanctions::lifted_at.eq(changed.lifted_at.map(from_utc)),
        ))
        .execute(conn)
}
