//! Commands whose output is cut short (`arbiter replay dir | head -1`) end quietly: killed by
//! SIGPIPE as Unix filters are (status 141 in a shell) or finished, never a panic.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

/// Runs `arbiter ARGS` in `dir` with standard output a pipe whose reader is already closed, so
/// the first write meets a gone reader whatever the timing; returns the status and stderr.
fn with_closed_stdout(dir: &Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    for (key, _) in std::env::vars() {
        if key.starts_with("ARBITER_") {
            command.env_remove(key);
        }
    }
    let output = command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs");
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ffa = format!("{DATA}/ffa");
    let commands: [&[&str]; 4] = [
        &["replay", &ffa],
        &["perft", "3", "--divide"],
        &["config"],
        &["token", "list"],
    ];
    for args in commands {
        let (status, stderr) = with_closed_stdout(dir.path(), args);
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {status:?}\n{stderr}"
        );
        assert!(stderr.is_empty(), "{args:?} wrote to stderr:\n{stderr}");
    }
}
