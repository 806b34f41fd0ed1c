//! Alerts: which rules a case (or the queue) now meets, and the one line an admins' channel
//! posts for each (docs/moderation.md, "Alerts"). Pure: the store supplies the cases as they
//! stand and remembers what already fired, so each rule fires once per case.

use chrono::{DateTime, TimeDelta, Utc};
use serde::Serialize;

use super::alert_policy::{AlertRule, AlertTrigger};
use super::types::{CaseId, ReportReason};

/// An open case as an alert rule sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OpenCase {
    pub id: CaseId,
    pub reason: ReportReason,
    /// The priority now, age included (0-100).
    pub priority: f64,
    pub opened_at: DateTime<Utc>,
    /// Someone holds a running claim on it now.
    pub claimed: bool,
}

/// Whether `case` meets the per-case `rule` at `now`. The queue-depth rule never does.
pub fn case_meets(rule: &AlertRule, case: &OpenCase, now: DateTime<Utc>) -> bool {
    if !rule.covers(case.reason) {
        return false;
    }
    let waited = |hours: u32| now - case.opened_at >= TimeDelta::hours(i64::from(hours));
    match rule.trigger {
        AlertTrigger::Opened => true,
        AlertTrigger::Priority(min) => case.priority >= min,
        AlertTrigger::Unclaimed { hours } => !case.claimed && waited(hours),
        AlertTrigger::Undecided { hours } => waited(hours),
        AlertTrigger::QueueDepth { .. } => false,
    }
}

/// What a queue-depth rule does after counting the open cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueAlertStep {
    /// The queue grew past the depth and no alert stands: fire one.
    Fire,
    /// The queue is back at or under the depth: the standing alert clears, so the next
    /// time it grows past, it fires again.
    Clear,
    Nothing,
}

/// The queue rule's step for `open` cases, given whether its alert stands.
pub fn queue_step(rule: &AlertRule, open: u64, standing: bool) -> QueueAlertStep {
    let AlertTrigger::QueueDepth { over } = rule.trigger else {
        return QueueAlertStep::Nothing;
    };
    match (open > u64::from(over), standing) {
        (true, false) => QueueAlertStep::Fire,
        (false, true) => QueueAlertStep::Clear,
        _ => QueueAlertStep::Nothing,
    }
}

/// What an alert is about.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AlertSubject {
    Case(OpenCase),
    Queue { open: u64 },
}

/// The ready-to-post line: what needs attention, by which rule, and where to open it. It
/// names no player: a channel may be read by more people than the console.
pub fn message(
    rule: &AlertRule,
    subject: &AlertSubject,
    console_url: Option<&str>,
    now: DateTime<Utc>,
) -> String {
    let link = |path: String| match console_url {
        Some(base) => format!(": {}{path}", base.trim_end_matches('/')),
        None => String::new(),
    };
    match subject {
        AlertSubject::Case(case) => {
            let what = format!("Case {} ({})", case.id.0, case.reason.label());
            let hours = (now - case.opened_at).num_hours();
            let state = match rule.trigger {
                AlertTrigger::Opened => "was opened".to_string(),
                AlertTrigger::Priority(_) => {
                    format!("reached priority {:.0}", case.priority.floor())
                }
                AlertTrigger::Unclaimed { .. } => {
                    format!("has waited {hours} h without a claim")
                }
                AlertTrigger::Undecided { .. } => format!("is undecided after {hours} h"),
                AlertTrigger::QueueDepth { .. } => "is open".to_string(),
            };
            format!(
                "{what} {state} [{}]{}",
                rule.name,
                link(format!("/admin/cases/{}", case.id.0))
            )
        }
        AlertSubject::Queue { open } => {
            let over = match rule.trigger {
                AlertTrigger::QueueDepth { over } => over,
                _ => 0,
            };
            let of = if rule.reasons.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = rule.reasons.iter().map(|r| r.label()).collect();
                format!(" of {}", names.join(", "))
            };
            format!(
                "The queue holds {open} open cases{of}, more than {over} [{}]{}",
                rule.name,
                link("/admin/".to_string())
            )
        }
    }
}

/// The `case_needs_attention` webhook body (docs/webhooks.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlertEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub created_at: DateTime<Utc>,
    pub alert: AlertEventBody,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlertEventBody {
    pub id: i64,
    pub rule: String,
    /// One line, ready to post to a chat channel.
    pub message: String,
    /// The case, for per-case rules; `null` for the queue's depth.
    pub case: Option<AlertEventCase>,
    /// Open cases counted, for the queue's depth.
    pub open_cases: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlertEventCase {
    pub id: i64,
    pub reason: ReportReason,
    pub priority: f64,
    pub opened_at: DateTime<Utc>,
    pub claimed: bool,
}

impl AlertEvent {
    pub fn new(
        event_id: String,
        alert_id: i64,
        rule: &AlertRule,
        subject: &AlertSubject,
        message: String,
        now: DateTime<Utc>,
    ) -> AlertEvent {
        let (case, open_cases) = match subject {
            AlertSubject::Case(c) => (
                Some(AlertEventCase {
                    id: c.id.0,
                    reason: c.reason,
                    priority: (c.priority * 10.0).round() / 10.0,
                    opened_at: c.opened_at,
                    claimed: c.claimed,
                }),
                None,
            ),
            AlertSubject::Queue { open } => (None, Some(*open)),
        };
        AlertEvent {
            id: event_id,
            kind: "case_needs_attention",
            created_at: now,
            alert: AlertEventBody {
                id: alert_id,
                rule: rule.name.clone(),
                message,
                case,
                open_cases,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 9, 12, 0, 0).unwrap()
    }

    fn rule(trigger: AlertTrigger, reasons: Vec<ReportReason>) -> AlertRule {
        AlertRule {
            name: "r".to_string(),
            reasons,
            trigger,
        }
    }

    fn case(priority: f64, claimed: bool) -> OpenCase {
        OpenCase {
            id: CaseId(17),
            reason: ReportReason::OffensiveChat,
            priority,
            opened_at: t0(),
            claimed,
        }
    }

    #[test]
    fn per_case_triggers() {
        let later = t0() + TimeDelta::hours(2);
        let p = rule(AlertTrigger::Priority(60.0), vec![]);
        assert!(case_meets(&p, &case(60.0, false), t0()));
        assert!(!case_meets(&p, &case(59.9, false), t0()));
        let u = rule(AlertTrigger::Unclaimed { hours: 2 }, vec![]);
        assert!(!case_meets(
            &u,
            &case(0.0, false),
            later - TimeDelta::seconds(1)
        ));
        assert!(case_meets(&u, &case(0.0, false), later));
        assert!(!case_meets(&u, &case(0.0, true), later));
        let d = rule(AlertTrigger::Undecided { hours: 2 }, vec![]);
        assert!(case_meets(&d, &case(0.0, true), later));
        let o = rule(AlertTrigger::Opened, vec![ReportReason::SelfPartnering]);
        assert!(!case_meets(&o, &case(0.0, false), t0()));
        let q = rule(AlertTrigger::QueueDepth { over: 0 }, vec![]);
        assert!(!case_meets(&q, &case(100.0, false), later));
    }

    #[test]
    fn the_queue_rule_fires_once_per_crossing() {
        let q = rule(AlertTrigger::QueueDepth { over: 10 }, vec![]);
        assert_eq!(queue_step(&q, 10, false), QueueAlertStep::Nothing);
        assert_eq!(queue_step(&q, 11, false), QueueAlertStep::Fire);
        assert_eq!(queue_step(&q, 50, true), QueueAlertStep::Nothing);
        assert_eq!(queue_step(&q, 10, true), QueueAlertStep::Clear);
    }

    #[test]
    fn messages_are_one_line_with_a_link_and_no_names() {
        let later = t0() + TimeDelta::hours(26);
        let u = rule(AlertTrigger::Unclaimed { hours: 24 }, vec![]);
        let text = message(
            &u,
            &AlertSubject::Case(case(41.5, false)),
            Some("https://mod.example.org/"),
            later,
        );
        assert_eq!(
            text,
            "Case 17 (offensive chat / spamming) has waited 26 h without a claim [r]: \
             https://mod.example.org/admin/cases/17"
        );
        let p = rule(AlertTrigger::Priority(60.0), vec![]);
        let text = message(&p, &AlertSubject::Case(case(64.7, false)), None, t0());
        assert_eq!(
            text,
            "Case 17 (offensive chat / spamming) reached priority 64 [r]"
        );
        let q = rule(
            AlertTrigger::QueueDepth { over: 200 },
            vec![ReportReason::SelfPartnering],
        );
        let text = message(&q, &AlertSubject::Queue { open: 201 }, None, t0());
        assert_eq!(
            text,
            "The queue holds 201 open cases of self-partnering, more than 200 [r]"
        );
        assert!(!text.contains('\n'));
    }
}
