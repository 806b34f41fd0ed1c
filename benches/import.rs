//! The bulk import path (`arbiter import`) on the real games replicated under fresh game
//! numbers, into a fresh SQLite file. Prints games/s.
//!
//! `cargo bench --bench import` (100,000 games); `ARBITER_BENCH_GAMES=20000` for fewer;
//! `ARBITER_BENCH_DATABASE_URL=postgres://...` to import into PostgreSQL instead.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use std::time::Instant;

use arbiter::archive::AbortPreset;
use arbiter::cli::import::import_sources;
use arbiter::config::Settings;
use arbiter::store::{self, migrations};

fn main() -> anyhow::Result<()> {
    let n: usize = std::env::var("ARBITER_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let games = common::real_games();
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::defaults()?;
    settings.database.url = std::env::var("ARBITER_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.path().join("import.db").display()));
    settings.database.pool_size = 1;
    let pool = store::connect(&settings.database)?;
    let mut conn = pool.get()?;
    migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?;

    // Replay alone, on all cores, for comparison with the whole import.
    let sample = n.min(10_000);
    let texts: Vec<String> = (0..sample)
        .map(|i| common::replicated(&games, i).1)
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let replay_started = Instant::now();
    std::thread::scope(|scope| {
        for part in texts.chunks(sample.div_ceil(threads)) {
            scope.spawn(move || {
                for text in part {
                    let _ = arbiter::archive::prepare(
                        arbiter::archive::Submission::from_pgn4(text.clone()),
                        AbortPreset::Seed001,
                    );
                }
            });
        }
    });
    println!(
        "replay + derive only: {:.0} games/s on {threads} threads",
        sample as f64 / replay_started.elapsed().as_secs_f64()
    );
    drop(texts);

    let sources = (0..n).map(|i| {
        let (number, text) = common::replicated(&games, i);
        (format!("game {number}"), Ok(text))
    });
    let started = Instant::now();
    let report = import_sources(&mut conn, sources, AbortPreset::Seed001, 1000, 0, |_| {})?;
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "import: {} games ({} distinct) in {seconds:.2} s: {:.0} games/s; imported {}, duplicates {}, rejected {}",
        report.total(),
        games.len(),
        report.total() as f64 / seconds,
        report.imported,
        report.duplicates,
        report.rejected.len()
    );
    for (source, reason) in report.rejected.iter().take(5) {
        println!("  rejected {source}: {reason}");
    }
    Ok(())
}
