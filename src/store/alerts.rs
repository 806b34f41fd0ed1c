//! Alerts (`alerts`, `alert_marks`): the open cases an alert rule may fire for, what each
//! rule already fired, and how far the waiting rules have looked. Rows and queries only; the
//! pass that decides is `usecases::raise_alerts`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{alert_marks, alerts, cases, players};
use crate::moderation::{AlertId, CaseId, PlayerId, ReportReason};

/// An open case as the alert rules read it.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct OpenCaseRow {
    pub id: CaseId,
    pub reason: ReportReason,
    pub priority_base: f64,
    pub opened_at: NaiveDateTime,
    pub claimed_until: Option<NaiveDateTime>,
}

type OpenCaseColumns = (
    cases::id,
    cases::reason,
    cases::priority_base,
    cases::opened_at,
    cases::claimed_until,
);

const OPEN_CASE_COLUMNS: OpenCaseColumns = (
    cases::id,
    cases::reason,
    cases::priority_base,
    cases::opened_at,
    cases::claimed_until,
);

fn reason_names(reasons: &[ReportReason]) -> Vec<&'static str> {
    reasons.iter().map(|r| r.stored_name()).collect()
}

/// Open cases whose stored priority base is at least `min_base` and for which `rule` has not
/// fired, highest first, at most `limit`.
pub fn open_at_priority(
    conn: &mut DbConnection,
    rule: &str,
    reasons: &[ReportReason],
    min_base: f64,
    limit: i64,
) -> QueryResult<Vec<OpenCaseRow>> {
    let fired = alerts::table
        .filter(alerts::rule.eq(rule.to_string()))
        .filter(alerts::case_id.eq(cases::id.nullable()))
        .select(alerts::id);
    let mut query = cases::table
        .filter(cases::status.eq("open"))
        .filter(cases::priority_base.ge(min_base))
        .filter(diesel::dsl::not(diesel::dsl::exists(fired)))
        .select(OPEN_CASE_COLUMNS)
        .order((cases::priority_base.desc(), cases::id))
        .limit(limit)
        .into_boxed();
    if !reasons.is_empty() {
        query = query.filter(cases::reason.eq_any(reason_names(reasons)));
    }
    query.load(conn)
}

/// Open cases opened after `after` and no later than `through`, oldest first, at most
/// `limit`.
pub fn open_between(
    conn: &mut DbConnection,
    reasons: &[ReportReason],
    after: NaiveDateTime,
    through: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<OpenCaseRow>> {
    let mut query = cases::table
        .filter(cases::status.eq("open"))
        .filter(cases::opened_at.gt(after))
        .filter(cases::opened_at.le(through))
        .select(OPEN_CASE_COLUMNS)
        .order((cases::opened_at, cases::id))
        .limit(limit)
        .into_boxed();
    if !reasons.is_empty() {
        query = query.filter(cases::reason.eq_any(reason_names(reasons)));
    }
    query.load(conn)
}

/// How many cases are open (of `reasons`, when given).
pub fn open_count(conn: &mut DbConnection, reasons: &[ReportReason]) -> QueryResult<u64> {
    let mut query = cases::table
        .filter(cases::status.eq("open"))
        .count()
        .into_boxed();
    if !reasons.is_empty() {
        query = query.filter(cases::reason.eq_any(reason_names(reasons)));
    }
    let n: i64 = query.get_result(conn)?;
    Ok(u64::try_from(n).unwrap_or(0))
}

/// How far in opening time a waiting rule has looked.
pub fn mark(conn: &mut DbConnection, rule: &str) -> QueryResult<Option<NaiveDateTime>> {
    alert_marks::table
        .find(rule)
        .select(alert_marks::through)
        .first(conn)
        .optional()
}

/// Moves a waiting rule's mark forward (never back: of two instances, the later look wins).
pub fn set_mark(conn: &mut DbConnection, rule: &str, through: NaiveDateTime) -> QueryResult<()> {
    on_backend!(conn, c => diesel::insert_into(alert_marks::table)
        .values((alert_marks::rule.eq(rule), alert_marks::through.eq(through)))
        .on_conflict_do_nothing()
        .execute(c))?;
    diesel::update(
        alert_marks::table
            .filter(alert_marks::rule.eq(rule))
            .filter(alert_marks::through.lt(through)),
    )
    .set(alert_marks::through.eq(through))
    .execute(conn)?;
    Ok(())
}

/// Stores an alert unless the rule already fired for this case (or, for the queue, unless
/// its alert stands); returns the new alert's id, `None` when it had fired.
pub fn insert(
    conn: &mut DbConnection,
    rule: &str,
    case_id: Option<CaseId>,
    message: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<AlertId>> {
    let inserted = on_backend!(conn, c => diesel::insert_into(alerts::table)
        .values((
            alerts::rule.eq(rule),
            alerts::case_id.eq(case_id),
            alerts::message.eq(message),
            alerts::fired_at.eq(now),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    if inserted == 0 {
        return Ok(None);
    }
    let mut query = alerts::table
        .filter(alerts::rule.eq(rule))
        .select(alerts::id)
        .order(alerts::id.desc())
        .into_boxed();
    query = match case_id {
        Some(id) => query.filter(alerts::case_id.eq(id)),
        None => query.filter(alerts::case_id.is_null()),
    };
    query.first(conn).map(Some)
}

/// The queue rule's standing alert, if one stands.
pub fn standing_queue_alert(conn: &mut DbConnection, rule: &str) -> QueryResult<Option<AlertId>> {
    alerts::table
        .filter(alerts::rule.eq(rule))
        .filter(alerts::case_id.is_null())
        .filter(alerts::cleared_at.is_null())
        .select(alerts::id)
        .first(conn)
        .optional()
}

/// Clears a standing queue alert: the queue is back under its depth.
pub fn clear(conn: &mut DbConnection, id: AlertId, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(alerts::table.find(id))
        .set(alerts::cleared_at.eq(now))
        .execute(conn)
        .map(|_| ())
}

/// One stored alert, with who acknowledged it.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertListing {
    pub id: AlertId,
    pub rule: String,
    pub case_id: Option<CaseId>,
    pub message: String,
    pub fired_at: NaiveDateTime,
    pub cleared_at: Option<NaiveDateTime>,
    pub acknowledged_by: Option<String>,
    pub acknowledged_at: Option<NaiveDateTime>,
}

type ListingRow = (
    AlertId,
    String,
    Option<CaseId>,
    String,
    NaiveDateTime,
    Option<NaiveDateTime>,
    Option<String>,
    Option<NaiveDateTime>,
);

fn listing((id, rule, case_id, message, fired_at, cleared_at, by, at): ListingRow) -> AlertListing {
    AlertListing {
        id,
        rule,
        case_id,
        message,
        fired_at,
        cleared_at,
        acknowledged_by: by,
        acknowledged_at: at,
    }
}

/// A page of alerts, newest first, after the id `before` (exclusive), unacknowledged ones only
/// when asked.
pub fn page(
    conn: &mut DbConnection,
    unacknowledged_only: bool,
    before: Option<AlertId>,
    limit: i64,
) -> QueryResult<Vec<AlertListing>> {
    let mut query = alerts::table
        .left_join(players::table.on(alerts::acknowledged_by.eq(players::id.nullable())))
        .select((
            alerts::id,
            alerts::rule,
            alerts::case_id,
            alerts::message,
            alerts::fired_at,
            alerts::cleared_at,
            players::name.nullable(),
            alerts::acknowledged_at,
        ))
        .order(alerts::id.desc())
        .limit(limit)
        .into_boxed();
    if unacknowledged_only {
        query = query.filter(alerts::acknowledged_at.is_null());
    }
    if let Some(before) = before {
        query = query.filter(alerts::id.lt(before));
    }
    Ok(query
        .load::<ListingRow>(conn)?
        .into_iter()
        .map(listing)
        .collect())
}

/// One alert.
pub fn find(conn: &mut DbConnection, id: AlertId) -> QueryResult<Option<AlertListing>> {
    Ok(alerts::table
        .left_join(players::table.on(alerts::acknowledged_by.eq(players::id.nullable())))
        .filter(alerts::id.eq(id))
        .select((
            alerts::id,
            alerts::rule,
            alerts::case_id,
            alerts::message,
            alerts::fired_at,
            alerts::cleared_at,
            players::name.nullable(),
            alerts::acknowledged_at,
        ))
        .first::<ListingRow>(conn)
        .optional()?
        .map(listing))
}

/// Marks an alert acknowledged by `admin`, unless it already was; returns whether it changed.
pub fn acknowledge(
    conn: &mut DbConnection,
    id: AlertId,
    admin: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let changed = diesel::update(
        alerts::table
            .filter(alerts::id.eq(id))
            .filter(alerts::acknowledged_at.is_null()),
    )
    .set((
        alerts::acknowledged_by.eq(admin),
        alerts::acknowledged_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed > 0)
}

/// How many alerts nobody has acknowledged (a `/metrics` gauge).
pub fn unacknowledged_count(conn: &mut DbConnection) -> QueryResult<i64> {
    alerts::table
        .filter(alerts::acknowledged_at.is_null())
        .count()
        .get_result(conn)
}

/// The queue as the gauges show it: open cases by reason, the oldest one's opening, and the
/// alerts nobody acknowledged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct QueueGauges {
    pub open_by_reason: Vec<(ReportReason, i64)>,
    pub oldest_open: Option<NaiveDateTime>,
    pub unacknowledged_alerts: i64,
}

pub fn queue_gauges(conn: &mut DbConnection) -> QueryResult<QueueGauges> {
    let open_by_reason = cases::table
        .filter(cases::status.eq("open"))
        .group_by(cases::reason)
        .select((cases::reason, diesel::dsl::count_star()))
        .load::<(ReportReason, i64)>(conn)?;
    let oldest_open = cases::table
        .filter(cases::status.eq("open"))
        .select(cases::opened_at)
        .order((cases::opened_at, cases::id))
        .first(conn)
        .optional()?;
    Ok(QueueGauges {
        open_by_reason,
        oldest_open,
        unacknowledged_alerts: unacknowledged_count(conn)?,
    })
}
