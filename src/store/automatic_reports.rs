//! Automatic reports: what chat analysis and conduct signals raise for the review queue.
//!
//! Every source raises its reports through `usecases::raise_automatic_report` ([`insert`],
//! then the queue entry), inside the transaction that produced the evidence (a game's ingest),
//! so a report never exists without its supporting games and the queue sees each report
//! exactly once.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{automatic_report_games, automatic_reports, reports};
use crate::moderation::{ReportId, ReportReason, ReportSource};

/// Who raised an automatic report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutomaticSource {
    ChatAnalysis,
    ConductSignal,
    CollusionAnalysis,
    FingerprintMatch,
}

impl AutomaticSource {
    pub fn as_str(self) -> &'static str {
        match self {
            AutomaticSource::ChatAnalysis => "chat_analysis",
            AutomaticSource::ConductSignal => "conduct_signal",
            AutomaticSource::CollusionAnalysis => "collusion_analysis",
            AutomaticSource::FingerprintMatch => "fingerprint_match",
        }
    }

    /// The source of the queue entry the report files.
    pub fn report_source(self) -> ReportSource {
        match self {
            AutomaticSource::ChatAnalysis => ReportSource::ChatAnalysis,
            AutomaticSource::ConductSignal => ReportSource::ConductSignal,
            AutomaticSource::CollusionAnalysis => ReportSource::CollusionAnalysis,
            AutomaticSource::FingerprintMatch => ReportSource::FingerprintMatch,
        }
    }
}

/// An automatic report to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAutomaticReport<'a> {
    pub source: AutomaticSource,
    pub player: &'a str,
    /// Players accused with `player` (the partner of a collusion finding); usually none.
    pub also_accused: &'a [&'a str],
    /// The game whose ingest raised the report.
    pub game_id: i64,
    /// A review-queue reason code (`ReportReason` in snake case: `offensive_chat`,
    /// `rule_violating_chat`, `abandoning`, ...).
    pub reason: &'a str,
    /// The rule that fired, e.g. `severe_line`, `repeated_lines`, `rolling_window`,
    /// `lost_position_quitting`.
    pub rule: &'a str,
    /// Evidence strength, 0..=1.
    pub score: f64,
    pub summary: &'a str,
    /// Every supporting game (archive ids); the raising game is added if missing.
    pub supporting_games: &'a [i64],
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = automatic_reports)]
struct ReportInsert<'a> {
    source: &'a str,
    player: &'a str,
    game_id: i64,
    reason: &'a str,
    rule: &'a str,
    score: f64,
    summary: &'a str,
    created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = automatic_report_games)]
struct GameLink {
    report_id: i64,
    game_id: i64,
}

/// A stored automatic report.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = automatic_reports)]
pub struct AutomaticReportRow {
    pub id: i64,
    pub source: String,
    pub player: String,
    pub game_id: i64,
    pub reason: String,
    pub rule: String,
    pub score: f64,
    pub summary: String,
    pub created_at: NaiveDateTime,
}

/// A stored automatic report: its id and every game it lists (the supporting games and the
/// raising game, ascending).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredReport {
    pub id: i64,
    pub games: Vec<i64>,
}

/// Stores one automatic report with its supporting games, inside the caller's transaction
/// (filing it into the review queue is `usecases::raise_automatic_report`).
pub fn insert(
    conn: &mut DbConnection,
    report: &NewAutomaticReport<'_>,
) -> QueryResult<StoredReport> {
    let row = ReportInsert {
        source: report.source.as_str(),
        player: report.player,
        game_id: report.game_id,
        reason: report.reason,
        rule: report.rule,
        score: report.score.clamp(0.0, 1.0),
        summary: report.summary,
        created_at: report.created_at,
    };
    let id: i64 = match conn {
        DbConnection::Sqlite(c) => {
            diesel::insert_into(automatic_reports::table)
                .values(&row)
                .execute(c)?;
            automatic_reports::table
                .select(diesel::dsl::max(automatic_reports::id))
                .first::<Option<i64>>(c)?
                .ok_or(diesel::result::Error::NotFound)?
        }
        DbConnection::Postgres(c) => diesel::insert_into(automatic_reports::table)
            .values(&row)
            .returning(automatic_reports::id)
            .get_result(c)?,
    };
    let mut games: Vec<i64> = report.supporting_games.to_vec();
    games.push(report.game_id);
    games.sort_unstable();
    games.dedup();
    let links: Vec<GameLink> = games
        .iter()
        .copied()
        .map(|game_id| GameLink {
            report_id: id,
            game_id,
        })
        .collect();
    // Bounded statements: SQLite allows a limited number of bound parameters.
    for chunk in links.chunks(200) {
        insert_all!(conn, automatic_report_games::table, chunk)?;
    }
    Ok(StoredReport { id, games })
}

/// An automatic report's entry in the review queue: a `reports` row pointing at it.
#[derive(Debug, Clone, Copy)]
pub struct QueueEntry {
    pub automatic_report_id: i64,
    pub source: ReportSource,
    pub reason: ReportReason,
    /// The raising game (archive id).
    pub game_id: i64,
    /// 0..=1.
    pub score: f64,
    pub filed_at: NaiveDateTime,
}

/// Inserts the `reports` row of an automatic report's queue entry; returns its id.
pub fn insert_queue_entry(conn: &mut DbConnection, entry: &QueueEntry) -> QueryResult<ReportId> {
    insert_returning_id!(
        conn,
        reports::table,
        (
            reports::source.eq(entry.source),
            reports::automatic_report_id.eq(Some(entry.automatic_report_id)),
            reports::reason.eq(entry.reason),
            reports::game_id.eq(Some(entry.game_id)),
            reports::score.eq(Some(entry.score)),
            reports::filed_at.eq(entry.filed_at),
            reports::updated_at.eq(entry.filed_at),
        ),
        reports::id
    )
    .map(ReportId)
}

/// The automatic reports raised by one game's ingest, oldest first.
pub fn raised_by_game(
    conn: &mut DbConnection,
    game_id: i64,
) -> QueryResult<Vec<AutomaticReportRow>> {
    automatic_reports::table
        .filter(automatic_reports::game_id.eq(game_id))
        .order(automatic_reports::id.asc())
        .select(AutomaticReportRow::as_select())
        .load(conn)
}

/// A player's automatic reports, newest first, at most `limit`.
pub fn for_player(
    conn: &mut DbConnection,
    player: &str,
    limit: i64,
) -> QueryResult<Vec<AutomaticReportRow>> {
    automatic_reports::table
        .filter(automatic_reports::player.eq(player.to_string()))
        .order(automatic_reports::id.desc())
        .limit(limit)
        .select(AutomaticReportRow::as_select())
        .load(conn)
}

/// The supporting games (archive ids) of one automatic report, ascending.
pub fn supporting_games(conn: &mut DbConnection, report_id: i64) -> QueryResult<Vec<i64>> {
    automatic_report_games::table
        .filter(automatic_report_games::report_id.eq(report_id))
        .order(automatic_report_games::game_id.asc())
        .select(automatic_report_games::game_id)
        .load(conn)
}
