//! Admin claims on open cases (`cases.claimed_by`, `cases.claimed_until`): the claim a case
//! row holds, and the conditional writes that take and give up one.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::cases::CaseRow;
use super::connection::DbConnection;
use super::schema::cases;
use super::to_utc;
use crate::moderation::{CaseId, Claim, PlayerId};

/// The claim a case row holds, running or expired, as the policy sees it.
pub fn current_claim(case: &CaseRow) -> Option<Claim> {
    match (case.claimed_by, case.claimed_until) {
        (Some(admin), Some(until)) => Some(Claim {
            admin,
            claimed_at: to_utc(case.updated_at),
            expires_at: to_utc(until),
        }),
        _ => None,
    }
}

/// Claims an open case for `admin_id` until `until` if it is free, its claim has expired or
/// it is the admin's already; returns the rows changed. The condition decides, so of
/// simultaneous claimers exactly one changes the row.
pub fn take(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin_id: PlayerId,
    until: NaiveDateTime,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
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
    .execute(conn)
}

/// Clears the admin's running claim on an open case; returns the rows changed.
pub fn give_up(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin_id: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
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
    .execute(conn)
}
