//! `arbiter retention` through the real binary: a dry run says what is due and changes
//! nothing, a run purges it once, and a bad setting stops it naming the key.

use std::path::Path;
use std::process::Output;

use crate::arbiter_in;

fn arbiter(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    // Chat kept a century, connection data a day: the game (June 2026) is due for the one
    // and not the other whatever day the test runs.
    let mut all = vec![
        ("ARBITER_DATABASE__URL", "sqlite://arbiter.db"),
        ("ARBITER_RETENTION__CHAT_DAYS", "36500"),
        ("ARBITER_RETENTION__CONNECTION_DAYS", "1"),
    ];
    all.extend_from_slice(env);
    arbiter_in(dir, &all, args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_dry_run_counts_and_a_run_purges_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let imported = arbiter(dir.path(), &[], &["import", game]);
    assert!(imported.status.success(), "{}", text(&imported.stderr));

    let dry = arbiter(dir.path(), &[], &["retention", "--dry-run"]);
    assert!(dry.status.success(), "{}", text(&dry.stderr));
    let said = text(&dry.stdout);
    assert!(
        said.contains("chat text (kept 36500 days): would purge 0 lines of 0 games"),
        "{said}"
    );
    assert!(said.contains("connection data (kept 1 days): would purge 0 events and 0 fingerprinted seats of 1 games"), "{said}");

    let run = arbiter(dir.path(), &[], &["retention"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("purged 0 events and 0 fingerprinted seats of 1 games"),
        "{}",
        text(&run.stdout)
    );
    let again = arbiter(dir.path(), &[], &["retention", "--dry-run"]);
    assert!(
        text(&again.stdout).contains("of 0 games; 0 games held"),
        "{}",
        text(&again.stdout)
    );
}

#[test]
fn a_bad_setting_names_its_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = arbiter(
        dir.path(),
        &[("ARBITER_RETENTION__BATCH", "0")],
        &["retention", "--dry-run"],
    );
    assert!(!output.status.success());
    let said = text(&output.stderr);
    assert!(
        said.contains("retention.batch") && said.contains("1-5000"),
        "{said}"
    );
}
