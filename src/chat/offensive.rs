//! Offensive-language detection: one automaton pass over the matching form,
//! word-boundary and allowlist checks, censored words, and the phrase rule for
//! insults aimed at someone's country or language.

use super::lexicon::{Lexicon, LexiconPattern, MatchMode, PatternRole};
use super::normalize::{NormalizedLine, Token};

/// An accepted lexicon match, as a byte range of the matching form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub start: u32,
    pub end: u32,
    pub entry: u32,
    /// Found by the censored-word matcher ("f*ck").
    pub censored: bool,
}

/// Reusable buffers of one scan.
#[derive(Clone, Debug, Default)]
pub(crate) struct ScanScratch {
    pub hits: Vec<Hit>,
    allow: Vec<(u32, u32)>,
    /// FFA cue bits of each token.
    pub token_cues: Vec<u64>,
    /// Union of all token cue bits.
    pub line_cues: u64,
}

/// Inflection endings a whole-word entry may carry ("noobs", "idiots", "sucking").
const WORD_ENDINGS: [&str; 11] = [
    "s", "es", "z", "ed", "d", "er", "ers", "ing", "y", "ie", "ies",
];

pub(crate) fn scan(lexicon: &Lexicon, line: &NormalizedLine, scratch: &mut ScanScratch) {
    scratch.reset(line.tokens.len());
    collect_matches(lexicon, line, scratch);
    if !scratch.allow.is_empty() {
        let allow = &scratch.allow;
        scratch
            .hits
            .retain(|hit| !allow.iter().any(|&(s, e)| s <= hit.start && hit.end <= e));
    }
    match_censored_tokens(lexicon, line, &mut scratch.hits);
    keep_outermost(&mut scratch.hits, lexicon);
}

impl ScanScratch {
    /// The matching-form ranges of allowed (innocent) words found in the line.
    pub fn allowed(&self) -> &[(u32, u32)] {
        &self.allow
    }

    fn reset(&mut self, tokens: usize) {
        self.hits.clear();
        self.allow.clear();
        self.token_cues.clear();
        self.token_cues.resize(tokens, 0);
        self.line_cues = 0;
    }
}

/// The automaton pass: offensive hits, allowlisted ranges and token cues.
fn collect_matches(lexicon: &Lexicon, line: &NormalizedLine, scratch: &mut ScanScratch) {
    let runs = line.runs();
    for found in lexicon.automaton.find_overlapping_iter(line.text.as_str()) {
        let Some(pattern) = lexicon.patterns.get(found.pattern().as_usize()) else {
            continue;
        };
        let (start, end) = (found.start(), found.end());
        match pattern.role {
            PatternRole::Allow => {
                // Innocent words must be spelled as listed: "bob" does not excuse "boobs".
                if runs[start..end] == *pattern.runs {
                    scratch.allow.push((start as u32, end as u32))
                }
            }
            PatternRole::Cue(bits) => {
                // " word ": the token starts right after the leading space.
                if let Some(token) = line.token_at(start + 1) {
                    scratch.token_cues[token] |= bits;
                    scratch.line_cues |= bits;
                }
            }
            PatternRole::Offensive(entry_index) => {
                if let Some(hit) = offensive_hit(lexicon, line, pattern, entry_index, start, end) {
                    scratch.hits.push(hit);
                }
            }
        }
    }
}

/// An offensive pattern found at `start..end`, if it sits in the line as its entry must.
#[inline]
fn offensive_hit(
    lexicon: &Lexicon,
    line: &NormalizedLine,
    pattern: &LexiconPattern,
    entry_index: u32,
    start: usize,
    end: usize,
) -> Option<Hit> {
    let entry = lexicon.entries.get(entry_index as usize)?;
    if !runs_reach(&line.runs()[start..end], &pattern.runs) {
        return None;
    }
    let word_start = if pattern.leading_space {
        start + 1
    } else {
        start
    };
    let mut word_end = if pattern.trailing_space { end - 1 } else { end };
    match entry.mode {
        MatchMode::Sub | MatchMode::Prefix | MatchMode::Phrase => {}
        MatchMode::Word => word_end = word_end_with_ending(line, word_end)?,
    }
    Some(Hit {
        start: word_start as u32,
        end: word_end as u32,
        entry: entry_index,
        censored: false,
    })
}

/// Where a whole-word match ending at `word_end` really ends: the token holding the last
/// matched byte decides; None when the rest of it is no inflection ending.
#[inline]
fn word_end_with_ending(line: &NormalizedLine, word_end: usize) -> Option<usize> {
    let token = line.token_at(word_end.saturating_sub(1))?;
    let token_end = line.tokens[token].end as usize;
    if token_end == word_end {
        return Some(word_end);
    }
    let rest = &line.text.as_bytes()[word_end..token_end];
    WORD_ENDINGS
        .iter()
        .any(|e| e.as_bytes() == rest)
        .then_some(token_end)
}

/// Censored tokens ("f*ck") and, among tokens no hit covers, words censored with an "x"
/// ("fuxk").
fn match_censored_tokens(lexicon: &Lexicon, line: &NormalizedLine, hits: &mut Vec<Hit>) {
    for token in &line.tokens {
        let covered = |hits: &[Hit]| {
            hits.iter()
                .any(|h| h.start <= token.start && token.end <= h.end)
        };
        if token.censored {
            if let Some(hit) = match_censored(lexicon, line, token) {
                hits.push(hit);
            }
        } else if !covered(hits) {
            if let Some(hit) = match_x_censored(lexicon, line, token) {
                hits.push(hit);
            }
        }
    }
}

/// Every byte of the line's run must be at least the pattern's run.
/// Extra repeats are emphasis ("fuuuck", "assshole"); fewer are another word
/// ("as" is not "ass"). Innocent doubled spellings ("rapping") are allowlisted.
fn runs_reach(line_runs: &[u8], pattern_runs: &[u8]) -> bool {
    line_runs
        .iter()
        .zip(pattern_runs.iter())
        .all(|(have, need)| have >= need)
}

/// A censored word ("f*ck", "sh!t", "f**k", "f*u*c*k") against the entries with the
/// same first letter: each censoring character stands for one letter or none.
fn match_censored(lexicon: &Lexicon, line: &NormalizedLine, token: &Token) -> Option<Hit> {
    let word = line.token_text(token).as_bytes();
    let first = *word.first()?;
    let letters = word.iter().filter(|&&b| b != b'*').count();
    if first == b'*' || letters == 0 || word.len() < 3 || (letters < 2 && word.len() < 4) {
        return None;
    }
    // "T^T", "o_o": a face, not a censored word.
    if word.len() == 3 && word[0] == word[2] {
        return None;
    }
    let candidates = lexicon.censor_index.get(&first)?;
    let mut best: Option<u32> = None;
    for (form, entry) in candidates {
        let form = form.as_bytes();
        // Each wildcard stands for one letter or none: a term longer than the word, or shorter
        // than its letters (less an inflection ending), cannot match; nor is a word read as a
        // term less than half its length ("f*u*c*k" is, "s**********e***s" is no word).
        // This skips most terms.
        if form.len() > word.len() || form.len() + 3 < letters || word.len() > 2 * form.len() + 3 {
            continue;
        }
        let matched = could_end_alike(word, form) && wildcard_match(word, form, b'*')
            || WORD_ENDINGS.iter().any(|ending| {
                word.len() > ending.len() + 2 && word.ends_with(ending.as_bytes()) && {
                    let stem = &word[..word.len() - ending.len()];
                    could_end_alike(stem, form) && wildcard_match(stem, form, b'*')
                }
            });
        if matched {
            let better = match best {
                None => true,
                Some(b) => {
                    lexicon.entries[*entry as usize].severity > lexicon.entries[b as usize].severity
                }
            };
            if better {
                best = Some(*entry);
            }
        }
    }
    best.map(|entry| Hit {
        start: token.start,
        end: token.end,
        entry,
        censored: true,
    })
}

/// A cheap test before [`wildcard_match`]: a word that ends with a letter matches only a term
/// that ends with the same letter.
fn could_end_alike(word: &[u8], form: &[u8]) -> bool {
    match word.last() {
        Some(&b'*') | None => true,
        Some(last) => form.last() == Some(last),
    }
}

/// A letter "x" inside a short word is often a censoring mark ("fuxk", "bitxh"):
/// it may stand for a vowel, a "c" or a "k" of a lexicon entry ("dxck", "shxt"), not for any
/// letter ("fixing" is not "figging").
fn match_x_censored(lexicon: &Lexicon, line: &NormalizedLine, token: &Token) -> Option<Hit> {
    let word = line.token_text(token).as_bytes();
    if !(4..=10).contains(&word.len()) || !word[1..].contains(&b'x') {
        return None;
    }
    let candidates = lexicon.censor_index.get(&word[0])?;
    let entry = candidates.iter().find_map(|(form, entry)| {
        let form = form.as_bytes();
        (form.len() == word.len()
            && form.iter().zip(word).all(|(f, w)| {
                f == w
                    || (*w == b'x' && matches!(*f, b'a' | b'e' | b'i' | b'o' | b'u' | b'c' | b'k'))
            }))
        .then_some(*entry)
    })?;
    Some(Hit {
        start: token.start,
        end: token.end,
        entry,
        censored: true,
    })
}

/// `wildcard` in `word` matches one letter of `form` or nothing; other bytes must be equal.
/// A table over (word, form) prefixes: linear in their product, however many wildcards
/// a line holds (a backtracking search is exponential in them).
fn wildcard_match(word: &[u8], form: &[u8], wildcard: u8) -> bool {
    if word.len() > 64 || form.len() > 64 {
        return false;
    }
    // reach[f]: the first `w` bytes of `word` can match the first `f` bytes of `form`.
    let mut reach = [false; 65];
    reach[0] = true;
    for &w in word {
        let mut next = [false; 65];
        for f in 0..=form.len() {
            if !reach[f] {
                continue;
            }
            if w == wildcard {
                next[f] = true;
                if f < form.len() && form[f].is_ascii_alphabetic() {
                    next[f + 1] = true;
                }
            } else if f < form.len() && w == form[f] {
                next[f + 1] = true;
            }
        }
        reach = next;
    }
    reach[form.len()]
}

/// Drops hits inside a longer hit that is at least as severe ("fuck" in "motherfucker").
fn keep_outermost(hits: &mut Vec<Hit>, lexicon: &Lexicon) {
    if hits.len() < 2 {
        return;
    }
    // Of hits with the same span and category, the most severe is kept ("nikker" is a slur
    // in Dutch, whatever a milder English spelling says).
    hits.sort_by_key(|h| {
        let severity = lexicon.entries[h.entry as usize].severity;
        (
            h.start,
            std::cmp::Reverse(h.end),
            std::cmp::Reverse(severity),
        )
    });
    hits.dedup_by_key(|h| (h.start, h.end, lexicon.entries[h.entry as usize].category));
    let severity = |h: &Hit| lexicon.entries[h.entry as usize].severity;
    let snapshot = hits.clone();
    hits.retain(|h| {
        !snapshot.iter().any(|o| {
            o != h
                && o.start <= h.start
                && h.end <= o.end
                && (o.end - o.start) > (h.end - h.start)
                && severity(o) >= severity(h)
        })
    });
}

/// Indices of tokens that name a country, people or language.
pub(crate) fn nationality_tokens<'a>(
    lexicon: &'a Lexicon,
    line: &'a NormalizedLine,
) -> impl Iterator<Item = usize> + 'a {
    line.tokens.iter().enumerate().filter_map(|(i, t)| {
        let word = line.token_text(t);
        lexicon.nationalities.iter().any(|n| n == word).then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_stand_for_one_letter_or_none() {
        assert!(wildcard_match(b"f*ck", b"fuck", b'*'));
        assert!(wildcard_match(b"f**k", b"fuck", b'*'));
        assert!(wildcard_match(b"f*u*c*k", b"fuck", b'*'));
        assert!(wildcard_match(b"sh*t", b"shit", b'*'));
        assert!(!wildcard_match(b"f*ck", b"fk", b'*'));
        assert!(!wildcard_match(b"wh*t", b"shit", b'*'));
    }

    #[test]
    fn many_wildcards_answer_at_once() {
        let word = [b"f".as_slice(), &[b'*'; 60], b"x"].concat();
        assert!(!wildcard_match(
            &word,
            b"fuckfuckfuckfuckfuckfuckfuckfuck",
            b'*'
        ));
        assert!(wildcard_match(&[b'*'; 40], b"fuck", b'*'));
    }
}
