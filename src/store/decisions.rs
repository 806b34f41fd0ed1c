//! Decisions on cases (`decisions`): one row per decided case.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{decisions, sanctions};
use crate::moderation::{CaseId, DecisionKind, Ground, MeasureTaken, PlayerId, SanctionId};

/// A decision to store.
#[derive(Debug, Clone, Copy)]
pub struct NewDecision<'a> {
    pub case_id: CaseId,
    pub admin_id: PlayerId,
    pub kind: DecisionKind,
    pub ground: Option<Ground>,
    pub note: Option<&'a str>,
    /// What the reporters are told: the preset's reporter text, then the admin's words.
    pub reporter_note: Option<&'a str>,
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
            decisions::reporter_note.eq(new.reporter_note),
            decisions::sanction_id.eq(new.sanction_id),
            decisions::decided_at.eq(new.decided_at),
        ),
        decisions::id
    )
}

/// For each decision id, the measure it took (a warning, a sanction), if any: what its
/// reporters may learn of it, as the policy says.
pub fn measures(
    conn: &mut DbConnection,
    ids: &[i64],
) -> QueryResult<BTreeMap<i64, Option<MeasureTaken>>> {
    let rows: Vec<(i64, DecisionKind, Option<SanctionRow>)> = decisions::table
        .left_join(sanctions::table.on(sanctions::id.nullable().eq(decisions::sanction_id)))
        .filter(decisions::id.eq_any(ids))
        .select((
            decisions::id,
            decisions::kind,
            Option::<SanctionRow>::as_select(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, kind, sanction)| {
            let measure = match (kind, sanction) {
                (DecisionKind::Warn, _) => Some(MeasureTaken::Warning),
                (DecisionKind::Sanction, Some(row)) => Some(MeasureTaken::Sanction {
                    kind: row.kind,
                    duration: row.to_policy().duration,
                }),
                _ => None,
            };
            (id, measure)
        })
        .collect())
}
