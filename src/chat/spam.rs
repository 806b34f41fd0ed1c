//! Spam: per-line checks (gibberish, shouting) and a small per-game tracker of
//! each sender's message rate and repeats. Pure: time is always an argument.

use std::collections::{HashMap, VecDeque};

use super::normalize::NormalizedLine;
use super::types::{Category, Severity};

/// Spam thresholds (`config/chat.toml`).
#[derive(Clone, Debug, PartialEq)]
pub struct SpamSettings {
    /// Sliding window for the message rate.
    pub flood_window_ms: u64,
    /// More messages than this inside the window is flooding.
    pub flood_max_messages: usize,
    /// Window in which repeats are counted.
    pub repeat_window_ms: u64,
    /// This many near-identical messages (including the current one) is repetition.
    pub repeat_min_copies: usize,
    /// Trigram similarity (0..1) from which two longer lines count as the same.
    pub near_duplicate_similarity: f32,
    /// Shouting: at least this many letters ...
    pub shout_min_letters: u32,
    /// ... of which at least this share is upper case.
    pub shout_upper_share: f32,
    /// Gibberish: a character repeated this many times in a row.
    pub gibberish_run: u32,
    /// Gibberish: a word of at least this many letters without a vowel.
    pub gibberish_consonant_word: usize,
}

impl Default for SpamSettings {
    fn default() -> Self {
        SpamSettings {
            flood_window_ms: 10_000,
            flood_max_messages: 6,
            repeat_window_ms: 120_000,
            repeat_min_copies: 3,
            near_duplicate_similarity: 0.8,
            shout_min_letters: 12,
            shout_upper_share: 0.8,
            gibberish_run: 10,
            gibberish_consonant_word: 9,
        }
    }
}

impl SpamSettings {
    /// Reads the `key = value` lines of the `[spam]` table (TOML subset: numbers,
    /// comments); the `[ffa]` table is the FFA policy's (`FfaPolicy::parse`). Unknown keys
    /// and tables are an error so typos do not go unnoticed.
    pub fn parse(text: &str) -> Result<SpamSettings, String> {
        let mut settings = SpamSettings::default();
        let mut table = String::new();
        for (index, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                table = name.trim().to_string();
                if !matches!(table.as_str(), "spam" | "ffa") {
                    return Err(format!("line {}: unknown table [{table}]", index + 1));
                }
                continue;
            }
            if table == "ffa" {
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| format!("line {}: expected key = value", index + 1))?;
            let (key, value) = (key.trim(), value.trim().replace('_', ""));
            let bad = || format!("line {}: bad value for {key}", index + 1);
            match key {
                "flood_window_ms" => settings.flood_window_ms = value.parse().map_err(|_| bad())?,
                "flood_max_messages" => {
                    settings.flood_max_messages = value.parse().map_err(|_| bad())?
                }
                "repeat_window_ms" => {
                    settings.repeat_window_ms = value.parse().map_err(|_| bad())?
                }
                "repeat_min_copies" => {
                    settings.repeat_min_copies = value.parse().map_err(|_| bad())?
                }
                "near_duplicate_similarity" => {
                    settings.near_duplicate_similarity = value.parse().map_err(|_| bad())?
                }
                "shout_min_letters" => {
                    settings.shout_min_letters = value.parse().map_err(|_| bad())?
                }
                "shout_upper_share" => {
                    settings.shout_upper_share = value.parse().map_err(|_| bad())?
                }
                "gibberish_run" => settings.gibberish_run = value.parse().map_err(|_| bad())?,
                "gibberish_consonant_word" => {
                    settings.gibberish_consonant_word = value.parse().map_err(|_| bad())?
                }
                _ => return Err(format!("line {}: unknown key {key}", index + 1)),
            }
        }
        Ok(settings)
    }
}

/// A spam finding before it becomes a flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpamHit {
    pub category: Category,
    pub severity: Severity,
    pub rule: &'static str,
    pub explanation: String,
}

/// Checks of one line on its own: gibberish and shouting.
pub(crate) fn line_checks(settings: &SpamSettings, line: &NormalizedLine, out: &mut Vec<SpamHit>) {
    let stats = &line.stats;
    if stats.letters >= settings.shout_min_letters
        && stats.uppercase as f32 >= settings.shout_upper_share * stats.letters as f32
    {
        out.push(SpamHit {
            category: Category::Shouting,
            severity: Severity::Low,
            rule: "spam:shouting",
            explanation: format!(
                "{} of {} letters are capitals",
                stats.uppercase, stats.letters
            ),
        });
    }
    if stats.longest_run >= settings.gibberish_run {
        out.push(SpamHit {
            category: Category::Gibberish,
            severity: Severity::Low,
            rule: "spam:repeated_character",
            explanation: format!("one character repeated {} times", stats.longest_run),
        });
        return;
    }
    for token in &line.tokens {
        let word = line.token_text(token);
        if word.len() >= settings.gibberish_consonant_word
            && word.bytes().all(|b| b.is_ascii_lowercase())
            && !word
                .bytes()
                .any(|b| matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y'))
        {
            out.push(SpamHit {
                category: Category::Gibberish,
                severity: Severity::Low,
                rule: "spam:keyboard_mash",
                explanation: format!("a {}-letter word without vowels", word.len()),
            });
            return;
        }
    }
}

/// A fingerprint of a line for repeat detection: exact skeleton and trigram sketch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineFingerprint {
    skeleton_hash: u64,
    trigrams: [u64; 4],
    skeleton_len: u32,
}

impl LineFingerprint {
    /// From the matching form: letters and digits only, case and repeats folded.
    pub(crate) fn of(line: &NormalizedLine) -> LineFingerprint {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut trigrams = [0u64; 4];
        let mut window: u32 = 0;
        let mut len = 0u32;
        for b in line.text.bytes().filter(|&b| b != b' ') {
            hash = (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            window = (window << 8 | b as u32) & 0x00ff_ffff;
            len += 1;
            if len >= 3 {
                let bit = (window.wrapping_mul(2_654_435_761) >> 24) as usize; // 0..256
                trigrams[bit / 64] |= 1 << (bit % 64);
            }
        }
        LineFingerprint {
            skeleton_hash: hash,
            trigrams,
            skeleton_len: len,
        }
    }

    fn similarity(&self, other: &LineFingerprint) -> f32 {
        let (mut both, mut either) = (0u32, 0u32);
        for i in 0..4 {
            both += (self.trigrams[i] & other.trigrams[i]).count_ones();
            either += (self.trigrams[i] | other.trigrams[i]).count_ones();
        }
        if either == 0 {
            1.0
        } else {
            both as f32 / either as f32
        }
    }

    fn same_as(&self, other: &LineFingerprint, threshold: f32) -> bool {
        if self.skeleton_hash == other.skeleton_hash && self.skeleton_len == other.skeleton_len {
            return true;
        }
        self.skeleton_len >= 10 && other.skeleton_len >= 10 && self.similarity(other) >= threshold
    }
}

#[derive(Clone, Debug, Default)]
struct SenderHistory {
    recent: VecDeque<(u64, LineFingerprint)>,
}

/// Message rate and repeats per sender within one game.
#[derive(Clone, Debug, Default)]
pub struct SpamTracker {
    settings: SpamSettings,
    senders: HashMap<String, SenderHistory>,
}

/// How many recent lines of one sender are remembered.
const HISTORY: usize = 32;

impl SpamTracker {
    pub fn new(settings: SpamSettings) -> SpamTracker {
        SpamTracker {
            settings,
            senders: HashMap::new(),
        }
    }

    /// Records a line sent by `sender` at `time_ms` and reports flooding or repetition.
    pub fn observe(
        &mut self,
        sender: &str,
        time_ms: u64,
        fingerprint: LineFingerprint,
    ) -> Vec<SpamHit> {
        let settings = &self.settings;
        let history = match self.senders.get_mut(sender) {
            Some(h) => h,
            None => self.senders.entry(sender.to_string()).or_default(),
        };
        let keep_ms = settings.flood_window_ms.max(settings.repeat_window_ms);
        while history
            .recent
            .front()
            .is_some_and(|&(t, _)| time_ms.saturating_sub(t) > keep_ms)
        {
            history.recent.pop_front();
        }
        let mut hits = Vec::new();
        let in_window = history
            .recent
            .iter()
            .filter(|&&(t, _)| time_ms.saturating_sub(t) <= settings.flood_window_ms)
            .count()
            + 1;
        if in_window > settings.flood_max_messages {
            hits.push(SpamHit {
                category: Category::Flooding,
                severity: Severity::Medium,
                rule: "spam:message_rate",
                explanation: format!(
                    "{in_window} messages within {} s",
                    settings.flood_window_ms / 1000
                ),
            });
        }
        let copies = history
            .recent
            .iter()
            .filter(|&&(t, f)| {
                time_ms.saturating_sub(t) <= settings.repeat_window_ms
                    && f.same_as(&fingerprint, settings.near_duplicate_similarity)
            })
            .count()
            + 1;
        if fingerprint.skeleton_len > 0 && copies >= settings.repeat_min_copies {
            hits.push(SpamHit {
                category: Category::Repetition,
                severity: Severity::Medium,
                rule: "spam:repeated_message",
                explanation: format!(
                    "the same message {copies} times within {} s",
                    settings.repeat_window_ms / 1000
                ),
            });
        }
        if history.recent.len() == HISTORY {
            history.recent.pop_front();
        }
        history.recent.push_back((time_ms, fingerprint));
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(text: &str) -> LineFingerprint {
        let mut line = NormalizedLine::new();
        line.normalize(text);
        LineFingerprint::of(&line)
    }

    #[test]
    fn message_rate_uses_a_sliding_window() {
        let mut tracker = SpamTracker::new(SpamSettings::default());
        for i in 0..6 {
            let hits = tracker.observe(
                "red",
                i * 1000,
                fp(&format!("line {i} {}", "x".repeat(i as usize))),
            );
            assert!(hits.iter().all(|h| h.category != Category::Flooding), "{i}");
        }
        let hits = tracker.observe("red", 6000, fp("seventh"));
        assert!(hits.iter().any(|h| h.category == Category::Flooding));
        // Another sender is counted apart, and the window slides.
        assert!(tracker.observe("blue", 6000, fp("hi")).is_empty());
        assert!(tracker.observe("red", 60_000, fp("later")).is_empty());
    }

    #[test]
    fn repeats_and_near_duplicates() {
        let mut tracker = SpamTracker::new(SpamSettings::default());
        assert!(tracker.observe("g", 0, fp("hurry up")).is_empty());
        assert!(tracker.observe("g", 20_000, fp("HURRY UP!!")).is_empty());
        let hits = tracker.observe("g", 40_000, fp("hurryyyy up"));
        assert_eq!(hits[0].category, Category::Repetition);
        // Too far apart: not a repeat.
        let mut tracker = SpamTracker::new(SpamSettings::default());
        for t in [0, 200_000, 400_000] {
            assert!(tracker.observe("g", t, fp("hurry up")).is_empty());
        }
        let a = fp("please everyone join my club tonight");
        let b = fp("please everyone join my club tonight!!! now");
        assert!(a.same_as(&b, 0.6));
        assert!(!a.same_as(&fp("nice game everyone, well played"), 0.8));
    }

    #[test]
    fn shouting_and_gibberish() {
        let mut line = NormalizedLine::new();
        let mut out = Vec::new();
        line.normalize("WHY WOULD YOU DO THAT TO ME");
        line_checks(&SpamSettings::default(), &line, &mut out);
        assert_eq!(out[0].category, Category::Shouting);
        out.clear();
        line.normalize("GG WP");
        line_checks(&SpamSettings::default(), &line, &mut out);
        assert!(out.is_empty());
        line.normalize("aaaaaaaaaaaaaaaa");
        line_checks(&SpamSettings::default(), &line, &mut out);
        assert_eq!(out[0].category, Category::Gibberish);
        out.clear();
        line.normalize("sdfghjklrtzxcbn");
        line_checks(&SpamSettings::default(), &line, &mut out);
        assert_eq!(out[0].rule, "spam:keyboard_mash");
    }

    #[test]
    fn settings_parse() {
        let s = SpamSettings::parse(
            "[spam]\nflood_max_messages = 4 # note\nrepeat_window_ms = 60_000\n",
        )
        .unwrap();
        assert_eq!(s.flood_max_messages, 4);
        assert_eq!(s.repeat_window_ms, 60_000);
        assert!(SpamSettings::parse("nope = 1").is_err());
    }
}
