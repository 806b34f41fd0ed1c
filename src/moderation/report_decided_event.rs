//! The `report_decided` event: once per decided case, its reports that the decision settled,
//! each with what its reporter may be told, for the game site to notify them
//! (docs/webhooks.md, "report_decided").

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::abuse::ReportOutcome;
use super::language::Language;
use super::reporter_notice::{MeasureTaken, ReporterNotice};
use super::types::{CaseId, DecisionKind, ReportId, ReportReason, SanctionDuration, SanctionKind};
use super::webhook_event_kind::WebhookEventKind;

/// A measure as reporters are told it, where the policy discloses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DisclosedMeasure {
    /// `warn` or `sanction`.
    pub decision: DecisionKind,
    /// The sanction's kind; null for a warning.
    pub sanction: Option<SanctionKind>,
    /// The sanction's length decided, in minutes; null for a warning or a permanent one.
    pub minutes: Option<u32>,
    pub permanent: bool,
}

impl From<MeasureTaken> for DisclosedMeasure {
    fn from(measure: MeasureTaken) -> Self {
        match measure {
            MeasureTaken::Warning => DisclosedMeasure {
                decision: DecisionKind::Warn,
                sanction: None,
                minutes: None,
                permanent: false,
            },
            MeasureTaken::Sanction { kind, duration } => DisclosedMeasure {
                decision: DecisionKind::Sanction,
                sanction: Some(kind),
                minutes: match duration {
                    SanctionDuration::Temporary { minutes } => Some(minutes),
                    SanctionDuration::Permanent => None,
                },
                permanent: duration == SanctionDuration::Permanent,
            },
        }
    }
}

/// The case the reports were decided in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecidedCase {
    pub id: CaseId,
    pub reason: ReportReason,
    pub decided_at: DateTime<Utc>,
}

/// One report and what its reporter is told.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DecidedReportState {
    pub id: ReportId,
    pub reporter: String,
    pub outcome: ReportOutcome,
    pub action_taken: bool,
    /// Absent unless the site discloses measures (`[reporters] disclose = "measure"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measure: Option<DisclosedMeasure>,
    /// The reporter's last known language, else English: the language of `note`.
    pub language: Language,
    /// The note to reporters in `language`; null when the decision carried none.
    pub note: Option<String>,
    /// The same in English.
    pub note_en: Option<String>,
}

impl DecidedReportState {
    pub fn new(
        id: ReportId,
        reporter: String,
        notice: ReporterNotice,
        language: Language,
        note_en: Option<String>,
    ) -> DecidedReportState {
        DecidedReportState {
            id,
            reporter,
            outcome: notice.outcome,
            action_taken: notice.action_taken,
            measure: notice.measure.map(DisclosedMeasure::from),
            language,
            note: notice.note,
            note_en,
        }
    }
}

/// The event, serialised as the webhook's body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportDecidedEvent {
    /// Unique per event: receivers deduplicate redeliveries by it.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: WebhookEventKind,
    pub created_at: DateTime<Utc>,
    pub case: DecidedCase,
    pub reports: Vec<DecidedReportState>,
}

impl ReportDecidedEvent {
    pub fn new(
        id: String,
        case: DecidedCase,
        reports: Vec<DecidedReportState>,
        now: DateTime<Utc>,
    ) -> ReportDecidedEvent {
        ReportDecidedEvent {
            id,
            kind: WebhookEventKind::ReportDecided,
            created_at: now,
            case,
            reports,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::reporter_notice::reporter_notice;
    use crate::moderation::reporter_policy::{Disclosure, ReporterPolicy};

    #[test]
    fn the_body_hides_the_measure_unless_disclosed() {
        let ban = MeasureTaken::Sanction {
            kind: SanctionKind::PlayBan,
            duration: SanctionDuration::Permanent,
        };
        let hidden = reporter_notice(ReportOutcome::Upheld, Some(ban), None, &Default::default());
        let shown = reporter_notice(
            ReportOutcome::Upheld,
            Some(ban),
            Some("Thanks".into()),
            &ReporterPolicy {
                disclose: Disclosure::Measure,
            },
        );
        let event = ReportDecidedEvent::new(
            "e".into(),
            DecidedCase {
                id: CaseId(4),
                reason: ReportReason::Abandoning,
                decided_at: DateTime::<Utc>::MIN_UTC,
            },
            vec![
                DecidedReportState::new(ReportId(1), "Ally".into(), hidden, Language::En, None),
                DecidedReportState::new(
                    ReportId(2),
                    "Kamil".into(),
                    shown,
                    Language::De,
                    Some("Thanks".into()),
                ),
            ],
            DateTime::<Utc>::MIN_UTC,
        );
        let json = serde_json::to_value(&event).unwrap_or_default();
        assert_eq!(json["type"], "report_decided");
        assert_eq!(json["reports"][0]["action_taken"], true);
        assert!(json["reports"][0].get("measure").is_none());
        assert_eq!(json["reports"][1]["measure"]["decision"], "sanction");
        assert_eq!(json["reports"][1]["measure"]["sanction"], "play_ban");
        assert_eq!(json["reports"][1]["measure"]["permanent"], true);
        assert_eq!(json["reports"][1]["note"], "Thanks");
        assert_eq!(json["reports"][1]["language"], "de");
    }
}
