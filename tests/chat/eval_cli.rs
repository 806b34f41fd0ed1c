//! `arbiter chat-eval FILE...` run as a process.

use std::process::Command;

fn arbiter() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.env_remove("ARBITER_CONFIG");
    command
}

#[test]
fn scores_the_ffa_probes() {
    let probes = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/chat/ffa_probes.tsv"
    );
    let output = arbiter()
        .args(["chat-eval", probes])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("ffa_probes.tsv"), "{stdout}");
    assert!(stdout.contains("flagged: precision"), "{stdout}");
    for category in ["begging", "move_suggestion", "allowed_past_move"] {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(category))
            .unwrap_or_else(|| panic!("no row for {category}: {stdout}"));
        // category, support, precision, recall, F1
        let numbers: Vec<f64> = row
            .split_whitespace()
            .skip(1)
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 4, "{row}");
        assert!(
            numbers[1..].iter().all(|n| (0.0..=1.0).contains(n)),
            "{row}"
        );
    }
}

#[test]
fn unreadable_or_unknown_files_fail() {
    let output = arbiter()
        .args(["chat-eval", "/nonexistent/lines.tsv"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/lines.tsv"));

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("odd.txt");
    std::fs::write(&path, "maybe\tsomething\n").expect("write");
    let output = arbiter()
        .arg("chat-eval")
        .arg(&path)
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());

    let output = arbiter().arg("chat-eval").output().expect("runs");
    assert!(!output.status.success());
}
