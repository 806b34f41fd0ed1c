//! The rules core: every preset, properties of move generation, every real game replayed,
//! and the inputs fuzzing found.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fuzz_regressions;
mod old_spellings;
mod presets;
mod properties;
mod real_games;
mod scoring;
mod seed_presets;
mod support;
