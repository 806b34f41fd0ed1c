//! Decisions on cases (`decisions`): one row per decided case.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::decisions;
use crate::moderation::{CaseId, DecisionKind, Ground, PlayerId, SanctionId};

/// A decision to store.
#[derive(Debug, Clone, Copy)]
pub struct NewDecision<'a> {
    pub case_id: CaseId,
    pub admin_id: PlayerId,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    pub note: Option<&'a str>,
    pub sanction_id: Option<SanctionId>,
    pub decided_at: NaiveDateTime,
}

/// Stores a decision; returns its id.
pub fn insert(conn: &mut DbConnection, new: &NewDecision<'_>) -> QueryResult<i64> {
    insert_returning_id!(
        conn,
        decisions::table,
        (
            decisions::case_id.eq(new.case_id),
            decisions::admin_id.eq(new.admin_id),
            decisions::kind.eq(new.kind),
            decisions::ground.eq(new.ground),
            decisions::note.eq(new.note),
            decisions::sanction_id.eq(new.sanction_id),
            decisions::decided_at.eq(new.decided_at),
        ),
        decisions::id
    )
}
