//! The admins' layer over the built-in lexicons (`docs/chat-analysis.md`, "Admins' word
//! list"): terms they add, words they allow, and the strictness of each category. The built-in
//! files stay the base; an added term overrides a built-in one spelled the same, and an allowed
//! word wins over every term, built-in or added.

use serde::{Deserialize, Serialize};

use super::match_mode::MatchMode;
use super::normalize::NormalizedLine;
use super::strictness::StrictnessLevels;
use super::types::{Category, Severity};

/// The longest term or allowed word, in characters.
pub const MAX_TERM_CHARS: usize = 64;

/// What an entry of the word list does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A term flagged with its category and severity.
    Term,
    /// A word never flagged, whatever term it holds or is spelled like.
    Allowed,
}

impl EntryKind {
    pub const ALL: [EntryKind; 2] = [EntryKind::Term, EntryKind::Allowed];
}

/// A term an admin added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddedTerm {
    /// Lower case, trimmed: as [`check_term`] returns it.
    pub term: String,
    pub category: Category,
    pub severity: Severity,
    pub mode: MatchMode,
}

/// Everything admins changed, as the analyser is built from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordList {
    pub terms: Vec<AddedTerm>,
    /// Lower case, trimmed: as [`check_allowed_word`] returns them.
    pub allowed: Vec<String>,
    pub strictness: StrictnessLevels,
}

impl WordList {
    /// Nothing changed: the analyser is the built-in one.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.allowed.is_empty() && self.strictness == Default::default()
    }
}

/// Why a term or an allowed word is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermProblem {
    Empty,
    TooLong {
        chars: usize,
    },
    /// A tab, a line break or another control character.
    ControlCharacter,
    /// Nothing is left once spelling tricks are folded away, or only one letter.
    TooShortToMatch,
    /// `phrase` needs two words or more; the other modes one word.
    WordsForMode {
        mode: MatchMode,
        words: usize,
    },
    /// Categories the analyser derives from behaviour or the board, not from words.
    CategoryNotForTerms(Category),
}

impl std::fmt::Display for TermProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TermProblem::Empty => write!(f, "is empty"),
            TermProblem::TooLong { chars } => write!(
                f,
                "has {chars} characters; at most {MAX_TERM_CHARS} are accepted"
            ),
            TermProblem::ControlCharacter => {
                write!(f, "holds a tab, a line break or another control character")
            }
            TermProblem::TooShortToMatch => write!(
                f,
                "leaves fewer than two letters once spelling tricks are folded away, so it \
                 would match far too much"
            ),
            TermProblem::WordsForMode { mode, words } => match mode {
                MatchMode::Phrase => write!(f, "has {words} word(s); a phrase needs two or more"),
                _ => write!(
                    f,
                    "has {words} words; mode `{}` takes one word (use `phrase`)",
                    mode.name()
                ),
            },
            TermProblem::CategoryNotForTerms(category) => write!(
                f,
                "category `{}` is found from behaviour or the board, not from words",
                category.name()
            ),
        }
    }
}

/// The categories a term may carry: the offensive ones and advertising.
pub fn category_takes_terms(category: Category) -> bool {
    use super::types::CategoryGroup;
    category.group() == CategoryGroup::Offensive || category == Category::Advertising
}

/// A term as it is stored: trimmed and lower case, or why it cannot be one.
pub fn check_term(term: &str, mode: MatchMode, category: Category) -> Result<String, TermProblem> {
    if !category_takes_terms(category) {
        return Err(TermProblem::CategoryNotForTerms(category));
    }
    let term = checked_text(term)?;
    let words = term.split_whitespace().count();
    let phrase = mode == MatchMode::Phrase;
    if phrase != (words > 1) {
        return Err(TermProblem::WordsForMode { mode, words });
    }
    Ok(term)
}

/// A word to allow, as it is stored: trimmed and lower case, or why it cannot be one.
pub fn check_allowed_word(word: &str) -> Result<String, TermProblem> {
    checked_text(word)
}

fn checked_text(text: &str) -> Result<String, TermProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TermProblem::Empty);
    }
    let chars = text.chars().count();
    if chars > MAX_TERM_CHARS {
        return Err(TermProblem::TooLong { chars });
    }
    if text.chars().any(char::is_control) {
        return Err(TermProblem::ControlCharacter);
    }
    let mut line = NormalizedLine::new();
    line.normalize(text);
    let form = line.trimmed();
    // One ASCII letter would match inside countless words, as in the built-in lexicon.
    let single_letter = form.is_ascii() && form.len() < 2 && line.run_at(1) < 2;
    if form.is_empty() || single_letter {
        return Err(TermProblem::TooShortToMatch);
    }
    Ok(text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase())
}

/// The matching form of a term (spelling tricks folded away), to compare two spellings.
pub fn matching_form(term: &str) -> String {
    let mut line = NormalizedLine::new();
    line.normalize(term);
    line.trimmed().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_trimmed_and_lower_cased() {
        assert_eq!(
            check_term("  Glorb  ", MatchMode::Word, Category::Insult),
            Ok("glorb".to_string())
        );
        assert_eq!(
            check_term("go  Glorb", MatchMode::Phrase, Category::Insult),
            Ok("go glorb".to_string())
        );
    }

    #[test]
    fn refusals_name_the_problem() {
        assert_eq!(
            check_term("", MatchMode::Word, Category::Insult),
            Err(TermProblem::Empty)
        );
        assert_eq!(
            check_term("x", MatchMode::Sub, Category::Insult),
            Err(TermProblem::TooShortToMatch)
        );
        assert_eq!(
            check_term("a b", MatchMode::Word, Category::Insult),
            Err(TermProblem::WordsForMode {
                mode: MatchMode::Word,
                words: 2
            })
        );
        assert_eq!(
            check_term("glorb", MatchMode::Phrase, Category::Insult),
            Err(TermProblem::WordsForMode {
                mode: MatchMode::Phrase,
                words: 1
            })
        );
        assert_eq!(
            check_term("glorb", MatchMode::Word, Category::Flooding),
            Err(TermProblem::CategoryNotForTerms(Category::Flooding))
        );
        assert_eq!(
            check_allowed_word("a\tb"),
            Err(TermProblem::ControlCharacter)
        );
        let long = "g".repeat(MAX_TERM_CHARS + 1);
        assert_eq!(
            check_allowed_word(&long),
            Err(TermProblem::TooLong {
                chars: MAX_TERM_CHARS + 1
            })
        );
    }

    #[test]
    fn spellings_compare_by_matching_form() {
        assert_eq!(matching_form("Tr4sh"), matching_form("trash"));
    }
}
