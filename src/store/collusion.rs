//! Collusion statistics kept current in each FFA or Solo game's own transaction.
//!
//! A game adds one `game_pair_play` row per player and opponent (twelve), its four players'
//! plays to their baselines (`collusion_baselines`, read in name order, locked on PostgreSQL)
//! and to everybody's (`collusion_population`, spread over [`POPULATION_SHARDS`] rows), and its
//! six pairs' plays to their records (`collusion_pairs`). The pairs are then judged by these records and the reports of their
//! findings raised (`usecases::judge_collusion`).

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{
    collusion_baselines, collusion_pairs, collusion_population, game_pair_play, game_seats,
};
use crate::collusion::interaction::{decode_moments, encode_moments};
use crate::collusion::{
    AccountLink, GameInteractions, PairPlay, PairRecord, PlayerTallies, SeatGeometry, SeatTrace,
    Tally,
};
use crate::rules::geometry::Seat;

#[derive(Debug, Insertable)]
#[diesel(table_name = game_pair_play)]
struct PlayRow<'a> {
    player: &'a str,
    opponent: &'a str,
    game_id: i64,
    seat_offset: i16,
    turns: i32,
    capture_chances: i32,
    captures: i32,
    check_chances: i32,
    checks: i32,
    gifts: i32,
    points_taken: i32,
    moments: String,
}

/// A stored row: who did what to whom in one game.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPlay {
    pub player: String,
    pub opponent: String,
    pub game_id: i64,
    pub geometry: SeatGeometry,
    pub play: PairPlay,
}

type PlayColumns = (
    String,
    String,
    i64,
    i16,
    i32,
    i32,
    i32,
    i32,
    i32,
    i32,
    i32,
    String,
);

fn to_stored(row: PlayColumns) -> StoredPlay {
    let count = |v: i32| u32::try_from(v).unwrap_or(0);
    StoredPlay {
        player: row.0,
        opponent: row.1,
        game_id: row.2,
        geometry: SeatGeometry::from_offset(row.3).unwrap_or(SeatGeometry::Opposite),
        play: PairPlay {
            turns: count(row.4),
            capture_chances: count(row.5),
            captures: count(row.6),
            check_chances: count(row.7),
            checks: count(row.8),
            gifts: count(row.9),
            points_taken: row.10,
            moments: decode_moments(&row.11),
        },
    }
}

fn to_i32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// Records one stored game's interactions (`names[s]` sits in seat `s`) in the caller's
/// transaction; `None` for a game with a name seated twice, which is not recorded.
pub fn record_statistics(
    conn: &mut DbConnection,
    game_id: i64,
    names: [&str; 4],
    game: &GameInteractions,
    now: NaiveDateTime,
) -> QueryResult<Option<Recorded>> {
    let mut distinct = names.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != 4 {
        return Ok(None);
    }
    let mut rows = Vec::with_capacity(12);
    for a in Seat::ALL {
        for b in Seat::ALL.into_iter().filter(|&b| b != a) {
            let play = game.pair(a, b);
            rows.push(PlayRow {
                player: names[a.index()],
                opponent: names[b.index()],
                game_id,
                seat_offset: SeatGeometry::of(a, b).offset(),
                turns: to_i32(play.turns),
                capture_chances: to_i32(play.capture_chances),
                captures: to_i32(play.captures),
                check_chances: to_i32(play.check_chances),
                checks: to_i32(play.checks),
                gifts: to_i32(play.gifts),
                points_taken: play.points_taken,
                moments: encode_moments(&play.moments),
            });
        }
    }
    insert_all!(conn, game_pair_play::table, &rows)?;

    // Lock order: the players' baselines in name order, the game's population row, then the
    // pairs in name order (two games that share a pair share its players, so they meet at the
    // first).
    let mut baselines = hold_baselines(conn, &distinct, now)?;
    let mut given = Tally::default();
    for seat in Seat::ALL {
        baselines
            .get_mut(names[seat.index()])
            .ok_or(diesel::result::Error::NotFound)?
            .add_game(game, seat);
        given.add_given(game, seat);
    }
    add_to_population(conn, game_id, &given, now)?;
    let population = population(conn)?;
    for (player, tallies) in &baselines {
        diesel::update(collusion_baselines::table.find(player))
            .set((
                collusion_baselines::tally.eq(to_json(tallies)?),
                collusion_baselines::updated_at.eq(now),
            ))
            .execute(conn)?;
    }
    let pairs = hold_pairs(conn, game_id, &distinct, names, game, now)?;

    Ok(Some(Recorded {
        baselines,
        population,
        pairs,
    }))
}

/// A game's players' baselines, everybody's, and the game's pairs, each with the game
/// counted: what its pairs are judged by.
pub struct Recorded {
    pub baselines: BTreeMap<String, PlayerTallies>,
    pub population: Tally,
    pub pairs: BTreeMap<(String, String), HeldPair>,
}

/// A pair's play (the first in name order, the second) and the link between their accounts,
/// over their shared games.
pub struct HeldPair {
    pub record: PairRecord,
    pub link: AccountLink,
}

fn to_json<T: serde::Serialize>(value: &T) -> QueryResult<String> {
    serde_json::to_string(value).map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> QueryResult<T> {
    serde_json::from_str(text).map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
}

/// Rows the population tally is spread over. Every FFA game adds to one of them (by game id)
/// and judges by their sum: with one row, each game's transaction on PostgreSQL would wait for
/// the previous game's to commit (issue #41).
pub const POPULATION_SHARDS: i32 = 16;

/// Adds one game's given play to its population row (created where missing, locked on
/// PostgreSQL until the game's transaction commits).
fn add_to_population(
    conn: &mut DbConnection,
    game_id: i64,
    given: &Tally,
    now: NaiveDateTime,
) -> QueryResult<()> {
    // In 1..=POPULATION_SHARDS, so the conversion cannot fail.
    let shard = i32::try_from(game_id.rem_euclid(i64::from(POPULATION_SHARDS))).unwrap_or(0) + 1;
    let empty = to_json(&Tally::default())?;
    let row = (
        collusion_population::id.eq(shard),
        collusion_population::tally.eq(empty.as_str()),
        collusion_population::updated_at.eq(now),
    );
    on_backend!(conn, c => diesel::insert_into(collusion_population::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))?;
    let query = collusion_population::table
        .find(shard)
        .select(collusion_population::tally);
    let text: String = match conn {
        DbConnection::Postgres(c) => query.for_update().first(c)?,
        DbConnection::Sqlite(c) => query.first(c)?,
    };
    let mut tally: Tally = from_json(&text)?;
    tally.merge(given);
    diesel::update(collusion_population::table.find(shard))
        .set((
            collusion_population::tally.eq(to_json(&tally)?),
            collusion_population::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Everybody's given play: the population rows summed. On PostgreSQL the other rows are read
/// as last committed, so a game judges by the population without the games being stored beside
/// it, a difference of a few games in thousands.
fn population(conn: &mut DbConnection) -> QueryResult<Tally> {
    let rows: Vec<String> = collusion_population::table
        .order(collusion_population::id.asc())
        .select(collusion_population::tally)
        .load(conn)?;
    let mut population = Tally::default();
    for text in rows {
        population.merge(&from_json(&text)?);
    }
    Ok(population)
}

/// Reads (creating where missing) and locks the baselines of `players`, in name order.
fn hold_baselines(
    conn: &mut DbConnection,
    players: &[&str],
    now: NaiveDateTime,
) -> QueryResult<BTreeMap<String, PlayerTallies>> {
    let empty = to_json(&PlayerTallies::default())?;
    let missing: Vec<_> = players
        .iter()
        .map(|p| {
            (
                collusion_baselines::player.eq(*p),
                collusion_baselines::tally.eq(empty.as_str()),
                collusion_baselines::updated_at.eq(now),
            )
        })
        .collect();
    on_backend!(conn, c => diesel::insert_into(collusion_baselines::table)
        .values(&missing)
        .on_conflict_do_nothing()
        .execute(c))?;
    let query = collusion_baselines::table
        .filter(collusion_baselines::player.eq_any(players))
        .order(collusion_baselines::player.asc())
        .select((collusion_baselines::player, collusion_baselines::tally));
    let rows: Vec<(String, String)> = match conn {
        DbConnection::Postgres(c) => query.for_update().load(c)?,
        DbConnection::Sqlite(c) => query.load(c)?,
    };
    rows.into_iter()
        .map(|(player, text)| Ok((player, from_json(&text)?)))
        .collect()
}

/// Updates and returns the records of the game's six pairs (`players` in name order), locked
/// on PostgreSQL. A pair's first record is summed from its `game_pair_play` and `game_seats`
/// rows, this game's included, so that pairs who met before the record was kept start from
/// their whole history.
fn hold_pairs(
    conn: &mut DbConnection,
    game_id: i64,
    players: &[&str],
    names: [&str; 4],
    game: &GameInteractions,
    now: NaiveDateTime,
) -> QueryResult<BTreeMap<(String, String), HeldPair>> {
    let rows = lock_pair_rows(conn, players, now)?;
    let seat_of = |name: &str| {
        Seat::ALL
            .into_iter()
            .find(|s| names[s.index()] == name)
            .ok_or(diesel::result::Error::NotFound)
    };
    let traces = seat_traces(conn, &[game_id], players)?;
    let trace_of = |name: &str| {
        traces
            .get(&(game_id, name.to_string()))
            .cloned()
            .unwrap_or_default()
    };
    let mut out = BTreeMap::new();
    for (low, high, games, device, network, to_high, to_low, stored) in rows {
        let held = if games == 0 {
            pair_from_rows(conn, &low, &high)?
        } else {
            let count = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
            let mut record: PairRecord = from_json(&stored)?;
            record.add_game(game, seat_of(&low)?, seat_of(&high)?);
            let mut link = AccountLink {
                games: count(games),
                shared_device_games: count(device),
                shared_network_games: count(network),
                rating_to_second: count(to_high),
                rating_to_first: count(to_low),
            };
            link.add(&trace_of(&low), &trace_of(&high));
            HeldPair { record, link }
        };
        store_pair(conn, &low, &high, &held, now)?;
        out.insert((low, high), held);
    }
    Ok(out)
}

/// Makes sure every pair of `players` has a row (an empty one for a first meeting), then
/// reads them in name order, locked on PostgreSQL.
fn lock_pair_rows(
    conn: &mut DbConnection,
    players: &[&str],
    now: NaiveDateTime,
) -> QueryResult<Vec<PairColumns>> {
    let empty = to_json(&PairRecord::default())?;
    let mut missing = Vec::with_capacity(6);
    for (i, low) in players.iter().enumerate() {
        for high in &players[i + 1..] {
            missing.push((
                collusion_pairs::player_low.eq(*low),
                collusion_pairs::player_high.eq(*high),
                collusion_pairs::games.eq(0i64),
                collusion_pairs::shared_device_games.eq(0i64),
                collusion_pairs::shared_network_games.eq(0i64),
                collusion_pairs::rating_to_high.eq(0i64),
                collusion_pairs::rating_to_low.eq(0i64),
                collusion_pairs::record.eq(empty.as_str()),
                collusion_pairs::updated_at.eq(now),
            ));
        }
    }
    on_backend!(conn, c => diesel::insert_into(collusion_pairs::table)
        .values(&missing)
        .on_conflict_do_nothing()
        .execute(c))?;
    let query = collusion_pairs::table
        .filter(collusion_pairs::player_low.eq_any(players))
        .filter(collusion_pairs::player_high.eq_any(players))
        .order((
            collusion_pairs::player_low.asc(),
            collusion_pairs::player_high.asc(),
        ))
        .select((
            collusion_pairs::player_low,
            collusion_pairs::player_high,
            collusion_pairs::games,
            collusion_pairs::shared_device_games,
            collusion_pairs::shared_network_games,
            collusion_pairs::rating_to_high,
            collusion_pairs::rating_to_low,
            collusion_pairs::record,
        ));
    match conn {
        DbConnection::Postgres(c) => query.for_update().load(c),
        DbConnection::Sqlite(c) => query.load(c),
    }
}

/// Writes a pair's updated record and link counts back to its row.
fn store_pair(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    held: &HeldPair,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let link = &held.link;
    diesel::update(collusion_pairs::table.find((low, high)))
        .set((
            collusion_pairs::games.eq(i64::try_from(held.record.games()).unwrap_or(i64::MAX)),
            collusion_pairs::shared_device_games.eq(i64::from(link.shared_device_games)),
            collusion_pairs::shared_network_games.eq(i64::from(link.shared_network_games)),
            collusion_pairs::rating_to_high.eq(i64::from(link.rating_to_second)),
            collusion_pairs::rating_to_low.eq(i64::from(link.rating_to_first)),
            collusion_pairs::record.eq(to_json(&held.record)?),
            collusion_pairs::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// A pair row: the two names, games, the link's four counts, the JSON record.
type PairColumns = (String, String, i64, i64, i64, i64, i64, String);

/// The seats `players` held in `game_ids`, by (game, player); a name seated twice in a game
/// keeps its first seat.
fn seat_traces(
    conn: &mut DbConnection,
    game_ids: &[i64],
    players: &[&str],
) -> QueryResult<HashMap<(i64, String), SeatTrace>> {
    let mut out = HashMap::new();
    for chunk in game_ids.chunks(500) {
        let rows: Vec<SeatColumns> = game_seats::table
            .filter(game_seats::game_id.eq_any(chunk))
            .filter(game_seats::player.eq_any(players))
            .order((game_seats::game_id.asc(), game_seats::seat.asc()))
            .select((
                game_seats::game_id,
                game_seats::player,
                game_seats::device_fp,
                game_seats::network_fp,
                game_seats::rating_before,
                game_seats::rating_after,
            ))
            .load(conn)?;
        for (game, player, device_fp, network_fp, rating_before, rating_after) in rows {
            out.entry((game, player)).or_insert(SeatTrace {
                device_fp,
                network_fp,
                rating_before,
                rating_after,
            });
        }
    }
    Ok(out)
}

/// game id, player, device and network fingerprints, rating before and after.
type SeatColumns = (
    i64,
    String,
    Option<String>,
    Option<String>,
    Option<i32>,
    Option<i32>,
);

/// The rows of the pair's newest `games` shared games, both directions, newest game first.
pub fn newest_pair_rows(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    games: usize,
) -> QueryResult<Vec<StoredPlay>> {
    let rows: Vec<PlayColumns> = game_pair_play::table
        .filter(
            (game_pair_play::player
                .eq(low)
                .and(game_pair_play::opponent.eq(high)))
            .or(game_pair_play::player
                .eq(high)
                .and(game_pair_play::opponent.eq(low))),
        )
        .order(game_pair_play::game_id.desc())
        .limit(i64::try_from(2 * games).unwrap_or(i64::MAX))
        .load(conn)?;
    Ok(rows.into_iter().map(to_stored).collect())
}

/// A pair's record and link summed from the `game_pair_play` and `game_seats` rows of their
/// shared games.
fn pair_from_rows(conn: &mut DbConnection, low: &str, high: &str) -> QueryResult<HeldPair> {
    let shared: Vec<i64> = game_pair_play::table
        .filter(game_pair_play::player.eq(low))
        .filter(game_pair_play::opponent.eq(high))
        .select(game_pair_play::game_id)
        .load(conn)?;
    let mut record = PairRecord::default();
    for chunk in shared.chunks(500) {
        let rows: Vec<PlayColumns> = game_pair_play::table
            .filter(game_pair_play::game_id.eq_any(chunk))
            .filter(
                game_pair_play::player
                    .eq_any([low, high])
                    .or(game_pair_play::opponent.eq_any([low, high])),
            )
            .load(conn)?;
        for row in rows.into_iter().map(to_stored) {
            let (play, geometry) = (&row.play, row.geometry);
            match (row.player == low, row.opponent == low) {
                (true, _) => record.first_shared.given.add(play, geometry),
                (_, true) => record.first_shared.received.add(play, geometry),
                _ => {}
            }
            match (row.player == high, row.opponent == high) {
                (true, _) => record.second_shared.given.add(play, geometry),
                (_, true) => record.second_shared.received.add(play, geometry),
                _ => {}
            }
            if row.player == low && row.opponent == high {
                record.first_to_second.games += 1;
                record.first_to_second.add(play, geometry);
            } else if row.player == high && row.opponent == low {
                record.second_to_first.games += 1;
                record.second_to_first.add(play, geometry);
            }
        }
    }
    let games = shared.len() as u64;
    for tallies in [&mut record.first_shared, &mut record.second_shared] {
        tallies.given.games = games;
        tallies.received.games = games;
    }
    let traces = seat_traces(conn, &shared, &[low, high])?;
    let mut link = AccountLink::default();
    for game in &shared {
        if let (Some(first), Some(second)) = (
            traces.get(&(*game, low.to_string())),
            traces.get(&(*game, high.to_string())),
        ) {
            link.add(first, second);
        }
    }
    Ok(HeldPair { record, link })
}
