//! A warning decision warns the player: the warning is stored with the text they were sent
//! (in their last known language, and in English), waits for their acknowledgement when the
//! policy asks for one, and is announced as `warning_issued` (docs/moderation.md,
//! "Warnings"). Run by `decide_case` in its transaction; the decision's own log line records
//! it.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;

use crate::moderation::texts::english;
use crate::moderation::{
    warning_text, CaseId, DecisionKind, Language, PlayerId, ReportReason, Texts, ValidDecision,
    Warning, WarningIssuedEvent, WarningPolicy, WebhookEventKind,
};
use crate::store::warnings::{self, NewWarning};
use crate::store::{to_utc, webhook_outbox, DbConnection};

/// The decided case, as a warning needs it.
#[derive(Debug, Clone, Copy)]
pub struct WarningRequest<'a> {
    pub case_id: CaseId,
    pub accused_id: PlayerId,
    pub accused: &'a str,
    pub reason: ReportReason,
    pub decision: &'a ValidDecision,
    /// The decision's note to the player (the preset, then the admin's words), in their
    /// language and in English.
    pub note: &'a PlayerNote,
}

/// The note to the accused in their language, and in English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerNote {
    pub language: Language,
    pub text: Option<String>,
    pub english: Option<String>,
}

/// Stores and announces the warning of a warning decision; `None` for any other decision.
pub fn issue_warning(
    conn: &mut DbConnection,
    request: &WarningRequest<'_>,
    policy: &WarningPolicy,
    texts: &Texts,
    now: NaiveDateTime,
) -> Result<Option<Warning>, DieselError> {
    if request.decision.kind != DecisionKind::Warn {
        return Ok(None);
    }
    let (reason, ground, note) = (request.reason, request.decision.ground, request.note);
    let language = note.language;
    let text = warning_text(note.text.as_deref(), reason, ground, texts.words(language));
    let text_en = warning_text(note.english.as_deref(), reason, ground, english());
    let new = NewWarning {
        player_id: request.accused_id,
        case_id: request.case_id,
        reason: request.reason,
        ground,
        language,
        text: &text,
        text_en: &text_en,
        needs_acknowledgement: policy.require_acknowledgement,
        issued_at: now,
    };
    let id = warnings::insert(conn, &new)?;
    let warning = Warning {
        id,
        player: request.accused.to_string(),
        case: request.case_id,
        reason: request.reason,
        ground,
        language,
        text,
        text_en,
        issued_at: to_utc(now),
        needs_acknowledgement: policy.require_acknowledgement,
        acknowledged_at: None,
    };
    let event_id = uuid::Uuid::new_v4().to_string();
    let event = WarningIssuedEvent::new(event_id.clone(), &warning, to_utc(now));
    let kind = WebhookEventKind::WarningIssued;
    webhook_outbox::emit_case_event(conn, kind, request.case_id, &event_id, &event, now)?;
    Ok(Some(warning))
}
