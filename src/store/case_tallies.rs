//! A case's priority tally: `cases.automatic_best`, `reporter_count`, `reporter_accuracy_sum`
//! and the case's distinct player reporters in `case_reporters`. A new entry updates them and
//! the stored `priority_base` with a fixed number of statements, whatever the case already
//! holds (issue #41): nothing here reads a case's earlier entries. The parts the tally feeds
//! are [`stored_parts`]; [`PriorityTally::of`] is the same tally counted from scratch.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::cases::{earlier_measures_count, reporter_accuracy_of, reporter_of, FactsRow};
use super::connection::DbConnection;
use super::schema::{case_reporters, cases, reports};
use crate::moderation::{
    stored_parts, CaseId, CaseStatus, ModerationPolicy, PlayerId, PriorityTally, ReportId,
    ReportReason,
};

/// Counts `report_id`, just linked to the case, into the case's tally and stored priority.
/// Runs in the caller's transaction, after the case row was locked by the link.
pub fn count_entry(
    conn: &mut DbConnection,
    case_id: CaseId,
    report_id: ReportId,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let stored = StoredTally::load(conn, case_id)?;
    let mut tally = stored.tally;
    let filer = reporter_of(&entry_filer(conn, report_id)?);
    match filer.player() {
        Some(reporter) => {
            let joined = join_reporters(conn, case_id, reporter)?;
            if joined && stored.accuracy_counted {
                tally.reporter_count = tally.reporter_count.saturating_add(1);
                tally.reporter_accuracy_sum += reporter_accuracy_of(conn, reporter, policy)?;
            }
        }
        None => {
            let score = filer.automatic_score().unwrap_or(0.0);
            tally.automatic_best = tally.automatic_best.max(score);
        }
    }
    if !stored.accuracy_counted {
        (tally.reporter_count, tally.reporter_accuracy_sum) =
            count_reporters(conn, case_id, policy)?;
    }
    tally.earlier_measures = earlier_measures_count(conn, stored.accused_id)?;
    store(
        conn,
        case_id,
        stored.reason,
        &tally,
        stored.entry_count + 1,
        policy,
        now,
    )
}

/// Re-ranks a case whose entries did not change but whose reporters' accuracy or accused's
/// earlier measures may have (a decision elsewhere, an entry filed again): reads its distinct
/// reporters, never its entries.
pub fn recount(
    conn: &mut DbConnection,
    case_id: CaseId,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let stored = StoredTally::load(conn, case_id)?;
    let mut tally = stored.tally;
    (tally.reporter_count, tally.reporter_accuracy_sum) = count_reporters(conn, case_id, policy)?;
    tally.earlier_measures = earlier_measures_count(conn, stored.accused_id)?;
    store(
        conn,
        case_id,
        stored.reason,
        &tally,
        stored.entry_count,
        policy,
        now,
    )
}

/// The open cases holding a report by one of these reporters.
pub fn open_cases_reported_by(
    conn: &mut DbConnection,
    reporter_ids: &[PlayerId],
) -> QueryResult<Vec<CaseId>> {
    if reporter_ids.is_empty() {
        return Ok(Vec::new());
    }
    case_reporters::table
        .inner_join(cases::table)
        .filter(case_reporters::reporter_id.eq_any(reporter_ids))
        .filter(cases::status.eq(CaseStatus::Open))
        .select(cases::id)
        .distinct()
        .load(conn)
}

/// A case's row as far as its tally goes.
struct StoredTally {
    accused_id: PlayerId,
    reason: ReportReason,
    entry_count: i32,
    tally: PriorityTally,
    /// False for a case stored before tallies were kept, until its reporters are counted.
    accuracy_counted: bool,
}

impl StoredTally {
    fn load(conn: &mut DbConnection, case_id: CaseId) -> QueryResult<StoredTally> {
        let row: Option<TallyRow> = cases::table
            .find(case_id)
            .select((
                cases::accused_id,
                cases::reason,
                cases::entry_count,
                cases::automatic_best,
                cases::reporter_count,
                cases::reporter_accuracy_sum,
            ))
            .first(conn)
            .optional()?;
        let (accused_id, reason, entry_count, automatic_best, reporter_count, accuracy_sum) =
            row.ok_or(DieselError::NotFound)?;
        Ok(StoredTally {
            accused_id,
            reason,
            entry_count,
            tally: PriorityTally {
                reporter_count: u32::try_from(reporter_count).unwrap_or(0),
                reporter_accuracy_sum: accuracy_sum.unwrap_or(0.0),
                automatic_best,
                earlier_measures: 0,
            },
            accuracy_counted: accuracy_sum.is_some(),
        })
    }
}

type TallyRow = (PlayerId, ReportReason, i32, f64, i32, Option<f64>);

/// Who filed one entry, as [`reporter_of`] reads it.
fn entry_filer(conn: &mut DbConnection, report_id: ReportId) -> QueryResult<FactsRow> {
    reports::table
        .find(report_id)
        .select((
            reports::id,
            reports::source,
            reports::reporter_id,
            reports::filed_by_admin,
            reports::score,
            reports::game_id,
            reports::filed_at,
        ))
        .first(conn)
}

/// Adds a reporter to the case's distinct reporters; says whether they were new to it.
fn join_reporters(
    conn: &mut DbConnection,
    case_id: CaseId,
    reporter: PlayerId,
) -> QueryResult<bool> {
    let row = (
        case_reporters::case_id.eq(case_id),
        case_reporters::reporter_id.eq(reporter),
    );
    let inserted = on_backend!(conn, c => diesel::insert_into(case_reporters::table)
        .values(row)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(inserted == 1)
}

/// The case's distinct reporters and the sum of their accuracy shares, in reporter order (so
/// the sum is the one [`PriorityTally::of`] makes).
fn count_reporters(
    conn: &mut DbConnection,
    case_id: CaseId,
    policy: &ModerationPolicy,
) -> QueryResult<(u32, f64)> {
    let reporters: Vec<PlayerId> = case_reporters::table
        .filter(case_reporters::case_id.eq(case_id))
        .order(case_reporters::reporter_id.asc())
        .select(case_reporters::reporter_id)
        .load(conn)?;
    let mut sum = 0.0;
    for reporter in &reporters {
        sum += reporter_accuracy_of(conn, *reporter, policy)?;
    }
    Ok((u32::try_from(reporters.len()).unwrap_or(u32::MAX), sum))
}

/// Writes the tally, the entry count and the priority base it gives.
fn store(
    conn: &mut DbConnection,
    case_id: CaseId,
    reason: ReportReason,
    tally: &PriorityTally,
    entry_count: i32,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let base = stored_parts(reason, tally, policy).without_age();
    diesel::update(cases::table.find(case_id))
        .set((
            cases::priority_base.eq(base),
            cases::entry_count.eq(entry_count),
            cases::automatic_best.eq(tally.automatic_best),
            cases::reporter_count.eq(i32::try_from(tally.reporter_count).unwrap_or(i32::MAX)),
            cases::reporter_accuracy_sum.eq(Some(tally.reporter_accuracy_sum)),
            cases::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}
