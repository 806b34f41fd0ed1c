//! Players known to moderation (`players`): a stable id per site name. Rows are created on
//! first need (a report naming the player, an admin acting) rather than at ingest, so the
//! archive stays independent of moderation.

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

/// The ids of these names (sorted, distinct), creating the players that do not exist yet.
pub fn ids_or_create(
    conn: &mut DbConnection,
    names: &[&str],
    now: chrono::NaiveDateTime,
) -> QueryResult<std::collections::HashMap<String, i64>> {
    let mut ids = std::collections::HashMap::with_capacity(names.len());
    // Bounded statements: SQLite allows a limited number of bound parameters.
    for chunk in names.chunks(500) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|&n| (players::name.eq(n), players::created_at.eq(now)))
            .collect();
        on_backend!(conn, c => diesel::insert_into(players::table)
            .values(&rows)
            .on_conflict_do_nothing()
            .execute(c))?;
        let found: Vec<(String, i64)> = players::table
            .filter(players::name.eq_any(chunk))
            .select((players::name, players::id))
            .load(conn)?;
        ids.extend(found);
    }
    Ok(ids)
}

/// The names of these player ids (in no particular order).
pub fn names(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    players::table
        .filter(players::id.eq_any(ids))
        .select((players::id, players::name))
        .load(conn)
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
