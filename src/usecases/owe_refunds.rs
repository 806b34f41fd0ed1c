//! An upheld case about prearranged teaming, self-partnering or (Teams) sandbagging owes its
//! victims the rating they lost: the games concerned are loaded (the case's and the
//! decision's games, and every game the offenders shared within the policy's window), the
//! refunds worked out (`moderation::refunds_owed`), stored, logged and announced once as
//! `refunds_due` (docs/moderation.md, "Refunds"). Run by `decide_case` in its transaction.

use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use crate::moderation::{
    refund_scope, refunds_owed, without_settled, AuditAction, CaseFacts, CaseId, GameNumber,
    PlayerId, RefundCase, RefundPolicy, RefundScope, Refunds, RefundsDueEvent, ValidDecision,
    WebhookEventKind,
};
use crate::store::modlog::{log_action, LogActor, LogRefs};
use crate::store::{players, refunds, reports, to_utc, webhook_outbox, DbConnection};

/// The decided case, as refunds need it.
#[derive(Debug, Clone)]
pub struct RefundRequest<'a> {
    pub case_id: CaseId,
    pub facts: &'a CaseFacts,
    pub decision: &'a ValidDecision,
}

impl<'a> RefundRequest<'a> {
    pub fn new(case_id: CaseId, facts: &'a CaseFacts, decision: &'a ValidDecision) -> Self {
        RefundRequest {
            case_id,
            facts,
            decision,
        }
    }
}

/// Works out, stores, logs and announces what the decided case owes; empty when it owes
/// nothing (a case that owes none, games where no victim lost rating, or seats another case
/// of the same offenders refunded already).
pub fn owe_refunds(
    conn: &mut DbConnection,
    request: &RefundRequest<'_>,
    policy: &RefundPolicy,
    now: NaiveDateTime,
) -> Result<Refunds, DieselError> {
    let decision = request.decision;
    let reason = request.facts.key.reason;
    let Some(scope) = refund_scope(reason, decision.ground, decision.report_outcome, policy) else {
        return Ok(Refunds::default());
    };
    conn.transaction(|conn| {
        let offenders = offender_names(conn, &request.facts.parties().accused)?;
        let refunds = work_out(conn, request, &offenders, scope, policy, now)?;
        if refunds.is_empty() {
            return Ok(refunds);
        }
        refunds::insert(conn, request.case_id, &refunds.lines, now)?;
        log_refunds(conn, request, &refunds, now)?;
        let case = RefundCase {
            id: request.case_id,
            reason,
            ground: decision.ground,
            offenders,
            decided_at: to_utc(now),
        };
        let event_id = uuid::Uuid::new_v4().to_string();
        let event = RefundsDueEvent::new(event_id.clone(), case, &refunds, to_utc(now));
        let kind = WebhookEventKind::RefundsDue;
        webhook_outbox::emit_case_event(conn, kind, request.case_id, &event_id, &event, now)?;
        Ok(refunds)
    })
}

/// The offenders' names (as the archive seats them), in the case's order.
fn offender_names(conn: &mut DbConnection, ids: &[PlayerId]) -> Result<Vec<String>, DieselError> {
    let mut names = players::names(conn, ids)?;
    Ok(ids.iter().filter_map(|id| names.remove(id)).collect())
}

/// The games concerned, loaded, and what they owe.
fn work_out(
    conn: &mut DbConnection,
    request: &RefundRequest<'_>,
    offenders: &[String],
    scope: RefundScope,
    policy: &RefundPolicy,
    now: NaiveDateTime,
) -> Result<Refunds, DieselError> {
    let mut numbers: Vec<GameNumber> = request.facts.evidence_games();
    for game in &request.decision.evidence_games {
        if !numbers.contains(game) {
            numbers.push(*game);
        }
    }
    let numbers: Vec<i64> = numbers.iter().map(|g| g.0).collect();
    let mut ids: Vec<i64> = reports::games_by_number(conn, &numbers)?
        .into_iter()
        .map(|g| g.archive_id)
        .collect();
    if policy.shared_games_window_days > 0 {
        let window = TimeDelta::try_days(i64::from(policy.shared_games_window_days))
            .unwrap_or(TimeDelta::MAX);
        let since = now.checked_sub_signed(window).unwrap_or(NaiveDateTime::MIN);
        ids.extend(refunds::shared_games(conn, offenders, since)?);
    }
    ids.sort_unstable();
    ids.dedup();
    let games = refunds::games_concerned(conn, &ids)?;
    let settled = refunds::settled(conn, &ids)?;
    Ok(without_settled(
        refunds_owed(offenders, &games, scope),
        &settled,
    ))
}

/// One log line for the case's refunds, by the service.
fn log_refunds(
    conn: &mut DbConnection,
    request: &RefundRequest<'_>,
    refunds: &Refunds,
    now: NaiveDateTime,
) -> Result<(), DieselError> {
    let mut games: Vec<i64> = refunds.lines.iter().map(|l| l.game_id).collect();
    games.sort_unstable();
    games.dedup();
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let action = AuditAction::RefundsOwed {
        case: request.case_id,
        games: count(games.len()),
        victims: count(refunds.totals.len()),
        total: refunds.total(),
        unrated: count(refunds.lines.iter().filter(|l| l.amount.is_none()).count()),
    };
    let accused = players::name(conn, request.facts.key.accused)?;
    let refs = LogRefs {
        subject: Some(&accused),
        case_id: Some(request.case_id),
        why: Some("rating lost to the offenders in the games concerned"),
        ..LogRefs::default()
    };
    log_action(conn, now, LogActor::SYSTEM, &action, refs)?;
    Ok(())
}
