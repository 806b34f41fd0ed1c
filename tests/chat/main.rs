//! Chat analysis: the analyser on lines and whole logs, the benign corpus, the languages, the
//! labelled evaluation sets and `arbiter chat-eval`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod analysis;
mod benign;
mod context;
mod eval;
mod eval_cli;
mod languages;
mod word_list;
