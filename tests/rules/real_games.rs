//! Every real game replays with every move legal and the computed result equals the tags.

use std::path::{Path, PathBuf};

use arbiter::rules::replay::{self, ReplayError};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

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
    let files: Vec<PathBuf> = files_in(dir);
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

/// Every point of every FFA game comes from an award that names its rule (`replay --explain`).
#[test]
fn every_ffa_point_is_explained_by_an_award() {
    for path in files_in("ffa") {
        let replayed = replay::replay(&read(&path)).expect("replays");
        let mut totals = [0.0; 4];
        for award in replayed.game.awards() {
            totals[award.seat.index()] += f64::from(award.points);
        }
        assert_eq!(totals, replayed.standing.scores, "{}", path.display());
    }
}

#[test]
fn teams_games_replay_with_the_right_winner() {
    check_all("teams");
}

#[test]
fn teams_fragments_replay_with_every_move_legal() {
    check_all("teams/fragments");
}

/// `ffa/cc_game_0093` round 42: Green's `Qj3xk4+` checks Red, Red resigns (`R#`) and its lone
/// walking king has no escape: mated at once and credited to Green (the checker), not to Yellow
/// who moves next. The `Result` tag says Yellow 63 / Green 38.
#[test]
fn resigning_into_mate_credits_the_checking_player() {
    let text = read(&Path::new(DATA).join("ffa").join("cc_game_0093.pgn4"));
    let replay = replay::replay(&text).expect("replays");
    assert_eq!(replay.standing.scores, [58.0, 3.0, 63.0, 38.0]);
    assert!(replay::check(&text).ok());
}

fn quirk(name: &str) -> String {
    read(&Path::new(DATA).join("quirks").join(name))
}

#[test]
fn game_0133_stops_at_round_23_queen_move() {
    match replay::replay(&quirk("cc_game_0133.pgn4")) {
        Err(ReplayError::IllegalMove {
            ply,
            round,
            seat,
            text,
            reason,
            fen4_before,
        }) => {
            assert_eq!((ply, round, text.as_str()), (74, 23, "Qg2-h3"));
            assert_eq!(seat.name(), "Red");
            assert!(reason.contains("not a Q"), "{reason}");
            assert!(fen4_before.starts_with("R-"));
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    assert!(!replay::check(&quirk("cc_game_0133.pgn4")).ok());
}

#[test]
fn game_0239_stops_at_greens_shifted_moves() {
    match replay::replay(&quirk("cc_game_0239.pgn4")) {
        Err(ReplayError::IllegalMove {
            round, seat, text, ..
        }) => {
            assert!((33..=35).contains(&round), "round {round}");
            assert_eq!(seat.name(), "Green");
            assert_eq!(text, "j7-i7");
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn game_0235_replays_but_is_reported_as_truncated() {
    let text = quirk("cc_game_0235.pgn4");
    let replay = replay::replay(&text).expect("every move is legal");
    assert_eq!(replay.plies.len(), 187);
    assert!(replay.game.end().is_none());
    let check = replay::check(&text);
    assert!(!check.ok());
    assert!(
        check.mismatches.iter().any(|m| m.contains("still running")),
        "{check}"
    );
}

#[test]
fn game_0067_is_a_parse_error_at_line_1_column_1() {
    match replay::replay(&quirk("cc_game_0067.pgn4")) {
        Err(ReplayError::Parse(e)) => assert_eq!((e.line, e.column), (1, 1)),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn fairy_pieces_are_a_precise_unsupported_error() {
    match replay::replay(&quirk("pgn4crate_teams_4177881.pgn4")) {
        Err(ReplayError::Unsupported { what }) => {
            assert_eq!(
                what,
                "unsupported piece type 'G' on e13 (supported: P N B R Q K D)"
            );
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

#[test]
fn missing_start_fen_is_inferred_from_the_game_number() {
    let text = read(&Path::new(DATA).join("teams/teams_519084_wikibooks_example.pgn4"));
    let replay = replay::replay(&text).expect("replays");
    assert_eq!(replay.setup, "4PCo");
    assert!(replay.setup_inferred);
    assert!(replay::check(&text).ok());
}

#[test]
fn en_passant_by_a_player_not_next_after_the_pusher() {
    for name in ["cc_game_0037.pgn4", "cc_game_0252.pgn4"] {
        let text = read(&Path::new(DATA).join("ffa").join(name));
        let replay = replay::replay(&text).expect("replays");
        assert!(replay::check(&text).ok(), "{name}");
        // With the narrow window the same record must fail.
        let narrow = text.replace("EnPassant", "EnPassant=next");
        assert!(
            matches!(
                replay::replay(&narrow),
                Err(ReplayError::IllegalMove { .. })
            ),
            "{name} must need the wide window"
        );
        drop(replay);
    }
}

#[test]
fn exported_pgn4_reads_back_to_the_same_game() {
    for path in files_in("ffa").iter().take(20) {
        let replay = replay::replay(&read(path)).expect("replays");
        let again = replay::replay(&replay.to_pgn4()).expect("export replays");
        assert_eq!(again.plies, replay.plies, "{}", path.display());
        assert_eq!(again.standing, replay.standing);
    }
}

/// `quirks/human_4pc_game_100783164`: `ffa/cc_game_0051` without its last round. Every move is
/// legal, so only the points can show that the record is incomplete.
#[test]
fn a_copy_missing_its_last_round_is_a_points_mismatch() {
    let check = replay::check(&quirk("human_4pc_game_100783164.pgn4"));
    assert!(!check.ok());
    assert!(
        check.to_string().contains(
            "mismatch: points: computed Red 38, Blue 78, Yellow 58, Green 27 \
             but Result says Red 58, Blue 58, Yellow 58, Green 27"
        ),
        "{check}"
    );
}
