//! Workload stats are kept current: one pass rolls the moderation log into `stats_days`
//! (docs/moderation.md, "Stats").
//!
//! Steps: every day since the last one rolled for good (or since the log's first line) that
//! ended at least `SETTLE` ago is rolled for good, oldest first, at most `DAYS_PER_PASS` per
//! pass; then today so far is rolled again, marked provisional. The days are read and
//! tallied first, then stored in one transaction. A day is
//! its log lines turned into events and tallied (`moderation::stats`), with the open cases at
//! its end counted and the oldest of them found from the previous day's (it only moves
//! forward).

use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use diesel::prelude::*;

use crate::moderation::stats::{DayStats, DayTally};
use crate::store::stats_days::{self, end_of, start_of};
use crate::store::{to_utc, DbConnection};

/// How long after a day ends its last log lines are surely committed.
pub const SETTLE: TimeDelta = TimeDelta::minutes(10);

/// Most days rolled for good in one pass (a first start rolls the history over many).
pub const DAYS_PER_PASS: usize = 31;

/// Log lines read at once: a pass holds one page of a day's log, not all of it (a busy
/// day's whole log read at once held tens of megabytes every minute; issue #41).
pub const LINES_PER_READ: i64 = 2_000;

/// What a pass rolled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RollPass {
    pub days_completed: usize,
    /// More closed days wait for the next pass.
    pub behind: bool,
}

/// The days a pass rolled, read and tallied, not yet stored.
#[derive(Debug, Clone, Default)]
pub struct TalliedDays {
    /// Each day with whether it is rolled for good (`true`) or provisional (today so far).
    pub days: Vec<(DayStats, bool)>,
    pub pass: RollPass,
}

/// One pass on one connection: [`tally_days`], then [`store_days`].
pub fn roll_stats(conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<RollPass> {
    roll_stats_in_pages(conn, now, LINES_PER_READ)
}

/// [`roll_stats`] reading each day's log `lines_per_read` lines at a time (tests read a line
/// at a time, to show the pages add up to the day).
pub fn roll_stats_in_pages(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    lines_per_read: i64,
) -> QueryResult<RollPass> {
    let tallied = tally_days(conn, now, lines_per_read)?;
    store_days(conn, &tallied, now)
}

/// The reading half of a pass: the days to roll, tallied from the log. It only reads, so the
/// stats job runs it on a pooled connection and holds SQLite's one writer only for
/// [`store_days`]: a busy day's log takes seconds to read, and writes waiting that long were
/// refused as busy (issue #41).
pub fn tally_days(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    lines_per_read: i64,
) -> QueryResult<TalliedDays> {
    let mut tallied = TalliedDays::default();
    let (mut next, mut oldest) = match stats_days::last_complete(conn)? {
        Some((day, oldest)) => (day.succ_opt(), oldest),
        None => (stats_days::first_logged_day(conn)?, None),
    };
    while let Some(day) = next {
        if end_of(day) + SETTLE > now {
            break;
        }
        if tallied.pass.days_completed == DAYS_PER_PASS {
            tallied.pass.behind = true;
            return Ok(tallied);
        }
        let stats = day_stats(conn, day, end_of(day), oldest, lines_per_read)?;
        oldest = stats.oldest_open_at.map(|t| t.naive_utc());
        tallied.days.push((stats, true));
        tallied.pass.days_completed += 1;
        next = day.succ_opt();
    }
    // The days not yet complete, up to now (today, and yesterday while it settles).
    let mut day = next.unwrap_or_else(|| now.date());
    while start_of(day) <= now {
        let stats = day_stats(conn, day, now.min(end_of(day)), oldest, lines_per_read)?;
        tallied.days.push((stats, false));
        match day.succ_opt() {
            Some(following) => day = following,
            None => break,
        }
    }
    Ok(tallied)
}

/// The writing half of a pass: the tallied days stored in one transaction.
pub fn store_days(
    conn: &mut DbConnection,
    tallied: &TalliedDays,
    now: NaiveDateTime,
) -> QueryResult<RollPass> {
    conn.transaction(|conn| {
        for (stats, complete) in &tallied.days {
            stats_days::put_day(conn, stats, *complete, now)?;
        }
        Ok(tallied.pass)
    })
}

/// One day's tally from its log lines up to `until`, and the queue at `until`.
fn day_stats(
    conn: &mut DbConnection,
    day: NaiveDate,
    until: NaiveDateTime,
    oldest_before: Option<NaiveDateTime>,
    lines_per_read: i64,
) -> QueryResult<DayStats> {
    let mut tally = DayTally::default();
    let mut after = None;
    loop {
        let (events, last) =
            stats_days::events_between(conn, start_of(day), until, after, lines_per_read)?;
        for event in &events {
            tally.add(event);
        }
        match last {
            Some(position) => after = Some(position),
            None => break,
        }
    }
    Ok(DayStats {
        day,
        tally,
        open_at_end: stats_days::open_at(conn, until)?,
        oldest_open_at: stats_days::oldest_open_at(conn, until, oldest_before)?.map(to_utc),
    })
}
