//! Admins' notes on players: what a note must be.

use std::fmt;

use super::policy::ModerationPolicy;

/// Why a note was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteProblem {
    Empty,
    TooLong { max: u32 },
}

impl fmt::Display for NoteProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoteProblem::Empty => f.write_str("A note must say something."),
            NoteProblem::TooLong { max } => write!(f, "A note may hold at most {max} characters."),
        }
    }
}

/// The note's text as stored (trimmed), or why it cannot be: as long as a decision's note may
/// be, and not empty.
pub fn validate_note(text: &str, policy: &ModerationPolicy) -> Result<String, NoteProblem> {
    let text = text.trim();
    let max = policy.decision.note_max_chars;
    if text.is_empty() {
        Err(NoteProblem::Empty)
    } else if text.chars().count() > max as usize {
        Err(NoteProblem::TooLong { max })
    } else {
        Ok(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_trimmed_and_bounded() {
        let policy = ModerationPolicy::default();
        assert_eq!(
            validate_note("  seen before  ", &policy),
            Ok("seen before".into())
        );
        assert_eq!(validate_note(" \n ", &policy), Err(NoteProblem::Empty));
        let max = policy.decision.note_max_chars;
        let long = "x".repeat(max as usize + 1);
        assert_eq!(
            validate_note(&long, &policy),
            Err(NoteProblem::TooLong { max })
        );
    }
}
