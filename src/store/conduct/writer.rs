//! [`ConductWriter`]: applies stored games to the conduct records of their players and hands
//! back the automatic reports their signals raise, within the caller's transaction (the use
//! case holding the writer raises them: `usecases::raise_automatic_report`).
//!
//! - Locks: the records of every player of the transaction are read once, up front, in
//!   player-name order (`SELECT ... ORDER BY player FOR UPDATE` on PostgreSQL; SQLite has one
//!   writer at a time), after the missing ones are created in the same order. Two writers
//!   locking the same players therefore cannot deadlock.
//! - Arrival order: `PlayerRecord::apply` keys everything by the game's `played_at`, so
//!   applying games in any order gives the record a rebuild in played order gives. Signals are
//!   judged at the latest `played_at` in the record, not the wall clock.
//! - Reports: a signal becomes an automatic report (source `conduct_signal`, reason
//!   `abandoning`, rule = the signal kind) when [`conduct::is_new_signal`] says so.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error::NotFound;

use super::outcomes::{self, GameOutcomes};
use super::records;
use crate::conduct::{self, is_new_signal, ConductPolicy, PlayerRecord, SeatOutcome, Signal};
use crate::moderation::GameNumber;
use crate::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use crate::store::connection::DbConnection;
use crate::store::schema::automatic_report_games;
use crate::store::schema::automatic_reports as reports_table;
use crate::store::schema::conduct_records;

/// The review-queue reason of every conduct report (abandoning, sandbagging and spoiling are
/// all "abandoning / sandbagging" in the queue's vocabulary).
pub const CONDUCT_REPORT_REASON: &str = "abandoning";

/// Names per `IN (...)` list (bounded bound parameters on both backends).
const NAMES_PER_STATEMENT: usize = 500;

/// One seat of a stored game, ready for [`ConductWriter::record_game`].
#[derive(Debug, Clone)]
pub struct SeatToRecord<'a> {
    pub player: &'a str,
    /// The outcome computed at ingest (its game, player and end time are set here).
    pub outcome: &'a SeatOutcome,
}

/// A player's record, held by a [`ConductWriter`].
struct HeldRecord {
    record: PlayerRecord,
    changed: bool,
}

/// A conduct report to file: the signal, its player and the game that raised it.
struct RaisedReport {
    player: String,
    game_id: i64,
    signal: Signal,
}

/// The conduct bookkeeping of one transaction: the records of the players it touches are
/// read once, updated in memory game by game, and written back once by
/// [`ConductWriter::finish`] with the games' outcome rows; it hands back the reports raised.
/// For a batch (the applier, the bulk import, the rebuild) a player's record is read and
/// written once per batch, with the same result as game by game.
pub struct ConductWriter<'p> {
    policy: &'p ConductPolicy,
    /// Whether new signals raise reports (not in the rebuild).
    raise_reports: bool,
    records: HashMap<String, HeldRecord>,
    outcomes: Vec<GameOutcomes>,
    /// Games already listed by conduct reports, per (player, rule), as read or raised here.
    reported: HashMap<(String, &'static str), BTreeSet<GameNumber>>,
    raised: Vec<RaisedReport>,
}

impl<'p> ConductWriter<'p> {
    pub fn new(policy: &'p ConductPolicy, raise_reports: bool) -> ConductWriter<'p> {
        ConductWriter {
            policy,
            raise_reports,
            records: HashMap::new(),
            outcomes: Vec::new(),
            reported: HashMap::new(),
            raised: Vec::new(),
        }
    }

    /// Reads and locks the records of `players` not held yet, creating empty ones (and player
    /// rows) where missing. Call it once, before the transaction's first game, with every
    /// player of the transaction, so that every writer locks in one order.
    pub fn hold<'n>(
        &mut self,
        conn: &mut DbConnection,
        players: impl IntoIterator<Item = &'n str>,
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        let wanted: BTreeSet<&str> = players
            .into_iter()
            .filter(|p| !self.records.contains_key(*p))
            .collect();
        let names: Vec<&str> = wanted.into_iter().collect();
        for chunk in names.chunks(NAMES_PER_STATEMENT) {
            let existing: BTreeSet<String> = conduct_records::table
                .filter(conduct_records::player.eq_any(chunk))
                .select(conduct_records::player)
                .load::<String>(conn)?
                .into_iter()
                .collect();
            for player in chunk.iter().filter(|p| !existing.contains(**p)) {
                records::create(conn, self.policy, player, now)?;
            }
            let query = conduct_records::table
                .filter(conduct_records::player.eq_any(chunk))
                .order(conduct_records::player.asc())
                .select((conduct_records::player, conduct_records::record));
            let rows: Vec<(String, String)> = match conn {
                DbConnection::Postgres(c) => query.for_update().load(c)?,
                DbConnection::Sqlite(c) => query.load(c)?,
            };
            if rows.len() != chunk.len() {
                return Err(NotFound);
            }
            for (player, text) in rows {
                let record = records::parse(&text)?;
                let held = HeldRecord {
                    record,
                    changed: false,
                };
                self.records.insert(player, held);
            }
        }
        Ok(())
    }

    /// Applies the seats of one stored game to their players' records (held first if the
    /// caller did not) and raises automatic reports for new signals (handed back by `finish`).
    pub fn record_game(
        &mut self,
        conn: &mut DbConnection,
        game_id: i64,
        played_at: NaiveDateTime,
        seats: &[SeatToRecord<'_>],
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        self.hold(conn, seats.iter().map(|s| s.player), now)?;
        let stored: Vec<SeatOutcome> = seats
            .iter()
            .map(|seat| {
                let mut outcome = seat.outcome.clone();
                outcome.game = GameNumber(game_id);
                outcome.ended_at = played_at.and_utc();
                outcome
            })
            .collect();
        let listed: Vec<(&str, &SeatOutcome)> =
            seats.iter().map(|s| s.player).zip(&stored).collect();
        self.outcomes.push(GameOutcomes {
            game_id,
            played_at,
            seats: conduct::stored::encode_seats(&listed),
        });
        // Name order, so that reports are raised in one order however the seats were listed.
        let mut order = listed;
        order.sort_by(|a, b| a.0.cmp(b.0));
        for (player, stored) in order {
            let held = self.records.get_mut(player).ok_or(NotFound)?;
            let mut outcome = stored.clone();
            outcome.player = held.record.player;
            held.record.apply(&outcome);
            held.changed = true;
            if !self.raise_reports {
                continue;
            }
            let at = held
                .record
                .recent
                .last()
                .map_or(outcome.ended_at, |o| o.ended_at);
            let signals = conduct::signals(&held.record, at, self.policy);
            for signal in signals {
                self.raise_if_new(conn, player, game_id, signal)?;
            }
        }
        Ok(())
    }

    /// Writes the outcome rows and every changed record (once each); returns the reports
    /// raised, for the caller to raise in the same transaction, after.
    pub fn finish(
        self,
        conn: &mut DbConnection,
        now: NaiveDateTime,
    ) -> QueryResult<ConductReports> {
        outcomes::insert(conn, &self.outcomes)?;
        let mut changed: Vec<(&String, &HeldRecord)> =
            self.records.iter().filter(|(_, h)| h.changed).collect();
        changed.sort_by(|a, b| a.0.cmp(b.0));
        for (player, held) in changed {
            records::save(conn, player, &conduct::stored::encode(&held.record), now)?;
        }
        Ok(ConductReports(self.raised.iter().map(report_of).collect()))
    }

    /// Raises the signal as an automatic report unless earlier reports already cover it.
    fn raise_if_new(
        &mut self,
        conn: &mut DbConnection,
        player: &str,
        game_id: i64,
        signal: Signal,
    ) -> QueryResult<()> {
        let rule = signal.kind.as_str();
        let reported = match self.reported.entry((player.to_string(), rule)) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(first) => first.insert(reported_games(conn, player, rule)?),
        };
        if !is_new_signal(&signal, reported, self.policy) {
            return Ok(());
        }
        reported.extend(signal.supporting_games.iter().copied());
        self.raised.push(RaisedReport {
            player: player.to_string(),
            game_id,
            signal,
        });
        Ok(())
    }
}

/// The games earlier conduct reports of this rule about this player listed.
fn reported_games(
    conn: &mut DbConnection,
    player: &str,
    rule: &str,
) -> QueryResult<BTreeSet<GameNumber>> {
    Ok(automatic_report_games::table
        .inner_join(reports_table::table)
        .filter(reports_table::player.eq(player))
        .filter(reports_table::source.eq(AutomaticSource::ConductSignal.as_str()))
        .filter(reports_table::rule.eq(rule))
        .select(automatic_report_games::game_id)
        .load::<i64>(conn)?
        .into_iter()
        .map(GameNumber)
        .collect())
}

/// The automatic reports a writer raised, in the order raised. Dropping them loses the reports:
/// the caller raises each (`usecases::raise_automatic_report`).
#[must_use = "the conduct reports must be raised in the same transaction"]
#[derive(Debug, Clone, PartialEq)]
pub struct ConductReports(pub Vec<ConductReport>);

/// A conduct report to raise: a new signal of a player, listing every supporting game.
#[derive(Debug, Clone, PartialEq)]
pub struct ConductReport {
    pub player: String,
    /// The raising game (archive id).
    pub game_id: i64,
    /// The signal kind.
    pub rule: &'static str,
    pub score: f64,
    pub summary: String,
    pub supporting_games: Vec<i64>,
}

impl ConductReport {
    /// The automatic report to raise (source `conduct_signal`, reason
    /// [`CONDUCT_REPORT_REASON`]).
    pub fn automatic(&self, created_at: NaiveDateTime) -> NewAutomaticReport<'_> {
        NewAutomaticReport {
            source: AutomaticSource::ConductSignal,
            player: &self.player,
            also_accused: &[],
            game_id: self.game_id,
            reason: CONDUCT_REPORT_REASON,
            rule: self.rule,
            score: self.score,
            summary: &self.summary,
            supporting_games: &self.supporting_games,
            created_at,
        }
    }
}

/// The report of a raised signal, listing every supporting game.
fn report_of(raised: &RaisedReport) -> ConductReport {
    let signal = &raised.signal;
    let rule = signal.kind.as_str();
    let games: Vec<i64> = signal.supporting_games.iter().map(|g| g.0).collect();
    // The raising game is the recorded game when it supports the signal, else the latest
    // supporting game, so the report lists exactly the supporting games.
    let raising = if games.contains(&raised.game_id) {
        raised.game_id
    } else {
        games.last().copied().unwrap_or(raised.game_id)
    };
    ConductReport {
        player: raised.player.clone(),
        game_id: raising,
        rule,
        score: signal.strength,
        summary: format!("{}: {}", rule.replace('_', " "), signal.explanation),
        supporting_games: games,
    }
}
