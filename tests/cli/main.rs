//! The `arbiter` command as scripts use it: import, replay and perft, player tokens, closed
//! output pipes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod backup;
mod closed_pipe;
mod collusion;
mod import;
mod retention;
mod rules;
mod token;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// `arbiter ARGS` in `dir` with only the `ARBITER_*` variables of `env` (none of the
/// caller's), standard input closed.
pub fn arbiter_in(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    for (key, _) in std::env::vars() {
        if key.starts_with("ARBITER_") {
            command.env_remove(key);
        }
    }
    command
        .current_dir(dir)
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}
