//! Personal information and advertising patterns, matched on the ORIGINAL line.
//! Each regular expression only runs behind a cheap prefilter from the line's stats.

use regex::Regex;

use super::normalize::LineStats;
use super::types::{Category, Severity, Span};

#[derive(Clone, Debug)]
pub(crate) struct PiiPatterns {
    phone: Regex,
    email: Regex,
    street: Regex,
    url: Regex,
    gesture: Regex,
}

/// One pattern match on the original line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PatternHit {
    pub span: Span,
    pub category: Category,
    pub severity: Severity,
    pub rule: &'static str,
    pub explanation: &'static str,
}

impl PiiPatterns {
    pub fn new() -> Result<PiiPatterns, regex::Error> {
        Ok(PiiPatterns {
            // 7 to 15 digits with the usual separators, not inside a longer number.
            phone: Regex::new(
                r"(?:^|[^\d])(\+?\(?\d{1,4}\)?[ .\-]?(?:\(?\d{2,4}\)?[ .\-]?){1,3}\d{3,4})(?:[^\d]|$)",
            )?,
            email: Regex::new(
                r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}",
            )?,
            street: Regex::new(
                r"(?i)\b\d{1,5}\s+(?:[a-z]+\s+){1,3}(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|court|place|strasse|straße|calle|rue|ulitsa)\b",
            )?,
            // Obscene gestures drawn in characters: a middle finger "_|_" and its
            // look-alikes, "╭∩╮", "8===D", "(.) (.)", and hate symbols.
            gesture: Regex::new(
                r"_[|lI1!i}{()\[\]∥¦/\\]_|╭∩╮|╰⋃╯|[38]=+[D>o]|[cC]=+[3B8]|\(\.\)\s*\(\.\)|[࿕-࿘卍卐]",
            )?,
            url: Regex::new(
                r"(?i)\b(?:https?://\S+|www\.\S+|[a-z0-9\-]+\.(?:com|net|org|gg|io|ru|tv|xyz|ly|me|co|info|biz)(?:/\S*)?)(?:\b|$)",
            )?,
        })
    }

    pub fn scan(&self, text: &str, stats: &LineStats, out: &mut Vec<PatternHit>) {
        if stats.digits >= 7 {
            for caps in self.phone.captures_iter(text) {
                let Some(m) = caps.get(1) else { continue };
                let digits = m.as_str().bytes().filter(u8::is_ascii_digit).count();
                if (7..=15).contains(&digits) && is_contact_number(text, m.start(), m.as_str()) {
                    out.push(PatternHit {
                        span: Span::new(m.start(), m.end()),
                        category: Category::PersonalInfo,
                        severity: Severity::High,
                        rule: "pattern:phone_number",
                        explanation: "looks like a phone number (private information)",
                    });
                }
            }
        }
        if stats.has_at {
            for m in self.email.find_iter(text) {
                out.push(PatternHit {
                    span: Span::new(m.start(), m.end()),
                    category: Category::PersonalInfo,
                    severity: Severity::High,
                    rule: "pattern:email_address",
                    explanation: "an e-mail address (private information)",
                });
            }
        }
        if stats.digits >= 1 && stats.letters >= 4 {
            for m in self.street.find_iter(text) {
                // A score or a time ("2-0 in mid", "10:30 road") is not a house number.
                if text[..m.start()].ends_with(['-', ':', '/']) {
                    continue;
                }
                out.push(PatternHit {
                    span: Span::new(m.start(), m.end()),
                    category: Category::PersonalInfo,
                    severity: Severity::High,
                    rule: "pattern:street_address",
                    explanation: "looks like a street address (private information)",
                });
            }
        }
        if stats.has_art {
            for m in self.gesture.find_iter(text) {
                // "d7-d8=D" is a promotion to a Dame on the eighth rank, not a drawing.
                let after_square = m.as_str().starts_with(['3', '8', 'c', 'C'])
                    && text[..m.start()].ends_with(|c: char| c.is_ascii_alphanumeric());
                if after_square {
                    continue;
                }
                out.push(PatternHit {
                    span: Span::new(m.start(), m.end()),
                    category: Category::Profanity,
                    severity: Severity::Medium,
                    rule: "pattern:obscene_gesture",
                    explanation: "an obscene gesture or hate symbol drawn in characters",
                });
            }
        }
        if stats.has_dot_word || stats.has_colon_slash {
            for m in self.url.find_iter(text) {
                // An e-mail address is reported as such, not as a link.
                if out
                    .iter()
                    .any(|h| h.span.start <= m.start() && m.end() <= h.span.end)
                {
                    continue;
                }
                out.push(PatternHit {
                    span: Span::new(m.start(), m.end()),
                    category: Category::Advertising,
                    severity: Severity::Medium,
                    rule: "pattern:link",
                    explanation: "a link or web address (advertising)",
                });
            }
        }
    }
}

/// Words that say a number is a way to reach someone.
const CONTACT_WORDS: [&str; 17] = [
    "call", "calls", "phone", "tel", "mobile", "cell", "whatsapp", "wa", "telegram", "tg", "viber",
    "signal", "sms", "text", "contact", "ring", "dm",
];

/// Words that name a number without saying whose: "the number of the game" is chess talk,
/// "my number" is contact data.
const NUMBER_WORDS: [&str; 3] = ["number", "num", "nr"];

/// Words that make a number someone's own.
const POSSESSIVES: [&str; 7] = ["my", "your", "his", "her", "their", "our", "mine"];

/// Words that say a number is a game's number (players quote them all the time).
const GAME_WORDS: [&str; 5] = ["game", "games", "gamenr", "match", "id"];

/// A run of digits is contact data only when it looks like it: phone formatting (digit
/// groups with separators), a country prefix (`+` or `00`), a contact word within the
/// three words before or after it, or someone's "number" ("my number", "her num") in a
/// line that speaks of no game; and never with a game word right before it.
fn is_contact_number(text: &str, start: usize, number: &str) -> bool {
    let before: Vec<String> = words(&text[..start]).rev().take(3).collect();
    if before
        .iter()
        .take(2)
        .any(|w| GAME_WORDS.contains(&w.as_str()))
    {
        return false;
    }
    let trimmed = number.trim_start_matches('(');
    let country_prefix = trimmed.starts_with('+')
        || (trimmed.starts_with("00")
            && trimmed[2..].starts_with(|c: char| c.is_ascii_digit() && c != '0'));
    // Phone formatting: three digit groups or more, or two of at least three digits each
    // ("555-1234"); a score or a range ("0-100000") is not.
    let groups: Vec<usize> = number
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .map(str::len)
        .collect();
    let grouped = groups.len() >= 3 || (groups.len() == 2 && groups.iter().all(|&g| g >= 3));
    if country_prefix || grouped {
        return true;
    }
    let after: Vec<String> = words(&text[start + number.len()..]).take(3).collect();
    before
        .iter()
        .chain(&after)
        .any(|w| CONTACT_WORDS.contains(&w.as_str()))
        || owned_number(text)
}

/// Whether `text` names someone's number ("my number", "your num") and no game.
fn owned_number(text: &str) -> bool {
    let all: Vec<String> = words(text).collect();
    if all.iter().any(|w| GAME_WORDS.contains(&w.as_str())) {
        return false;
    }
    all.windows(2).any(|pair| {
        POSSESSIVES.contains(&pair[0].as_str()) && NUMBER_WORDS.contains(&pair[1].as_str())
    })
}

/// The lower-cased words of `text`, in order.
fn words(text: &str) -> impl DoubleEndedIterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::normalize::NormalizedLine;

    fn hits(text: &str) -> Vec<PatternHit> {
        let patterns = PiiPatterns::new().unwrap();
        let mut line = NormalizedLine::new();
        line.normalize(text);
        let mut out = Vec::new();
        patterns.scan(text, &line.stats, &mut out);
        out
    }

    #[test]
    fn phone_numbers() {
        let h = hits("call me at +1 (555) 123-4567 ok");
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].rule, "pattern:phone_number");
        assert_eq!(
            h[0].span.slice("call me at +1 (555) 123-4567 ok"),
            "+1 (555) 123-4567"
        );
        assert_eq!(hits("my number 0612345678").len(), 1);
        assert_eq!(hits("whatsapp me 0612345678").len(), 1);
        assert_eq!(hits("0612345678 call me").len(), 1);
        assert_eq!(hits("+31612345678").len(), 1);
        assert_eq!(hits("555-123-4567").len(), 1);
        assert!(hits("game 700000123 was weird").is_empty());
        assert!(hits("game number 104071136 pls").is_empty());
        assert!(hits("man i got 0-100000 mid invoker").is_empty());
        assert!(hits("i was 2-0 in mid road").is_empty());
        assert!(hits("))))000000000000000").is_empty());
        assert_eq!(hits("0031612345678").len(), 1);
        assert!(hits("3000 away from dr").is_empty());
        assert!(hits("d7-d8=D+ wins").is_empty());
        assert_eq!(hits("lol 8===D")[0].rule, "pattern:obscene_gesture");
        assert!(hits("see 104071136, same guy").is_empty());
        assert!(hits("my favorite number is 12122121221555512515").is_empty());
        assert!(hits("im in1584e 1362n").is_empty());
        assert!(hits("Qe7 Nj1-i3 e2-e4 mate in 2").is_empty());
        assert_eq!(hits("my number is 0612345678").len(), 1);
        assert_eq!(hits("her num 0612345678 lol").len(), 1);
        assert_eq!(hits("0612345678 is my number").len(), 1);
        // A game's number in a sentence with the word "number" is chess talk.
        assert!(hits("the number of that game was 104071136").is_empty());
        assert!(hits("104071136 is the number, check it").is_empty());
        assert!(hits("what number did you get, 104071136?").is_empty());
        assert!(hits("remember my number? 104071136, the game we drew").is_empty());
    }

    #[test]
    fn email_and_street_and_links() {
        let text = "write to jane.doe@example.com";
        let h = hits(text);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].span.slice(text), "jane.doe@example.com");
        assert!(hits("@slamco omw ty").is_empty());
        let h = hits("he lives at 42 Baker Street lol");
        assert_eq!(h[0].rule, "pattern:street_address");
        let h = hits("join www.cheapgold.com now");
        assert_eq!(h[0].category, Category::Advertising);
        assert!(hits("side.going").is_empty() || hits("side.going")[0].rule != "pattern:link");
        assert_eq!(hits("lol _|_")[0].rule, "pattern:obscene_gesture");
        assert!(hits("my_name_is (fine) = ok").is_empty());
    }
}
