//! `arbiter collusion scan` and `arbiter simulate` through the real binary.

use crate::rules::{arbiter, DATA};

/// The real FFA games: their pairs are scored and none is a finding.
#[test]
fn scan_of_the_real_games_flags_no_pair() {
    let (ok, out) = arbiter(&["collusion", "scan", &format!("{DATA}/ffa")]);
    assert!(ok, "{out}");
    assert!(out.starts_with("185 FFA/Solo games"), "{out}");
    assert!(out.contains("29 with 5+ shared games"), "{out}");
    assert!(out.trim_end().ends_with("0 findings"), "{out}");
}

/// A small seeded population: the table lists every kind, the colluders and the ring are found, the same
/// seed prints the same table, and the games can be written as `POST /api/v1/games` bodies.
#[test]
fn simulate_prints_a_reproducible_recall_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().to_str().expect("utf-8 path");
    let args = [
        "simulate",
        "--players",
        "40",
        "--games",
        "300",
        "--sparing",
        "2",
        "--feeding",
        "2",
        "--self-partnering",
        "2",
        "--rings",
        "1",
        "--arranged",
        "10",
        "--seed",
        "3",
    ];
    let (ok, first) = arbiter(&args);
    assert!(ok, "{first}");
    for kind in ["sparing", "feeding", "self_partnering", "honest (FPR)"] {
        assert!(first.contains(kind), "{first}");
    }
    assert!(
        first.contains("1.000 (2/2)"),
        "colluders with 10 games are found: {first}"
    );
    assert!(
        first.contains("rings: 1 of 1 found as one group of three or more; 0 other groups"),
        "{first}"
    );
    let mut with_out = args.to_vec();
    with_out.extend(["--out", out_dir]);
    let (ok, second) = arbiter(&with_out);
    assert!(ok, "{second}");
    let table = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&first), table(&second), "same seed, same table");
    let games = std::fs::read_to_string(dir.path().join("games.jsonl")).expect("games");
    let first_game: serde_json::Value =
        serde_json::from_str(games.lines().next().expect("a game")).expect("json");
    assert!(first_game["pgn4"]
        .as_str()
        .is_some_and(|p| p.contains("[Variant \"FFA\"]")));
    assert_eq!(first_game["seats"].as_array().map(Vec::len), Some(4));
    let truth = std::fs::read_to_string(dir.path().join("colluding.tsv")).expect("truth");
    // A header, two pairs of each kind and the ring's three pairs.
    assert_eq!(truth.lines().count(), 10, "{truth}");
}

#[test]
fn simulate_refuses_zero_threads() {
    let (ok, out) = arbiter(&["simulate", "--threads", "0"]);
    assert!(!ok);
    assert!(out.contains("--threads must be at least 1"), "{out}");
}
