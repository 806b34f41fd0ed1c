//! Decisions on cases (`decisions`): one row per decided case.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::enum_name;
use super::schema::decisions;
use crate::moderation::{DecisionKind, Ground};

/// A decision to store.
#[derive(Debug, Clone, Copy)]
pub struct NewDecision<'a> {
    pub case_id: i64,
    pub admin_id: i64,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    pub note: Option<&'a str>,
    pub sanction_id: Option<i64>,
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
            decisions::kind.eq(enum_name(&new.kind)),
            decisions::ground.eq(new.ground.map(|g| enum_name(&g))),
            decisions::note.eq(new.note),
            decisions::sanction_id.eq(new.sanction_id),
            decisions::decided_at.eq(new.decided_at),
        ),
        decisions::id
    )
}
