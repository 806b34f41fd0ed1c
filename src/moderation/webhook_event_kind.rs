//! The kinds of webhook event a subscription may ask for: what happened to a sanction, and
//! the events about a decided case (a warning, reporters told, refunds owed). All share the
//! subscriptions, the signing and the outbox (docs/webhooks.md).

use serde::{Deserialize, Serialize};

/// One kind of event, by its wire name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WebhookEventKind {
    SanctionStarted,
    SanctionReduced,
    SanctionLifted,
    /// A timed sanction's end passed.
    SanctionEnded,
    /// An upheld case owes its victims refunds ([`super::refund_event`]).
    RefundsDue,
    /// A decision warned the accused ([`super::warning_event`]).
    WarningIssued,
    /// A decision settled the case's reports ([`super::report_decided_event`]).
    ReportDecided,
    /// An alert rule fired: a case or the queue needs admins ([`super::alert`]). For admins'
    /// channels, so only subscriptions that list it receive it.
    CaseNeedsAttention,
}

impl WebhookEventKind {
    pub const ALL: [WebhookEventKind; 8] = [
        WebhookEventKind::SanctionStarted,
        WebhookEventKind::SanctionReduced,
        WebhookEventKind::SanctionLifted,
        WebhookEventKind::SanctionEnded,
        WebhookEventKind::RefundsDue,
        WebhookEventKind::WarningIssued,
        WebhookEventKind::ReportDecided,
        WebhookEventKind::CaseNeedsAttention,
    ];

    /// What a subscription made without a list receives: what game servers act on, not the
    /// admins' alerts.
    pub const FOR_GAME_SERVERS: [WebhookEventKind; 7] = [
        WebhookEventKind::SanctionStarted,
        WebhookEventKind::SanctionReduced,
        WebhookEventKind::SanctionLifted,
        WebhookEventKind::SanctionEnded,
        WebhookEventKind::RefundsDue,
        WebhookEventKind::WarningIssued,
        WebhookEventKind::ReportDecided,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WebhookEventKind::SanctionStarted => "sanction_started",
            WebhookEventKind::SanctionReduced => "sanction_reduced",
            WebhookEventKind::SanctionLifted => "sanction_lifted",
            WebhookEventKind::SanctionEnded => "sanction_ended",
            WebhookEventKind::RefundsDue => "refunds_due",
            WebhookEventKind::WarningIssued => "warning_issued",
            WebhookEventKind::ReportDecided => "report_decided",
            WebhookEventKind::CaseNeedsAttention => "case_needs_attention",
        }
    }

    pub fn from_name(name: &str) -> Option<WebhookEventKind> {
        WebhookEventKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Events about a decided case rather than a sanction: each case announces each at most
    /// once (the outbox's unique key on kind and case).
    pub fn is_about_a_case(self) -> bool {
        matches!(
            self,
            WebhookEventKind::RefundsDue
                | WebhookEventKind::WarningIssued
                | WebhookEventKind::ReportDecided
        )
    }
}
