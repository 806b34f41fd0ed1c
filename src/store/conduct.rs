//! Conduct tracking: `conduct_outcomes` (one row per game: its seats' outcomes) and
//! `conduct_records` (one bounded `PlayerRecord` per player, as JSON).
//!
//! - Ingest over HTTP queues a game in the game's transaction ([`ConductQueue`]: on SQLite in
//!   the games row, on PostgreSQL one `conduct_pending` row); the applier ([`apply_pending`])
//!   applies queued games in batches: their outcome rows, the records they change, the
//!   reports they raise and their removal from the queue commit together or not at all. The
//!   bulk import applies its batches in place.
//!
//! - Concurrency: [`ConductWriter`] reads the records of every player of its transaction up
//!   front, on PostgreSQL with one `SELECT ... ORDER BY player FOR UPDATE` after creating the
//!   missing ones in name order, so two transactions locking the same players cannot
//!   deadlock. On SQLite, which serialises writers, the applier reads and applies a batch
//!   before it writes, and writes under version checks ([`apply_pending_taking_turns`]).
//!   `version` rises by one on every write.
//! - Arrival order: `PlayerRecord::apply` keys everything by the game's `played_at`, so
//!   applying games in any order gives the record a rebuild in played order gives. Signals are
//!   judged at the latest `played_at` in the record (not the wall clock), so importing old
//!   games judges them in their own time.
//! - Reports: a signal becomes an automatic report (source `conduct_signal`, reason
//!   `abandoning`, rule = the signal kind) when [`conduct::is_new_signal`] says so: at least
//!   the rule's `min_games` of its supporting games were never listed by an earlier report of
//!   that kind about that player.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::moderation::ModerationPolicy;

use super::automatic_reports::{self, AutomaticSource, NewAutomaticReport};
use super::connection::DbConnection;
use super::players;
use super::schema::automatic_reports as reports_table;
use super::schema::games as games_table;
use super::schema::players as players_table;
use super::schema::{
    automatic_report_games, conduct_outcomes, conduct_pending, conduct_progress, conduct_records,
};
use crate::conduct::{
    self, is_new_signal, ConductPolicy, DepartureKind, OutcomeKind, PlayerRecord, SeatOutcome,
    Signal,
};
use crate::moderation::{GameNumber, PlayerId};
use diesel::result::Error::NotFound;

/// The review-queue reason of every conduct report (abandoning, sandbagging and spoiling are
/// all "abandoning / sandbagging" in the queue's vocabulary).
pub const CONDUCT_REPORT_REASON: &str = "abandoning";

/// One seat's stored outcome, as read back from a game's `conduct_outcomes` row.
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

/// A game's `conduct_outcomes` row: its seats' players and outcomes in the form of
/// `conduct::stored::encode_seats`, as queued.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = conduct_outcomes)]
struct GameOutcomes {
    game_id: i64,
    played_at: NaiveDateTime,
    seats: String,
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

/// One seat of a stored game, ready for [`ConductWriter::record_game`].
#[derive(Debug, Clone)]
pub struct SeatToRecord<'a> {
    pub player: &'a str,
    /// The outcome computed at ingest (its game, player and end time are set here).
    pub outcome: &'a SeatOutcome,
}

/// A player's record, read and locked by a [`ConductWriter`].
struct HeldRecord {
    record: PlayerRecord,
    /// The stored version when it was read.
    version: i64,
    changed: bool,
}

/// The conduct bookkeeping of one transaction that stores games: the records of the players
/// it touches are read (and on PostgreSQL locked) once, in player-name order, updated in
/// memory game by game, and written back once by [`ConductWriter::finish`], with the outcome
/// rows in multi-row inserts. For one game that is the per-game update; for a batch (the bulk
/// import, the rebuild) a player's record is read, parsed, serialised and written once per
/// batch instead of once per game, and the result is the same as game by game.
pub struct ConductWriter<'p> {
    policy: &'p ConductPolicy,
    /// The policy automatic reports are filed under; `None` raises none (the rebuild).
    raise_reports: Option<&'p ModerationPolicy>,
    records: HashMap<String, HeldRecord>,
    outcomes: Vec<GameOutcomes>,
    /// Games already listed by conduct reports, per (player, rule), as read or raised here.
    reported: HashMap<(String, &'static str), BTreeSet<GameNumber>>,
    /// Reports raised by the games recorded so far, filed by `finish`: recording a game only
    /// reads, so the applier can do it before its turn to write.
    raised: Vec<RaisedReport>,
}

/// A conduct report to file: the signal, its player and the game that raised it.
struct RaisedReport {
    player: String,
    game_id: i64,
    signal: Signal,
}

impl<'p> ConductWriter<'p> {
    pub fn new(
        policy: &'p ConductPolicy,
        raise_reports: Option<&'p ModerationPolicy>,
    ) -> ConductWriter<'p> {
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
    /// player of the transaction: all writers then take their row locks in one order (name
    /// order) and cannot deadlock.
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
        if wanted.is_empty() {
            return Ok(());
        }
        if let DbConnection::Postgres(_) = conn {
            return self.hold_all_pg(conn, wanted, now);
        }
        // SQLite: one writer holds the whole database, so reading is enough; one player at a
        // time with the same cached statement, creating a missing record at its turn.
        for player in wanted {
            let row = match read_record(conn, player)? {
                Some(row) => row,
                None => {
                    create_record(conn, self.policy, player, now)?;
                    read_record(conn, player)?.ok_or(NotFound)?
                }
            };
            let (record, version) = parsed(row)?;
            self.records.insert(
                player.to_string(),
                HeldRecord {
                    record,
                    version,
                    changed: false,
                },
            );
        }
        Ok(())
    }

    /// PostgreSQL: round trips cost more than rows, so the batch's players are held in a few
    /// statements: missing records are created first, in name order, then every record is
    /// read and locked by one `SELECT ... ORDER BY player FOR UPDATE`, which locks in name
    /// order. Every writer creates, then locks, in that one order, so two cannot deadlock: a
    /// writer waits only for records another writer created or locked earlier in the order.
    fn hold_all_pg(
        &mut self,
        conn: &mut DbConnection,
        wanted: BTreeSet<&str>,
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        // One array parameter each (`= ANY($1)`), however many players: one lock order.
        let names: Vec<&str> = wanted.iter().copied().collect();
        let existing: BTreeSet<String> = conduct_records::table
            .filter(conduct_records::player.eq_any(&names))
            .select(conduct_records::player)
            .load::<String>(conn)?
            .into_iter()
            .collect();
        for player in names.iter().filter(|p| !existing.contains(**p)) {
            create_record(conn, self.policy, player, now)?;
        }
        let DbConnection::Postgres(c) = conn else {
            return Err(NotFound);
        };
        let rows: Vec<(String, String, i64)> = conduct_records::table
            .filter(conduct_records::player.eq_any(&names))
            .order(conduct_records::player.asc())
            .select((
                conduct_records::player,
                conduct_records::record,
                conduct_records::version,
            ))
            .for_update()
            .load(c)?;
        if rows.len() != names.len() {
            return Err(NotFound);
        }
        for (player, text, version) in rows {
            let (record, version) = parsed((text, version))?;
            self.records.insert(
                player,
                HeldRecord {
                    record,
                    version,
                    changed: false,
                },
            );
        }
        Ok(())
    }

    /// Applies the seats of one stored game to their players' records (held first if the
    /// caller did not) and raises automatic reports for new signals (filed by `finish`).
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
        // Name order, as reports were always raised in it.
        let mut order: Vec<(&str, &SeatOutcome)> = listed;
        order.sort_by(|a, b| a.0.cmp(b.0));
        for (player, stored) in order {
            let held = self.records.get_mut(player).ok_or(NotFound)?;
            let mut outcome = stored.clone();
            outcome.player = held.record.player;
            held.record.apply(&outcome);
            held.changed = true;
            if self.raise_reports.is_none() {
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

    /// Writes the outcome rows, every changed record (each once, version checked) and the
    /// reports raised.
    pub fn finish(self, conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<()> {
        let moderation = self.raise_reports;
        self.into_writes().write(conn, moderation, now)
    }

    /// What `finish` writes, with the changed records already encoded: the applier prepares
    /// it before its turn to write.
    fn into_writes(self) -> Writes {
        let mut records: Vec<(String, String, i64)> = self
            .records
            .into_iter()
            .filter(|(_, h)| h.changed)
            .map(|(p, h)| {
                let text = conduct::stored::encode(&h.record);
                (p, text, h.version)
            })
            .collect();
        records.sort_by(|a, b| a.0.cmp(&b.0));
        Writes {
            outcomes: self.outcomes,
            records,
            raised: self.raised,
        }
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

/// An empty record for a player's first game (and the player row if missing). A concurrent
/// first game of the same player may create the row first: this insert then waits for that
/// transaction and skips the row.
fn create_record(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    player: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let player_id = players::id_or_create(conn, player, now)?;
    let empty = PlayerRecord::new(PlayerId(player_id), &policy.record);
    on_backend!(conn, c => diesel::insert_into(conduct_records::table)
        .values((
            conduct_records::player.eq(player),
            conduct_records::player_id.eq(player_id),
            conduct_records::record.eq(conduct::stored::encode(&empty)),
            conduct_records::version.eq(0i64),
            conduct_records::updated_at.eq(now),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(())
}

/// [`create_record`] for several players in a transaction that writes from its first
/// statement (the player rows, `ON CONFLICT DO NOTHING`): on SQLite a transaction that read
/// first fails to write ("database is locked") when another writer committed in between.
fn create_records_writing_first(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    names: &[&str],
    now: NaiveDateTime,
) -> QueryResult<()> {
    for name in names {
        on_backend!(conn, c => diesel::insert_into(players_table::table)
            .values((players_table::name.eq(*name), players_table::created_at.eq(now)))
            .on_conflict_do_nothing()
            .execute(c))?;
    }
    names
        .iter()
        .try_for_each(|player| create_record(conn, policy, player, now))
}

/// The writes of a [`ConductWriter`]: outcome rows, encoded records with the version they
/// were read at, and the reports to file.
struct Writes {
    outcomes: Vec<GameOutcomes>,
    records: Vec<(String, String, i64)>,
    raised: Vec<RaisedReport>,
}

impl Writes {
    /// Fails (`RollbackTransaction`) if a record changed since it was read. Reports are filed
    /// under `moderation` (`None`: the rebuild, which files none).
    fn write(
        self,
        conn: &mut DbConnection,
        moderation: Option<&ModerationPolicy>,
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        match conn {
            DbConnection::Sqlite(c) => {
                // Fixed-size inserts are prepared once per connection and cached, where a
                // multi-row insert from a list is new SQL every time (preparing it was most of
                // a batch's cost): 128 games at a time, then single games.
                let mut rest = self.outcomes.as_slice();
                while let Some((rows, tail)) = rest.split_first_chunk::<OUTCOMES_PER_BIG_INSERT>() {
                    diesel::insert_into(conduct_outcomes::table)
                        .values(rows)
                        .execute(c)?;
                    rest = tail;
                }
                for row in rest {
                    diesel::insert_into(conduct_outcomes::table)
                        .values(row)
                        .execute(c)?;
                }
                for (player, text, version) in &self.records {
                    save_record(c, player, text, *version, now)?;
                }
            }
            // Round trips cost more than parsing here: one multi-row insert, one update.
            DbConnection::Postgres(c) => {
                for chunk in self.outcomes.chunks(OUTCOMES_PER_STATEMENT) {
                    diesel::insert_into(conduct_outcomes::table)
                        .values(chunk)
                        .execute(c)?;
                }
                for chunk in self.records.chunks(NAMES_PER_STATEMENT) {
                    save_records_pg(c, chunk, now)?;
                }
            }
        }
        if let Some(moderation) = moderation {
            for raised in &self.raised {
                file_report(
                    conn,
                    &raised.player,
                    raised.game_id,
                    &raised.signal,
                    moderation,
                    now,
                )?;
            }
        }
        Ok(())
    }
}

/// Where a game stored over HTTP waits for the conduct applier, with its seats' outcomes
/// encoded (`conduct::stored::encode_seats`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConductQueue {
    /// SQLite: in the game's own row (`games.conduct_seats`), whose page the ingest writes
    /// anyway; the applier reads games after its high-water mark (`conduct_progress`). Ids
    /// rise in commit order under SQLite's single writer, so no game appears below the mark.
    InGameRow(String),
    /// PostgreSQL: a `conduct_pending` row ([`queue_stored_game`]); here a smaller id can
    /// commit after a larger one, so a mark could pass over a game still being written.
    PendingTable(String),
}

/// How this backend queues a game with these seats.
pub fn queue_for(conn: &DbConnection, seats: &[SeatToRecord<'_>]) -> ConductQueue {
    let listed: Vec<(&str, &SeatOutcome)> = seats.iter().map(|s| (s.player, s.outcome)).collect();
    let encoded = conduct::stored::encode_seats(&listed);
    match conn {
        DbConnection::Sqlite(_) => ConductQueue::InGameRow(encoded),
        DbConnection::Postgres(_) => ConductQueue::PendingTable(encoded),
    }
}

/// Queues a game just stored in this transaction for the conduct applier in a
/// `conduct_pending` row (PostgreSQL, [`ConductQueue::PendingTable`]): its seats' outcomes,
/// encoded, in one row (where applying them in the game's transaction would read, update and
/// rewrite four player records). Returns the game's id: the insert looks it up by game number,
/// standing in for the look-up ingest makes anyway.
pub fn queue_stored_game(
    conn: &mut DbConnection,
    site_game_id: &str,
    played_at: NaiveDateTime,
    seats: &str,
) -> QueryResult<i64> {
    let queue = QueueStoredGame {
        site_game_id,
        played_at,
        seats,
    };
    on_backend!(conn, c => queue.get_result::<i64>(c))
}

/// `INSERT INTO conduct_pending ... SELECT id FROM games ... RETURNING game_id` with a fixed
/// statement-cache identity: every ingest runs it, and it is then found in the cache without
/// rendering its SQL first.
struct QueueStoredGame<'a> {
    site_game_id: &'a str,
    played_at: NaiveDateTime,
    seats: &'a str,
}

/// The statement-cache identity of [`QueueStoredGame`].
struct QueueStoredGameStatement;

impl diesel::query_builder::QueryId for QueueStoredGame<'_> {
    type QueryId = QueueStoredGameStatement;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl diesel::query_builder::Query for QueueStoredGame<'_> {
    type SqlType = diesel::sql_types::BigInt;
}

impl<DB> diesel::query_builder::QueryFragment<DB> for QueueStoredGame<'_>
where
    DB: diesel::backend::Backend
        + diesel::sql_types::HasSqlType<diesel::sql_types::Text>
        + diesel::sql_types::HasSqlType<diesel::sql_types::Timestamp>,
    str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
    NaiveDateTime: diesel::serialize::ToSql<diesel::sql_types::Timestamp, DB>,
{
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, DB>,
    ) -> QueryResult<()> {
        use diesel::sql_types::{Text, Timestamp};
        out.push_sql("INSERT INTO conduct_pending (game_id, played_at, seats) SELECT id, ");
        out.push_bind_param::<Timestamp, _>(&self.played_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(self.seats)?;
        out.push_sql(" FROM games WHERE site_game_id = ");
        out.push_bind_param::<Text, _>(self.site_game_id)?;
        out.push_sql(" RETURNING game_id");
        Ok(())
    }
}

impl<Conn: diesel::Connection> diesel::query_dsl::RunQueryDsl<Conn> for QueueStoredGame<'_> {}

/// What one [`apply_pending`] call did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AppliedBatch {
    /// Queued games applied to their players' records.
    pub applied: usize,
    /// Queued games whose outcomes were already recorded (by a rebuild): dropped from the
    /// queue without applying them twice.
    pub already_recorded: usize,
    /// (game id, reason) of queued rows that could not be read: dropped from the queue (the
    /// game stays in the archive, and `arbiter conduct rebuild` recomputes it).
    pub unreadable: Vec<(i64, String)>,
    /// SQLite: games the mark moved past that were never queued (stored by the bulk import,
    /// which applies its games itself, or with conduct tracking off).
    pub passed_over: usize,
}

impl AppliedBatch {
    /// Queued games taken off the queue.
    pub fn taken(&self) -> usize {
        self.applied + self.already_recorded + self.unreadable.len()
    }

    /// Games the batch took off the queue or moved past: a batch of `batch` means there may
    /// be more.
    pub fn examined(&self) -> usize {
        self.taken() + self.passed_over
    }
}

/// Takes up to `batch` queued games off the queue, oldest first, and applies them: their
/// outcome rows, their players' records (each read and written once for the batch) and the
/// automatic reports their signals raise commit together with the games' removal from the
/// queue. Same as [`apply_pending_taking_turns`] with no turns to take.
pub fn apply_pending(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    batch: i64,
    now: NaiveDateTime,
) -> QueryResult<AppliedBatch> {
    apply_pending_taking_turns(conn, policy, moderation, batch, now, || ())
}

/// [`apply_pending`], calling `write_turn` before each transaction that writes and holding
/// what it returns until that transaction ends (the process's SQLite writer turn).
///
/// PostgreSQL: one transaction; the queued rows are locked with `SKIP LOCKED`, so several
/// instances' appliers share the queue without waiting for each other's games (a player's
/// record is still locked in name order), and ingest never waits for the applier.
///
/// SQLite, where every writer waits for the one before: the batch (the games after the mark)
/// is read, applied and encoded in read transactions, before the turn; the turn then covers
/// only the writes. Records are written under a version check and the mark moves only if its
/// version is still the one read, so if anything changed in between (a rebuild, another
/// process's applier) the write fails, rolls back, and the batch is applied again in one
/// transaction, still in the turn. New players' empty records are created first, in a short
/// write of their own. The steps are public ([`read_queued`], [`create_missing_records`],
/// [`prepare_batch`], [`write_prepared`]) so that the server can run the reading ones on its
/// low-priority thread.
pub fn apply_pending_taking_turns<T>(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    batch: i64,
    now: NaiveDateTime,
    write_turn: impl Fn() -> T,
) -> QueryResult<AppliedBatch> {
    let batch = batch.max(1);
    if let DbConnection::Postgres(_) = conn {
        let _turn = write_turn();
        return apply_in_one_transaction(conn, policy, moderation, batch, now);
    }
    let Some(read) = read_queued(conn, batch)? else {
        return Ok(AppliedBatch::default());
    };
    if !read.missing.is_empty() {
        let _turn = write_turn();
        create_missing_records(conn, policy, &read, now)?;
    }
    let prepared = prepare_batch(conn, read, policy, moderation, now);
    let _turn = write_turn();
    write_prepared(conn, prepared, policy, moderation, batch, now)
}

/// SQLite: a batch read off the queue (the games after the mark), not yet applied.
pub struct ReadBatch {
    mark: Progress,
    queued: QueuedBatch,
    /// Players of the batch without a conduct record yet.
    missing: Vec<String>,
}

impl ReadBatch {
    /// Players of the batch without a conduct record: [`create_missing_records`] first.
    pub fn missing(&self) -> &[String] {
        &self.missing
    }
}

/// SQLite, first step of a batch (reads only): up to `batch` games after the mark, sorted
/// out, and the players without a record. `None` when nothing follows the mark.
pub fn read_queued(conn: &mut DbConnection, batch: i64) -> QueryResult<Option<ReadBatch>> {
    let batch = batch.max(1);
    let (mark, queued) = conn.transaction(|conn| {
        let mark = read_progress(conn)?;
        let taken = games_after_mark(conn, mark.applied_through, batch)?;
        Ok::<_, diesel::result::Error>((mark, sort_out(conn, taken)?))
    })?;
    if queued.through.is_none() {
        return Ok(None);
    }
    let players: BTreeSet<&str> = queued.players().collect();
    let missing = without_record(conn, &players)?
        .into_iter()
        .map(str::to_string)
        .collect();
    Ok(Some(ReadBatch {
        mark,
        queued,
        missing,
    }))
}

/// SQLite, second step, in a writer turn: empty records for the batch's new players, in a
/// short write of their own.
pub fn create_missing_records(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    read: &ReadBatch,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let names: Vec<&str> = read.missing.iter().map(String::as_str).collect();
    conn.transaction(|conn| create_records_writing_first(conn, policy, &names, now))
}

/// SQLite: a batch applied in memory, its writes encoded, ready for [`write_prepared`].
pub struct PreparedBatch {
    read: ReadBatch,
    /// `Err` if the batch could not be applied from what was read (a record went missing):
    /// [`write_prepared`] then applies the batch again in one transaction.
    writes: QueryResult<Writes>,
}

/// SQLite, third step (reads only, so it can run away from the writers): applies the batch
/// to its players' records in memory, judges signals and encodes the results.
pub fn prepare_batch(
    conn: &mut DbConnection,
    read: ReadBatch,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> PreparedBatch {
    let writes = conn.transaction(|conn| {
        let mut writer = ConductWriter::new(policy, Some(moderation));
        writer.hold(conn, read.queued.players(), now)?;
        read.queued.record_all(conn, &mut writer, now)?;
        Ok(writer.into_writes())
    });
    PreparedBatch { read, writes }
}

/// SQLite, last step, in a writer turn: moves the mark past the batch and writes what
/// [`prepare_batch`] computed, in one transaction. Records are written under a version check
/// and the mark moves only from the version read, so if anything changed since the batch was
/// read (a rebuild, another process's applier) the write rolls back and the batch is applied
/// again in one transaction.
pub fn write_prepared(
    conn: &mut DbConnection,
    prepared: PreparedBatch,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    batch: i64,
    now: NaiveDateTime,
) -> QueryResult<AppliedBatch> {
    let PreparedBatch { read, writes } = prepared;
    let written = writes.and_then(|writes| {
        conn.transaction(|conn| {
            let through = read.queued.through.ok_or(NotFound)?;
            // First, so the transaction is a writer from its first statement.
            if !move_mark(conn, &read.mark, through)? {
                return Err(diesel::result::Error::RollbackTransaction);
            }
            writes.write(conn, Some(moderation), now)
        })
    });
    match written {
        Ok(()) => Ok(read.queued.done),
        Err(e) => {
            tracing::debug!(error = %e, "conduct batch changed while applied; applying it again");
            apply_in_one_transaction(conn, policy, moderation, batch.max(1), now)
        }
    }
}

/// Takes up to `batch` queued games off the queue and applies them, all in one transaction.
fn apply_in_one_transaction(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    batch: i64,
    now: NaiveDateTime,
) -> QueryResult<AppliedBatch> {
    conn.transaction(|conn| {
        let taken = take_queued(conn, batch)?;
        let queued = sort_out(conn, taken)?;
        if queued.games.is_empty() {
            return Ok(queued.done);
        }
        let mut writer = ConductWriter::new(policy, Some(moderation));
        writer.hold(conn, queued.players(), now)?;
        queued.record_all(conn, &mut writer, now)?;
        writer.finish(conn, now)?;
        Ok(queued.done)
    })
}

/// A queued game to apply: its id, when it was played, its seats' players and outcomes.
type DecodedGame = (i64, NaiveDateTime, Vec<(String, SeatOutcome)>);

/// Games taken off the queue, in game order: (id, played at, encoded seats), the encoded
/// seats `None` for a game the SQLite mark moves past that was never queued.
type TakenGames = Vec<(i64, NaiveDateTime, Option<String>)>;

/// A batch of queued games, sorted out.
struct QueuedBatch {
    /// The largest game id taken (the SQLite mark moves to it); `None` for an empty batch.
    through: Option<i64>,
    /// The games to apply, in game order, with their decoded seats.
    games: Vec<DecodedGame>,
    /// What applying the batch will have done.
    done: AppliedBatch,
}

/// Sorts taken games into games to apply, games a rebuild already recorded, unreadable rows
/// and games never queued.
fn sort_out(conn: &mut DbConnection, mut taken: TakenGames) -> QueryResult<QueuedBatch> {
    taken.sort_by_key(|q| q.0);
    let mut done = AppliedBatch::default();
    let through = taken.last().map(|q| q.0);
    let queued: Vec<(i64, NaiveDateTime, String)> = taken
        .into_iter()
        .filter_map(|(id, played_at, seats)| match seats {
            Some(seats) => Some((id, played_at, seats)),
            None => {
                done.passed_over += 1;
                None
            }
        })
        .collect();
    let ids: Vec<i64> = queued.iter().map(|q| q.0).collect();
    let mut recorded = BTreeSet::new();
    for chunk in ids.chunks(NAMES_PER_STATEMENT) {
        recorded.extend(
            conduct_outcomes::table
                .filter(conduct_outcomes::game_id.eq_any(chunk))
                .select(conduct_outcomes::game_id)
                .distinct()
                .load::<i64>(conn)?,
        );
    }
    let mut games = Vec::with_capacity(queued.len());
    for (game_id, played_at, text) in queued {
        if recorded.contains(&game_id) {
            done.already_recorded += 1;
            continue;
        }
        match conduct::stored::decode_seats(&text) {
            Ok(seats) => games.push((game_id, played_at, seats)),
            Err(e) => done.unreadable.push((game_id, e.to_string())),
        }
    }
    done.applied = games.len();
    Ok(QueuedBatch {
        through,
        games,
        done,
    })
}

impl QueuedBatch {
    fn players(&self) -> impl Iterator<Item = &str> {
        self.games
            .iter()
            .flat_map(|(_, _, seats)| seats.iter().map(|(p, _)| p.as_str()))
    }

    /// Applies every game to the writer's records, counting them as applied.
    fn record_all(
        &self,
        conn: &mut DbConnection,
        writer: &mut ConductWriter<'_>,
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        for (game_id, played_at, seats) in &self.games {
            let seats: Vec<SeatToRecord<'_>> = seats
                .iter()
                .map(|(player, outcome)| SeatToRecord { player, outcome })
                .collect();
            writer.record_game(conn, *game_id, *played_at, &seats, now)?;
        }
        Ok(())
    }
}

/// The players among `players` without a conduct record.
fn without_record<'n>(
    conn: &mut DbConnection,
    players: &BTreeSet<&'n str>,
) -> QueryResult<Vec<&'n str>> {
    let names: Vec<&str> = players.iter().copied().collect();
    let mut found = BTreeSet::new();
    for chunk in names.chunks(NAMES_PER_STATEMENT) {
        found.extend(
            conduct_records::table
                .filter(conduct_records::player.eq_any(chunk))
                .select(conduct_records::player)
                .load::<String>(conn)?,
        );
    }
    Ok(names.into_iter().filter(|p| !found.contains(*p)).collect())
}

#[derive(QueryableByName)]
struct QueuedGame {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    game_id: i64,
    #[diesel(sql_type = diesel::sql_types::Timestamp)]
    played_at: NaiveDateTime,
    #[diesel(sql_type = diesel::sql_types::Text)]
    seats: String,
}

/// Takes the oldest `batch` queued games off the queue and returns them; the caller's
/// transaction puts them back if it fails. Its first statement writes, so on SQLite the
/// transaction waits for the write lock (busy timeout) instead of failing to upgrade a read.
///
/// - SQLite: claims the mark (its version rises), reads the games after it and moves it past
///   them.
/// - PostgreSQL: deletes the queued rows, `SKIP LOCKED` passing over games another applier
///   holds.
fn take_queued(conn: &mut DbConnection, batch: i64) -> QueryResult<TakenGames> {
    use diesel::sql_types::BigInt;
    if let DbConnection::Postgres(c) = conn {
        let rows: Vec<QueuedGame> = diesel::sql_query(
            "DELETE FROM conduct_pending WHERE game_id IN (SELECT game_id FROM conduct_pending \
             ORDER BY game_id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING game_id, played_at, seats",
        )
        .bind::<BigInt, _>(batch)
        .load(c)?;
        return Ok(rows
            .into_iter()
            .map(|q| (q.game_id, q.played_at, Some(q.seats)))
            .collect());
    }
    let mark = claim_progress(conn)?;
    let taken = games_after_mark(conn, mark.applied_through, batch)?;
    if let Some(&(through, _, _)) = taken.last() {
        diesel::update(conduct_progress::table)
            .set(conduct_progress::applied_through.eq(through))
            .execute(conn)?;
    }
    Ok(taken)
}

/// SQLite's conduct mark: every game with an id up to `applied_through` has been applied or
/// passed over; `version` rises with every change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Queryable)]
struct Progress {
    applied_through: i64,
    version: i64,
}

fn read_progress(conn: &mut DbConnection) -> QueryResult<Progress> {
    conduct_progress::table
        .select((conduct_progress::applied_through, conduct_progress::version))
        .first(conn)
}

/// Raises the mark's version (a write, so the transaction holds the write lock from here on)
/// and reads the mark: an applier that read it earlier will not move it (SQLite).
fn claim_progress(conn: &mut DbConnection) -> QueryResult<Progress> {
    diesel::update(conduct_progress::table)
        .set(conduct_progress::version.eq(conduct_progress::version + 1))
        .execute(conn)?;
    read_progress(conn)
}

/// The `batch` games after the mark, in id order (SQLite).
fn games_after_mark(
    conn: &mut DbConnection,
    applied_through: i64,
    batch: i64,
) -> QueryResult<TakenGames> {
    games_table::table
        .filter(games_table::id.gt(applied_through))
        .order(games_table::id.asc())
        .limit(batch)
        .select((
            games_table::id,
            games_table::played_at,
            games_table::conduct_seats,
        ))
        .load(conn)
}

/// Moves the mark to `through` if it is still at the version `seen` was read at (SQLite).
fn move_mark(conn: &mut DbConnection, seen: &Progress, through: i64) -> QueryResult<bool> {
    let moved =
        diesel::update(conduct_progress::table.filter(conduct_progress::version.eq(seen.version)))
            .set((
                conduct_progress::applied_through.eq(through),
                conduct_progress::version.eq(seen.version + 1),
            ))
            .execute(conn)?;
    Ok(moved == 1)
}

/// How many stored games wait for the conduct applier.
pub fn pending_count(conn: &mut DbConnection) -> QueryResult<u64> {
    let n: i64 = match conn {
        DbConnection::Postgres(_) => conduct_pending::table.count().get_result(conn)?,
        DbConnection::Sqlite(_) => {
            let mark = read_progress(conn)?;
            games_table::table
                .filter(games_table::id.gt(mark.applied_through))
                .filter(games_table::conduct_seats.is_not_null())
                .count()
                .get_result(conn)?
        }
    };
    Ok(u64::try_from(n).unwrap_or(0))
}

/// Takes `games` off the queue (a rebuild recomputing them); returns how many were queued.
/// On PostgreSQL this waits for an applier holding any of them, so the caller's next read of
/// `conduct_outcomes` sees what that applier recorded. On SQLite their queued seats are
/// cleared (the mark passes over them) and the mark's version rises, so an applier that read
/// them before this transaction applies its batch again instead of writing what it read.
pub fn take_off_queue(conn: &mut DbConnection, games: &[i64]) -> QueryResult<usize> {
    let mut taken = 0;
    if let DbConnection::Sqlite(_) = conn {
        let mark = claim_progress(conn)?;
        for chunk in games.chunks(500) {
            taken += diesel::update(
                games_table::table
                    .filter(games_table::id.eq_any(chunk))
                    .filter(games_table::id.gt(mark.applied_through))
                    .filter(games_table::conduct_seats.is_not_null()),
            )
            .set(games_table::conduct_seats.eq(None::<String>))
            .execute(conn)?;
        }
        return Ok(taken);
    }
    for chunk in games.chunks(500) {
        taken +=
            diesel::delete(conduct_pending::table.filter(conduct_pending::game_id.eq_any(chunk)))
                .execute(conn)?;
    }
    Ok(taken)
}

/// Records per update statement on PostgreSQL (bounded bound parameters).
const NAMES_PER_STATEMENT: usize = 500;
/// Games' outcome rows per cached fixed-size insert on SQLite (3 columns each).
const OUTCOMES_PER_BIG_INSERT: usize = 128;
/// Games' outcome rows per multi-row insert on PostgreSQL (3 columns each).
const OUTCOMES_PER_STATEMENT: usize = 1000;

/// A player's stored record and version (SQLite, whose one writer holds the whole database;
/// PostgreSQL locks in `hold_all_pg`).
fn read_record(conn: &mut DbConnection, player: &str) -> QueryResult<Option<(String, i64)>> {
    conduct_records::table
        .filter(conduct_records::player.eq(player))
        .select((conduct_records::record, conduct_records::version))
        .first(conn)
        .optional()
}

fn parsed((text, version): (String, i64)) -> QueryResult<(PlayerRecord, i64)> {
    let record = conduct::stored::decode(&text)
        .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
    Ok((record, version))
}

// The version checks are a second guard behind the row locks: a write that lost an update
// would change no row and fail the transaction.

fn save_record(
    c: &mut diesel::SqliteConnection,
    player: &str,
    text: &str,
    version: i64,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let changed = SaveRecord {
        player,
        text,
        version,
        now,
    }
    .execute(c)?;
    if changed == 1 {
        Ok(())
    } else {
        Err(diesel::result::Error::RollbackTransaction)
    }
}

/// `UPDATE conduct_records ... WHERE player = ? AND version = ?` as a statement with a fixed
/// identity, so SQLite prepares it once per connection (diesel prepares its update DSL anew
/// every time, which cost more than the write itself).
struct SaveRecord<'a> {
    player: &'a str,
    text: &'a str,
    version: i64,
    now: NaiveDateTime,
}

/// The statement-cache identity of [`SaveRecord`].
struct SaveRecordStatement;

impl diesel::query_builder::QueryId for SaveRecord<'_> {
    type QueryId = SaveRecordStatement;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl diesel::query_builder::QueryFragment<diesel::sqlite::Sqlite> for SaveRecord<'_> {
    fn walk_ast<'b>(
        &'b self,
        mut out: diesel::query_builder::AstPass<'_, 'b, diesel::sqlite::Sqlite>,
    ) -> QueryResult<()> {
        use diesel::sql_types::{BigInt, Text, Timestamp};
        out.push_sql("UPDATE conduct_records SET record = ");
        out.push_bind_param::<Text, _>(self.text)?;
        out.push_sql(", version = version + 1, updated_at = ");
        out.push_bind_param::<Timestamp, _>(&self.now)?;
        out.push_sql(" WHERE player = ");
        out.push_bind_param::<Text, _>(self.player)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.version)?;
        Ok(())
    }
}

impl diesel::query_dsl::RunQueryDsl<diesel::SqliteConnection> for SaveRecord<'_> {}

/// Several records in one statement (`UPDATE ... FROM (VALUES ...)`).
fn save_records_pg(
    c: &mut diesel::PgConnection,
    records: &[(String, String, i64)],
    now: NaiveDateTime,
) -> QueryResult<()> {
    use diesel::sql_types::{BigInt, Text, Timestamp};
    if records.is_empty() {
        return Ok(());
    }
    let values: Vec<String> = (0..records.len())
        .map(|i| format!("(${}, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
        .collect();
    let sql = format!(
        "UPDATE conduct_records AS r SET record = v.record, version = r.version + 1, \
         updated_at = $1 FROM (VALUES {}) AS v (player, record, version) \
         WHERE r.player = v.player AND r.version = v.version",
        values.join(", ")
    );
    let mut query = diesel::sql_query(sql)
        .into_boxed::<diesel::pg::Pg>()
        .bind::<Timestamp, _>(now);
    for (player, text, version) in records {
        query = query
            .bind::<Text, _>(player.as_str())
            .bind::<Text, _>(text.as_str())
            .bind::<BigInt, _>(*version);
    }
    if query.execute(c)? == records.len() {
        Ok(())
    } else {
        Err(diesel::result::Error::RollbackTransaction)
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

/// Files the signal as an automatic report listing every supporting game.
fn file_report(
    conn: &mut DbConnection,
    player: &str,
    game_id: i64,
    signal: &Signal,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let rule = signal.kind.as_str();
    let games: Vec<i64> = signal.supporting_games.iter().map(|g| g.0).collect();
    // The raising game is this ingest's game when it supports the signal, else the latest
    // supporting game, so the report lists exactly the supporting games.
    let raising = if games.contains(&game_id) {
        game_id
    } else {
        games.last().copied().unwrap_or(game_id)
    };
    let summary = format!("{}: {}", rule.replace('_', " "), signal.explanation);
    automatic_reports::insert(
        conn,
        &NewAutomaticReport {
            source: AutomaticSource::ConductSignal,
            player,
            game_id: raising,
            reason: CONDUCT_REPORT_REASON,
            rule,
            score: signal.strength,
            summary: &summary,
            supporting_games: &games,
            created_at: now,
        },
        moderation,
    )
}

/// A player's record, if they have one.
pub fn record(conn: &mut DbConnection, player: &str) -> QueryResult<Option<PlayerRecord>> {
    let json: Option<String> = conduct_records::table
        .filter(conduct_records::player.eq(player))
        .select(conduct_records::record)
        .first(conn)
        .optional()?;
    json.map(|j| parsed((j, 0)).map(|(r, _)| r)).transpose()
}

/// Every stored record, by player name (for comparisons and audits).
pub fn all_records(conn: &mut DbConnection) -> QueryResult<Vec<(String, PlayerRecord)>> {
    let rows: Vec<(String, String)> = conduct_records::table
        .order(conduct_records::player.asc())
        .select((conduct_records::player, conduct_records::record))
        .load(conn)?;
    rows.into_iter()
        .map(|(p, j)| parsed((j, 0)).map(|(r, _)| (p, r)))
        .collect()
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

/// Deletes every outcome and record (the start of a rebuild). Returns the rows deleted (games'
/// outcomes, records).
pub fn clear(conn: &mut DbConnection) -> QueryResult<(usize, usize)> {
    let outcomes = diesel::delete(conduct_outcomes::table).execute(conn)?;
    let records = diesel::delete(conduct_records::table).execute(conn)?;
    Ok((outcomes, records))
}

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
    pub events: Vec<super::games::EventRow>,
}

/// At most `limit` games in played order (`played_at`, then id) after the `after` key.
pub fn games_in_played_order(
    conn: &mut DbConnection,
    after: Option<(NaiveDateTime, i64)>,
    limit: i64,
) -> QueryResult<Vec<StoredGame>> {
    use super::schema::{game_events, game_seats, games};
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
    let mut events: std::collections::HashMap<i64, Vec<super::games::EventRow>> =
        Default::default();
    for chunk in ids.chunks(500) {
        let found: Vec<super::games::EventRow> = game_events::table
            .filter(game_events::game_id.eq_any(chunk))
            .order((game_events::game_id.asc(), game_events::idx.asc()))
            .select(super::games::EventRow::as_select())
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

/// How many players have a record.
pub fn record_count(conn: &mut DbConnection) -> QueryResult<u64> {
    let n: i64 = conduct_records::table.count().get_result(conn)?;
    Ok(u64::try_from(n).unwrap_or(0))
}
