//! `conduct_outcomes`: one row per recorded game, its seats' players and outcomes encoded by
//! `conduct::stored::encode_seats`.

use std::collections::BTreeSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::conduct::{self, DepartureKind, OutcomeKind, SeatOutcome};
use crate::store::connection::DbConnection;
use crate::store::schema::conduct_outcomes;

/// One seat's stored outcome, as read back from a game's row.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeRow {
    pub game_id: i64,
    pub seat: i16,
    pub player: String,
    pub played_at: NaiveDateTime,
    pub kind: String,
    pub caused_abort: bool,
    pub departure: Option<String>,
    pub departure_ply: Option<i32>,
    pub moves_made: Option<i32>,
    pub early: Option<bool>,
    pub in_check: Option<bool>,
    pub lost_position: Option<bool>,
    pub partner_still_playing: Option<bool>,
    pub disconnects: i32,
    pub reconnects: i32,
    pub rating_change: Option<i32>,
}

pub fn kind_name(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Completed => "completed",
        OutcomeKind::Aborted => "aborted",
        OutcomeKind::Resigned => "resigned",
        OutcomeKind::TimedOut => "timed_out",
        OutcomeKind::Forfeited => "forfeited",
        OutcomeKind::ClaimedWin => "claimed_win",
    }
}

fn departure_name(kind: DepartureKind) -> &'static str {
    match kind {
        DepartureKind::Resigned => "resigned",
        DepartureKind::TimedOut => "timed_out",
        DepartureKind::Forfeited => "forfeited",
    }
}

fn to_i32<T: TryInto<i32>>(v: T) -> i32 {
    v.try_into().unwrap_or(i32::MAX)
}

/// A game's row.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = conduct_outcomes)]
pub(super) struct GameOutcomes {
    pub game_id: i64,
    pub played_at: NaiveDateTime,
    pub seats: String,
}

impl GameOutcomes {
    /// The seats' rows, by seat.
    fn seat_rows(&self) -> QueryResult<Vec<OutcomeRow>> {
        let seats = conduct::stored::decode_seats(&self.seats)
            .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
        let mut rows: Vec<OutcomeRow> = seats
            .iter()
            .map(|(player, outcome)| OutcomeRow::of(outcome, self.game_id, player, self.played_at))
            .collect();
        rows.sort_by_key(|r| r.seat);
        Ok(rows)
    }
}

impl OutcomeRow {
    fn of(o: &SeatOutcome, game_id: i64, player: &str, played_at: NaiveDateTime) -> OutcomeRow {
        let d = o.departure.as_ref();
        OutcomeRow {
            game_id,
            seat: o.seat.index() as i16,
            player: player.to_string(),
            played_at,
            kind: kind_name(o.kind).to_string(),
            caused_abort: o.caused_abort,
            departure: d.map(|d| departure_name(d.kind).to_string()),
            departure_ply: d.map(|d| to_i32(d.ply)),
            moves_made: d.map(|d| to_i32(d.moves_made)),
            early: d.map(|d| d.early),
            in_check: d.map(|d| d.in_check),
            lost_position: d.map(|d| d.lost_position),
            partner_still_playing: d.and_then(|d| d.partner_still_playing),
            disconnects: to_i32(o.disconnects),
            reconnects: to_i32(o.reconnects),
            rating_change: o.rating_change,
        }
    }
}

/// Rows per multi-row insert (3 bound parameters each, well inside both backends' limits).
const ROWS_PER_INSERT: usize = 500;

pub(super) fn insert(conn: &mut DbConnection, rows: &[GameOutcomes]) -> QueryResult<()> {
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        insert_all!(conn, conduct_outcomes::table, chunk)?;
    }
    Ok(())
}

/// Which of `games` already have their outcomes recorded.
pub fn recorded_among(conn: &mut DbConnection, games: &[i64]) -> QueryResult<BTreeSet<i64>> {
    let mut recorded = BTreeSet::new();
    for chunk in games.chunks(ROWS_PER_INSERT) {
        recorded.extend(
            conduct_outcomes::table
                .filter(conduct_outcomes::game_id.eq_any(chunk))
                .select(conduct_outcomes::game_id)
                .load::<i64>(conn)?,
        );
    }
    Ok(recorded)
}

/// Every stored outcome, by game and seat.
pub fn all_outcomes(conn: &mut DbConnection) -> QueryResult<Vec<OutcomeRow>> {
    let games: Vec<GameOutcomes> = conduct_outcomes::table
        .order(conduct_outcomes::game_id.asc())
        .load(conn)?;
    let mut rows = Vec::with_capacity(games.len() * 4);
    for game in &games {
        rows.extend(game.seat_rows()?);
    }
    Ok(rows)
}

/// The outcomes of one game, by seat (none if it was not recorded).
pub fn outcomes_of_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<Vec<OutcomeRow>> {
    let game: Option<GameOutcomes> = conduct_outcomes::table
        .find(game_id)
        .first(conn)
        .optional()?;
    game.map_or(Ok(Vec::new()), |g| g.seat_rows())
}

/// Deletes every outcome row; returns how many.
pub(super) fn clear(conn: &mut DbConnection) -> QueryResult<usize> {
    diesel::delete(conduct_outcomes::table).execute(conn)
}
