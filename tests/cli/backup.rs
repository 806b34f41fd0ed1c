//! `arbiter backup` and `arbiter restore` through the real binary, on a SQLite file: a copy
//! that is checked, never written over an existing file, put back; PostgreSQL is sent to its
//! own tools.

use std::path::Path;
use std::process::Output;

use crate::arbiter_in;

/// `arbiter ARGS` in `dir` with `database_url`.
fn arbiter(dir: &Path, database_url: &str, args: &[&str]) -> Output {
    arbiter_in(dir, &[("ARBITER_DATABASE__URL", database_url)], args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn backup_and_restore_a_sqlite_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = "sqlite://arbiter.db";
    let game = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let imported = arbiter(dir.path(), url, &["import", game]);
    assert!(imported.status.success(), "{}", text(&imported.stderr));

    let taken = arbiter(dir.path(), url, &["backup", "copy.db"]);
    assert!(taken.status.success(), "{}", text(&taken.stderr));
    let said = text(&taken.stdout);
    assert!(
        said.contains("1 games") && said.contains("integrity ok"),
        "{said}"
    );

    let again = arbiter(dir.path(), url, &["backup", "copy.db"]);
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("copy.db already exists"),
        "{}",
        text(&again.stderr)
    );

    // The database is replaced by the copy: a game imported after the backup is gone.
    let other = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0017.pgn4"
    );
    assert!(arbiter(dir.path(), url, &["import", other])
        .status
        .success());
    let restored = arbiter(dir.path(), url, &["restore", "copy.db"]);
    assert!(restored.status.success(), "{}", text(&restored.stderr));
    assert!(
        text(&restored.stdout).contains("1 games"),
        "{}",
        text(&restored.stdout)
    );
    let check = arbiter(dir.path(), url, &["backup", "second.db"]);
    assert!(
        text(&check.stdout).contains("1 games"),
        "{}",
        text(&check.stdout)
    );

    // A file that is not a database: said once, naming the file.
    std::fs::write(dir.path().join("junk.db"), vec![7u8; 5000]).expect("junk");
    let junk = arbiter(dir.path(), url, &["restore", "junk.db"]);
    assert!(!junk.status.success());
    let said = text(&junk.stderr);
    assert!(said.contains("junk.db: file is not a database"), "{said}");
    assert_eq!(said.matches("not a database").count(), 1, "{said}");

    let missing = arbiter(dir.path(), url, &["restore", "none.db"]);
    assert!(!missing.status.success());
    assert!(
        text(&missing.stderr).contains("none.db does not exist"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn postgres_is_sent_to_its_own_tools() {
    let dir = tempfile::tempdir().expect("temp dir");
    for verb in ["backup", "restore"] {
        let output = arbiter(
            dir.path(),
            "postgres://nobody@127.0.0.1:1/none",
            &[verb, "copy.dump"],
        );
        assert!(!output.status.success());
        let said = text(&output.stderr);
        assert!(
            said.contains("pg_dump") && said.contains("pg_restore"),
            "{said}"
        );
    }
}
