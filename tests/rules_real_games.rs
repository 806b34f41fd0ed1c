//! Every real game replays with every move legal and the computed result equals the tags.

use std::path::{Path, PathBuf};

use arbiter::rules::replay::{self, ReplayError};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/pgn4");

fn files_in(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(Path::new(DATA).join(dir))
        .expect("data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("readable file")
}

fn check_all(dir: &str) {
    let files = files_in(dir);
    assert!(!files.is_empty(), "no games in {dir}");
    let mut failures = Vec::new();
    for path in &files {
        let check = replay::check(&read(path));
        if !check.ok() {
            failures.push(format!("{}:\n{check}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} games fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn ffa_games_replay_with_exact_points() {
    check_all("ffa");
}

#[test]
fn teams_games_replay_with_the_right_winner() {
    check_all("teams");
}

#[test]
fn teams_fragments_replay_with_every_move_legal() {
    check_all("teams/fragments");
}

#[allow(dead_code)]
fn unused(_: ReplayError) {}
