//! Decide an appeal: an admin upholds, reduces or lifts the sanction appealed against, and
//! the sanction row changes with the answer so standing follows at once; one transaction
//! with the log lines and the sanction's event.

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use diesel::result::Error as DieselError;
use diesel::{Connection, QueryResult};

use crate::moderation::{
    apply_appeal_decision, may_decide_appeal, AppealConflict, AppealDecision,
    AppealDecisionProblem, AppealId, AppealPolicy, AppealStatus, AuditAction, PlayerId, Sanction,
};
use crate::store::appeals::{self, AppealRow};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::sanctions::{self, SanctionRow};
use crate::store::{players, sanction_changes, to_utc, webhook_outbox, DbConnection};

/// An admin's answer to an appeal, as the route read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AppealAnswer {
    Uphold,
    /// End the sanction at this time.
    ReduceUntil(DateTime<Utc>),
    /// Make the sanction this many minutes long from its start.
    ReduceToMinutes(u32),
    Lift,
}

/// Why an appeal was not decided.
#[derive(Debug)]
pub enum DecideAppealError {
    NotFound,
    AlreadyDecided {
        status: AppealStatus,
    },
    /// The admin is the appellant, or imposed the sanction (four eyes).
    Conflict(AppealConflict),
    Refused(AppealDecisionProblem),
    Db(DieselError),
}

impl From<DieselError> for DecideAppealError {
    fn from(err: DieselError) -> Self {
        DecideAppealError::Db(err)
    }
}

/// Decides an open appeal in ONE transaction: the appeal's status, the sanction's
/// `reduced_until` or `lifted_at`, and the log lines.
pub fn decide(
    conn: &mut DbConnection,
    appeal_id: AppealId,
    admin: (PlayerId, &str),
    answer: AppealAnswer,
    note: Option<&str>,
    policy: &AppealPolicy,
    now: NaiveDateTime,
) -> Result<(AppealRow, SanctionRow), DecideAppealError> {
    let (admin_id, admin_name) = admin;
    conn.transaction(|conn| {
        // Write first, and only while open: of two simultaneous answers exactly one applies.
        let updated =
            appeals::answer_if_open(conn, appeal_id, status_of(answer), admin_id, note, now)?;
        let appeal = appeals::find(conn, appeal_id)?.ok_or(DecideAppealError::NotFound)?;
        if updated == 0 {
            return Err(DecideAppealError::AlreadyDecided {
                status: appeal.status,
            });
        }
        let row = sanctions::find(conn, appeal.sanction_id)?.ok_or(DieselError::NotFound)?;
        may_decide_appeal(admin_id, appeal.player_id, row.issued_by, policy)
            .map_err(DecideAppealError::Conflict)?;
        let sanction = row.to_policy();
        let decision = decision_of(answer, &sanction);
        let updated_sanction = apply_appeal_decision(&sanction, decision, to_utc(now))
            .map_err(DecideAppealError::Refused)?;
        sanction_changes::set_end(conn, row.id, &updated_sanction)?;
        log_decision(conn, &appeal, &row, admin_name, decision, note, now)?;
        if let Some(kind) = decision.sanction_event() {
            webhook_outbox::emit(conn, kind, row.id, now)?;
        }
        let sanction = sanctions::find(conn, row.id)?.ok_or(DieselError::NotFound)?;
        Ok((appeal, sanction))
    })
}

/// The appeal's stored status after this answer.
fn status_of(answer: AppealAnswer) -> AppealStatus {
    match answer {
        AppealAnswer::Uphold => AppealStatus::Upheld,
        AppealAnswer::ReduceUntil(_) | AppealAnswer::ReduceToMinutes(_) => AppealStatus::Reduced,
        AppealAnswer::Lift => AppealStatus::Lifted,
    }
}

/// The answer as the policy's decision on the sanction.
fn decision_of(answer: AppealAnswer, sanction: &Sanction) -> AppealDecision {
    match answer {
        AppealAnswer::Uphold => AppealDecision::Uphold,
        AppealAnswer::ReduceUntil(new_end) => AppealDecision::Reduce { new_end },
        AppealAnswer::ReduceToMinutes(minutes) => AppealDecision::Reduce {
            new_end: sanction.starts_at + TimeDelta::minutes(i64::from(minutes)),
        },
        AppealAnswer::Lift => AppealDecision::Lift,
    }
}

/// Logs `appeal_decided`, then `sanction_reduced` or `sanction_lifted` when the sanction
/// changed.
fn log_decision(
    conn: &mut DbConnection,
    appeal: &AppealRow,
    row: &SanctionRow,
    admin_name: &str,
    decision: AppealDecision,
    note: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let subject = players::name(conn, appeal.player_id)?;
    let actor = LogActor {
        kind: LogActorKind::Admin,
        name: Some(admin_name),
    };
    let refs = LogRefs {
        subject: Some(&subject),
        case_id: row.case_id,
        sanction_id: Some(row.id),
        appeal_id: Some(appeal.id),
        why: note,
        ..LogRefs::default()
    };
    let decided = AuditAction::AppealDecided {
        appeal: appeal.id,
        sanction: row.id,
        decision,
    };
    log_action(conn, now, actor, &decided, refs)?;
    let changed = match decision {
        AppealDecision::Reduce { new_end } => AuditAction::SanctionReduced {
            sanction: row.id,
            new_end,
        },
        AppealDecision::Lift => AuditAction::SanctionLifted { sanction: row.id },
        AppealDecision::Uphold => return Ok(()),
    };
    log_action(conn, now, actor, &changed, refs)
}
