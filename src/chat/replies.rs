//! Lines that mean something only as an answer: a retort that returns an insult ("same to
//! you") and consent ("ok", "deal"). The phrases are in `config/lexicons/replies.txt`; a line
//! is one of them when its whole normalised form is.

use std::collections::HashMap;

use super::normalize::NormalizedLine;

/// The phrases, embedded.
pub const REPLIES_TXT: &str = include_str!("../../config/lexicons/replies.txt");

/// What a reply says, read without the line it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplyKind {
    /// Returns what was said to the sender ("you too", "сам такой").
    Echo,
    /// Consents ("ok", "deal", "давай").
    Agreement,
}

/// The reply phrases, each kept in its normalised form (its tokens joined by one space).
#[derive(Clone, Debug, Default)]
pub struct ReplyPhrases {
    phrases: HashMap<String, ReplyKind>,
}

impl ReplyPhrases {
    /// Parses `[echo]` and `[agreement]` sections of one phrase per line (`#` starts a comment).
    pub fn parse(text: &str) -> Result<ReplyPhrases, String> {
        let mut phrases = HashMap::new();
        let mut kind = None;
        let mut line = NormalizedLine::new();
        let mut key = String::new();
        for (index, raw) in text.lines().enumerate() {
            let entry = raw.split('#').next().unwrap_or("").trim();
            if entry.is_empty() {
                continue;
            }
            if let Some(name) = entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')) {
                kind = Some(match name.trim() {
                    "echo" => ReplyKind::Echo,
                    "agreement" => ReplyKind::Agreement,
                    other => {
                        return Err(format!(
                            "replies.txt line {}: unknown section [{other}]",
                            index + 1
                        ))
                    }
                });
                continue;
            }
            let Some(kind) = kind else {
                return Err(format!(
                    "replies.txt line {}: a phrase before any section",
                    index + 1
                ));
            };
            line.normalize(entry);
            joined_tokens(&line, &mut key);
            if key.is_empty() {
                return Err(format!(
                    "replies.txt line {}: \"{entry}\" has no words",
                    index + 1
                ));
            }
            if let Some(before) = phrases.insert(key.clone(), kind) {
                if before != kind {
                    return Err(format!(
                        "replies.txt line {}: \"{entry}\" is both an echo and an agreement",
                        index + 1
                    ));
                }
            }
        }
        Ok(ReplyPhrases { phrases })
    }

    /// What the whole line says as a reply, if it is one of the phrases. `key` is a buffer.
    pub fn kind_of(&self, line: &NormalizedLine, key: &mut String) -> Option<ReplyKind> {
        // The longest phrase has eight words; a longer line is more than a reply.
        if line.tokens.is_empty() || line.tokens.len() > 8 {
            return None;
        }
        joined_tokens(line, key);
        self.phrases.get(key.as_str()).copied()
    }

    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }
}

/// The line's tokens in matching form, joined by one space.
fn joined_tokens(line: &NormalizedLine, key: &mut String) {
    key.clear();
    for token in &line.tokens {
        if !key.is_empty() {
            key.push(' ');
        }
        key.push_str(line.token_text(token));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(phrases: &ReplyPhrases, text: &str) -> Option<ReplyKind> {
        let mut line = NormalizedLine::new();
        line.normalize(text);
        phrases.kind_of(&line, &mut String::new())
    }

    #[test]
    fn the_embedded_phrases_parse_and_match_whole_lines_in_any_case() {
        let phrases = ReplyPhrases::parse(REPLIES_TXT).unwrap();
        assert!(phrases.len() > 150, "{}", phrases.len());
        assert_eq!(kind(&phrases, "Same to YOU!!"), Some(ReplyKind::Echo));
        assert_eq!(kind(&phrases, "сам такой"), Some(ReplyKind::Echo));
        assert_eq!(kind(&phrases, "okkk"), Some(ReplyKind::Agreement));
        assert_eq!(kind(&phrases, "Deal."), Some(ReplyKind::Agreement));
        assert_eq!(kind(&phrases, "d'accord"), Some(ReplyKind::Agreement));
        assert_eq!(kind(&phrases, "ok but only until red is out"), None);
        assert_eq!(kind(&phrases, "you too played well"), None);
        assert_eq!(kind(&phrases, "!!!"), None);
    }

    #[test]
    fn a_bad_file_is_refused_with_its_line() {
        assert!(ReplyPhrases::parse("ok\n").unwrap_err().contains("line 1"));
        assert!(ReplyPhrases::parse("[maybe]\nok\n")
            .unwrap_err()
            .contains("[maybe]"));
        let both = ReplyPhrases::parse("[echo]\nyou too\n[agreement]\nyou too\n").unwrap_err();
        assert!(both.contains("line 4"), "{both}");
    }
}
