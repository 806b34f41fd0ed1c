//! `conduct_records`: one bounded `PlayerRecord` per player, stored as
//! `conduct::stored::encode` writes it.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::conduct::{self, ConductPolicy, PlayerRecord};
use crate::store::connection::DbConnection;
use crate::store::players;
use crate::store::schema::conduct_records;

pub(super) fn parse(text: &str) -> QueryResult<PlayerRecord> {
    conduct::stored::decode(text)
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
}

/// A player's record, if they have one.
pub fn record(conn: &mut DbConnection, player: &str) -> QueryResult<Option<PlayerRecord>> {
    let text: Option<String> = conduct_records::table
        .filter(conduct_records::player.eq(player))
        .select(conduct_records::record)
        .first(conn)
        .optional()?;
    text.map(|t| parse(&t)).transpose()
}

/// An empty record for a player's first game (and the player row if missing). A concurrent
/// first game of the same player (another instance on PostgreSQL) may create the row first:
/// this insert then waits for that transaction and skips the row.
pub(super) fn create(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    player: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let player_id = players::id_or_create(conn, player, now)?;
    let empty = PlayerRecord::new(player_id, &policy.record);
    on_backend!(conn, c => diesel::insert_into(conduct_records::table)
        .values((
            conduct_records::player.eq(player),
            conduct_records::player_id.eq(player_id),
            conduct_records::record.eq(conduct::stored::encode(&empty)),
            conduct_records::updated_at.eq(now),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}

/// Writes a player's record back.
pub(super) fn save(
    conn: &mut DbConnection,
    player: &str,
    text: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(conduct_records::table.filter(conduct_records::player.eq(player)))
        .set((
            conduct_records::record.eq(text),
            conduct_records::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Every stored record, by player name (for comparisons and audits).
pub fn all_records(conn: &mut DbConnection) -> QueryResult<Vec<(String, PlayerRecord)>> {
    let rows: Vec<(String, String)> = conduct_records::table
        .order(conduct_records::player.asc())
        .select((conduct_records::player, conduct_records::record))
        .load(conn)?;
    rows.into_iter()
        .map(|(p, text)| parse(&text).map(|r| (p, r)))
        .collect()
}

/// How many players have a record.
pub fn record_count(conn: &mut DbConnection) -> QueryResult<u64> {
    let n: i64 = conduct_records::table.count().get_result(conn)?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Deletes every outcome and record (the start of a rebuild). Returns the rows deleted (games'
/// outcomes, records).
pub fn clear(conn: &mut DbConnection) -> QueryResult<(usize, usize)> {
    let outcomes = super::outcomes::clear(conn)?;
    let records = diesel::delete(conduct_records::table).execute(conn)?;
    Ok((outcomes, records))
}
