//! `conduct_pending`: games stored but not yet applied to their players' conduct records, one
//! row each with the seats' outcomes encoded (`conduct::stored::encode_seats`). Ingest adds a
//! row in the game's own transaction; the applier takes rows off in its own. The same table
//! on both backends.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};

use crate::store::connection::DbConnection;
use crate::store::schema::conduct_pending;

/// A queued game as taken off the queue.
#[derive(Debug, Clone, QueryableByName)]
pub struct QueuedGame {
    #[diesel(sql_type = BigInt)]
    pub game_id: i64,
    #[diesel(sql_type = Timestamp)]
    pub played_at: NaiveDateTime,
    #[diesel(sql_type = Text)]
    pub seats: String,
}

/// Queues a game stored in the caller's transaction.
pub fn enqueue(
    conn: &mut DbConnection,
    game_id: i64,
    played_at: NaiveDateTime,
    seats: &str,
) -> QueryResult<()> {
    diesel::insert_into(conduct_pending::table)
        .values((
            conduct_pending::game_id.eq(game_id),
            conduct_pending::played_at.eq(played_at),
            conduct_pending::seats.eq(seats),
        ))
        .execute(conn)?;
    Ok(())
}

/// Takes the oldest `batch` queued games off the queue; the caller's transaction puts them
/// back if it fails. On PostgreSQL `SKIP LOCKED` passes over games another instance's
/// applier holds, so appliers share the queue without waiting for each other.
pub fn take(conn: &mut DbConnection, batch: i64) -> QueryResult<Vec<QueuedGame>> {
    let mut taken: Vec<QueuedGame> = match conn {
        DbConnection::Postgres(c) => diesel::sql_query(
            "DELETE FROM conduct_pending WHERE game_id IN (SELECT game_id FROM conduct_pending \
             ORDER BY game_id LIMIT $1 FOR UPDATE SKIP LOCKED) \
             RETURNING game_id, played_at, seats",
        )
        .bind::<BigInt, _>(batch)
        .load(c)?,
        DbConnection::Sqlite(c) => diesel::sql_query(
            "DELETE FROM conduct_pending WHERE game_id IN (SELECT game_id FROM conduct_pending \
             ORDER BY game_id LIMIT ?) RETURNING game_id, played_at, seats",
        )
        .bind::<BigInt, _>(batch)
        .load(c)?,
    };
    // RETURNING gives no order.
    taken.sort_by_key(|g| g.game_id);
    Ok(taken)
}

/// How many stored games wait for the conduct applier.
pub fn pending_count(conn: &mut DbConnection) -> QueryResult<u64> {
    let n: i64 = conduct_pending::table.count().get_result(conn)?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Takes `games` off the queue (a rebuild recomputing them); returns how many were queued.
/// On PostgreSQL this waits for an applier holding any of them, so the caller's next read of
/// `conduct_outcomes` sees what that applier recorded.
pub fn take_off_queue(conn: &mut DbConnection, games: &[i64]) -> QueryResult<usize> {
    let mut taken = 0;
    for chunk in games.chunks(500) {
        taken +=
            diesel::delete(conduct_pending::table.filter(conduct_pending::game_id.eq_any(chunk)))
                .execute(conn)?;
    }
    Ok(taken)
}
