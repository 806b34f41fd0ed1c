//! Offensive-language detection: one automaton pass over the matching form,
//! word-boundary and allowlist checks, censored words, and the phrase rule for
//! insults aimed at someone's country or language.

use super::lexicon::{Lexicon, MatchMode, PatternRole};
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
const WORD_ENDINGS: [&str; 12] = [
    "s", "es", "z", "ed", "d", "er", "ers", "ing", "in", "y", "ie", "ies",
];

pub(crate) fn scan(lexicon: &Lexicon, line: &NormalizedLine, scratch: &mut ScanScratch) {
    scratch.hits.clear();
    scratch.allow.clear();
    scratch.token_cues.clear();
    scratch.token_cues.resize(line.tokens.len(), 0);
    scratch.line_cues = 0;
    let text = line.text.as_bytes();
    let runs = line.runs();
    for found in lexicon.automaton.find_overlapping_iter(line.text.as_str()) {
        let Some(pattern) = lexicon.patterns.get(found.pattern().as_usize()) else {
            continue;
        };
        let (start, end) = (found.start(), found.end());
        match pattern.role {
            PatternRole::Allow => scratch.allow.push((start as u32, end as u32)),
            PatternRole::Cue(bits) => {
                // " word ": the token starts right after the leading space.
                if let Some(token) = line.token_at(start + 1) {
                    scratch.token_cues[token] |= bits;
                    scratch.line_cues |= bits;
                }
            }
            PatternRole::Offensive(entry_index) => {
                let Some(entry) = lexicon.entries.get(entry_index as usize) else {
                    continue;
                };
                if !runs_reach(&runs[start..end], &pattern.runs) {
                    continue;
                }
                let word_start = if pattern.leading_space {
                    start + 1
                } else {
                    start
                };
                let mut word_end = if entry.mode == MatchMode::Phrase {
                    end - 1
                } else {
                    end
                };
                match entry.mode {
                    MatchMode::Sub | MatchMode::Prefix | MatchMode::Phrase => {}
                    MatchMode::Word => {
                        let Some(token) = line.token_at(word_start) else {
                            continue;
                        };
                        let token_end = line.tokens[token].end as usize;
                        if token_end != word_end {
                            let rest = &text[word_end..token_end];
                            if !WORD_ENDINGS.iter().any(|e| e.as_bytes() == rest) {
                                continue;
                            }
                            word_end = token_end;
                        }
                    }
                }
                scratch.hits.push(Hit {
                    start: word_start as u32,
                    end: word_end as u32,
                    entry: entry_index,
                    censored: false,
                });
            }
        }
    }
    if !scratch.allow.is_empty() {
        let allow = &scratch.allow;
        scratch.hits.retain(|hit| {
            !allow
                .iter()
                .any(|&(s, e)| s <= hit.start && hit.end <= e && (e - s) > (hit.end - hit.start))
        });
    }
    for (index, token) in line.tokens.iter().enumerate() {
        if token.censored {
            if let Some(hit) = match_censored(lexicon, line, token) {
                let _ = index;
                scratch.hits.push(hit);
            }
        }
    }
    keep_outermost(&mut scratch.hits, lexicon);
}

/// Every byte of the line's run must be at least the pattern's run.
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
    if first == b'*' || word.iter().filter(|&&b| b != b'*').count() < 2 {
        return None;
    }
    let candidates = lexicon.censor_index.get(&first)?;
    let mut best: Option<u32> = None;
    for (form, entry) in candidates {
        if wildcard_match(word, form.as_bytes()) {
            let better = match best {
                None => true,
                Some(b) => lexicon.entries[*entry as usize].severity > lexicon.entries[b as usize].severity,
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

/// `*` in `word` matches one byte of `form` or nothing; other bytes must be equal.
fn wildcard_match(word: &[u8], form: &[u8]) -> bool {
    // Small inputs (a word): a plain recursive search with an explicit stack.
    let mut stack: [(u8, u8); 64] = [(0, 0); 64];
    let mut depth = 1usize;
    if word.len() > 60 || form.len() > 60 {
        return false;
    }
    while depth > 0 {
        depth -= 1;
        let (wi, fi) = (stack[depth].0 as usize, stack[depth].1 as usize);
        if wi == word.len() {
            if fi == form.len() {
                return true;
            }
            continue;
        }
        if word[wi] == b'*' {
            if depth + 2 >= stack.len() {
                return false;
            }
            stack[depth] = ((wi + 1) as u8, fi as u8);
            depth += 1;
            if fi < form.len() && form[fi].is_ascii_alphabetic() {
                stack[depth] = ((wi + 1) as u8, (fi + 1) as u8);
                depth += 1;
            }
        } else if fi < form.len() && word[wi] == form[fi] {
            stack[depth] = ((wi + 1) as u8, (fi + 1) as u8);
            depth += 1;
        }
    }
    false
}

/// Drops hits inside a longer hit that is at least as severe ("fuck" in "motherfucker").
fn keep_outermost(hits: &mut Vec<Hit>, lexicon: &Lexicon) {
    if hits.len() < 2 {
        return;
    }
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    hits.dedup_by_key(|h| (h.start, h.end));
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
        lexicon
            .nationalities
            .iter()
            .any(|n| n == word)
            .then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_stand_for_one_letter_or_none() {
        assert!(wildcard_match(b"f*ck", b"fuck"));
        assert!(wildcard_match(b"f**k", b"fuck"));
        assert!(wildcard_match(b"f*u*c*k", b"fuck"));
        assert!(wildcard_match(b"sh*t", b"shit"));
        assert!(!wildcard_match(b"f*ck", b"fk"));
        assert!(!wildcard_match(b"wh*t", b"shit"));
    }
}
