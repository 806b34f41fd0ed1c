//! Chat analysis throughput: lines per second on one core over the CONDA chat
//! lines (normalisation, offensive language, per-line spam, FFA categories; no
//! position context). Prints the figure; run with `cargo bench --bench chat`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::time::Instant;

/// CPU time of this thread in seconds (clock ticks of /proc), so the figure is
/// per core even when other processes share the machine; None where unavailable.
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line (11 and 12 here).
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}

use arbiter::chat::eval::parse_conda;
use arbiter::chat::{
    analyze_game_chat, analyze_line_with, Analyzer, Channel, ChatLine, GameChatContext,
    LineContext, Scratch, Variant,
};

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chat/conda/CONDA_valid.csv"
    );
    let lines: Vec<String> = match std::fs::read_to_string(path) {
        Ok(text) => match parse_conda(&text) {
            Ok(rows) => rows
                .into_iter()
                .flat_map(|r| r.text.lines().map(str::to_string).collect::<Vec<_>>())
                .collect(),
            Err(e) => {
                eprintln!("chat bench: {path}: {e}");
                return;
            }
        },
        Err(e) => {
            eprintln!("chat bench: {path}: {e}");
            return;
        }
    };
    // The lines sit in one buffer, as a batch of chat read from a log would.
    let mut arena = String::new();
    let mut ranges = Vec::with_capacity(lines.len());
    for line in &lines {
        let start = arena.len();
        arena.push_str(line);
        ranges.push((start, arena.len()));
    }
    let lines: Vec<&str> = ranges.iter().map(|&(a, b)| &arena[a..b]).collect();
    let built = Instant::now();
    let analyzer = match Analyzer::embedded() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("chat bench: {e}");
            return;
        }
    };
    println!(
        "chat: analyser built in {:.1} ms ({} automaton patterns, {:.1} MB)",
        built.elapsed().as_secs_f64() * 1e3,
        analyzer.lexicon().pattern_count(),
        analyzer.lexicon().memory_usage() as f64 / 1e6
    );
    // Normalisation alone, for comparison.
    let mut normalized = arbiter::chat::NormalizedLine::new();
    let start = Instant::now();
    let mut bytes = 0usize;
    for _ in 0..20 {
        for line in &lines {
            normalized.normalize(line);
            bytes += normalized.text.len();
        }
    }
    println!(
        "chat: normalisation alone {:.0} lines/s ({bytes} bytes)",
        (lines.len() * 20) as f64 / start.elapsed().as_secs_f64()
    );
    let mut scratch = Scratch::new();
    let teams = LineContext {
        variant: Variant::Teams,
        ..LineContext::ffa_in_progress()
    };
    let mut teams_flags = 0usize;
    let start = Instant::now();
    for _ in 0..20 {
        for line in &lines {
            teams_flags += analyze_line_with(&analyzer, &mut scratch, &teams, line)
                .flags
                .len();
        }
    }
    println!(
        "chat: without the FFA stage {:.0} lines/s ({teams_flags} flags)",
        (lines.len() * 20) as f64 / start.elapsed().as_secs_f64()
    );
    let context = LineContext::ffa_in_progress();
    let mut flagged = 0usize;
    // Warm-up, then timed rounds.
    for line in &lines {
        flagged += analyze_line_with(&analyzer, &mut scratch, &context, line)
            .flags
            .len();
    }
    // Best of several timed rounds: other processes on a shared machine only ever
    // make a round slower, so the fastest round is the closest to one free core.
    let rounds = 15;
    let per_round = 5;
    let mut best = f64::INFINITY;
    let mut cpu_total = 0.0;
    let mut wall_total = 0.0;
    for _ in 0..rounds {
        let cpu_start = thread_cpu_seconds();
        let start = Instant::now();
        for _ in 0..per_round {
            for line in &lines {
                let analysis = analyze_line_with(&analyzer, &mut scratch, &context, line);
                flagged += analysis.flags.len();
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        best = best.min(seconds);
        wall_total += seconds;
        cpu_total += match (cpu_start, thread_cpu_seconds()) {
            (Some(a), Some(b)) if b >= a => b - a,
            _ => seconds,
        };
    }
    let per_round_lines = (lines.len() * per_round) as f64;
    let total = per_round_lines * rounds as f64;
    let average_len = lines.iter().map(|l| l.len()).sum::<usize>() as f64 / lines.len() as f64;
    println!("chat: {total} lines (avg {average_len:.1} bytes), {rounds} rounds ({flagged} flags)");
    println!(
        "chat: {:.0} lines/s on one core (best round); {:.0} lines/s by CPU time; {:.0} lines/s wall clock overall",
        per_round_lines / best,
        total / cpu_total.max(1e-9),
        total / wall_total
    );
    whole_logs(&analyzer, &lines);
}

/// The same lines as games' logs, as ingest reads them: 40 lines a game from four senders
/// in turn, three seconds apart, so every line is read with the sender's earlier lines and
/// the line it answers (the spam tracker and the repeated-abuse rule run too).
fn whole_logs(analyzer: &Analyzer, lines: &[&str]) {
    const SENDERS: [&str; 4] = ["red", "blue", "yellow", "green"];
    let game = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: None,
        ended_at_ms: None,
    };
    let logs: Vec<Vec<ChatLine>> = lines
        .chunks(40)
        .map(|chunk| {
            chunk
                .iter()
                .enumerate()
                .map(|(i, text)| ChatLine {
                    ply: Some(i as u32),
                    time_ms: i as u64 * 3_000,
                    sender: SENDERS[i % 4].to_string(),
                    channel: Channel::Game,
                    text: (*text).to_string(),
                })
                .collect()
        })
        .collect();
    let mut best = f64::INFINITY;
    let mut flags = 0usize;
    for _ in 0..5 {
        let start = Instant::now();
        for log in &logs {
            let analysis = analyze_game_chat(analyzer, &game, log, &[]);
            flags += analysis
                .lines
                .iter()
                .map(|l| l.analysis.flags.len())
                .sum::<usize>();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "chat: whole logs with the conversation in view {:.0} lines/s on one core (best of 5 rounds, {flags} flags)",
        lines.len() as f64 / best
    );
}
