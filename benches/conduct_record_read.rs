//! Conduct tracking through the store, on fresh SQLite files:
//! - ingest throughput of the bulk import path with conduct tracking off and on (the real games
//!   replicated under fresh numbers and dates), and the difference;
//! - reading one player's record after 10,000 of their games (`store::conduct::record` plus
//!   the admin view), per read.
//!
//! `cargo bench --bench conduct_record_read`; `ARBITER_BENCH_GAMES=N` games per import
//! (default 10,000).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use std::sync::Arc;
use std::time::Instant;

use arbiter::archive::AbortPreset;
use arbiter::archive::{prepare_with, PreparedGame, Submission};
use arbiter::cli::import::{import_sources_with, ImportChecks, Source};
use arbiter::conduct::{admin_view, ConductPolicy};
use arbiter::config::Settings;
use arbiter::moderation::ModerationPolicy;
use arbiter::store::{self, conduct, migrations, DbConnection, PooledConnection};
use arbiter::usecases::{apply_conduct, import_games, ingest_game};
use chrono::{TimeDelta, TimeZone, Utc};

fn fresh_db(dir: &tempfile::TempDir, name: &str) -> anyhow::Result<PooledConnection> {
    let mut settings = Settings::defaults()?;
    settings.database.url = format!("sqlite://{}", dir.path().join(name).display());
    settings.database.pool_size = 1;
    let pool = store::connect(&settings.database)?;
    let mut conn = pool.get()?;
    migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(conn)
}

/// The `i`-th copy of a real game: a fresh number and a `Date` 37 minutes after the previous.
fn copy(games: &[String], i: usize, only: Option<usize>) -> Source {
    let original = &games[only.unwrap_or(i % games.len())];
    let number = common::fresh_number(original, i);
    let mut text = common::renumber(original, number);
    let at = Utc
        .with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_default()
        + TimeDelta::minutes(37 * i as i64);
    let date = format!(
        "[Date \"{} GMT+0000 (Coordinated Universal Time)\"]",
        at.format("%a %b %d %Y %H:%M:%S")
    );
    text = match text.find("[Date \"") {
        Some(start) => match text[start..].find(']') {
            Some(len) => format!("{}{}{}", &text[..start], date, &text[start + len + 1..]),
            None => text,
        },
        None => format!("{date}\n{text}"),
    };
    (format!("game {number}"), Ok(text))
}

fn import(
    conn: &mut DbConnection,
    sources: impl Iterator<Item = Source>,
    policy: Option<&Arc<ConductPolicy>>,
) -> anyhow::Result<(u64, f64)> {
    let started = Instant::now();
    let report = import_sources_with(
        conn,
        sources,
        AbortPreset::Seed001,
        ImportChecks {
            conduct: policy,
            ..ImportChecks::default()
        },
        1000,
        0,
        |_| {},
    )?;
    if !report.rejected.is_empty() {
        println!(
            "  rejected {} (first: {:?})",
            report.rejected.len(),
            report.rejected[0]
        );
    }
    Ok((report.imported, started.elapsed().as_secs_f64()))
}

/// Where the difference comes from: preparing (replay, chat, conduct outcomes) on one core
/// and writing (one transaction per 1,000 games as the import does, and one per game as HTTP
/// ingest does, then the applier's batches for what it queued), each with conduct tracking
/// off and on.
fn split(
    dir: &tempfile::TempDir,
    games: &[String],
    n: usize,
    policy: &Arc<ConductPolicy>,
) -> anyhow::Result<()> {
    let moderation = ModerationPolicy::default();
    for (label, conduct) in [("off", None), ("on", Some(policy))] {
        let started = Instant::now();
        let prepared: Vec<PreparedGame> = (0..n)
            .filter_map(|i| copy(games, i, None).1.ok())
            .filter_map(|text| {
                prepare_with(
                    Submission::from_pgn4(text),
                    AbortPreset::Seed001,
                    None,
                    conduct,
                    None,
                )
                .ok()
            })
            .collect();
        let prepare = started.elapsed().as_secs_f64();
        let mut conn = fresh_db(dir, &format!("split-{label}.db"))?;
        let started = Instant::now();
        for batch in prepared.chunks(1000) {
            import_games::import_batch(&mut conn, batch, &moderation, store::now())?;
        }
        let write = started.elapsed().as_secs_f64();
        // The HTTP ingest path: one transaction per game.
        let mut single = fresh_db(dir, &format!("split-single-{label}.db"))?;
        let started = Instant::now();
        for game in &prepared {
            ingest_game::ingest(&mut single, game, &moderation, store::now())?;
        }
        let write_single = started.elapsed().as_secs_f64();
        // What the HTTP path queued, applied as the applier does (500 games per transaction).
        let started = Instant::now();
        while apply_conduct::apply_pending(&mut single, policy, &moderation, 500, store::now())?
            .taken()
            > 0
        {}
        let apply = started.elapsed().as_secs_f64();
        let per = |secs: f64| secs * 1e6 / prepared.len().max(1) as f64;
        println!(
            "  conduct {label:>3}: prepare {:.1} µs/game on one core, write {:.1} µs/game \
             (1,000 per transaction), {:.1} µs/game (one per transaction) + applier {:.1} \
             µs/game (500 per transaction)",
            per(prepare),
            per(write),
            per(write_single),
            per(apply)
        );
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let n: usize = std::env::var("ARBITER_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let games = common::real_games();
    let dir = tempfile::tempdir()?;
    let policy = Arc::new(ConductPolicy::default());

    let mut off = fresh_db(&dir, "off.db")?;
    let (imported, off_secs) = import(&mut off, (0..n).map(|i| copy(&games, i, None)), None)?;
    let off_rate = imported as f64 / off_secs;
    println!("import, conduct off: {imported} games in {off_secs:.2} s: {off_rate:.0} games/s");
    drop(off);
    let mut on = fresh_db(&dir, "on.db")?;
    let (imported, on_secs) = import(
        &mut on,
        (0..n).map(|i| copy(&games, i, None)),
        Some(&policy),
    )?;
    let on_rate = imported as f64 / on_secs;
    println!(
        "import, conduct on:  {imported} games in {on_secs:.2} s: {on_rate:.0} games/s ({:+.1}% vs off)",
        (on_rate / off_rate - 1.0) * 100.0
    );

    split(&dir, &games, n.min(10_000), &policy)?;

    // One game replayed 10,000 times under fresh numbers: its Red player has 10,000 games.
    let mut reader = fresh_db(&dir, "record.db")?;
    let red = games[0]
        .lines()
        .find_map(|l| l.strip_prefix("[Red \""))
        .and_then(|l| l.split('"').next())
        .unwrap_or_default()
        .to_string();
    import(
        &mut reader,
        (0..10_000).map(|i| copy(&games, i, Some(0))),
        Some(&policy),
    )?;
    let record = conduct::record(&mut reader, &red)?
        .ok_or_else(|| anyhow::anyhow!("no record for {red}"))?;
    let rounds = 1_000;
    let started = Instant::now();
    for _ in 0..rounds {
        let record = conduct::record(&mut reader, &red)?.unwrap_or_else(|| record.clone());
        std::hint::black_box(admin_view(&record, Utc::now(), &policy));
    }
    let per_read = started.elapsed() / rounds;
    println!(
        "record of {red:?} with {} games: read + admin view {:.3} ms per read (goal: under 5 ms)",
        record.totals.games,
        per_read.as_secs_f64() * 1e3
    );
    Ok(())
}
