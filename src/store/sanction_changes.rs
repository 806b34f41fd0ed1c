//! An admin shortening or lifting a sanction in force outside an appeal, with a note; one
//! transaction with its log lines.

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::connection::DbConnection;
use super::modlog::{log_action, ActorKind, LogActor, LogRefs};
use super::sanctions::{self, SanctionRow};
use super::schema::{players, sanctions as sanctions_table};
use super::{from_utc, to_utc};
use crate::moderation::{
    apply_appeal_decision, AppealDecision, AppealDecisionProblem, AuditAction, SanctionId,
};

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
    id: i64,
    admin_name: &str,
    change: SanctionChange,
    note: &str,
    now: NaiveDateTime,
) -> Result<SanctionRow, ChangeSanctionError> {
    conn.transaction(|conn| {
        let row = sanctions::find(conn, id)?.ok_or(ChangeSanctionError::NotFound)?;
        let sanction = row.to_policy()?;
        let decision = match change {
            SanctionChange::ShortenUntil(new_end) => AppealDecision::Reduce { new_end },
            SanctionChange::ShortenToMinutes(minutes) => AppealDecision::Reduce {
                new_end: sanction.starts_at + chrono::TimeDelta::minutes(i64::from(minutes)),
            },
            SanctionChange::Lift => AppealDecision::Lift,
        };
        let updated = apply_appeal_decision(&sanction, decision, to_utc(now))
            .map_err(ChangeSanctionError::Refused)?;
        // Only if nobody changed it since the read: of two simultaneous changes one applies.
        let unchanged = sanctions_table::table
            .filter(sanctions_table::id.eq(id))
            .filter(sanctions_table::lifted_at.is_null());
        let written = match row.reduced_until {
            Some(before) => {
                diesel::update(unchanged.filter(sanctions_table::reduced_until.eq(before)))
                    .set((
                        sanctions_table::reduced_until.eq(updated.reduced_until.map(from_utc)),
                        sanctions_table::lifted_at.eq(updated.lifted_at.map(from_utc)),
                    ))
                    .execute(conn)?
            }
            None => diesel::update(unchanged.filter(sanctions_table::reduced_until.is_null()))
                .set((
                    sanctions_table::reduced_until.eq(updated.reduced_until.map(from_utc)),
                    sanctions_table::lifted_at.eq(updated.lifted_at.map(from_utc)),
                ))
                .execute(conn)?,
        };
        if written == 0 {
            return Err(ChangeSanctionError::ChangedMeanwhile);
        }
        let subject: String = players::table
            .find(row.player_id)
            .select(players::name)
            .first(conn)?;
        let action = match decision {
            AppealDecision::Reduce { new_end } => AuditAction::SanctionReduced {
                sanction: SanctionId(id),
                new_end,
            },
            _ => AuditAction::SanctionLifted {
                sanction: SanctionId(id),
            },
        };
        log_action(
            conn,
            now,
            LogActor {
                kind: ActorKind::Admin,
                name: Some(admin_name),
            },
            &action,
            LogRefs {
                subject: Some(&subject),
                case_id: row.case_id,
                sanction_id: Some(id),
                why: Some(note),
                ..LogRefs::default()
            },
        )?;
        if let Some(kind) = decision.sanction_event() {
            super::webhook_outbox::emit(conn, kind, id, now)?;
        }
        Ok(sanctions::find(conn, id)?.ok_or(DieselError::NotFound)?)
    })
}
