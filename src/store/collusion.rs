//! Collusion statistics kept current in each FFA or Solo game's own transaction, and the
//! automatic reports they raise.
//!
//! A game adds one `game_pair_play` row per player and opponent (twelve) and its four players'
//! plays to their baselines (`collusion_baselines`, read in name order, locked on PostgreSQL).
//! Then each of its six pairs with at least `min_games` shared games is scored from its own
//! rows and both baselines ([`crate::collusion::score_pair`]); a finding files one automatic
//! report naming both players (source `collusion_analysis`, reason `prearranged_teaming` or
//! `self_partnering`, rule `sparing` or `feeding`) with every shared game as evidence, the
//! measure, its drivers and the surprising moments. A pair is reported again only once its
//! shared games have doubled since its last report (`collusion_reported`).

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::automatic_reports::{self, AutomaticSource, NewAutomaticReport};
use super::connection::DbConnection;
use super::schema::{
    collusion_baselines, collusion_population, collusion_reported, game_pair_play, game_seats,
    games,
};
use crate::collusion::interaction::{decode_moments, encode_moments, Moment, MomentKind};
use crate::collusion::summary::{summary, MomentAt};
use crate::collusion::{
    classify, link, score_pair, CollusionPolicy, Finding, GameInteractions, PairPlay, PairScore,
    Pattern, PlayerTallies, SeatGeometry, SeatTrace, Tally,
};
use crate::moderation::ModerationPolicy;
use crate::rules::geometry::Seat;

/// Shared games listed as a report's evidence (the newest; the count covers all).
pub const REPORT_GAMES: usize = 200;

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

/// Records one stored game's interactions (`names[s]` sits in seat `s`) and files the
/// automatic reports of pairs that became findings; returns their automatic report ids. Runs
/// in the caller's transaction. A game with a name seated twice is not recorded.
pub fn record_game(
    conn: &mut DbConnection,
    game_id: i64,
    names: [&str; 4],
    game: &GameInteractions,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Vec<i64>> {
    let mut distinct = names.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != 4 {
        return Ok(Vec::new());
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

    // Lock order: the players' baselines in name order, then the population row.
    let mut baselines = hold_baselines(conn, &distinct, now)?;
    let mut population = hold_population(conn, now)?;
    for a in Seat::ALL {
        let tallies = baselines
            .get_mut(names[a.index()])
            .ok_or(diesel::result::Error::NotFound)?;
        tallies.given.games += 1;
        tallies.received.games += 1;
        population.games += 1;
        for b in Seat::ALL.into_iter().filter(|&b| b != a) {
            let geometry = SeatGeometry::of(a, b);
            tallies.given.add(game.pair(a, b), geometry);
            tallies.received.add(game.pair(b, a), geometry);
            population.add(game.pair(a, b), geometry);
        }
    }
    for (player, tallies) in &baselines {
        diesel::update(collusion_baselines::table.find(player))
            .set((
                collusion_baselines::tally.eq(to_json(tallies)?),
                collusion_baselines::updated_at.eq(now),
            ))
            .execute(conn)?;
    }
    diesel::update(collusion_population::table.find(1))
        .set((
            collusion_population::tally.eq(to_json(&population)?),
            collusion_population::updated_at.eq(now),
        ))
        .execute(conn)?;

    let held = Held {
        baselines,
        population,
    };
    let mut raised = Vec::new();
    for (i, low) in distinct.iter().enumerate() {
        for high in &distinct[i + 1..] {
            if let Some(id) = judge_pair(conn, low, high, &held, policy, moderation, now)? {
                raised.push(id);
            }
        }
    }
    Ok(raised)
}

/// The tallies a pair is judged by: both players' and everybody's.
struct Held {
    baselines: BTreeMap<String, PlayerTallies>,
    population: Tally,
}

fn to_json<T: serde::Serialize>(value: &T) -> QueryResult<String> {
    serde_json::to_string(value).map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> QueryResult<T> {
    serde_json::from_str(text).map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
}

/// Reads (creating if missing) and locks the population row.
fn hold_population(conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<Tally> {
    let empty = to_json(&Tally::default())?;
    let row = (
        collusion_population::id.eq(1),
        collusion_population::tally.eq(empty.as_str()),
        collusion_population::updated_at.eq(now),
    );
    on_backend!(conn, c => diesel::insert_into(collusion_population::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))?;
    let query = collusion_population::table
        .find(1)
        .select(collusion_population::tally);
    let text: String = match conn {
        DbConnection::Postgres(c) => query.for_update().first(c)?,
        DbConnection::Sqlite(c) => query.first(c)?,
    };
    from_json(&text)
}

/// Everybody's given tallies summed (empty before the first game).
pub fn population(conn: &mut DbConnection) -> QueryResult<Tally> {
    let text: Option<String> = collusion_population::table
        .find(1)
        .select(collusion_population::tally)
        .first(conn)
        .optional()?;
    text.map_or(Ok(Tally::default()), |t| from_json(&t))
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

/// Every row of the pair, both directions, newest game first.
pub fn pair_rows(conn: &mut DbConnection, low: &str, high: &str) -> QueryResult<Vec<StoredPlay>> {
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
        .load(conn)?;
    Ok(rows.into_iter().map(to_stored).collect())
}

/// A player's baselines; empty when they have no FFA or Solo game on record.
pub fn baseline(conn: &mut DbConnection, player: &str) -> QueryResult<PlayerTallies> {
    let text: Option<String> = collusion_baselines::table
        .find(player)
        .select(collusion_baselines::tally)
        .first(conn)
        .optional()?;
    text.map_or(Ok(PlayerTallies::default()), |t| from_json(&t))
}

/// The pair's two tallies: what `low` did to `high`, and back.
pub fn pair_tallies(rows: &[StoredPlay], low: &str) -> (Tally, Tally) {
    let (mut forward, mut backward) = (Tally::default(), Tally::default());
    for row in rows {
        let tally = if row.player == low {
            &mut forward
        } else {
            &mut backward
        };
        tally.games += 1;
        tally.add(&row.play, row.geometry);
    }
    (forward, backward)
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

/// The seats both players held in these games: (low's, high's) per game.
fn shared_seats(
    conn: &mut DbConnection,
    game_ids: &[i64],
    low: &str,
    high: &str,
) -> QueryResult<Vec<(SeatTrace, SeatTrace)>> {
    let mut per_game: HashMap<i64, (Option<SeatTrace>, Option<SeatTrace>)> = HashMap::new();
    for chunk in game_ids.chunks(500) {
        let rows: Vec<SeatColumns> = game_seats::table
            .filter(game_seats::game_id.eq_any(chunk))
            .filter(game_seats::player.eq_any([low, high]))
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
            let trace = SeatTrace {
                device_fp,
                network_fp,
                rating_before,
                rating_after,
            };
            let slot = per_game.entry(game).or_default();
            let side = if player == low {
                &mut slot.0
            } else {
                &mut slot.1
            };
            side.get_or_insert(trace);
        }
    }
    let mut out: Vec<(i64, (SeatTrace, SeatTrace))> = per_game
        .into_iter()
        .filter_map(|(game, (a, b))| Some((game, (a?, b?))))
        .collect();
    out.sort_by_key(|(game, _)| *game);
    Ok(out.into_iter().map(|(_, seats)| seats).collect())
}

/// The pair's score and account link from its stored rows and the two baselines.
pub struct PairJudgement {
    pub score: PairScore,
    pub finding: Option<Finding>,
    pub rows: Vec<StoredPlay>,
    pub link: crate::collusion::AccountLink,
}

/// Scores the pair `low` < `high` from the database (baselines read, not locked).
pub fn judge(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    policy: &CollusionPolicy,
) -> QueryResult<PairJudgement> {
    let mut baselines = BTreeMap::new();
    baselines.insert(low.to_string(), baseline(conn, low)?);
    baselines.insert(high.to_string(), baseline(conn, high)?);
    let held = Held {
        baselines,
        population: population(conn)?,
    };
    judgement(conn, low, high, &held, policy)
}

fn judgement(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    held: &Held,
    policy: &CollusionPolicy,
) -> QueryResult<PairJudgement> {
    let rows = pair_rows(conn, low, high)?;
    let (forward, backward) = pair_tallies(&rows, low);
    let empty = PlayerTallies::default();
    let score = score_pair(
        &forward,
        &backward,
        held.baselines.get(low).unwrap_or(&empty),
        held.baselines.get(high).unwrap_or(&empty),
        &held.population,
        policy,
    );
    let mut game_ids: Vec<i64> = rows.iter().map(|r| r.game_id).collect();
    game_ids.sort_unstable();
    game_ids.dedup();
    let link = link(&shared_seats(conn, &game_ids, low, high)?);
    let finding = classify(&score, &link, policy);
    Ok(PairJudgement {
        score,
        finding,
        rows,
        link,
    })
}

/// Scores one pair after a game and files its report when it is a new finding.
fn judge_pair(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    held: &Held,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Option<i64>> {
    let shared: i64 = game_pair_play::table
        .filter(game_pair_play::player.eq(low))
        .filter(game_pair_play::opponent.eq(high))
        .count()
        .get_result(conn)?;
    if shared < i64::from(policy.min_games) {
        return Ok(None);
    }
    let reported: Option<i64> = collusion_reported::table
        .find((low, high))
        .select(collusion_reported::games)
        .first(conn)
        .optional()?;
    // Reported again once the evidence has doubled, so that an open case gains an entry with
    // the fuller figures without one per game.
    if reported.is_some_and(|games| shared < 2 * games) {
        return Ok(None);
    }
    let judged = judgement(conn, low, high, held, policy)?;
    let Some(finding) = judged.finding else {
        return Ok(None);
    };
    let id = file(conn, low, high, &judged, finding, policy, moderation, now)?;
    let row = (
        collusion_reported::player_low.eq(low),
        collusion_reported::player_high.eq(high),
        collusion_reported::games.eq(shared),
        collusion_reported::automatic_report_id.eq(id),
        collusion_reported::reported_at.eq(now),
    );
    on_backend!(conn, c => diesel::insert_into(collusion_reported::table)
        .values(row)
        .on_conflict((collusion_reported::player_low, collusion_reported::player_high))
        .do_update()
        .set((
            collusion_reported::games.eq(shared),
            collusion_reported::automatic_report_id.eq(id),
            collusion_reported::reported_at.eq(now),
        ))
        .execute(c))?;
    Ok(Some(id))
}

/// Evidence strength of a finding (0..1): its score against twice the threshold.
fn strength(score: &PairScore, policy: &CollusionPolicy) -> f64 {
    (score.score / (2.0 * policy.threshold)).clamp(0.0, 1.0)
}

#[allow(clippy::too_many_arguments)]
fn file(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    judged: &PairJudgement,
    finding: Finding,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let wanted = match judged.score.pattern {
        Pattern::Sparing => MomentKind::SparedCapture,
        Pattern::Feeding => MomentKind::Gift,
    };
    let mut game_ids: Vec<i64> = judged.rows.iter().map(|r| r.game_id).collect();
    game_ids.dedup();
    game_ids.truncate(REPORT_GAMES);
    let picked: Vec<(&StoredPlay, Moment)> = judged
        .rows
        .iter()
        .flat_map(|row| {
            row.play
                .moments
                .iter()
                .filter(|m| m.kind == wanted)
                .map(move |m| (row, *m))
        })
        .take(crate::collusion::summary::MOMENTS_LISTED)
        .collect();
    let moment_games: Vec<i64> = picked.iter().map(|(row, _)| row.game_id).collect();
    let numbers: HashMap<i64, String> = games::table
        .filter(games::id.eq_any(&moment_games))
        .select((games::id, games::site_game_id))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let moments: Vec<MomentAt> = picked
        .iter()
        .map(|(row, moment)| MomentAt {
            game: numbers.get(&row.game_id).cloned().unwrap_or_default(),
            by: row.player.clone(),
            to: row.opponent.clone(),
            moment: *moment,
        })
        .collect();
    let text = summary(low, high, &judged.score, &judged.link, &moments);
    let newest = game_ids
        .first()
        .copied()
        .ok_or(diesel::result::Error::NotFound)?;
    automatic_reports::insert(
        conn,
        &NewAutomaticReport {
            source: AutomaticSource::CollusionAnalysis,
            player: low,
            also_accused: &[high],
            game_id: newest,
            reason: finding.reason(),
            rule: judged.score.pattern.as_str(),
            score: strength(&judged.score, policy),
            summary: &text,
            supporting_games: &game_ids,
            created_at: now,
        },
        moderation,
    )
}
