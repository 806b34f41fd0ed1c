//! Archived games in played order, with what their conduct outcomes are computed from: the
//! rebuild (`arbiter conduct rebuild`) reads the archive through this.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::store::connection::DbConnection;

/// (seat, player, rating before, rating after).
pub type StoredSeat = (i16, String, Option<i32>, Option<i32>);

/// A stored game with what its conduct outcomes are computed from.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: i64,
    pub played_at: NaiveDateTime,
    pub variant: String,
    pub time_control: String,
    pub start_setup: String,
    pub pgn4: String,
    /// By seat.
    pub seats: Vec<StoredSeat>,
    /// The events in stored order.
    pub events: Vec<crate::store::games::EventRow>,
}

/// At most `limit` games in played order (`played_at`, then id) after the `after` key.
pub fn games_in_played_order(
    conn: &mut DbConnection,
    after: Option<(NaiveDateTime, i64)>,
    limit: i64,
) -> QueryResult<Vec<StoredGame>> {
    use crate::store::schema::{game_events, game_seats, games};
    let mut query = games::table
        .select((
            games::id,
            games::played_at,
            games::variant,
            games::time_control,
            games::start_setup,
            games::pgn4,
        ))
        .into_boxed();
    if let Some((played_at, id)) = after {
        query = query.filter(
            games::played_at
                .gt(played_at)
                .or(games::played_at.eq(played_at).and(games::id.gt(id))),
        );
    }
    let rows: Vec<(i64, NaiveDateTime, String, String, String, String)> = query
        .order((games::played_at.asc(), games::id.asc()))
        .limit(limit)
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let mut seats: std::collections::HashMap<i64, Vec<_>> = Default::default();
    for chunk in ids.chunks(500) {
        type Row = (i64, i16, String, Option<i32>, Option<i32>);
        let found: Vec<Row> = game_seats::table
            .filter(game_seats::game_id.eq_any(chunk))
            .order((game_seats::game_id.asc(), game_seats::seat.asc()))
            .select((
                game_seats::game_id,
                game_seats::seat,
                game_seats::player,
                game_seats::rating_before,
                game_seats::rating_after,
            ))
            .load(conn)?;
        for (game, seat, player, before, after) in found {
            seats
                .entry(game)
                .or_default()
                .push((seat, player, before, after));
        }
    }
    let mut events: std::collections::HashMap<i64, Vec<crate::store::games::EventRow>> =
        Default::default();
    for chunk in ids.chunks(500) {
        let found: Vec<crate::store::games::EventRow> = game_events::table
            .filter(game_events::game_id.eq_any(chunk))
            .order((game_events::game_id.asc(), game_events::idx.asc()))
            .select(crate::store::games::EventRow::as_select())
            .load(conn)?;
        for e in found {
            events.entry(e.game_id).or_default().push(e);
        }
    }
    Ok(rows
        .into_iter()
        .map(
            |(id, played_at, variant, time_control, start_setup, pgn4)| StoredGame {
                id,
                played_at,
                variant,
                time_control,
                start_setup,
                pgn4,
                seats: seats.remove(&id).unwrap_or_default(),
                events: events.remove(&id).unwrap_or_default(),
            },
        )
        .collect())
}
