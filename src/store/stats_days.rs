//! Workload stats (`stats_days`): each day's tally of the moderation log with the queue as it
//! stood at the day's end, and the reads that turn a day of log lines into
//! [`StatsEvent`]s (with the cases, first entries, earlier claims and admins' names they
//! need, read in batches). Rows and queries only; the pass is `usecases::roll_stats`.

use std::collections::{HashMap, HashSet};

use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeDelta};
use diesel::prelude::*;
use serde_json::Value;

use super::connection::DbConnection;
use super::schema::{case_reports, cases, modlog, players, reports, sanctions, stats_days};
use super::to_utc;
use crate::moderation::stats::{CaseOrigin, DayStats, DayTally, StatsEvent};
use crate::moderation::{CaseId, DecisionKind, PlayerId, ReportReason, ReportSource, SanctionId};

/// The log kinds the stats count.
const COUNTED: [&str; 6] = [
    "case_opened",
    "case_claimed",
    "claim_released",
    "claim_expired",
    "decision",
    "appeal_decided",
];

/// Ids read per `IN (...)` list.
const BATCH: usize = 500;

pub fn start_of(day: NaiveDate) -> NaiveDateTime {
    day.and_time(NaiveTime::MIN)
}

/// The stored days from `from` to `to` (inclusive), ascending, each with when it was rolled.
pub fn days_between(
    conn: &mut DbConnection,
    from: NaiveDate,
    to: NaiveDate,
) -> QueryResult<Vec<(DayStats, NaiveDateTime)>> {
    let rows: Vec<(NaiveDate, String, i64, Option<NaiveDateTime>, NaiveDateTime)> =
        stats_days::table
            .filter(stats_days::day.ge(from))
            .filter(stats_days::day.le(to))
            .order(stats_days::day)
            .select((
                stats_days::day,
                stats_days::tally,
                stats_days::open_at_end,
                stats_days::oldest_open_at,
                stats_days::rolled_at,
            ))
            .load(conn)?;
    rows.into_iter()
        .map(|(day, tally, open_at_end, oldest, rolled_at)| {
            let tally: DayTally = serde_json::from_str(&tally)
                .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))?;
            Ok((
                DayStats {
                    day,
                    tally,
                    open_at_end,
                    oldest_open_at: oldest.map(to_utc),
                },
                rolled_at,
            ))
        })
        .collect()
}

/// The latest day rolled for good, and the oldest open case at its end.
pub fn last_complete(
    conn: &mut DbConnection,
) -> QueryResult<Option<(NaiveDate, Option<NaiveDateTime>)>> {
    stats_days::table
        .filter(stats_days::complete.eq(true))
        .order(stats_days::day.desc())
        .select((stats_days::day, stats_days::oldest_open_at))
        .first(conn)
        .optional()
}

/// The day of the first log line, where rolling starts.
pub fn first_logged_day(conn: &mut DbConnection) -> QueryResult<Option<NaiveDate>> {
    let first: Option<NaiveDateTime> = modlog::table
        .select(modlog::at)
        .order((modlog::at, modlog::id))
        .first(conn)
        .optional()?;
    Ok(first.map(|at| at.date()))
}

/// Stores (or replaces) one day.
pub fn put_day(
    conn: &mut DbConnection,
    stats: &DayStats,
    complete: bool,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let tally = serde_json::to_string(&stats.tally)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let oldest = stats.oldest_open_at.map(|t| t.naive_utc());
    diesel::delete(stats_days::table.filter(stats_days::day.eq(stats.day))).execute(conn)?;
    diesel::insert_into(stats_days::table)
        .values((
            stats_days::day.eq(stats.day),
            stats_days::tally.eq(tally),
            stats_days::open_at_end.eq(stats.open_at_end),
            stats_days::oldest_open_at.eq(oldest),
            stats_days::complete.eq(complete),
            stats_days::rolled_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Cases open at `end`: opened before it and not decided by then.
pub fn open_at(conn: &mut DbConnection, end: NaiveDateTime) -> QueryResult<i64> {
    let opened: i64 = cases::table
        .filter(cases::opened_at.lt(end))
        .count()
        .get_result(conn)?;
    let decided: i64 = cases::table
        .filter(cases::decided_at.lt(end))
        .count()
        .get_result(conn)?;
    Ok(opened - decided)
}

/// When the oldest case open at `end` opened, searching from `not_before` (the answer for an
/// earlier end: it only moves forward).
pub fn oldest_open_at(
    conn: &mut DbConnection,
    end: NaiveDateTime,
    not_before: Option<NaiveDateTime>,
) -> QueryResult<Option<NaiveDateTime>> {
    let mut query = cases::table
        .filter(cases::opened_at.lt(end))
        .filter(cases::decided_at.is_null().or(cases::decided_at.ge(end)))
        .select(cases::opened_at)
        .order((cases::opened_at, cases::id))
        .into_boxed();
    if let Some(from) = not_before {
        query = query.filter(cases::opened_at.ge(from));
    }
    query.first(conn).optional()
}

/// A counted log line as read: id, time, kind, case, sanction, details.
type LineRow = (
    i64,
    NaiveDateTime,
    String,
    Option<CaseId>,
    Option<SanctionId>,
    String,
);

/// One counted log line.
struct Line {
    id: i64,
    at: NaiveDateTime,
    kind: String,
    case_id: Option<CaseId>,
    sanction_id: Option<SanctionId>,
    details: Value,
}

/// Where a read of the log stopped: the last line's time and id (lines are read in that
/// order).
pub type LogPosition = (NaiveDateTime, i64);

/// The events of at most `limit` counted log lines in `[start, end)` after `after`, with the
/// position of the last line read (`None` once none is left). A day is read a page at a time
/// so that a pass holds one page of lines, not a busy day's whole log (issue #41).
pub fn events_between(
    conn: &mut DbConnection,
    start: NaiveDateTime,
    end: NaiveDateTime,
    after: Option<LogPosition>,
    limit: i64,
) -> QueryResult<(Vec<StatsEvent>, Option<LogPosition>)> {
    let mut query = modlog::table
        .filter(modlog::at.ge(start))
        .filter(modlog::at.lt(end))
        .filter(modlog::kind.eq_any(COUNTED))
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            modlog::at
                .gt(at)
                .or(modlog::at.eq(at).and(modlog::id.gt(id))),
        );
    }
    let rows: Vec<LineRow> = query
        .order((modlog::at, modlog::id))
        .select((
            modlog::id,
            modlog::at,
            modlog::kind,
            modlog::case_id,
            modlog::sanction_id,
            modlog::details,
        ))
        .limit(limit)
        .load(conn)?;
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|(id, at, kind, case_id, sanction_id, details)| Line {
            id,
            at,
            kind,
            case_id,
            sanction_id,
            details: serde_json::from_str(&details).unwrap_or(Value::Null),
        })
        .collect();
    let last = lines.last().map(|l| (l.at, l.id));
    let lookups = Lookups::read(conn, &lines)?;
    Ok((
        lines.iter().filter_map(|l| lookups.event(l)).collect(),
        last,
    ))
}

/// What the events need besides the log lines, read in batches.
#[derive(Default)]
struct Lookups {
    cases: HashMap<CaseId, (ReportReason, NaiveDateTime)>,
    origins: HashMap<CaseId, CaseOrigin>,
    /// Claim lines that were not their case's first.
    later_claims: HashSet<i64>,
    names: HashMap<PlayerId, String>,
    issuers: HashMap<SanctionId, PlayerId>,
}

fn player_in(details: &Value, key: &str) -> Option<PlayerId> {
    details.get(key).and_then(Value::as_i64).map(PlayerId)
}

fn parse<T: serde::de::DeserializeOwned>(value: Option<&Value>) -> Option<T> {
    value.and_then(|v| serde_json::from_value(v.clone()).ok())
}

impl Lookups {
    fn read(conn: &mut DbConnection, lines: &[Line]) -> QueryResult<Lookups> {
        let mut found = Lookups::default();
        let case_ids: Vec<CaseId> = {
            let mut ids: Vec<CaseId> = lines.iter().filter_map(|l| l.case_id).collect();
            ids.sort_unstable();
            ids.dedup();
            ids
        };
        for chunk in case_ids.chunks(BATCH) {
            let rows: Vec<(CaseId, ReportReason, NaiveDateTime)> = cases::table
                .filter(cases::id.eq_any(chunk))
                .select((cases::id, cases::reason, cases::opened_at))
                .load(conn)?;
            found
                .cases
                .extend(rows.into_iter().map(|(id, r, at)| (id, (r, at))));
        }
        let opened: Vec<CaseId> = lines
            .iter()
            .filter(|l| l.kind == "case_opened")
            .filter_map(|l| l.case_id)
            .collect();
        for chunk in opened.chunks(BATCH) {
            // The first entry of each case (the lowest report id) says where it came from.
            let rows: Vec<(CaseId, i64, ReportSource)> = case_reports::table
                .inner_join(reports::table.on(reports::id.eq(case_reports::report_id)))
                .filter(case_reports::case_id.eq_any(chunk))
                .select((case_reports::case_id, reports::id, reports::source))
                .load(conn)?;
            let mut first: HashMap<CaseId, (i64, ReportSource)> = HashMap::new();
            for (case, report, source) in rows {
                let entry = first.entry(case).or_insert((report, source));
                if report < entry.0 {
                    *entry = (report, source);
                }
            }
            found.origins.extend(
                first
                    .into_iter()
                    .map(|(case, (_, source))| (case, origin_of(source))),
            );
        }
        let claims: Vec<(CaseId, i64)> = lines
            .iter()
            .filter(|l| l.kind == "case_claimed")
            .filter_map(|l| l.case_id.map(|c| (c, l.id)))
            .collect();
        for chunk in claims.chunks(BATCH) {
            let ids: Vec<CaseId> = chunk.iter().map(|(c, _)| *c).collect();
            let all: Vec<(Option<CaseId>, i64)> = modlog::table
                .filter(modlog::case_id.eq_any(&ids))
                .filter(modlog::kind.eq("case_claimed"))
                .select((modlog::case_id, modlog::id))
                .load(conn)?;
            let mut first: HashMap<CaseId, i64> = HashMap::new();
            for (case, id) in all.into_iter().filter_map(|(c, id)| c.map(|c| (c, id))) {
                let entry = first.entry(case).or_insert(id);
                *entry = (*entry).min(id);
            }
            for (case, line) in chunk {
                if first.get(case).is_some_and(|f| f < line) {
                    found.later_claims.insert(*line);
                }
            }
        }
        let sanction_ids: Vec<SanctionId> = lines
            .iter()
            .filter(|l| l.kind == "appeal_decided")
            .filter_map(|l| {
                l.sanction_id.or_else(|| {
                    l.details
                        .get("sanction")
                        .and_then(Value::as_i64)
                        .map(SanctionId)
                })
            })
            .collect();
        for chunk in sanction_ids.chunks(BATCH) {
            let rows: Vec<(SanctionId, PlayerId)> = sanctions::table
                .filter(sanctions::id.eq_any(chunk))
                .select((sanctions::id, sanctions::issued_by))
                .load(conn)?;
            found.issuers.extend(rows);
        }
        let mut people: Vec<PlayerId> = lines
            .iter()
            .filter_map(|l| player_in(&l.details, "admin"))
            .chain(found.issuers.values().copied())
            .collect();
        people.sort_unstable();
        people.dedup();
        for chunk in people.chunks(BATCH) {
            let rows: Vec<(PlayerId, String)> = players::table
                .filter(players::id.eq_any(chunk))
                .select((players::id, players::name))
                .load(conn)?;
            found.names.extend(rows);
        }
        Ok(found)
    }

    fn name(&self, id: Option<PlayerId>) -> Option<String> {
        id.and_then(|id| self.names.get(&id).cloned())
    }

    /// The event a line stands for, if it counts.
    fn event(&self, line: &Line) -> Option<StatsEvent> {
        let case = line
            .case_id
            .and_then(|c| self.cases.get(&c).map(|v| (c, *v)));
        let waited = |opened: NaiveDateTime| (line.at - opened).num_seconds();
        match line.kind.as_str() {
            "case_opened" => {
                let (id, (reason, _)) = case?;
                let origin = self
                    .origins
                    .get(&id)
                    .copied()
                    .unwrap_or(CaseOrigin::Automatic);
                Some(StatsEvent::Opened { reason, origin })
            }
            "case_claimed" if !self.later_claims.contains(&line.id) => {
                let (_, (reason, opened)) = case?;
                Some(StatsEvent::FirstClaim {
                    reason,
                    waited: waited(opened),
                })
            }
            "claim_released" | "claim_expired" => Some(StatsEvent::ClaimDropped {
                admin: self.name(player_in(&line.details, "admin"))?,
            }),
            "decision" => {
                let (_, (reason, opened)) = case?;
                Some(StatsEvent::Decided {
                    reason,
                    outcome: parse::<DecisionKind>(line.details.get("kind"))?,
                    admin: self.name(player_in(&line.details, "admin"))?,
                    waited: waited(opened),
                })
            }
            "appeal_decided" => {
                let decision = line.details.get("decision")?.get("decision")?.as_str()?;
                if decision == "uphold" {
                    return None;
                }
                let sanction = line.sanction_id.or_else(|| {
                    line.details
                        .get("sanction")
                        .and_then(Value::as_i64)
                        .map(SanctionId)
                });
                let issuer = sanction.and_then(|s| self.issuers.get(&s).copied());
                Some(StatsEvent::Reversed {
                    admin: self.name(issuer)?,
                })
            }
            _ => None,
        }
    }
}

fn origin_of(source: ReportSource) -> CaseOrigin {
    match source {
        ReportSource::Player => CaseOrigin::Player,
        ReportSource::Admin => CaseOrigin::Admin,
        ReportSource::ChatAnalysis
        | ReportSource::ConductSignal
        | ReportSource::CollusionAnalysis
        | ReportSource::FingerprintMatch => CaseOrigin::Automatic,
    }
}

/// The end of `day` (the start of the next).
pub fn end_of(day: NaiveDate) -> NaiveDateTime {
    start_of(day) + TimeDelta::days(1)
}
