//! Admins are alerted: one pass over the alert rules (`[alerts]` in `config/moderation.toml`)
//! at `now`, in one transaction (docs/moderation.md, "Alerts").
//!
//! Steps, per rule: read the open cases it may fire for (by priority, or those whose age
//! crossed the rule's hours since the rule's mark; for the queue rule, the count of open
//! cases), decide with `moderation::alert`, store each alert (the unique key on rule and case
//! makes it once, whichever instance gets there first) and queue its `case_needs_attention`
//! event. At most `PER_RULE` alerts per rule per pass: a backlog arrives over several passes
//! rather than as one flood.

use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

use crate::moderation::alert::{
    case_meets, message, queue_step, AlertEvent, AlertSubject, OpenCase, QueueAlertStep,
};
use crate::moderation::alert_policy::{AlertRule, AlertTrigger};
use crate::moderation::{max_age_points, priority_with_age, AlertId, ModerationPolicy};
use crate::store::alerts::{self, OpenCaseRow};
use crate::store::{to_utc, webhook_outbox, DbConnection};

/// Most alerts one rule fires in one pass.
pub const PER_RULE: i64 = 100;

/// What a pass did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AlertPass {
    pub fired: Vec<AlertId>,
    /// Queue alerts cleared (the queue back under the depth).
    pub cleared: usize,
    /// Whether any event was queued for a subscription.
    pub events: bool,
}

/// One pass over every rule at `now`; `console_url` (the console's public address, if set)
/// ends each message with a link.
pub fn raise_alerts(
    conn: &mut DbConnection,
    policy: &ModerationPolicy,
    console_url: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<AlertPass> {
    conn.transaction(|conn| {
        let mut pass = AlertPass::default();
        for rule in policy.alerts.rules() {
            match rule.trigger {
                AlertTrigger::Priority(min) => {
                    let min_base = min - max_age_points(policy);
                    let rows = alerts::open_at_priority(
                        conn,
                        &rule.name,
                        &rule.reasons,
                        min_base,
                        PER_RULE,
                    )?;
                    for row in rows {
                        fire_if_met(conn, &rule, &row, policy, console_url, now, &mut pass)?;
                    }
                }
                AlertTrigger::QueueDepth { .. } => {
                    queue_rule(conn, &rule, console_url, now, &mut pass)?;
                }
                AlertTrigger::Opened
                | AlertTrigger::Unclaimed { .. }
                | AlertTrigger::Undecided { .. } => {
                    waiting_rule(conn, &rule, policy, console_url, now, &mut pass)?;
                }
            }
        }
        Ok(pass)
    })
}

/// A rule that waits: the cases whose age crossed its hours since its mark. A rule seen for
/// the first time starts from now (an operator adding a rule is not flooded with the
/// backlog).
fn waiting_rule(
    conn: &mut DbConnection,
    rule: &AlertRule,
    policy: &ModerationPolicy,
    console_url: Option<&str>,
    now: NaiveDateTime,
    pass: &mut AlertPass,
) -> QueryResult<()> {
    let hours = rule.trigger.waiting_hours().unwrap_or(0);
    let crossed_by = now - TimeDelta::hours(i64::from(hours));
    let Some(mark) = alerts::mark(conn, &rule.name)? else {
        return alerts::set_mark(conn, &rule.name, crossed_by);
    };
    let rows = alerts::open_between(conn, &rule.reasons, mark, crossed_by, PER_RULE)?;
    // A full page moves the mark to just before its last case, so the next pass goes on from
    // there (cases already alerted are not alerted twice: the unique key).
    let next_mark = match rows.last() {
        Some(last) if rows.len() as i64 == PER_RULE => last.opened_at - TimeDelta::microseconds(1),
        _ => crossed_by,
    };
    for row in rows {
        fire_if_met(conn, rule, &row, policy, console_url, now, pass)?;
    }
    alerts::set_mark(conn, &rule.name, next_mark)
}

/// The queue rule: fire when the count grew past the depth, clear when it fell back.
fn queue_rule(
    conn: &mut DbConnection,
    rule: &AlertRule,
    console_url: Option<&str>,
    now: NaiveDateTime,
    pass: &mut AlertPass,
) -> QueryResult<()> {
    let open = alerts::open_count(conn, &rule.reasons)?;
    let standing = alerts::standing_queue_alert(conn, &rule.name)?;
    match queue_step(rule, open, standing.is_some()) {
        QueueAlertStep::Fire => fire(
            conn,
            rule,
            &AlertSubject::Queue { open },
            console_url,
            now,
            pass,
        ),
        QueueAlertStep::Clear => {
            if let Some(id) = standing {
                alerts::clear(conn, id, now)?;
                pass.cleared += 1;
            }
            Ok(())
        }
        QueueAlertStep::Nothing => Ok(()),
    }
}

fn fire_if_met(
    conn: &mut DbConnection,
    rule: &AlertRule,
    row: &OpenCaseRow,
    policy: &ModerationPolicy,
    console_url: Option<&str>,
    now: NaiveDateTime,
    pass: &mut AlertPass,
) -> QueryResult<()> {
    let case = OpenCase {
        id: row.id,
        reason: row.reason,
        priority: priority_with_age(
            row.priority_base,
            to_utc(row.opened_at),
            to_utc(now),
            policy,
        ),
        opened_at: to_utc(row.opened_at),
        claimed: row.claimed_until.is_some_and(|until| until > now),
    };
    if !case_meets(rule, &case, to_utc(now)) {
        return Ok(());
    }
    fire(
        conn,
        rule,
        &AlertSubject::Case(case),
        console_url,
        now,
        pass,
    )
}

/// Stores the alert and queues its event, unless it fired before.
fn fire(
    conn: &mut DbConnection,
    rule: &AlertRule,
    subject: &AlertSubject,
    console_url: Option<&str>,
    now: NaiveDateTime,
    pass: &mut AlertPass,
) -> QueryResult<()> {
    let text = message(rule, subject, console_url, to_utc(now));
    let case_id = match subject {
        AlertSubject::Case(case) => Some(case.id),
        AlertSubject::Queue { .. } => None,
    };
    let Some(id) = alerts::insert(conn, &rule.name, case_id, &text, now)? else {
        return Ok(());
    };
    let event = AlertEvent::new(
        uuid::Uuid::new_v4().to_string(),
        id.0,
        rule,
        subject,
        text,
        to_utc(now),
    );
    pass.events |= webhook_outbox::emit_alert(conn, &event, now)?;
    pass.fired.push(id);
    Ok(())
}
