//! Chat analysis results stored at ingest: `chat_flags` (one row per flag on a chat line) and
//! the automatic reports the flags raised (through [`super::automatic_reports`]). Both are
//! written inside the game's ingest transaction by [`insert_for_game`].

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::automatic_reports::{self, AutomaticSource, NewAutomaticReport};
use super::connection::DbConnection;
use super::schema::{chat_flags, game_chat};
use crate::archive::ingest::PreparedGame;

/// A multi-row insert on the backend's own connection; runs inside the caller's transaction.
macro_rules! insert_all {
    ($conn:expr, $table:expr, $rows:expr) => {
        match $conn {
            DbConnection::Sqlite(c) => diesel::insert_into($table).values($rows).execute(c),
            DbConnection::Postgres(c) => diesel::insert_into($table).values($rows).execute(c),
        }
    };
}

#[derive(Debug, Insertable)]
#[diesel(table_name = chat_flags, treat_none_as_default_value = false)]
struct NewFlag<'a> {
    game_id: i64,
    line_idx: i32,
    ply: i32,
    sender: &'a str,
    category: &'a str,
    severity: &'a str,
    span_start: i32,
    span_end: i32,
    rule: &'a str,
    explanation: &'a str,
    report_worthy: bool,
    evidence_fen4: Option<&'a str>,
    evidence_finding: Option<&'a str>,
}

/// A stored flag.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = chat_flags)]
pub struct FlagRow {
    pub id: i64,
    pub game_id: i64,
    pub line_idx: i32,
    pub ply: i32,
    pub sender: String,
    pub category: String,
    pub severity: String,
    pub span_start: i32,
    pub span_end: i32,
    pub rule: String,
    pub explanation: String,
    pub report_worthy: bool,
    pub evidence_fen4: Option<String>,
    pub evidence_finding: Option<String>,
}

/// Writes the game's flags and automatic reports. Called inside the ingest transaction, after
/// the chat lines (the flags reference them).
pub fn insert_for_game(
    conn: &mut DbConnection,
    game_id: i64,
    prepared: &PreparedGame,
    policy: &crate::moderation::ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    if !prepared.flags.is_empty() {
        let flags: Vec<NewFlag<'_>> = prepared
            .flags
            .iter()
            .map(|f| NewFlag {
                game_id,
                line_idx: f.line_idx,
                ply: f.ply,
                sender: &f.sender,
                category: f.category,
                severity: f.severity,
                span_start: f.span_start,
                span_end: f.span_end,
                rule: &f.rule,
                explanation: &f.explanation,
                report_worthy: f.report_worthy,
                evidence_fen4: f.evidence_fen4.as_deref(),
                evidence_finding: f.evidence_finding.as_deref(),
            })
            .collect();
        // Bounded statements: SQLite allows a limited number of bound parameters.
        for chunk in flags.chunks(50) {
            insert_all!(conn, chat_flags::table, chunk)?;
        }
    }
    for report in &prepared.reports {
        automatic_reports::insert(
            conn,
            &NewAutomaticReport {
                source: AutomaticSource::ChatAnalysis,
                player: &report.player,
                game_id,
                reason: report.reason,
                rule: report.rule,
                score: report.score,
                summary: &report.summary,
                supporting_games: &[],
                created_at: now,
            },
            policy,
        )?;
    }
    Ok(())
}

/// A flag with the text of its chat line.
pub type FlagWithText = (FlagRow, String);

/// Every flag of one game, in chat order.
pub fn for_game(conn: &mut DbConnection, game_id: i64) -> QueryResult<Vec<FlagWithText>> {
    chat_flags::table
        .inner_join(
            game_chat::table.on(game_chat::game_id
                .eq(chat_flags::game_id)
                .and(game_chat::idx.eq(chat_flags::line_idx))),
        )
        .filter(chat_flags::game_id.eq(game_id))
        .order((chat_flags::line_idx.asc(), chat_flags::id.asc()))
        .select((FlagRow::as_select(), game_chat::text))
        .load(conn)
}

/// One page of a sender's flags, newest first: at most `limit` flags with id below `before_id`.
pub fn for_player_page(
    conn: &mut DbConnection,
    player: &str,
    before_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<FlagWithText>> {
    let mut query = chat_flags::table
        .inner_join(
            game_chat::table.on(game_chat::game_id
                .eq(chat_flags::game_id)
                .and(game_chat::idx.eq(chat_flags::line_idx))),
        )
        .filter(chat_flags::sender.eq(player.to_string()))
        .select((FlagRow::as_select(), game_chat::text))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(chat_flags::id.lt(before));
    }
    query.order(chat_flags::id.desc()).limit(limit).load(conn)
}

/// Whether a game is stored.
pub fn game_exists(conn: &mut DbConnection, game_id: i64) -> QueryResult<bool> {
    use super::schema::games;
    diesel::select(diesel::dsl::exists(games::table.find(game_id))).get_result(conn)
}
