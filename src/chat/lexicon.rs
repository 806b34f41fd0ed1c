//! Lexicons as data: offensive terms (category, severity, how they must match),
//! the allowlist of innocent words that contain offensive substrings, and the
//! word cues the FFA classifier reads. All of them go into one Aho-Corasick
//! automaton over the matching form of a line.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

pub use super::match_mode::MatchMode;
use super::normalize::NormalizedLine;
use super::types::{Category, Severity};
use super::word_list::{matching_form, WordList};

/// The project's lexicon files, embedded.
pub const REFERENCE_TSV: &str = include_str!("../../config/lexicons/reference.tsv");
pub const LANGUAGES_TSV: &str = include_str!("../../config/lexicons/languages.tsv");
pub const CUSTOM_TSV: &str = include_str!("../../config/lexicons/custom.tsv");
pub const ALLOWLIST_TXT: &str = include_str!("../../config/lexicons/allowlist.txt");
pub const NATIONALITIES_TXT: &str = include_str!("../../config/lexicons/nationalities.txt");
pub const FFA_CUES_TXT: &str = include_str!("../../config/lexicons/ffa_cues.txt");

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconEntry {
    pub term: String,
    pub category: Category,
    pub severity: Severity,
    pub mode: MatchMode,
    pub source: String,
}

/// What a pattern of the automaton stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PatternRole {
    Offensive(u32),
    Allow,
    /// FFA word cues: a bit set, matched as a whole word.
    Cue(u64),
}

#[derive(Clone, Debug)]
pub(crate) struct LexiconPattern {
    pub role: PatternRole,
    /// Run lengths the line must reach at each byte (so "as" does not match "ass").
    pub runs: Box<[u8]>,
    /// The pattern starts with the word-boundary space.
    pub leading_space: bool,
    /// The pattern ends with the word-boundary space.
    pub trailing_space: bool,
}

/// A lexicon file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconError {
    pub file: &'static str,
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LexiconError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for LexiconError {}

/// The FFA cue names, one bit each (see `config/lexicons/ffa_cues.txt`).
#[derive(Clone, Debug, Default)]
pub struct CueNames {
    names: Vec<String>,
}

impl CueNames {
    /// The bit of a cue set, or 0 if the file has no such set.
    pub fn bit(&self, name: &str) -> u64 {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| 1u64 << i)
            .unwrap_or(0)
    }
}

/// All lexicons compiled into one automaton.
#[derive(Clone, Debug)]
pub struct Lexicon {
    pub entries: Vec<LexiconEntry>,
    pub(crate) patterns: Vec<LexiconPattern>,
    pub(crate) automaton: AhoCorasick,
    /// Matching forms of offensive entries by first byte, for censored words ("f*ck").
    pub(crate) censor_index: HashMap<u8, Vec<(Box<str>, u32)>>,
    pub nationalities: Vec<String>,
    pub cue_names: CueNames,
}

/// The text sources a lexicon is built from.
#[derive(Clone, Copy, Debug)]
pub struct LexiconSources<'a> {
    pub reference_tsv: &'a str,
    pub languages_tsv: &'a str,
    pub custom_tsv: &'a str,
    pub allowlist_txt: &'a str,
    pub nationalities_txt: &'a str,
    pub ffa_cues_txt: &'a str,
}

impl Default for LexiconSources<'static> {
    fn default() -> Self {
        LexiconSources {
            reference_tsv: REFERENCE_TSV,
            languages_tsv: LANGUAGES_TSV,
            custom_tsv: CUSTOM_TSV,
            allowlist_txt: ALLOWLIST_TXT,
            nationalities_txt: NATIONALITIES_TXT,
            ffa_cues_txt: FFA_CUES_TXT,
        }
    }
}

/// One row of a lexicon TSV: term, category, severity 1-4, mode, source.
/// The category `allow` adds an allowlist word; `remove` drops a reference term.
fn parse_tsv(
    text: &str,
    file: &'static str,
) -> Result<Vec<(String, Option<LexiconEntry>)>, LexiconError> {
    let mut rows = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let error = |message: &str| LexiconError {
            file,
            line: index + 1,
            message: message.to_string(),
        };
        let mut fields = raw.split('\t');
        let term = fields.next().unwrap_or("").trim().to_lowercase();
        let category = fields.next().ok_or_else(|| error("missing category"))?;
        if term.is_empty() {
            return Err(error("empty term"));
        }
        match category.trim() {
            "allow" | "remove" => {
                rows.push((format!("{}:{}", category.trim(), term), None));
                continue;
            }
            _ => {}
        }
        let category = Category::from_name(category)
            .ok_or_else(|| error(&format!("unknown category {category:?}")))?;
        let severity: u8 = fields
            .next()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(|| error("severity must be 1-4"))?;
        let mode = fields
            .next()
            .and_then(MatchMode::parse)
            .ok_or_else(|| error("mode must be sub, prefix, word or phrase"))?;
        let source = fields.next().unwrap_or("project").trim().to_string();
        rows.push((
            term.clone(),
            Some(LexiconEntry {
                term,
                category,
                severity: Severity::from_level(severity),
                mode,
                source,
            }),
        ));
    }
    Ok(rows)
}

impl Lexicon {
    /// How many patterns the automaton holds (terms, spelling variants, allowlist, cues).
    pub fn pattern_count(&self) -> usize {
        self.patterns.len()
    }

    /// Heap memory of the automaton in bytes.
    pub fn memory_usage(&self) -> usize {
        self.automaton.memory_usage()
    }

    /// Builds the lexicon from the embedded project files.
    pub fn embedded() -> Result<Lexicon, LexiconError> {
        Lexicon::from_sources(LexiconSources::default())
    }

    pub fn from_sources(sources: LexiconSources<'_>) -> Result<Lexicon, LexiconError> {
        Lexicon::build(sources, &WordList::default())
    }

    /// The lexicon of `sources` with the admins' terms and allowed words over it.
    pub fn build(sources: LexiconSources<'_>, admins: &WordList) -> Result<Lexicon, LexiconError> {
        let mut allow_terms: Vec<String> = words_of_list(sources.allowlist_txt)
            .map(str::to_lowercase)
            .collect();
        let mut entries = merge_entry_files(&sources, &mut allow_terms)?;
        let admin_allowed = overlay_admins(&mut entries, admins);
        let (cue_names, cue_words) = parse_cue_sets(sources.ffa_cues_txt)?;

        let mut builder = PatternSet::default();
        let mut line = NormalizedLine::new();
        let censor_index = builder.add_entries(&mut line, &entries);
        builder.add_split_compounds(&mut line, &entries);
        builder.add_allowlist(&mut line, &allow_terms);
        // An admin's allowed word counts even where a term is spelled like it: the term is gone.
        for word in admin_allowed {
            builder.add(&mut line, word, PatternRole::Allow, false, false);
        }
        for (word, bits) in &cue_words {
            builder.add(&mut line, word, PatternRole::Cue(*bits), true, true);
        }
        let automaton = build_automaton(&builder.texts)?;
        let nationalities = words_of_list(sources.nationalities_txt)
            .map(|w| {
                line.normalize(w);
                line.trimmed().to_string()
            })
            .collect();
        Ok(Lexicon {
            entries,
            patterns: builder.patterns,
            automaton,
            censor_index,
            nationalities,
            cue_names,
        })
    }
}

/// Adds the admins' terms to `entries` (over a built-in term spelled the same) and drops every
/// term spelled like a word they allowed; returns the allowed words.
fn overlay_admins<'a>(entries: &mut Vec<LexiconEntry>, admins: &'a WordList) -> Vec<&'a str> {
    for added in &admins.terms {
        let entry = LexiconEntry {
            term: added.term.clone(),
            category: added.category,
            severity: added.severity,
            mode: added.mode,
            source: ADMIN_SOURCE.to_string(),
        };
        match entries.iter_mut().find(|e| e.term == added.term) {
            Some(existing) => *existing = entry,
            None => entries.push(entry),
        }
    }
    if !admins.allowed.is_empty() {
        let allowed: std::collections::HashSet<String> =
            admins.allowed.iter().map(|w| matching_form(w)).collect();
        entries.retain(|e| !allowed.contains(&matching_form(&e.term)));
    }
    admins.allowed.iter().map(String::as_str).collect()
}

/// The source of the admins' terms, as a flag's rule names it (`lexicon:admin:<term>`).
pub const ADMIN_SOURCE: &str = "admin";

/// The words of a word-list file: one a line, without blank lines and `#` comments.
fn words_of_list(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The entries of the three lexicon TSVs, later files overriding earlier ones, less the
/// terms they remove; the `allow` rows are added to `allow_terms`.
fn merge_entry_files(
    sources: &LexiconSources<'_>,
    allow_terms: &mut Vec<String>,
) -> Result<Vec<LexiconEntry>, LexiconError> {
    let mut entries: Vec<LexiconEntry> = Vec::new();
    let mut by_term: HashMap<String, usize> = HashMap::new();
    let mut removed: Vec<String> = Vec::new();
    let files: [(&str, &'static str); 3] = [
        (sources.reference_tsv, "reference.tsv"),
        (sources.languages_tsv, "languages.tsv"),
        (sources.custom_tsv, "custom.tsv"),
    ];
    for (text, file) in files {
        for (term, entry) in parse_tsv(text, file)? {
            match entry {
                Some(entry) => {
                    // Later files override earlier ones.
                    if let Some(&i) = by_term.get(&term) {
                        entries[i] = entry;
                    } else {
                        by_term.insert(term, entries.len());
                        entries.push(entry);
                    }
                }
                None => {
                    if let Some(word) = term.strip_prefix("allow:") {
                        allow_terms.push(word.to_string());
                    } else if let Some(word) = term.strip_prefix("remove:") {
                        removed.push(word.to_string());
                    }
                }
            }
        }
    }
    entries.retain(|e| !removed.contains(&e.term));
    Ok(entries)
}

/// The FFA cue sets (`name: word word ...`, at most 64): their names, and the cue bits of
/// each word.
fn parse_cue_sets(text: &str) -> Result<(CueNames, HashMap<String, u64>), LexiconError> {
    let mut cue_names = CueNames::default();
    let mut cue_words: HashMap<String, u64> = HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.starts_with('#') || raw.trim().is_empty() {
            continue;
        }
        let error = |message: &str| LexiconError {
            file: "ffa_cues.txt",
            line: index + 1,
            message: message.to_string(),
        };
        let (name, words) = raw
            .split_once(':')
            .ok_or_else(|| error("expected `name: word word ...`"))?;
        if cue_names.names.len() >= 64 {
            return Err(error("at most 64 cue sets"));
        }
        let bit = 1u64 << cue_names.names.len();
        cue_names.names.push(name.trim().to_string());
        for word in words.split_whitespace() {
            *cue_words.entry(word.to_lowercase()).or_default() |= bit;
        }
    }
    Ok((cue_names, cue_words))
}

/// A contiguous NFA over every pattern: about 1 MB where a full DFA of the same patterns
/// holds about 110 MB, and built several times faster. It searches more slowly (failure
/// transitions), which the analyser's figure of issue #44 allows: `cargo bench --bench chat`
/// and docs/performance.md have both.
fn build_automaton(texts: &[String]) -> Result<AhoCorasick, LexiconError> {
    AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .kind(Some(AhoCorasickKind::ContiguousNFA))
        .build(texts)
        .map_err(|e| LexiconError {
            file: "lexicon",
            line: 0,
            message: e.to_string(),
        })
}

#[derive(Default)]
struct PatternSet {
    texts: Vec<String>,
    patterns: Vec<LexiconPattern>,
}

impl PatternSet {
    /// Adds the offensive entries (with an "i" spelling of words written with "l"); returns
    /// the index of censored-word forms.
    fn add_entries(
        &mut self,
        line: &mut NormalizedLine,
        entries: &[LexiconEntry],
    ) -> HashMap<u8, Vec<(Box<str>, u32)>> {
        let mut censor_index: HashMap<u8, Vec<(Box<str>, u32)>> = HashMap::new();
        for (index, entry) in entries.iter().enumerate() {
            let role = PatternRole::Offensive(index as u32);
            let lead = !matches!(entry.mode, MatchMode::Sub);
            let trail = matches!(entry.mode, MatchMode::Phrase);
            if let Some(form) = self.add(line, &entry.term, role, lead, trail) {
                if entry.mode != MatchMode::Phrase && form.len() >= 3 {
                    let first = form.as_bytes()[0];
                    censor_index
                        .entry(first)
                        .or_default()
                        .push((form.into(), index as u32));
                }
            }
            // "1" is read as "i"; words written with "l" get an "i" spelling too ("he11").
            if entry.term.contains('l') && entry.mode != MatchMode::Phrase {
                let variant = entry.term.replace('l', "i");
                self.add(line, &variant, role, lead, trail);
            }
        }
        censor_index
    }

    /// Compounds written as two words ("rag head", "bend over") match as a phrase;
    /// each part must be a whole word, so "but treason" never becomes "butt...".
    fn add_split_compounds(&mut self, line: &mut NormalizedLine, entries: &[LexiconEntry]) {
        for (index, entry) in entries.iter().enumerate() {
            let term = entry.term.as_str();
            let long_single_word = matches!(entry.mode, MatchMode::Sub | MatchMode::Prefix)
                && (6..=14).contains(&term.len())
                && term.bytes().all(|b| b.is_ascii_lowercase());
            if !long_single_word {
                continue;
            }
            for split in 3..=term.len() - 3 {
                let phrase = format!("{} {}", &term[..split], &term[split..]);
                self.add(
                    line,
                    &phrase,
                    PatternRole::Offensive(index as u32),
                    true,
                    true,
                );
            }
        }
    }

    /// Adds the allowlist. An allowlist word spelled exactly like an offensive entry
    /// ("he'll") would cancel it: such words are left out.
    fn add_allowlist(&mut self, line: &mut NormalizedLine, allow_terms: &[String]) {
        let offensive_forms: std::collections::HashSet<(String, Box<[u8]>)> = self
            .texts
            .iter()
            .zip(&self.patterns)
            .map(|(text, pattern)| {
                let inner = text.trim();
                let from = usize::from(pattern.leading_space);
                let runs: Box<[u8]> = pattern.runs[from..from + inner.len()].into();
                (inner.to_string(), runs)
            })
            .collect();
        for term in allow_terms {
            line.normalize(term);
            let inner = line.trimmed().to_string();
            let runs: Box<[u8]> = line.runs()[1..1 + inner.len()].into();
            if offensive_forms.contains(&(inner, runs)) {
                continue;
            }
            self.add(line, term, PatternRole::Allow, false, false);
        }
    }

    /// Adds the matching form of `term`; returns the form (without boundary spaces).
    fn add(
        &mut self,
        line: &mut NormalizedLine,
        term: &str,
        role: PatternRole,
        lead: bool,
        trail: bool,
    ) -> Option<String> {
        line.normalize(term);
        let form = line.trimmed();
        let offensive = matches!(role, PatternRole::Offensive(_));
        // One ASCII letter matches far too much ("_l_" folds to "l"), unless it was
        // repeated ("kkk").
        let single_letter = form.is_ascii() && form.len() < 2 && line.run_at(1) < 2;
        // Drawings ("c==8", "8≈≈d") whose symbols fall away leave two letters that are
        // ordinary words of game chat ("cb"): the pattern rule draws them instead.
        if offensive && form.len() <= 2 && term.chars().count() > form.len() + 1 {
            return None;
        }
        // "*" is a whole word the game replaced by asterisks (the `****` entry).
        let censored_word = form == "*";
        if form.is_empty()
            || (!censored_word && (form.contains('*') || (offensive && single_letter)))
        {
            return None;
        }
        let (lead, trail) = if offensive && form.contains(' ') {
            // Several words: they must be whole words ("f you" is not in "poof you").
            (true, true)
        } else if offensive && !lead && form.is_ascii() && form.len() < 3 {
            // A substring entry of two letters would match inside countless words.
            (true, true)
        } else {
            (lead, trail)
        };
        let form_start = 1usize; // after the leading sentinel
        let form_end = form_start + form.len();
        let start = if lead { form_start - 1 } else { form_start };
        let end = if trail { form_end + 1 } else { form_end };
        let text = line.text[start..end].to_string();
        let runs: Box<[u8]> = line.runs()[start..end].into();
        self.texts.push(text);
        self.patterns.push(LexiconPattern {
            role,
            runs,
            leading_space: lead,
            trailing_space: trail,
        });
        Some(form.to_string())
    }
}
