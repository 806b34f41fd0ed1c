//! The review queue's first page with 1,000,000 open cases: fills a fresh SQLite file (and,
//! with `ARBITER_BENCH_DATABASE_URL=postgres://...` pointing at an empty database, PostgreSQL
//! too) by bulk `INSERT ... SELECT`, then reads the queue through the store function the
//! route calls and prints the median and p99 over repeated reads, for the first page, a later
//! page and a reason filter.
//!
//! `cargo bench --bench queue_page`; `ARBITER_BENCH_CASES=N` for another size.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

#[path = "support/queue_fill.rs"]
mod queue_fill;

use std::time::{Duration, Instant};

use arbiter::config::Settings;
use arbiter::moderation::{max_age_points, priority_with_age, ModerationPolicy};
use arbiter::store::queue::{self, QueueFilter, QueueKey, Ranking, StatusFilter};
use arbiter::store::{self, migrations, to_utc, DbConnection};
use chrono::NaiveDateTime;

const READS: usize = 50;
const PAGE: usize = 50;

fn read(
    conn: &mut DbConnection,
    filter: &QueueFilter,
    now: NaiveDateTime,
    after: Option<QueueKey>,
) -> anyhow::Result<(Duration, Option<QueueKey>, usize)> {
    let policy = ModerationPolicy::default();
    let rank = |base: f64, opened_at: NaiveDateTime| {
        priority_with_age(base, to_utc(opened_at), to_utc(now), &policy)
    };
    let ranking = Ranking {
        priority: &rank,
        max_age_points: max_age_points(&policy),
        now,
    };
    let started = Instant::now();
    let rows = queue::queue_page(conn, filter, &ranking, after, PAGE + 1)?;
    let took = started.elapsed();
    Ok((took, rows.get(PAGE - 1).map(|r| r.key()), rows.len()))
}

fn summary(label: &str, mut times: Vec<Duration>) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "  {label:<28} median {:>7.2} ms   p99 {:>7.2} ms   max {:>7.2} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
    );
}

fn bench(url: &str, n: usize) -> anyhow::Result<()> {
    let mut settings = Settings::defaults()?;
    settings.database.url = url.to_string();
    settings.database.pool_size = 1;
    let pool = store::connect(&settings.database)?;
    let mut conn = pool.get()?;
    migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?;
    let backend = match &*conn {
        DbConnection::Sqlite(_) => "SQLite",
        DbConnection::Postgres(_) => "PostgreSQL",
    };
    let started = Instant::now();
    queue_fill::fill_open_cases(&mut conn, n)?;
    println!(
        "{backend}: {n} open cases inserted in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let open = QueueFilter {
        status: StatusFilter::Open,
        reason: None,
        claimed: None,
        accused: None,
        reporter: None,
    };
    let by_reason = QueueFilter {
        reason: Some("abandoning".to_string()),
        ..open.clone()
    };
    let unclaimed = QueueFilter {
        claimed: Some(false),
        ..open.clone()
    };
    for (label, filter) in [
        ("first page", &open),
        ("first page, reason filter", &by_reason),
        ("first page, unclaimed", &unclaimed),
    ] {
        let mut times = Vec::with_capacity(READS);
        for _ in 0..READS {
            let (took, _, len) = read(&mut conn, filter, store::now(), None)?;
            assert_eq!(len, PAGE + 1);
            times.push(took);
        }
        summary(label, times);
    }
    // The tenth page, following cursors from one clock.
    let now = store::now();
    let mut after = None;
    for _ in 0..9 {
        after = read(&mut conn, &open, now, after)?.1;
    }
    let mut times = Vec::with_capacity(READS);
    for _ in 0..READS {
        times.push(read(&mut conn, &open, now, after)?.0);
    }
    summary("tenth page (cursor)", times);
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let n: usize = std::env::var("ARBITER_BENCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir()?;
    bench(
        &format!("sqlite://{}", dir.path().join("queue.db").display()),
        n,
    )?;
    if let Ok(url) = std::env::var("ARBITER_BENCH_DATABASE_URL") {
        bench(&url, n)?;
    }
    Ok(())
}
