//! Replay every real game (FFA and Teams) repeatedly on one thread. Prints games/s and plies/s.

use std::time::{Duration, Instant};

use arbiter::rules::replay;

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn4");
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
    println!(
        "replayed {games} games ({} distinct), {plies} plies in {seconds:.2} s: {:.0} games/s, {:.0} plies/s",
        texts.len(),
        games as f64 / seconds,
        plies as f64 / seconds
    );
}
