//! The learned scorer beside the lexicon: a linear model over hashed word and character
//! n-grams with two heads (hostility toward a person, hate aimed at a group), trained by
//! `arbiter train-scorer` from the licensed corpus of `training/chat_scorer/` and shipped as
//! `models/chat_scorer/weights.bin` (`docs/chat-analysis.md`, "The learned scorer").
//!
//! [`features`] reads a normalised line, [`model`] scores it and splits the score into words,
//! [`judge`] joins the reading to the lexicon's flags, and [`training`] fits the weights.

pub mod corpus;
pub mod features;
pub mod judge;
pub mod model;
#[cfg(test)]
pub(crate) mod test_model;
pub mod training;

use std::borrow::Cow;

pub use judge::{judge, judge_continued, ScorerScratch};
pub use model::{Head, HeadParams, Model, ModelError, Thresholds, HEADS};

/// The shipped weights, trained by `arbiter train-scorer` (see `models/chat_scorer/report.md`).
pub const EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../../models/chat_scorer/weights.bin");

/// The shipped model; its table stays in the binary's read-only pages.
pub fn embedded() -> Result<Model, ModelError> {
    Model::parse(Cow::Borrowed(EMBEDDED_WEIGHTS))
}
