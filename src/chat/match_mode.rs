//! How a lexicon term must sit in a line: the built-in files' `mode` column and an admin's
//! choice for a term of the word list.

use serde::{Deserialize, Serialize};

/// How an offensive term must sit in the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchMode {
    /// Anywhere inside a word, unless an allowlisted word covers it.
    Sub,
    /// At the start of a word.
    Prefix,
    /// A whole word, optionally with an inflection ending ("-s", "-ing", ...).
    Word,
    /// Several whole words.
    Phrase,
}

impl MatchMode {
    pub const ALL: [MatchMode; 4] = [
        MatchMode::Word,
        MatchMode::Phrase,
        MatchMode::Prefix,
        MatchMode::Sub,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MatchMode::Sub => "sub",
            MatchMode::Prefix => "prefix",
            MatchMode::Word => "word",
            MatchMode::Phrase => "phrase",
        }
    }

    pub fn parse(text: &str) -> Option<MatchMode> {
        let text = text.trim();
        MatchMode::ALL.into_iter().find(|m| m.name() == text)
    }
}
