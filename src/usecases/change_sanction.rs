//! Change a sanction: an admin shortens or lifts a sanction in force outside an appeal, with
//! a note; one transaction with its log line and event.

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use diesel::result::Error as DieselError;
use diesel::{Connection, QueryResult};

use crate::moderation::{
    apply_appeal_decision, AppealDecision, AppealDecisionProblem, AuditAction, Sanction, SanctionId,
};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::sanctions::{self, SanctionRow};
use crate::store::{players, sanction_changes, to_utc, webhook_outbox, DbConnection};

/// What the admin does to the sanction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SanctionChange {
    /// End it at this time instead (earlier than it ends now).
    ShortenUntil(DateTime<Utc>),
    /// End it at its start plus these minutes.
    ShortenToMinutes(u32),
    /// End it now and take it off the record.
    Lift,
}

#[derive(Debug)]
pub enum ChangeSanctionError {
    NotFound,
    Refused(AppealDecisionProblem),
    /// Another admin changed it meanwhile; nothing was written.
    ChangedMeanwhile,
    Db(DieselError),
}

impl From<DieselError> for ChangeSanctionError {
    fn from(err: DieselError) -> Self {
        ChangeSanctionError::Db(err)
    }
}

/// Applies `change` to sanction `id` as the admin named `admin_name`, with `note`, and logs it.
pub fn change(
    conn: &mut DbConnection,
    id: SanctionId,
    admin_name: &str,
    change: SanctionChange,
    note: &str,
    now: NaiveDateTime,
) -> Result<SanctionRow, ChangeSanctionError> {
    conn.transaction(|conn| {
        let row = sanctions::find(conn, id)?.ok_or(ChangeSanctionError::NotFound)?;
        let sanction = row.to_policy();
        let decision = decision_of(change, &sanction);
        let updated = apply_appeal_decision(&sanction, decision, to_utc(now))
            .map_err(ChangeSanctionError::Refused)?;
        if sanction_changes::set_end_if_unchanged(conn, id, row.reduced_until, &updated)? == 0 {
            return Err(ChangeSanctionError::ChangedMeanwhile);
        }
        log_change(conn, &row, admin_name, decision, note, now)?;
        if let Some(kind) = decision.sanction_event() {
            webhook_outbox::emit(conn, kind, id, now)?;
        }
        Ok(sanctions::find(conn, id)?.ok_or(DieselError::NotFound)?)
    })
}

/// The change as the policy's decision on the sanction.
fn decision_of(change: SanctionChange, sanction: &Sanction) -> AppealDecision {
    match change {
        SanctionChange::ShortenUntil(new_end) => AppealDecision::Reduce { new_end },
        SanctionChange::ShortenToMinutes(minutes) => AppealDecision::Reduce {
            new_end: sanction.starts_at + TimeDelta::minutes(i64::from(minutes)),
        },
        SanctionChange::Lift => AppealDecision::Lift,
    }
}

/// Logs the change as `sanction_reduced` or `sanction_lifted`, with the admin's note.
fn log_change(
    conn: &mut DbConnection,
    row: &SanctionRow,
    admin_name: &str,
    decision: AppealDecision,
    note: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let subject = players::name(conn, row.player_id)?;
    let action = match decision {
        AppealDecision::Reduce { new_end } => AuditAction::SanctionReduced {
            sanction: row.id,
            new_end,
        },
        _ => AuditAction::SanctionLifted { sanction: row.id },
    };
    log_action(
        conn,
        now,
        LogActor {
            kind: LogActorKind::Admin,
            name: Some(admin_name),
        },
        &action,
        LogRefs {
            subject: Some(&subject),
            case_id: row.case_id,
            sanction_id: Some(row.id),
            why: Some(note),
            ..LogRefs::default()
        },
    )
}
