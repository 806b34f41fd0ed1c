//! The game archive: `games`, `game_seats`, `game_chat`, `game_events`.
//!
//! A game is identified by the site's game number (`games.site_game_id`, unique) and its
//! content hash; what a repeated number means (duplicate or conflict) is decided by the ingest
//! (`usecases::ingest_game`).

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::archive_players::SeatTally;
use super::connection::DbConnection;
use super::schema::{game_chat, game_events, game_seats, games};
use crate::archive::{GameFacts, PreparedGame, SeatColour};

diesel::define_sql_function! {
    /// SQLite: the rowid of this connection's last insert.
    fn last_insert_rowid() -> diesel::sql_types::BigInt;
}

/// A `games` row without the PGN4 text.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: i64,
    pub site_game_id: String,
    pub content_hash: String,
    pub variant: String,
    pub rule_variants: String,
    pub time_control: String,
    pub start_setup: String,
    pub termination: String,
    pub termination_text: String,
    pub result_tag: String,
    pub started_at: Option<NaiveDateTime>,
    pub ended_at: Option<NaiveDateTime>,
    pub played_at: NaiveDateTime,
    pub plies: i32,
    pub aborted: bool,
    pub aborted_seat: Option<i16>,
    pub aborted_ply: Option<i32>,
    pub aborted_reason: Option<String>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = games, treat_none_as_default_value = false)]
struct NewGame<'a> {
    site_game_id: &'a str,
    content_hash: &'a str,
    variant: &'a str,
    rule_variants: &'a str,
    time_control: &'a str,
    start_setup: &'a str,
    termination: &'a str,
    termination_text: &'a str,
    result_tag: &'a str,
    started_at: Option<NaiveDateTime>,
    ended_at: Option<NaiveDateTime>,
    played_at: NaiveDateTime,
    plies: i32,
    aborted: bool,
    aborted_seat: Option<i16>,
    aborted_ply: Option<i32>,
    aborted_reason: Option<&'a str>,
    pgn4: &'a str,
    created_at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_seats, treat_none_as_default_value = false)]
pub struct SeatRow {
    pub game_id: i64,
    pub seat: i16,
    pub player: String,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    pub device_fp: Option<String>,
    pub network_fp: Option<String>,
    pub points: i32,
    pub team_result: Option<String>,
    pub placement: i16,
    pub elimination_ply: Option<i32>,
    pub elimination_cause: Option<String>,
    pub moves_made: i32,
    pub points_from_red: i32,
    pub points_from_blue: i32,
    pub points_from_yellow: i32,
    pub points_from_green: i32,
}

impl SeatRow {
    pub fn points_from(&self) -> [i32; 4] {
        [
            self.points_from_red,
            self.points_from_blue,
            self.points_from_yellow,
            self.points_from_green,
        ]
    }
}

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_chat, treat_none_as_default_value = false)]
pub struct ChatLineRow {
    pub game_id: i64,
    pub idx: i32,
    pub ply: i32,
    pub sent_at: Option<NaiveDateTime>,
    pub sender: String,
    pub channel: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_events, treat_none_as_default_value = false)]
pub struct EventRow {
    pub game_id: i64,
    pub idx: i32,
    pub kind: String,
    pub seat: i16,
    pub ply: i32,
    pub at: Option<NaiveDateTime>,
}

/// A stored game with everything that belongs to it.
#[derive(Debug, Clone)]
pub struct GameDetail {
    pub game: GameRow,
    pub pgn4: String,
    pub seats: Vec<SeatRow>,
    pub chat: Vec<ChatLineRow>,
    pub events: Vec<EventRow>,
}

/// The id and content hash stored under a game number.
pub fn find_by_site_id(
    conn: &mut DbConnection,
    site_game_id: &str,
) -> QueryResult<Option<(i64, String)>> {
    games::table
        .filter(games::site_game_id.eq(site_game_id))
        .select((games::id, games::content_hash))
        .first(conn)
        .optional()
}

/// The id and content hash stored under each of these game numbers, by number.
pub fn find_by_site_ids(
    conn: &mut DbConnection,
    site_game_ids: &[&str],
) -> QueryResult<HashMap<String, (i64, String)>> {
    let mut known = HashMap::new();
    for chunk in site_game_ids.chunks(500) {
        let rows: Vec<(i64, String, String)> = games::table
            .filter(games::site_game_id.eq_any(chunk))
            .select((games::id, games::site_game_id, games::content_hash))
            .load(conn)?;
        for (id, site, hash) in rows {
            known.insert(site, (id, hash));
        }
    }
    Ok(known)
}

/// The site's game number of each of these games, by archive id.
pub fn site_ids(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<HashMap<i64, String>> {
    Ok(games::table
        .filter(games::id.eq_any(ids))
        .select((games::id, games::site_game_id))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect())
}

/// Writes a new game's rows (game, seats, chat lines, events) in the caller's transaction;
/// returns its id. A game number already stored fails on the unique key. The caller counts
/// the game in the archive aggregates with [`count_in_aggregates`].
pub fn insert_rows(
    conn: &mut DbConnection,
    prepared: &PreparedGame,
    played_at: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let id = insert_game(conn, &prepared.game, played_at, now)?;
    insert_seats(conn, id, prepared)?;
    insert_chat(conn, id, prepared)?;
    insert_events(conn, id, prepared)?;
    Ok(id)
}

fn insert_game(
    conn: &mut DbConnection,
    g: &GameFacts,
    played_at: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let new = NewGame {
        site_game_id: &g.site_game_id,
        content_hash: &g.content_hash,
        variant: &g.variant,
        rule_variants: &g.rule_variants,
        time_control: &g.time_control,
        start_setup: &g.start_setup,
        termination: &g.termination,
        termination_text: &g.termination_text,
        result_tag: &g.result_tag,
        started_at: g.started_at,
        ended_at: g.ended_at,
        played_at,
        plies: g.plies,
        aborted: g.abort.is_some(),
        aborted_seat: g.abort.map(|a| SeatColour::from_seat(a.seat).index()),
        aborted_ply: g.abort.map(|a| i32::try_from(a.ply).unwrap_or(i32::MAX)),
        aborted_reason: g.abort.map(|a| a.reason.as_str()),
        pgn4: &g.pgn4,
        created_at: now,
    };
    insert_returning_id!(conn, games::table, &new, games::id)
}

fn insert_seats(conn: &mut DbConnection, id: i64, prepared: &PreparedGame) -> QueryResult<()> {
    let seats: Vec<SeatRow> = prepared
        .seats
        .iter()
        .map(|s| SeatRow {
            game_id: id,
            seat: s.seat.index(),
            player: s.player.clone(),
            rating_before: s.rating_before,
            rating_after: s.rating_after,
            device_fp: s.device_fp.clone(),
            network_fp: s.network_fp.clone(),
            points: s.points,
            team_result: s.team_result.map(str::to_string),
            placement: s.placement,
            elimination_ply: s.elimination_ply,
            elimination_cause: s.elimination_cause.map(str::to_string),
            moves_made: s.moves_made,
            points_from_red: s.points_from[0],
            points_from_blue: s.points_from[1],
            points_from_yellow: s.points_from[2],
            points_from_green: s.points_from[3],
        })
        .collect();
    insert_all!(conn, game_seats::table, &seats)?;
    Ok(())
}

/// Counts a stored game in the archive aggregates (`archive_players`, `archive_pairs`), in the
/// caller's transaction.
pub fn count_in_aggregates(
    conn: &mut DbConnection,
    id: i64,
    prepared: &PreparedGame,
    played_at: NaiveDateTime,
) -> QueryResult<()> {
    let g = &prepared.game;
    let aborted_seat = g.abort.map(|a| SeatColour::from_seat(a.seat).index());
    let tallies: Vec<SeatTally<'_>> = prepared
        .seats
        .iter()
        .map(|s| SeatTally {
            player: &s.player,
            placement: s.placement,
            aborted: aborted_seat == Some(s.seat.index()),
        })
        .collect();
    super::archive_players::count_game(conn, &g.variant, &tallies)?;
    let players: Vec<&str> = prepared.seats.iter().map(|s| s.player.as_str()).collect();
    super::archive_pairs::count_game(conn, id, played_at, &players)
}

fn insert_chat(conn: &mut DbConnection, id: i64, prepared: &PreparedGame) -> QueryResult<()> {
    if prepared.chat.is_empty() {
        return Ok(());
    }
    let chat: Vec<ChatLineRow> = prepared
        .chat
        .iter()
        .enumerate()
        .map(|(i, c)| ChatLineRow {
            game_id: id,
            idx: i32::try_from(i).unwrap_or(i32::MAX),
            ply: c.ply,
            sent_at: c.sent_at,
            sender: c.sender.clone(),
            channel: c.channel.as_str().to_string(),
            text: c.text.clone(),
        })
        .collect();
    // Bounded statements: SQLite allows a limited number of bound parameters.
    for chunk in chat.chunks(100) {
        insert_all!(conn, game_chat::table, chunk)?;
    }
    Ok(())
}

fn insert_events(conn: &mut DbConnection, id: i64, prepared: &PreparedGame) -> QueryResult<()> {
    if prepared.events.is_empty() {
        return Ok(());
    }
    let events: Vec<EventRow> = prepared
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| EventRow {
            game_id: id,
            idx: i32::try_from(i).unwrap_or(i32::MAX),
            kind: e.kind.as_str().to_string(),
            seat: e.seat.index(),
            ply: e.ply,
            at: e.at,
        })
        .collect();
    for chunk in events.chunks(100) {
        insert_all!(conn, game_events::table, chunk)?;
    }
    Ok(())
}

/// One stored game with its seats, chat (in ply order) and events.
pub fn get(conn: &mut DbConnection, id: i64) -> QueryResult<Option<GameDetail>> {
    let Some((game, pgn4)) = games::table
        .find(id)
        .select((GameRow::as_select(), games::pgn4))
        .first::<(GameRow, String)>(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let seats = game_seats::table
        .filter(game_seats::game_id.eq(id))
        .order(game_seats::seat.asc())
        .select(SeatRow::as_select())
        .load(conn)?;
    let chat = game_chat::table
        .filter(game_chat::game_id.eq(id))
        .order((game_chat::ply.asc(), game_chat::idx.asc()))
        .select(ChatLineRow::as_select())
        .load(conn)?;
    let events = game_events::table
        .filter(game_events::game_id.eq(id))
        .order((game_events::ply.asc(), game_events::idx.asc()))
        .select(EventRow::as_select())
        .load(conn)?;
    Ok(Some(GameDetail {
        game,
        pgn4,
        seats,
        chat,
        events,
    }))
}

/// The stored PGN4 text of a game.
pub fn pgn4(conn: &mut DbConnection, id: i64) -> QueryResult<Option<String>> {
    games::table
        .find(id)
        .select(games::pgn4)
        .first(conn)
        .optional()
}

/// Each game with its seats, in the given order.
pub fn with_seats(
    conn: &mut DbConnection,
    rows: Vec<GameRow>,
) -> QueryResult<Vec<(GameRow, Vec<SeatRow>)>> {
    let ids: Vec<i64> = rows.iter().map(|g| g.id).collect();
    let seats: Vec<SeatRow> = game_seats::table
        .filter(game_seats::game_id.eq_any(&ids))
        .order((game_seats::game_id.asc(), game_seats::seat.asc()))
        .select(SeatRow::as_select())
        .load(conn)?;
    let mut by_game: std::collections::HashMap<i64, Vec<SeatRow>> =
        std::collections::HashMap::new();
    for seat in seats {
        by_game.entry(seat.game_id).or_default().push(seat);
    }
    Ok(rows
        .into_iter()
        .map(|g| {
            let seats = by_game.remove(&g.id).unwrap_or_default();
            (g, seats)
        })
        .collect())
}

/// Row counts of the four archive tables (games, seats, chat, events).
pub fn count_rows(conn: &mut DbConnection) -> QueryResult<[i64; 4]> {
    Ok([
        games::table.count().get_result(conn)?,
        game_seats::table.count().get_result(conn)?,
        game_chat::table.count().get_result(conn)?,
        game_events::table.count().get_result(conn)?,
    ])
}
