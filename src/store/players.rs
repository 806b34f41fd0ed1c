//! Players known to moderation (`players`): a stable id per site name. Rows are created on
//! first need (a report naming the player, an admin acting) rather than at ingest, so the
//! archive stays independent of moderation.

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::connection::DbConnection;
use super::schema::players;

/// The id of a player by name, if moderation has seen them.
pub fn find_id(conn: &mut DbConnection, name: &str) -> QueryResult<Option<i64>> {
    players::table
        .filter(players::name.eq(name))
        .select(players::id)
        .first(conn)
        .optional()
}

/// The names of these player ids, by id.
pub fn names(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<HashMap<i64, String>> {
    Ok(players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::name))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect())
}

/// The id of a player by name, creating the row if needed. Safe under concurrency: a writer
/// that loses the race on the unique name reads the winner's row. Call it inside the caller's
/// transaction on PostgreSQL only through a savepoint (diesel's nested `transaction`), since a
/// failed insert aborts the enclosing transaction there.
pub fn id_or_create(
    conn: &mut DbConnection,
    name: &str,
    now: chrono::NaiveDateTime,
) -> QueryResult<i64> {
    if let Some(id) = find_id(conn, name)? {
        return Ok(id);
    }
    let inserted = conn.transaction(|conn| {
        diesel::insert_into(players::table)
            .values((players::name.eq(name), players::created_at.eq(now)))
            .execute(conn)
    });
    match inserted {
        Ok(_) | Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            find_id(conn, name)?.ok_or(DieselError::NotFound)
        }
        Err(e) => Err(e),
    }
}

/// The name of a player by id.
pub fn name(conn: &mut DbConnection, id: i64) -> QueryResult<String> {
    players::table.find(id).select(players::name).first(conn)
}
