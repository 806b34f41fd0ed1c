//! `arbiter replay` and `arbiter perft` through the real binary.

use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

fn arbiter(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("the binary runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[test]
fn replay_accepts_the_real_games() {
    let (ok, out) = arbiter(&["replay", &format!("{DATA}/ffa"), &format!("{DATA}/teams")]);
    assert!(ok, "{out}");
    assert!(out.contains("129 games, 129 ok, 0 not ok"), "{out}");
}

#[test]
fn replay_fails_on_a_broken_export_and_names_the_move() {
    let (ok, out) = arbiter(&["replay", &format!("{DATA}/quirks/cc_game_0133.pgn4")]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("illegal move at ply 74 (round 23, Red): Qg2-h3"),
        "{out}"
    );
}

#[test]
fn replay_refuses_a_missing_path() {
    let (ok, out) = arbiter(&["replay", "/nonexistent/game.pgn4"]);
    assert!(!ok);
    assert!(out.contains("no such file"), "{out}");
}

#[test]
fn perft_counts_and_divides() {
    let (ok, out) = arbiter(&["perft", "3"]);
    assert!(ok, "{out}");
    assert!(out.contains("perft(3) = 7800"), "{out}");
    let (ok, out) = arbiter(&["perft", "2", "--divide"]);
    assert!(ok, "{out}");
    assert!(out.contains("perft(2) = 395"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.contains(": ")).count(),
        20,
        "{out}"
    );
}

#[test]
fn perft_rejects_an_unknown_ruleset() {
    let (ok, out) = arbiter(&["perft", "1", "--ruleset", "chaturanga"]);
    assert!(!ok);
    assert!(out.to_lowercase().contains("chaturanga"), "{out}");
}
