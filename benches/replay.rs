//! Replay every real game (FFA and Teams) repeatedly on one thread. Prints games/s and plies/s.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::time::{Duration, Instant};

use arbiter::rules::replay;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");
    let mut texts = Vec::new();
    for dir in ["ffa", "teams", "teams/fragments"] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            eprintln!("replay bench: no data in {root}/{dir}");
            std::process::exit(1);
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "pgn4") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    texts.push(text);
                }
            }
        }
    }
    let cpu_started = thread_cpu_seconds();
    let started = Instant::now();
    let mut games = 0u64;
    let mut plies = 0u64;
    while started.elapsed() < Duration::from_secs(3) {
        for text in &texts {
            if let Ok(r) = replay::replay(text) {
                plies += r.plies.len() as u64;
            }
            games += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    if let (Some(a), Some(b)) = (cpu_started, thread_cpu_seconds()) {
        // CPU time of this thread: the one-core figure even when other processes share the
        // machine (wall time then includes waiting for a core).
        let cpu = (b - a).max(1e-9);
        println!(
            "one core: {:.0} games/s, {:.0} plies/s ({cpu:.2} s of CPU time)",
            games as f64 / cpu,
            plies as f64 / cpu
        );
    }
    println!(
        "replayed {games} games ({} distinct), {plies} plies in {seconds:.2} s: {:.0} games/s, {:.0} plies/s",
        texts.len(),
        games as f64 / seconds,
        plies as f64 / seconds
    );
}

/// User plus system CPU time of the current thread, from `/proc` (Linux), in seconds.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // The kernel reports clock ticks; USER_HZ is 100 on Linux.
    Some((utime + stime) / 100.0)
}
