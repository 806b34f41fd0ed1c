//! Automatic reports: what chat analysis and conduct signals raise for the review queue.
//!
//! Every source writes through [`insert`], inside the transaction that produced the evidence
//! (a game's ingest), so a report never exists without its supporting games and the queue
//! sees each report exactly once.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::reports::AutomaticFiling;
use super::schema::{automatic_report_games, automatic_reports};
use crate::moderation::{ModerationPolicy, ReportSource};

/// Who raised an automatic report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutomaticSource {
    ChatAnalysis,
    ConductSignal,
    CollusionAnalysis,
}

impl AutomaticSource {
    pub fn as_str(self) -> &'static str {
        match self {
            AutomaticSource::ChatAnalysis => "chat_analysis",
            AutomaticSource::ConductSignal => "conduct_signal",
            AutomaticSource::CollusionAnalysis => "collusion_analysis",
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

/// Stores one automatic report with its supporting games, files it into the review queue (a
/// report entry in the accused's open case of its reason, priority refreshed, logged by the
/// system) and returns its id. Runs inside the caller's transaction.
pub fn insert(
    conn: &mut DbConnection,
    report: &NewAutomaticReport<'_>,
    policy: &ModerationPolicy,
) -> QueryResult<i64> {
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
    super::reports::file_automatic(
        conn,
        &AutomaticFiling {
            automatic_report_id: id,
            source: match report.source {
                AutomaticSource::ChatAnalysis => ReportSource::ChatAnalysis,
                AutomaticSource::ConductSignal => ReportSource::ConductSignal,
                AutomaticSource::CollusionAnalysis => ReportSource::CollusionAnalysis,
            },
            player: report.player,
            also_accused: report.also_accused,
            reason: report.reason,
            score: report.score,
            game_id: report.game_id,
            supporting_games: &games,
            summary: report.summary,
            now: report.created_at,
        },
        policy,
    )?;
    Ok(id)
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
