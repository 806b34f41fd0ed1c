//! The review queue: open (or decided) cases in priority order, one page at a time. Reads
//! only; the rows are written by the reporting and decision code.
//!
//! Queue order is priority descending, then the oldest case first, then id. A case's priority
//! is its stored `priority_base` plus an age part that grows until it saturates at a known
//! maximum; the ranking (base and opening time to priority) is passed in by the caller.

use std::cmp::Ordering;
use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

pub use super::appeals::AppealRow;
pub use super::cases::CaseRow;
use super::connection::DbConnection;
pub use super::sanctions::SanctionRow;
use super::schema::{case_reports, cases, reports};
use crate::moderation::{CaseId, PlayerId};

/// Which cases a queue read lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    Open,
    Decided,
    All,
}

impl StatusFilter {
    fn statuses(self) -> &'static [&'static str] {
        match self {
            StatusFilter::Open => &["open"],
            StatusFilter::Decided => &["decided"],
            StatusFilter::All => &["open", "decided"],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct QueueFilter {
    pub status: StatusFilter,
    /// A reason code (`offensive_chat`, ...).
    pub reason: Option<String>,
    /// `Some(true)`: only cases with a running claim; `Some(false)`: only unclaimed ones (no
    /// claim, or an expired one).
    pub claimed: Option<bool>,
    /// Only cases about this player, by name.
    pub accused: Option<String>,
    /// Only cases holding a report this player filed, by name.
    pub reporter: Option<String>,
}

/// The filter's players as ids.
#[derive(Debug, Clone, Copy, Default)]
struct PlayerIds {
    accused: Option<PlayerId>,
    reporter: Option<PlayerId>,
}

/// A case's place in the queue at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueueKey {
    pub priority: f64,
    pub opened_at: NaiveDateTime,
    pub id: CaseId,
}

impl QueueKey {
    /// Queue order: `Less` means `self` comes first.
    pub fn rank(&self, other: &QueueKey) -> Ordering {
        other
            .priority
            .total_cmp(&self.priority)
            .then(self.opened_at.cmp(&other.opened_at))
            .then(self.id.cmp(&other.id))
    }
}

/// How the queue turns a stored base into a priority at the moment of the read.
pub struct Ranking<'a> {
    /// Priority from `(priority_base, opened_at)`.
    pub priority: &'a dyn Fn(f64, NaiveDateTime) -> f64,
    /// The most the age part adds, whatever the opening time.
    pub max_age_points: f64,
    /// The moment of the read (claims running at it count as claimed).
    pub now: NaiveDateTime,
}

/// One case as the queue lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedCase {
    pub case: CaseRow,
    pub priority: f64,
    pub accused: String,
    pub claimed_by: Option<String>,
    /// Distinct player reporters among the case's entries.
    pub reporters: i64,
}

impl QueuedCase {
    pub fn key(&self) -> QueueKey {
        QueueKey {
            priority: self.priority,
            opened_at: self.case.opened_at,
            id: self.case.id,
        }
    }
}

/// Rows read per statement while scanning the queue index.
const SCAN_CHUNK: i64 = 256;

/// Up to `limit` cases after `after` in queue order (the first page without it).
///
/// Reads the index `(status, priority_base DESC, opened_at, id)` in chunks, keeping the best
/// `limit` so far. Within one base the age part only falls along the index, so once a row of
/// a base cannot enter the page the rest of that base is skipped; once a base plus the largest
/// age part cannot reach the page's worst, nothing further can and the scan stops. The cost
/// follows the rows that could still reach the page, not the size of the queue.
pub fn queue_page(
    conn: &mut DbConnection,
    filter: &QueueFilter,
    ranking: &Ranking<'_>,
    after: Option<QueueKey>,
    limit: usize,
) -> QueryResult<Vec<QueuedCase>> {
    let mut ids = PlayerIds::default();
    for (name, id) in [
        (&filter.accused, &mut ids.accused),
        (&filter.reporter, &mut ids.reporter),
    ] {
        if let Some(name) = name {
            // A player moderation never saw is in no case.
            let Some(found) = super::players::find_id(conn, name)? else {
                return Ok(Vec::new());
            };
            *id = Some(found);
        }
    }
    let mut best: Vec<(QueueKey, CaseRow)> = Vec::new();
    for status in filter.status.statuses() {
        best.extend(scan_status(
            conn, status, filter, ids, ranking, after, limit,
        )?);
    }
    best.sort_by(|a, b| a.0.rank(&b.0));
    best.truncate(limit);
    let rows: Vec<(f64, CaseRow)> = best.into_iter().map(|(k, c)| (k.priority, c)).collect();
    describe(conn, rows)
}

type Backend = <DbConnection as diesel::Connection>::Backend;

/// The cases of one status passing the queue's filters, unordered.
fn cases_matching(
    status: &str,
    filter: &QueueFilter,
    ids: PlayerIds,
    now: NaiveDateTime,
) -> cases::BoxedQuery<'static, Backend> {
    let mut query = cases::table
        .filter(cases::status.eq(status.to_string()))
        .into_boxed();
    if let Some(reason) = &filter.reason {
        query = query.filter(cases::reason.eq(reason.clone()));
    }
    if let Some(accused) = ids.accused {
        query = query.filter(cases::accused_id.eq(accused));
    }
    if let Some(reporter) = ids.reporter {
        query = query.filter(
            cases::id.eq_any(
                case_reports::table
                    .inner_join(reports::table)
                    .filter(reports::reporter_id.eq(reporter))
                    .select(case_reports::case_id),
            ),
        );
    }
    match filter.claimed {
        Some(true) => query.filter(cases::claimed_until.gt(now)),
        Some(false) => query.filter(
            cases::claimed_until
                .is_null()
                .or(cases::claimed_until.le(now)),
        ),
        None => query,
    }
}

/// Where the next chunk of a scan starts.
#[derive(Debug, Clone, Copy)]
enum ScanFrom {
    /// Bases below (or, with `true`, up to) this one.
    Below(Option<(f64, bool)>),
    /// The rest of one base after a row: (base, opened_at, id).
    Within(f64, NaiveDateTime, CaseId),
}

/// How a chunk of rows ended for the page being gathered.
enum ChunkEnd {
    /// No later row can enter the page.
    Done,
    /// The rest of this base cannot enter the page.
    SkipBase(f64),
    /// Read on (the last row read, if any).
    Continue(Option<(f64, NaiveDateTime, CaseId)>),
}

/// The best `need` cases of one status in queue order, after `after`. Rows are read in
/// stored-base order a chunk at a time; since the age part adds at most
/// `ranking.max_age_points`, the scan stops at the first base that cannot reach the page.
fn scan_status(
    conn: &mut DbConnection,
    status: &str,
    filter: &QueueFilter,
    ids: PlayerIds,
    ranking: &Ranking<'_>,
    after: Option<QueueKey>,
    need: usize,
) -> QueryResult<Vec<(QueueKey, CaseRow)>> {
    // Sorted in queue order, at most `need`.
    let mut top: Vec<(QueueKey, CaseRow)> = Vec::new();
    let mut from = ScanFrom::Below(after.map(|k| (k.priority, true)));
    loop {
        let rows = read_chunk(conn, cases_matching(status, filter, ids, ranking.now), from)?;
        let full_chunk = rows.len() as i64 == SCAN_CHUNK;
        let within = matches!(from, ScanFrom::Within(..));
        let last_before = match from {
            ScanFrom::Within(base, opened_at, id) => Some((base, opened_at, id)),
            ScanFrom::Below(_) => None,
        };
        let end = rank_chunk(&mut top, rows, ranking, after, need);
        from = match end {
            ChunkEnd::Done => break,
            ChunkEnd::SkipBase(base) => ScanFrom::Below(Some((base, false))),
            ChunkEnd::Continue(last) => match (full_chunk, last.or(last_before)) {
                // More rows may follow the last one read.
                (true, Some((base, opened_at, id))) => ScanFrom::Within(base, opened_at, id),
                // A base ran out: continue below it.
                (false, Some((base, _, _))) if within => ScanFrom::Below(Some((base, false))),
                _ => break,
            },
        };
    }
    Ok(top)
}

/// One chunk of rows in stored-base order from where the scan stands.
fn read_chunk(
    conn: &mut DbConnection,
    query: cases::BoxedQuery<'static, Backend>,
    from: ScanFrom,
) -> QueryResult<Vec<CaseRow>> {
    let query = match from {
        ScanFrom::Within(base, opened_at, id) => query
            .filter(cases::priority_base.eq(base))
            .filter(cases::opened_at.ge(opened_at))
            .filter(cases::opened_at.gt(opened_at).or(cases::id.gt(id)))
            .order((cases::opened_at.asc(), cases::id.asc())),
        ScanFrom::Below(bound) => match bound {
            Some((base, true)) => query.filter(cases::priority_base.le(base)),
            Some((base, false)) => query.filter(cases::priority_base.lt(base)),
            None => query,
        }
        .order((
            cases::priority_base.desc(),
            cases::opened_at.asc(),
            cases::id.asc(),
        )),
    };
    query
        .select(CaseRow::as_select())
        .limit(SCAN_CHUNK)
        .load(conn)
}

/// Offers a chunk's rows to the page being gathered (`top`, sorted, at most `need`).
fn rank_chunk(
    top: &mut Vec<(QueueKey, CaseRow)>,
    rows: Vec<CaseRow>,
    ranking: &Ranking<'_>,
    after: Option<QueueKey>,
    need: usize,
) -> ChunkEnd {
    let mut last: Option<(f64, NaiveDateTime, CaseId)> = None;
    let mut skipping: Option<f64> = None;
    for row in rows {
        last = Some((row.priority_base, row.opened_at, row.id));
        if skipping == Some(row.priority_base) {
            continue;
        }
        skipping = None;
        let key = QueueKey {
            priority: (ranking.priority)(row.priority_base, row.opened_at),
            opened_at: row.opened_at,
            id: row.id,
        };
        if after.is_some_and(|a| key.rank(&a) != Ordering::Greater) {
            continue;
        }
        if top.len() >= need {
            if let Some((worst, _)) = top.last() {
                if row.priority_base + ranking.max_age_points < worst.priority {
                    return ChunkEnd::Done;
                }
                if key.rank(worst) != Ordering::Less {
                    skipping = Some(row.priority_base);
                    continue;
                }
            }
        }
        let at = top
            .binary_search_by(|(k, _)| k.rank(&key))
            .unwrap_or_else(|i| i);
        top.insert(at, (key, row));
        top.truncate(need);
    }
    match skipping {
        Some(base) => ChunkEnd::SkipBase(base),
        None => ChunkEnd::Continue(last),
    }
}

/// Adds names and distinct reporter counts to ranked case rows.
fn describe(conn: &mut DbConnection, rows: Vec<(f64, CaseRow)>) -> QueryResult<Vec<QueuedCase>> {
    let ids: Vec<CaseId> = rows.iter().map(|(_, c)| c.id).collect();
    let mut people: Vec<PlayerId> = rows
        .iter()
        .flat_map(|(_, c)| std::iter::once(c.accused_id).chain(c.claimed_by))
        .collect();
    people.sort_unstable();
    people.dedup();
    let names = super::players::names(conn, &people)?;
    let pairs: Vec<(CaseId, Option<PlayerId>)> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq_any(&ids))
        .filter(reports::reporter_id.is_not_null())
        .select((case_reports::case_id, reports::reporter_id))
        .distinct()
        .load(conn)?;
    let mut reporters: HashMap<CaseId, i64> = HashMap::new();
    for (case_id, _) in pairs {
        *reporters.entry(case_id).or_default() += 1;
    }
    Ok(rows
        .into_iter()
        .map(|(priority, case)| QueuedCase {
            priority,
            accused: names.get(&case.accused_id).cloned().unwrap_or_default(),
            claimed_by: case.claimed_by.and_then(|id| names.get(&id).cloned()),
            reporters: reporters.get(&case.id).copied().unwrap_or(0),
            case,
        })
        .collect())
}
