//! An automatic report joins the review queue: what chat analysis, a conduct signal or a
//! collusion finding raises, in the transaction that produced the evidence.
//!
//! Steps: store the automatic report with its games, then file it as a queue entry (a
//! `reports` row pointing at it, its accused and supporting games linked), log it by the
//! system, and join each accused's open case of its reason (priority refreshed). Each automatic
//! report is its own entry: two rules firing on one game are two pieces of evidence.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::moderation::{AuditAction, ModerationPolicy, PlayerId, ReportId, ReportReason};
use crate::store::automatic_reports::{self, NewAutomaticReport, QueueEntry, StoredReport};
use crate::store::conduct::writer::ConductReports;
use crate::store::modlog::{log_action, LogActor, LogRefs};
use crate::store::{cases, parse_enum, players, reports, DbConnection};

/// Stores the automatic report and files it into the review queue, in the caller's
/// transaction; returns the automatic report's id.
pub fn raise(
    conn: &mut DbConnection,
    report: &NewAutomaticReport<'_>,
    policy: &ModerationPolicy,
) -> QueryResult<i64> {
    let stored = automatic_reports::insert(conn, report)?;
    file_into_queue(conn, report, &stored, policy)?;
    Ok(stored.id)
}

/// Files a stored automatic report as a queue entry; returns the entry's report id.
fn file_into_queue(
    conn: &mut DbConnection,
    report: &NewAutomaticReport<'_>,
    stored: &StoredReport,
    policy: &ModerationPolicy,
) -> QueryResult<ReportId> {
    let reason: ReportReason = parse_enum(report.reason)?;
    let now = report.created_at;
    let player = conn.transaction(|conn| players::id_or_create(conn, report.player, now))?;
    let score = if report.score.is_nan() {
        0.0
    } else {
        report.score.clamp(0.0, 1.0)
    };
    let report_id = automatic_reports::insert_queue_entry(
        conn,
        &QueueEntry {
            automatic_report_id: stored.id,
            source: report.source.report_source(),
            reason,
            game_id: report.game_id,
            score,
            filed_at: now,
        },
    )?;
    let supporting: Vec<i64> = stored
        .games
        .iter()
        .copied()
        .filter(|g| *g != report.game_id)
        .collect();
    let accused = accused_ids(conn, (player, report.player), report.also_accused, now)?;
    reports::link(conn, report_id, &accused, &supporting)?;
    log_filing(conn, report, report_id, reason, score, &accused)?;
    reports::join_cases(
        conn,
        report_id,
        reason,
        &accused,
        policy,
        now,
        LogActor::SYSTEM,
    )?;
    Ok(report_id)
}

/// The accused (id, name): the reported player first, then the others accused with them
/// (creating their player rows), each once.
fn accused_ids(
    conn: &mut DbConnection,
    player: (PlayerId, &str),
    also_accused: &[&str],
    now: NaiveDateTime,
) -> QueryResult<Vec<(PlayerId, String)>> {
    let mut accused = vec![(player.0, player.1.to_string())];
    for other in also_accused {
        let id = conn.transaction(|conn| players::id_or_create(conn, other, now))?;
        if accused.iter().all(|(known, _)| *known != id) {
            accused.push((id, (*other).to_string()));
        }
    }
    Ok(accused)
}

/// The log line of the filing, by the system, with the report's summary as its why.
fn log_filing(
    conn: &mut DbConnection,
    report: &NewAutomaticReport<'_>,
    report_id: ReportId,
    reason: ReportReason,
    score: f64,
    accused: &[(PlayerId, String)],
) -> QueryResult<()> {
    let numbers = cases::game_numbers(conn, &[report.game_id])?;
    log_action(
        conn,
        report.created_at,
        LogActor::SYSTEM,
        &AuditAction::AutomaticReport {
            report: report_id,
            source: report.source.report_source(),
            accused: accused.iter().map(|(id, _)| *id).collect(),
            reason,
            score,
            game: numbers.get(&report.game_id).copied(),
        },
        LogRefs {
            subject: Some(report.player),
            report_id: Some(report_id),
            why: Some(report.summary),
            ..LogRefs::default()
        },
    )
}

/// Raises the reports a conduct writer handed back ([`ConductWriter::finish`]), in order.
///
/// [`ConductWriter::finish`]: crate::store::conduct::ConductWriter::finish
pub fn raise_conduct_reports(
    conn: &mut DbConnection,
    reports: ConductReports,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    for report in &reports.0 {
        raise(conn, &report.automatic(now), policy)?;
    }
    Ok(())
}
