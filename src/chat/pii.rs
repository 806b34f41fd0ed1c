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
                r"(?i)\b\d{1,5}\s+(?:[a-z]+\s+){1,3}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|strasse|straße|calle|rue|ulitsa)\b",
            )?,
            // Obscene gestures drawn in characters: a middle finger "_|_" and its
            // look-alikes, "╭∩╮", "8===D", "(.) (.)", and hate symbols.
            gesture: Regex::new(
                r"_[|lI1!i}{()\[\]∥¦/\\]_|╭∩╮|╰⋃╯|[38]=+[D>o]|\(\.\)\s*\(\.\)|[࿕-࿘卍卐]",
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
                if (7..=15).contains(&digits) {
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
        assert!(hits("my favorite number is 12122121221555512515").is_empty());
        assert!(hits("im in1584e 1362n").is_empty());
        assert!(hits("Qe7 Nj1-i3 e2-e4 mate in 2").is_empty());
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
