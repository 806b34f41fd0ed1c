//! Admin claims on open cases: one admin works a case at a time, until the claim expires or
//! is released. Every claim, take-over and release is logged.

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::cases::{case_facts, find, player_name, CaseRow};
use super::connection::DbConnection;
use super::modlog::{log_action, ActorKind, LogActor, LogRefs};
use super::schema::cases;
use super::{from_utc, to_utc};
use crate::moderation::{
    claim_status, AuditAction, CaseId, ClaimOutcome, ModerationPolicy, PlayerId,
};

/// How a claim ended.
#[derive(Debug, Clone, PartialEq)]
pub enum ClaimResult {
    /// The admin holds the case until `until` (claimed, taken over or renewed).
    Granted {
        until: DateTime<Utc>,
        outcome: ClaimOutcome,
    },
    /// Another admin holds it.
    Held {
        holder: String,
        until: DateTime<Utc>,
    },
    /// The admin is a party to the case.
    Party(crate::moderation::Conflict),
    Decided,
    NotFound,
}

/// Claims a case for `admin_id` until `claim.expiry_minutes` from now. Atomic: a conditional
/// UPDATE (free, expired, or already the caller's) decides, so of simultaneous claimers exactly
/// one is granted; the others read the winner back.
pub fn claim(
    conn: &mut DbConnection,
    case_id: i64,
    admin: (i64, &str),
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<ClaimResult> {
    let (admin_id, admin_name) = admin;
    // Read first, outside the write: the policy's view of the current claim (for the log),
    // and the parties (nobody claims a case they are part of).
    let Some(case) = find(conn, case_id)? else {
        return Ok(ClaimResult::NotFound);
    };
    if !case.is_open() {
        return Ok(ClaimResult::Decided);
    }
    let facts = case_facts(conn, &case, policy)?;
    if let Err(conflict) = crate::moderation::may_decide(PlayerId(admin_id), &facts.parties()) {
        return Ok(ClaimResult::Party(conflict));
    }
    let current = current_claim(&case);
    let outcome = claim_status(current.as_ref(), PlayerId(admin_id), to_utc(now), policy);
    if let ClaimOutcome::Conflict { holder, until } = outcome {
        return Ok(ClaimResult::Held {
            holder: player_name(conn, holder.0)?,
            until,
        });
    }
    let Some(granted) = outcome.claim(PlayerId(admin_id), to_utc(now)) else {
        return Ok(ClaimResult::Decided);
    };
    let until = from_utc(granted.expires_at);
    conn.transaction(|conn| {
        let updated = diesel::update(
            cases::table
                .filter(cases::id.eq(case_id))
                .filter(cases::status.eq("open"))
                .filter(
                    cases::claimed_by
                        .is_null()
                        .or(cases::claimed_until.le(now))
                        .or(cases::claimed_by.eq(admin_id)),
                ),
        )
        .set((
            cases::claimed_by.eq(admin_id),
            cases::claimed_until.eq(until),
        ))
        .execute(conn)?;
        if updated == 0 {
            return lost_claim(conn, case_id);
        }
        let refs = LogRefs {
            case_id: Some(case_id),
            ..LogRefs::default()
        };
        let actor = LogActor {
            kind: ActorKind::Admin,
            name: Some(admin_name),
        };
        if let ClaimOutcome::TakeOver {
            previous,
            expired_at,
            ..
        } = outcome
        {
            log_action(
                conn,
                now,
                LogActor::SYSTEM,
                &AuditAction::ClaimExpired {
                    case: CaseId(case_id),
                    admin: previous,
                    expired_at,
                },
                refs,
            )?;
        }
        log_action(
            conn,
            now,
            actor,
            &AuditAction::CaseClaimed {
                case: CaseId(case_id),
                admin: PlayerId(admin_id),
                until: granted.expires_at,
            },
            refs,
        )?;
        Ok(ClaimResult::Granted {
            until: granted.expires_at,
            outcome,
        })
    })
}

fn current_claim(case: &CaseRow) -> Option<crate::moderation::Claim> {
    match (case.claimed_by, case.claimed_until) {
        (Some(admin), Some(until)) => Some(crate::moderation::Claim {
            admin: PlayerId(admin),
            claimed_at: to_utc(case.updated_at),
            expires_at: to_utc(until),
        }),
        _ => None,
    }
}

/// After a conditional claim update matched nothing: who holds the case now.
fn lost_claim(conn: &mut DbConnection, case_id: i64) -> QueryResult<ClaimResult> {
    let Some(case) = find(conn, case_id)? else {
        return Ok(ClaimResult::NotFound);
    };
    if !case.is_open() {
        return Ok(ClaimResult::Decided);
    }
    match (case.claimed_by, case.claimed_until) {
        (Some(holder), Some(until)) => Ok(ClaimResult::Held {
            holder: player_name(conn, holder)?,
            until: to_utc(until),
        }),
        _ => Err(DieselError::NotFound),
    }
}

/// How a release ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseResult {
    Released,
    NotHeld,
    NotFound,
}

/// Gives up the admin's running claim on an open case.
pub fn release(
    conn: &mut DbConnection,
    case_id: i64,
    admin: (i64, &str),
    now: NaiveDateTime,
) -> QueryResult<ReleaseResult> {
    let (admin_id, admin_name) = admin;
    conn.transaction(|conn| {
        let updated = diesel::update(
            cases::table
                .filter(cases::id.eq(case_id))
                .filter(cases::status.eq("open"))
                .filter(cases::claimed_by.eq(admin_id))
                .filter(cases::claimed_until.gt(now)),
        )
        .set((
            cases::claimed_by.eq(None::<i64>),
            cases::claimed_until.eq(None::<NaiveDateTime>),
        ))
        .execute(conn)?;
        if updated == 0 {
            return Ok(if find(conn, case_id)?.is_some() {
                ReleaseResult::NotHeld
            } else {
                ReleaseResult::NotFound
            });
        }
        log_action(
            conn,
            now,
            LogActor {
                kind: ActorKind::Admin,
                name: Some(admin_name),
            },
            &AuditAction::ClaimReleased {
                case: CaseId(case_id),
                admin: PlayerId(admin_id),
            },
            LogRefs {
                case_id: Some(case_id),
                ..LogRefs::default()
            },
        )?;
        Ok(ReleaseResult::Released)
    })
}
