//! Chat analysis results stored at ingest: `chat_flags`, one row per flag on a chat line,
//! written inside the game's ingest transaction, and the reads the rolling window
//! ([`crate::chat::window`]) is judged by: a flagged sender's recent games and earlier window
//! reports (the judgement is `usecases::judge_chat_window`).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::automatic_reports::AutomaticSource;
use super::connection::DbConnection;
use super::schema::automatic_reports as report_rows;
use super::schema::{automatic_report_games, chat_flags, game_chat, game_seats, games};
use crate::archive::FlagFacts;
use crate::chat::window::{self, EarlierWindowReport, WindowGame};
use crate::chat::Category;

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

/// Writes a game's flags, inside the ingest transaction after the chat lines (the flags
/// reference them).
pub fn insert(conn: &mut DbConnection, game_id: i64, flags: &[FlagFacts]) -> QueryResult<()> {
    let flags: Vec<NewFlag<'_>> = flags
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
    Ok(())
}

/// First key of the PostgreSQL advisory locks that serialise window decisions per player
/// (the second is the hash of the name).
const WINDOW_LOCK_KEY: i32 = 0x4357_494e;

/// Serialises the window decisions about `player` until the transaction ends: PostgreSQL
/// takes a transaction-scoped advisory lock per player; SQLite transactions already hold the
/// write lock once they have written (the game rows).
pub fn lock_window_decisions(conn: &mut DbConnection, player: &str) -> QueryResult<()> {
    if let DbConnection::Postgres(c) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
            .bind::<diesel::sql_types::Integer, _>(WINDOW_LOCK_KEY)
            .bind::<diesel::sql_types::Text, _>(player)
            .execute(c)?;
    }
    Ok(())
}

/// The player's `limit` most recent games by played time (then id), each with the reasons
/// for which the player's lines in it were report-worthy.
pub fn recent_games(
    conn: &mut DbConnection,
    player: &str,
    limit: u32,
) -> QueryResult<Vec<WindowGame>> {
    let rows: Vec<(i64, NaiveDateTime)> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::player.eq(player))
        .order((games::played_at.desc(), games::id.desc()))
        .limit(i64::from(limit))
        .select((games::id, games::played_at))
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|(id, _)| *id).collect();
    let flagged: Vec<(i64, String)> = chat_flags::table
        .filter(chat_flags::game_id.eq_any(&ids))
        .filter(chat_flags::sender.eq(player))
        .filter(chat_flags::report_worthy.eq(true))
        .select((chat_flags::game_id, chat_flags::category))
        .distinct()
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(game_id, played_at)| {
            let mut worthy_reasons: Vec<&'static str> = flagged
                .iter()
                .filter(|(g, _)| *g == game_id)
                .filter_map(|(_, category)| Category::from_name(category))
                .filter_map(window::report_reason)
                .collect();
            worthy_reasons.sort_unstable();
            worthy_reasons.dedup();
            WindowGame {
                game_id,
                played_at,
                worthy_reasons,
            }
        })
        .collect())
}

/// The player's earlier chat window reports, each with those of its games that are in
/// `window` (the others cannot matter).
pub fn earlier_window_reports(
    conn: &mut DbConnection,
    player: &str,
    window: &[i64],
) -> QueryResult<Vec<EarlierWindowReport>> {
    let rows: Vec<(i64, String, i64)> = report_rows::table
        .inner_join(automatic_report_games::table)
        .filter(report_rows::player.eq(player))
        .filter(report_rows::source.eq(AutomaticSource::ChatAnalysis.as_str()))
        .filter(report_rows::rule.eq(window::RULE))
        .filter(automatic_report_games::game_id.eq_any(window))
        .order(report_rows::id.asc())
        .select((
            report_rows::id,
            report_rows::reason,
            automatic_report_games::game_id,
        ))
        .load(conn)?;
    let mut out: Vec<(i64, EarlierWindowReport)> = Vec::new();
    for (id, reason, game) in rows {
        match out.last_mut() {
            Some((last, report)) if *last == id => report.games.push(game),
            _ => out.push((
                id,
                EarlierWindowReport {
                    reason,
                    games: vec![game],
                },
            )),
        }
    }
    Ok(out.into_iter().map(|(_, r)| r).collect())
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
