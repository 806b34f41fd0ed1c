//! `arbiter import` through the real binary: each file once however the paths overlap, and a
//! non-zero exit with the rejected files on standard error.

use std::path::Path;
use std::process::Output;

const FFA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4/ffa");
const QUIRKS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4/quirks");

/// `arbiter import ARGS` in `dir`, on the default SQLite file there.
fn import(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["import"];
    all.extend_from_slice(args);
    crate::arbiter_in(dir, &[], &all)
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().expect("parent")).expect("dir");
    std::fs::copy(from, to).expect("copy");
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn overlapping_paths_import_each_file_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    copy(&format!("{FFA}/cc_game_0016.pgn4"), &games.join("a.pgn4"));
    copy(
        &format!("{FFA}/cc_game_0017.pgn4"),
        &games.join("sub/b.pgn4"),
    );
    copy(
        &format!("{FFA}/cc_game_0018.pgn4"),
        &games.join("sub/deeper/c.pgn4"),
    );
    std::os::unix::fs::symlink(games.join("a.pgn4"), dir.path().join("link.pgn4"))
        .expect("symlink");
    let output = import(
        dir.path(),
        &[
            "games/sub",
            "games",
            "games/a.pgn4",
            "./games/a.pgn4",
            "games/sub/../a.pgn4",
            "link.pgn4",
            "games/sub/deeper",
            "games",
        ],
    );
    let text = stderr(&output);
    assert!(output.status.success(), "{text}");
    // A second reading of a file would count as a duplicate.
    assert!(
        text.contains("imported 3, duplicates 0, rejected 0 (3 files"),
        "{text}"
    );
    assert!(output.stdout.is_empty(), "the summary goes to stderr");
}

#[test]
fn rejected_files_fail_the_run_and_are_listed_with_their_reasons() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    copy(
        &format!("{FFA}/cc_game_0016.pgn4"),
        &games.join("good.pgn4"),
    );
    copy(
        &format!("{QUIRKS}/cc_game_0133.pgn4"),
        &games.join("illegal.pgn4"),
    );
    std::fs::write(dir.path().join("notes.txt"), "not a game").expect("write");
    let output = import(dir.path(), &["games", "notes.txt"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("imported 1, duplicates 0, rejected 2 (3 files"),
        "{text}"
    );
    let rejected: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("rejected "))
        .collect();
    assert_eq!(rejected.len(), 2, "{text}");
    assert!(
        rejected
            .iter()
            .any(|l| l.starts_with("rejected games/illegal.pgn4: ") && l.contains("Qg2-h3")),
        "{text}"
    );
    assert!(
        rejected
            .iter()
            .any(|l| l.starts_with("rejected notes.txt: ")),
        "{text}"
    );
    assert!(
        text.contains("arbiter: 2 of 3 files were rejected"),
        "{text}"
    );

    // The good game is stored: a second run counts it as a duplicate, not a rejection.
    let again = import(dir.path(), &["games/good.pgn4"]);
    let text = stderr(&again);
    assert!(again.status.success(), "{text}");
    assert!(
        text.contains("imported 0, duplicates 1, rejected 0"),
        "{text}"
    );
}

/// The tags of a real game, changed by `edit` line by line (`None` drops the line).
fn tags_of(from: &str, edit: impl Fn(&str) -> Option<String>) -> String {
    std::fs::read_to_string(from)
        .expect("game")
        .lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| edit(l).map(|l| format!("{l}\n")))
        .collect()
}

#[test]
fn a_result_that_disagrees_with_the_replay_is_rejected_as_over_http() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = dir.path().join("games");
    let real = format!("{FFA}/cc_game_0016.pgn4");
    std::fs::create_dir_all(&games).expect("dir");
    std::fs::write(
        games.join("tags-only.pgn4"),
        tags_of(&real, |l| Some(l.to_string())),
    )
    .expect("write");
    // Aborted before any move: another number, `Result "*"`, no claimed win.
    let aborted = tags_of(&real, |l| {
        if l.starts_with("[Termination ") {
            None
        } else if l.starts_with("[Result ") {
            Some("[Result \"*\"]".to_string())
        } else if l.starts_with("[GameNr ") {
            Some("[GameNr \"104071137\"]".to_string())
        } else {
            Some(l.to_string())
        }
    });
    std::fs::write(games.join("aborted.pgn4"), aborted).expect("write");
    copy(
        &format!("{QUIRKS}/human_4pc_game_100783164.pgn4"),
        &games.join("short.pgn4"),
    );
    copy(&real, &games.join("good.pgn4"));
    let output = import(dir.path(), &["games"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("imported 2, duplicates 0, rejected 2 (4 files"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("rejected games/tags-only.pgn4: ")
                && l.contains(
                    "points: computed Red 0, Blue 0, Yellow 0, Green 60 \
                 but Result says Red 85, Blue 10, Yellow 35, Green 79"
                )),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("rejected games/short.pgn4: ")
                && l.contains(
                    "points: computed Red 38, Blue 78, Yellow 58, Green 27 \
                 but Result says Red 58, Blue 58, Yellow 58, Green 27"
                )),
        "{text}"
    );
}

/// A real game as the older exports wrote it: on one line, `=Q` for the 1-point queen.
fn on_one_line(from: &str) -> String {
    let text = std::fs::read_to_string(from).expect("game");
    let (tags, moves) = text.split_at(text.find("\n1. ").expect("move text"));
    let moves = moves.replace("=D", "=Q");
    format!(
        "{}{}\n",
        tags.replace('\n', ""),
        moves.replace('\n', " ").trim_end()
    )
}

#[test]
fn a_file_of_games_one_per_line_imports_each_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = format!(
        "{}{}",
        on_one_line(&format!("{FFA}/cc_game_0016.pgn4")),
        on_one_line(&format!("{FFA}/cc_game_0022.pgn4"))
    );
    assert_eq!(text.lines().count(), 2);
    std::fs::write(dir.path().join("history.pgn4"), &text).expect("write");
    let output = import(dir.path(), &["history.pgn4"]);
    let text = stderr(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("imported 2, duplicates 0, rejected 0 (2 files"),
        "{text}"
    );
    // A syntax error in the second game refuses the file at its line.
    let broken = format!(
        "{}{}",
        on_one_line(&format!("{FFA}/cc_game_0017.pgn4")),
        on_one_line(&format!("{FFA}/cc_game_0018.pgn4")).replacen("1. ", "1. h2-h99 .. ", 1)
    );
    std::fs::write(dir.path().join("broken.pgn4"), broken).expect("write");
    let output = import(dir.path(), &["broken.pgn4"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("rejected broken.pgn4: PGN4 syntax error at line 2, column"),
        "{text}"
    );
    assert!(
        text.contains("imported 0, duplicates 0, rejected 1"),
        "{text}"
    );
}
