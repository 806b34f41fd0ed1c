//! `arbiter replay` and `arbiter perft`: the rules core from the command line.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;

use crate::rules::{perft, replay};

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// PGN4 files, or directories searched recursively for `*.pgn4`.
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
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

/// Replays every game and prints its check; fails when any game does not match its tags.
pub fn replay_files(args: &ReplayArgs) -> anyhow::Result<()> {
    let mut files = Vec::new();
    for path in &args.paths {
        collect_pgn4(path, &mut files)?;
    }
    let mut failed = 0usize;
    for file in &files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let check = replay::check(&text);
        println!("== {}\n{check}\n", file.display());
        if !check.ok() {
            failed += 1;
        }
    }
    println!(
        "{} games, {} ok, {} not ok",
        files.len(),
        files.len() - failed,
        failed
    );
    if failed > 0 {
        bail!(
            "{failed} of {} games do not replay to their recorded result",
            files.len()
        );
    }
    Ok(())
}

fn collect_pgn4(path: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("listing {}", path.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for entry in entries {
            if entry.is_dir() || entry.extension().is_some_and(|ext| ext == "pgn4") {
                collect_pgn4(&entry, out)?;
            }
        }
    } else if path.exists() {
        out.push(path.to_path_buf());
    } else {
        bail!("{}: no such file or directory", path.display());
    }
    Ok(())
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
