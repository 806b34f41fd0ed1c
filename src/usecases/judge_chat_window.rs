//! The rolling chat window, judged at a game's ingest for every flagged sender: their recent
//! games and earlier window reports are read, [`crate::chat::window`] decides (when a report
//! is raised, and when not again), and the reports it asks for are raised.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::raise_automatic_report;
use crate::archive::WindowCheck;
use crate::chat::window::{self, WindowReport};
use crate::moderation::ModerationPolicy;
use crate::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use crate::store::chat_flags;
use crate::store::DbConnection;

/// Judges the window for every flagged sender of the game and raises the reports it asks for,
/// in the ingest transaction.
///
/// The decision reads the player's recent games and earlier window reports, then writes: two
/// concurrent ingests for one player must not both decide on the same evidence. SQLite
/// transactions already hold the write lock here (the game rows are written); PostgreSQL
/// takes a transaction-scoped advisory lock per player, in name order (`check.senders` is
/// sorted), and reads after it (read committed: each statement sees what the other ingest
/// committed).
pub fn judge(
    conn: &mut DbConnection,
    game_id: i64,
    check: &WindowCheck,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    for player in &check.senders {
        chat_flags::lock_window_decisions(conn, player)?;
        let games = chat_flags::recent_games(conn, player, check.rule.games)?;
        let ids: Vec<i64> = games.iter().map(|g| g.game_id).collect();
        let earlier = chat_flags::earlier_window_reports(conn, player, &ids)?;
        for report in window::window_reports(check.rule, game_id, &games, &earlier) {
            raise(conn, player, game_id, &report, policy, now)?;
        }
    }
    Ok(())
}

/// Raises one window report about `player`.
fn raise(
    conn: &mut DbConnection,
    player: &str,
    game_id: i64,
    report: &WindowReport,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let summary = format!(
        "report-worthy {} lines in {} of {player}'s last {} games ({} not in an \
         earlier window report)",
        reason_words(report.reason),
        report.supporting_games.len(),
        report.window_len,
        report.new_games
    );
    raise_automatic_report::raise(
        conn,
        &NewAutomaticReport {
            source: AutomaticSource::ChatAnalysis,
            player,
            also_accused: &[],
            game_id,
            reason: report.reason,
            rule: window::RULE,
            score: report.score,
            summary: &summary,
            supporting_games: &report.supporting_games,
            created_at: now,
        },
        policy,
    )
}

fn reason_words(reason: &str) -> &'static str {
    if reason == window::RULE_VIOLATING_CHAT {
        "rule-violating chat"
    } else {
        "offensive chat"
    }
}
