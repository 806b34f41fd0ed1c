//! A decision tells the reporters of the reports it settled: each learns the outcome, whether
//! action was taken, the measure where the policy discloses it, and the note to reporters,
//! announced once per case as `report_decided` for the game site to pass on
//! (docs/moderation.md, "What each person sees"). Run by `decide_case` in its transaction;
//! `GET /api/v1/reports/mine` reads the same from the report's deciding decision.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;

use crate::moderation::{
    reporter_notice, CaseId, DecidedCase, DecidedReportState, DecisionAction, MeasureTaken,
    ReportDecidedEvent, ReportId, ReportReason, ReporterPolicy, ValidDecision, WebhookEventKind,
};
use crate::store::{reports, to_utc, webhook_outbox, DbConnection};

/// The decided case, as its reporters are told it.
#[derive(Debug, Clone, Copy)]
pub struct ReportersRequest<'a> {
    pub case_id: CaseId,
    pub reason: ReportReason,
    pub decision: &'a ValidDecision,
    /// The reports this decision settled.
    pub settled: &'a [ReportId],
    /// The note to reporters (the preset's reporter text, then the admin's words).
    pub note: Option<&'a str>,
}

/// The measure a decision took, if any.
pub fn measure_of(action: DecisionAction) -> Option<MeasureTaken> {
    match action {
        DecisionAction::Warn => Some(MeasureTaken::Warning),
        DecisionAction::Sanction { sanction, duration } => Some(MeasureTaken::Sanction {
            kind: sanction,
            duration,
        }),
        DecisionAction::DismissUnjustified | DecisionAction::DismissNotActionable => None,
    }
}

/// Announces what each reporter of a settled, player-filed report is told; returns it
/// (empty when no player filed any of them: an automatic report has nobody to tell).
pub fn tell_reporters(
    conn: &mut DbConnection,
    request: &ReportersRequest<'_>,
    policy: &ReporterPolicy,
    now: NaiveDateTime,
) -> Result<Vec<DecidedReportState>, DieselError> {
    let decision = request.decision;
    let measure = measure_of(decision.action);
    let told: Vec<DecidedReportState> = reports::reporter_names(conn, request.settled)?
        .into_iter()
        .map(|(report, reporter)| {
            let note = request.note.map(str::to_string);
            let notice = reporter_notice(decision.report_outcome, measure, note, policy);
            DecidedReportState::new(report, reporter, notice)
        })
        .collect();
    if told.is_empty() {
        return Ok(told);
    }
    let case = DecidedCase {
        id: request.case_id,
        reason: request.reason,
        decided_at: to_utc(now),
    };
    let event_id = uuid::Uuid::new_v4().to_string();
    let event = ReportDecidedEvent::new(event_id.clone(), case, told.clone(), to_utc(now));
    let kind = WebhookEventKind::ReportDecided;
    webhook_outbox::emit_case_event(conn, kind, request.case_id, &event_id, &event, now)?;
    Ok(told)
}
