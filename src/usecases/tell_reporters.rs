//! A decision tells the reporters of the reports it settled: each learns the outcome, whether
//! action was taken, the measure where the policy discloses it, and the note to reporters in
//! their last known language (and in English), stored on the report and announced once per
//! case as `report_decided` for the game site to pass on (docs/moderation.md, "What each
//! person sees"). Run by `decide_case` in its transaction.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;

use crate::moderation::{
    compose_note, render_text, reporter_notice, CaseId, DecidedCase, DecidedReportState,
    DecisionAction, DecisionPreset, Language, MeasureTaken, PresetValues, ReportDecidedEvent,
    ReportId, ReportReason, ReporterPolicy, Texts, ValidDecision, WebhookEventKind,
};
use crate::store::{players, reports, to_utc, webhook_outbox, DbConnection};

/// The decided case, as its reporters are told it.
#[derive(Debug, Clone, Copy)]
pub struct ReportersRequest<'a> {
    pub case_id: CaseId,
    pub reason: ReportReason,
    pub decision: &'a ValidDecision,
    /// The reports this decision settled.
    pub settled: &'a [ReportId],
    /// What the preset's texts are filled with.
    pub values: &'a PresetValues<'a>,
    /// The note to reporters in English (the preset's reporter text, then the admin's words).
    pub note_en: Option<&'a str>,
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

/// The note to reporters in `language`: the preset's reporter text in it (English where
/// untranslated), then the admin's words as written.
fn note_in(
    texts: &Texts,
    preset: Option<&DecisionPreset>,
    values: &PresetValues<'_>,
    admin_note: Option<&str>,
    language: Language,
) -> Option<String> {
    let rendered = preset
        .and_then(|p| texts.reporter_text(p, language))
        .map(|text| render_text(text, values, texts.words(language)));
    compose_note(rendered, admin_note)
}

/// Stores and announces what each reporter of a settled, player-filed report is told;
/// returns it (empty when no player filed any of them: an automatic report has nobody to
/// tell).
pub fn tell_reporters(
    conn: &mut DbConnection,
    request: &ReportersRequest<'_>,
    policy: &ReporterPolicy,
    texts: &Texts,
    now: NaiveDateTime,
) -> Result<Vec<DecidedReportState>, DieselError> {
    let decision = request.decision;
    let measure = measure_of(decision.action);
    let reporters = reports::reporters_of(conn, request.settled)?;
    let ids: Vec<_> = reporters.iter().map(|r| r.player_id).collect();
    let languages = players::languages(conn, &ids)?;
    let mut told = Vec::with_capacity(reporters.len());
    for reporter in reporters {
        let language = languages
            .get(&reporter.player_id)
            .copied()
            .unwrap_or(Language::En);
        let note = note_in(
            texts,
            decision.preset.as_ref(),
            request.values,
            decision.reporter_note.as_deref(),
            language,
        );
        reports::set_reporter_note(conn, reporter.report_id, note.as_deref())?;
        let notice = reporter_notice(decision.report_outcome, measure, note, policy);
        let note_en = request.note_en.map(str::to_string);
        told.push(DecidedReportState::new(
            reporter.report_id,
            reporter.name,
            notice,
            language,
            note_en,
        ));
    }
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
