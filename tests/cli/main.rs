//! The `arbiter` command as scripts use it: import, replay and perft, player tokens, closed
//! output pipes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod backup;
mod closed_pipe;
mod collusion;
mod import;
mod rules;
mod token;
