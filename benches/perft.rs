//! perft(6) from the modern 4PC start position (site rules: Teams, wide en-passant window),
//! bulk-counted at the last ply, on one thread. Prints nodes and nodes per second.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::time::Instant;

use arbiter::rules::perft;

fn main() {
    let depth = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u32>().ok())
        .unwrap_or(6);
    let mut position = match perft::start_position(None, None) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("perft bench: {e}");
            std::process::exit(1);
        }
    };
    let started = Instant::now();
    let nodes = perft::perft(&mut position, depth);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} nodes in {seconds:.3} s = {:.1} M nodes/s",
        nodes as f64 / seconds / 1e6
    );
}
