//! Claim and release a case: one admin works a case at a time, until the claim expires or
//! is released. Every claim, take-over and release is logged.

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::result::Error as DieselError;
use diesel::{Connection, QueryResult};

use crate::moderation::{
    claim_status, may_decide, AuditAction, CaseId, Claim, ClaimOutcome, Conflict, ModerationPolicy,
    PlayerId,
};
use crate::store::cases::{self, case_facts};
use crate::store::claims::{self, current_claim};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::{from_utc, players, to_utc, DbConnection};

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
    Party(Conflict),
    Decided,
    NotFound,
}

/// Claims a case for `admin_id` until `claim.expiry_minutes` from now. Atomic: a conditional
/// UPDATE (free, expired, or already the caller's) decides, so of simultaneous claimers exactly
/// one is granted; the others read the winner back.
pub fn claim(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin: (PlayerId, &str),
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<ClaimResult> {
    let (outcome, granted) = match decide_claim(conn, case_id, admin.0, policy, now)? {
        Ok(decided) => decided,
        Err(refused) => return Ok(refused),
    };
    conn.transaction(|conn| {
        let until = from_utc(granted.expires_at);
        if claims::take(conn, case_id, admin.0, until, now)? == 0 {
            return lost_claim(conn, case_id);
        }
        log_claim(conn, case_id, admin, outcome, granted.expires_at, now)?;
        Ok(ClaimResult::Granted {
            until: granted.expires_at,
            outcome,
        })
    })
}

/// The policy's answer to the claim, or why it is refused.
fn decide_claim(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin_id: PlayerId,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Result<(ClaimOutcome, Claim), ClaimResult>> {
    // Read first, outside the write: the policy's view of the current claim (for the log),
    // and the parties (nobody claims a case they are part of).
    let Some(case) = cases::find(conn, case_id)? else {
        return Ok(Err(ClaimResult::NotFound));
    };
    if !case.is_open() {
        return Ok(Err(ClaimResult::Decided));
    }
    let facts = case_facts(conn, &case, policy)?;
    if let Err(conflict) = may_decide(admin_id, &facts.parties()) {
        return Ok(Err(ClaimResult::Party(conflict)));
    }
    let current = current_claim(&case);
    let outcome = claim_status(current.as_ref(), admin_id, to_utc(now), policy);
    if let ClaimOutcome::Conflict { holder, until } = outcome {
        return Ok(Err(ClaimResult::Held {
            holder: players::name(conn, holder)?,
            until,
        }));
    }
    Ok(match outcome.claim(admin_id, to_utc(now)) {
        Some(granted) => Ok((outcome, granted)),
        None => Err(ClaimResult::Decided),
    })
}

/// Logs a granted claim, after the expired claim it took over if any.
fn log_claim(
    conn: &mut DbConnection,
    case_id: CaseId,
    (admin_id, admin_name): (PlayerId, &str),
    outcome: ClaimOutcome,
    until: DateTime<Utc>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let refs = LogRefs {
        case_id: Some(case_id),
        ..LogRefs::default()
    };
    let actor = LogActor {
        kind: LogActorKind::Admin,
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
                case: case_id,
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
            case: case_id,
            admin: admin_id,
            until,
        },
        refs,
    )
}

/// After a conditional claim update matched nothing: who holds the case now.
fn lost_claim(conn: &mut DbConnection, case_id: CaseId) -> QueryResult<ClaimResult> {
    let Some(case) = cases::find(conn, case_id)? else {
        return Ok(ClaimResult::NotFound);
    };
    if !case.is_open() {
        return Ok(ClaimResult::Decided);
    }
    match (case.claimed_by, case.claimed_until) {
        (Some(holder), Some(until)) => Ok(ClaimResult::Held {
            holder: players::name(conn, holder)?,
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
    case_id: CaseId,
    admin: (PlayerId, &str),
    now: NaiveDateTime,
) -> QueryResult<ReleaseResult> {
    let (admin_id, admin_name) = admin;
    conn.transaction(|conn| {
        if claims::give_up(conn, case_id, admin_id, now)? == 0 {
            return Ok(if cases::find(conn, case_id)?.is_some() {
                ReleaseResult::NotHeld
            } else {
                ReleaseResult::NotFound
            });
        }
        log_action(
            conn,
            now,
            LogActor {
                kind: LogActorKind::Admin,
                name: Some(admin_name),
            },
            &AuditAction::ClaimReleased {
                case: case_id,
                admin: admin_id,
            },
            LogRefs {
                case_id: Some(case_id),
                ..LogRefs::default()
            },
        )?;
        Ok(ReleaseResult::Released)
    })
}
