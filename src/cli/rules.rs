//! `arbiter replay` and `arbiter perft`: the rules core from the command line.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;

use super::pgn4_paths::pgn4_files;
use crate::rules::geometry::Seat;
use crate::rules::{perft, replay};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// PGN4 files, or directories searched recursively for `*.pgn4`.
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
    /// Also print every award of points: ply, player, points and the scoring rule.
    #[arg(long)]
    pub explain: bool,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Search depth in plies.
    pub depth: u32,
    /// Start from this FEN4 (or a setup name: `4PC`, `4PCo`) instead of the modern start.
    #[arg(long, value_name = "F")]
    pub fen4: Option<String>,
    /// Rule set preset plus rule variants, e.g. `teams EnPassant`, `ffa EnPassant=next`.
    #[arg(long, value_name = "R")]
    pub ruleset: Option<String>,
    /// Print the node count below each first move.
    #[arg(long)]
    pub divide: bool,
}

/// Replays every game and prints its check; fails when any game does not match its tags or
/// has no moves.
pub fn replay_files(args: &ReplayArgs) -> anyhow::Result<()> {
    let files = pgn4_files(&args.paths)?;
    let mut failed = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let check = replay::check(&text);
        println!("== {}", file.display());
        // Nothing to replay is no evidence of a legal game, whatever the tags say.
        if check.error.is_none() && check.plies == 0 {
            println!("no moves: the file is empty or holds only tags\nNOT OK\n");
            eprintln!("{}: no moves (empty or tags only)", file.display());
            failed.push(file);
            continue;
        }
        println!("{check}");
        if args.explain {
            if let Ok(replayed) = replay::replay(&text) {
                print!("{}", points_breakdown(&replayed));
            }
        }
        println!();
        if !check.ok() {
            failed.push(file);
        }
    }
    println!(
        "{} games, {} ok, {} not ok",
        files.len(),
        files.len() - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        bail!(
            "{} of {} games do not replay to their recorded result: {}",
            failed.len(),
            files.len(),
            name_some(&failed)
        );
    }
    Ok(())
}

/// One line per award: where, to whom, how much, by which rule, and the points after it.
fn points_breakdown(replayed: &replay::Replay) -> String {
    let mut out = String::from("points, award by award:\n");
    let mut totals = [0i32; 4];
    for award in replayed.game.awards() {
        totals[award.seat.index()] += award.points;
        let place = match replayed.plies.get(award.ply) {
            Some(ply) => format!(
                "ply {} (round {}, {}) {}",
                award.ply,
                ply.round,
                ply.mover,
                replayed.ply_text(award.ply).unwrap_or("")
            ),
            None => "after the last ply (Termination tag)".to_string(),
        };
        let running = Seat::ALL
            .iter()
            .map(|s| format!("{s} {}", totals[s.index()]))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!("  {place}: {award}  [{running}]\n"));
    }
    if replayed.game.awards().is_empty() {
        out.push_str("  none\n");
    }
    out
}

/// The first few paths, then how many more: an error line stays readable for a big run.
fn name_some(paths: &[&PathBuf]) -> String {
    const SHOWN: usize = 5;
    let mut text = paths
        .iter()
        .take(SHOWN)
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > SHOWN {
        text.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    text
}

/// Counts leaf positions to `depth` and prints nodes and speed.
pub fn run_perft(args: &PerftArgs) -> anyhow::Result<()> {
    let mut position = perft::start_position(args.ruleset.as_deref(), args.fen4.as_deref())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let started = Instant::now();
    let nodes = if args.divide {
        let rows = perft::divide(&mut position, args.depth);
        for (mv, count) in &rows {
            println!("{mv}: {count}");
        }
        rows.iter().map(|(_, count)| count).sum()
    } else {
        perft::perft(&mut position, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("perft({}) = {nodes}", args.depth);
    println!(
        "{seconds:.3} s, {:.1} M nodes/s",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}
