//! `arbiter replay` and `arbiter perft` through the real binary.

use std::process::Command;

pub(crate) const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

/// Runs the binary; (exit status success, stdout then stderr).
pub(crate) fn arbiter(args: &[&str]) -> (bool, String) {
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
    assert!(out.contains("192 games, 192 ok, 0 not ok"), "{out}");
}

/// `--explain` names the rule behind every point: in `cc_game_0091` the site's +1 for a knight's
/// double check and the walking king's +20 at the draw by insufficient material.
#[test]
fn replay_explain_names_the_rule_of_every_award() {
    let (ok, out) = arbiter(&[
        "replay",
        "--explain",
        &format!("{DATA}/ffa/cc_game_0091.pgn4"),
    ]);
    assert!(ok, "{out}");
    assert!(
        out.contains("ply 361 (round 114, Red) Nh7-g9++: Red +1: double check (reduced bonus)"),
        "{out}"
    );
    assert!(
        out.contains("Green +10: draw by insufficient material"),
        "{out}"
    );
    assert!(
        out.contains("Red +20: share of 1 walking king(s) at the draw  [Red 71, Blue 56, Yellow 10, Green 73]"),
        "{out}"
    );
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

#[test]
fn replay_fails_on_a_file_without_moves_and_names_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("empty.pgn4");
    std::fs::write(&empty, "").expect("write");
    let tags_only = dir.path().join("tags-only.pgn4");
    let game = std::fs::read_to_string(format!("{DATA}/ffa/cc_game_0016.pgn4")).expect("game");
    let tags: String = game
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!tags.is_empty());
    std::fs::write(&tags_only, tags).expect("write");
    for file in [&empty, &tags_only] {
        let path = file.display().to_string();
        let (ok, out) = arbiter(&["replay", &path]);
        assert!(!ok, "{out}");
        assert!(
            out.contains(&format!("{path}: no moves (empty or tags only)")),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "1 of 1 games do not replay to their recorded result: {path}"
            )),
            "{out}"
        );
    }
    // In a directory with good games, the run fails too.
    std::fs::copy(
        format!("{DATA}/ffa/cc_game_0016.pgn4"),
        dir.path().join("good.pgn4"),
    )
    .expect("copy");
    let (ok, out) = arbiter(&["replay", &dir.path().display().to_string()]);
    assert!(!ok, "{out}");
    assert!(out.contains("3 games, 1 ok, 2 not ok"), "{out}");
}

#[test]
fn perft_refuses_an_unknown_rule_variant_and_lists_the_known_ones() {
    let (ok, out) = arbiter(&["perft", "1", "--ruleset", "ffa EnPassant Play4Mate"]);
    assert!(!ok, "{out}");
    assert!(out.contains("unknown rule variant 'Play4Mate'"), "{out}");
    for known in [
        "EnPassant=next",
        "DeadKingWalking",
        "PromoteTo=",
        "Stalemate=draw",
    ] {
        assert!(out.contains(known), "{known} missing from: {out}");
    }
    assert!(!out.contains("perft(1)"), "nothing counted: {out}");
    let (ok, out) = arbiter(&[
        "perft",
        "1",
        "--ruleset",
        "ffa EnPassant=next DeadKingWalking",
    ]);
    assert!(ok, "{out}");
}

#[test]
fn perft_refuses_an_empty_fen4_and_takes_setup_names_in_any_case() {
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["perft", "1", "--fen4", ""])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("empty setup: give a FEN4 or a setup name (4PC, 4PCo, Quatro)"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "nothing counted");
    let (ok, out) = arbiter(&["perft", "1", "--fen4", "4pco"]);
    assert!(ok, "{out}");
    assert!(out.contains("perft(1) = 20"), "{out}");
}
