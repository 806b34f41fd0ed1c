//! Workload stats over a year of a busy site: fills a fresh SQLite file with 1,000,000 cases
//! opened evenly over 365 days (every 20th still open, each about its own player, the rest decided 10 minutes to 3 days
//! later by one of 20 admins) and their log lines (opened, first claim, decision) by bulk
//! `INSERT ... SELECT`; rolls the log into `stats_days` as the stats job does, printing the
//! time per day; then times the stats call's work (the rolled days read, bucketed and written
//! as the JSON answer) for a year by week, a quarter by day and a month by day, printing the
//! median and p99 of repeated calls.
//!
//! `cargo bench --bench stats`; `ARBITER_BENCH_CASES=N` for another size.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use arbiter::api::views::stats::StatsBucketView;
use arbiter::config::Settings;
use arbiter::moderation::stats::{buckets, BucketSize, DayStats};
use arbiter::store::{self, migrations, stats_days};
use arbiter::usecases::roll_stats::roll_stats;
use chrono::{NaiveDate, TimeDelta};
use diesel::connection::SimpleConnection;

const CALLS: usize = 200;
const DAYS: i64 = 365;

fn fill(conn: &mut store::DbConnection, n: usize) -> anyhow::Result<()> {
    let spacing = DAYS as f64 * 86_400.0 / n as f64;
    let sql = format!(
        "BEGIN;
         CREATE TEMP TABLE seq AS WITH RECURSIVE n(i) AS
             (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) SELECT i FROM n;
         INSERT INTO players (id, name, created_at)
             SELECT i, 'player' || i, '2025-01-01 00:00:00' FROM seq WHERE i <= 100000;
         INSERT INTO players (id, name, created_at)
             SELECT 100000 + i, 'admin' || i, '2025-01-01 00:00:00' FROM seq WHERE i <= 20;
         CREATE TEMP TABLE shape AS SELECT i,
             datetime('2025-01-01 00:00:00', '+' || CAST(i * {spacing} AS INTEGER) || ' seconds') AS opened,
             600 + (i * 7919) % 259200 AS wait,
             CASE i % 6 WHEN 0 THEN 'offensive_chat' WHEN 1 THEN 'rule_violating_chat'
                 WHEN 2 THEN 'abandoning' WHEN 3 THEN 'self_partnering'
                 WHEN 4 THEN 'prearranged_teaming' ELSE 'other' END AS reason,
             100001 + i % 20 AS admin,
             CASE i % 4 WHEN 0 THEN 'sanction' WHEN 1 THEN 'warn' WHEN 2 THEN 'dismiss_unjustified'
                 ELSE 'dismiss_not_actionable' END AS kind,
             i % 20 = 0 AS still_open
             FROM seq;
         INSERT INTO cases (id, accused_id, reason, status, opened_at, updated_at,
                            priority_base, entry_count, decided_at)
             SELECT i, CASE WHEN still_open THEN 1 + i / 20 ELSE 1 + i % 100000 END, reason,
                    CASE WHEN still_open THEN 'open' ELSE 'decided' END,
                    opened, opened, 20.0, 1,
                    CASE WHEN still_open THEN NULL ELSE datetime(opened, '+' || wait || ' seconds') END
             FROM shape;
         INSERT INTO modlog (at, actor_kind, kind, case_id, details)
             SELECT opened, 'system', 'case_opened', i,
                 '{{\"action\":\"case_opened\",\"case\":' || i || ',\"accused\":' || (1 + i % 100000)
                 || ',\"reason\":\"' || reason || '\"}}'
             FROM shape;
         INSERT INTO modlog (at, actor_kind, actor_id, kind, case_id, details)
             SELECT datetime(opened, '+' || (wait / 3) || ' seconds'), 'admin', admin, 'case_claimed', i,
                 '{{\"action\":\"case_claimed\",\"case\":' || i || ',\"admin\":' || admin
                 || ',\"until\":\"2026-01-01T00:00:00Z\"}}'
             FROM shape WHERE NOT still_open;
         INSERT INTO modlog (at, actor_kind, actor_id, kind, case_id, details)
             SELECT datetime(opened, '+' || wait || ' seconds'), 'admin', admin, 'decision', i,
                 '{{\"action\":\"decision\",\"case\":' || i || ',\"admin\":' || admin
                 || ',\"kind\":\"' || kind || '\",\"ground\":null,\"evidence_games\":[]}}'
             FROM shape WHERE NOT still_open;
         DROP TABLE shape;
         DROP TABLE seq;
         COMMIT;
         ANALYZE;"
    );
    conn.batch_execute(&sql)?;
    Ok(())
}

fn summary(label: &str, mut times: Vec<Duration>) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "  {label:<24} median {:>7.2} ms   p99 {:>7.2} ms   max {:>7.2} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
    );
}

/// The stats call's work without HTTP: read the days, bucket them, write the answer.
fn call(
    conn: &mut store::DbConnection,
    from: NaiveDate,
    to: NaiveDate,
    size: BucketSize,
) -> anyhow::Result<usize> {
    let rows = stats_days::days_between(conn, from, to)?;
    let days: Vec<DayStats> = rows.into_iter().map(|(d, _)| d).collect();
    let views: Vec<StatsBucketView> = buckets(&days, size)
        .iter()
        .map(StatsBucketView::from_bucket)
        .collect();
    Ok(serde_json::to_string(&views)?.len())
}

fn main() -> anyhow::Result<()> {
    let n: usize = std::env::var("ARBITER_BENCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::defaults()?;
    settings.database.url = format!("sqlite://{}", dir.path().join("stats.db").display());
    settings.database.pool_size = 1;
    let pool = store::connect(&settings.database)?;
    let mut conn = pool.get()?;
    migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?;
    let started = Instant::now();
    fill(&mut conn, n)?;
    println!(
        "SQLite: {n} cases over {DAYS} days with their log lines, inserted in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let first = NaiveDate::from_ymd_opt(2025, 1, 1).expect("date");
    let last = first + TimeDelta::days(DAYS - 1);
    let now = stats_days::end_of(last + TimeDelta::days(3));
    let started = Instant::now();
    let mut rolled = 0;
    loop {
        let pass = roll_stats(&mut conn, now)?;
        rolled += pass.days_completed;
        if !pass.behind {
            break;
        }
    }
    let took = started.elapsed();
    println!(
        "  rolled {rolled} days in {:.1} s: {:.1} ms a day ({} cases a day)",
        took.as_secs_f64(),
        took.as_secs_f64() * 1e3 / rolled.max(1) as f64,
        n as i64 / DAYS
    );

    for (label, from, size) in [
        ("a year by week", first, BucketSize::Week),
        ("a year by day", first, BucketSize::Day),
        (
            "a quarter by day",
            last - TimeDelta::days(89),
            BucketSize::Day,
        ),
        (
            "a month by day",
            last - TimeDelta::days(29),
            BucketSize::Day,
        ),
    ] {
        let mut times = Vec::with_capacity(CALLS);
        let mut bytes = 0;
        for _ in 0..CALLS {
            let started = Instant::now();
            bytes = call(&mut conn, from, last, size)?;
            times.push(started.elapsed());
        }
        summary(&format!("{label} ({} kB)", bytes / 1024), times);
    }
    Ok(())
}
