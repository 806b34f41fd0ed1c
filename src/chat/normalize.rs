//! One-pass normalisation of a chat line into a matching form, with a map back to
//! the original byte offsets.
//!
//! The matching form is lower-case, compatibility-folded, free of accents,
//! zero-width and direction characters, with look-alike letters and leetspeak
//! mapped to Latin letters and runs of a repeated letter collapsed to one letter
//! (the run length is kept, so "ass" and "as" stay distinguishable). Tokens are
//! separated by one space. Runs of single letters ("f u c k", "f.u.c.k") are
//! joined into one token; multi-letter words are never joined, which is what keeps
//! "but treason" and "push it" clean. Censoring characters inside a word
//! ("f*ck", "sh!t", "f---ing") are kept as `*` for the censored-word matcher.

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

/// The character written into the matching form for a censoring character.
pub const WILDCARD: u8 = b'*';

/// A token of the matching form: a byte range of [`NormalizedLine::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: u32,
    pub end: u32,
    /// The token contains censoring characters (`*` in the matching form).
    pub censored: bool,
    /// The token was joined from single letters ("f u c k").
    pub joined: bool,
    /// Clause punctuation (`, . ; : ! ?`) or a line break came before this token.
    pub after_clause_break: bool,
    /// Written with letters only (no digits or symbols read as letters).
    pub plain: bool,
}

/// Cheap facts about the original line, gathered during the same pass; they gate
/// the regular expressions and the per-line spam checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStats {
    pub chars: u32,
    pub letters: u32,
    pub uppercase: u32,
    pub digits: u32,
    pub has_at: bool,
    pub has_dot_word: bool,
    pub has_colon_slash: bool,
    /// Characters that ASCII-art gestures are drawn with (`_`, `=`, `(`, symbols).
    pub has_art: bool,
    /// Longest run of one repeated character (before collapsing).
    pub longest_run: u32,
}

/// The matching form of one line; reusable across lines (buffers are cleared, not freed).
#[derive(Clone, Debug, Default)]
pub struct NormalizedLine {
    pub text: String,
    /// For every byte of `text`: the original byte range it came from.
    source: Vec<(u32, u32)>,
    /// For every byte of `text`: how many times the character was repeated originally.
    runs: Vec<u8>,
    /// For every byte of `text`: the index of its token (`u16::MAX` for separators).
    token_of_byte: Vec<u16>,
    pub tokens: Vec<Token>,
    pub stats: LineStats,
    scratch: Vec<PendingChar>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CharKind {
    Letter,
    Digit,
    /// A symbol that stands for a letter inside a word (`$` for s, `@` for a).
    LetterSymbol,
    /// A censoring character inside a word.
    Wildcard,
}

#[derive(Clone, Copy, Debug)]
struct PendingChar {
    ch: char,
    kind: CharKind,
    start: u32,
    end: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Boundary {
    /// Whitespace or the start of the line.
    Space,
    /// Punctuation without whitespace ("f.u.c.k").
    Punct,
    /// Clause punctuation: also marks the next token as starting a clause.
    Clause,
}

impl NormalizedLine {
    pub fn new() -> Self {
        Self::default()
    }

    /// Normalises `input` into this buffer, replacing what it held.
    pub fn normalize(&mut self, input: &str) {
        self.clear();
        let mut builder = Builder {
            line: self,
            pending_boundary: Boundary::Space,
            clause_break: false,
            last_char: None,
            current_run: 0,
        };
        builder.run(input);
        let end = input.len() as u32;
        self.push_sentinel(end);
    }

    /// The matching form starts and ends with a space so that whole-word patterns
    /// can be written as " word ".
    fn push_sentinel(&mut self, at: u32) {
        self.text.push(' ');
        self.source.push((at, at));
        self.runs.push(1);
        self.token_of_byte.push(u16::MAX);
    }

    /// The matching form without its leading and trailing sentinel spaces.
    pub fn trimmed(&self) -> &str {
        self.text.trim_matches(' ')
    }

    fn clear(&mut self) {
        self.text.clear();
        self.source.clear();
        self.runs.clear();
        self.token_of_byte.clear();
        self.tokens.clear();
        self.stats = LineStats::default();
        self.scratch.clear();
        self.push_sentinel(0);
    }

    /// The original byte range of the matching-form range `start..end`.
    pub fn original_span(&self, start: usize, end: usize) -> (usize, usize) {
        if start >= end || end > self.source.len() {
            return (0, 0);
        }
        (
            self.source[start].0 as usize,
            self.source[end - 1].1 as usize,
        )
    }

    /// How many times the character at byte `index` of `text` was repeated.
    pub fn run_at(&self, index: usize) -> u8 {
        self.runs.get(index).copied().unwrap_or(1)
    }

    /// The token that contains byte `index` of `text`, if any.
    pub fn token_at(&self, index: usize) -> Option<usize> {
        match self.token_of_byte.get(index) {
            Some(&t) if t != u16::MAX => Some(t as usize),
            _ => None,
        }
    }

    pub fn token_text(&self, token: &Token) -> &str {
        &self.text[token.start as usize..token.end as usize]
    }

    /// The run lengths of `text`, one per byte.
    pub fn runs(&self) -> &[u8] {
        &self.runs
    }
}

struct Builder<'a> {
    line: &'a mut NormalizedLine,
    pending_boundary: Boundary,
    clause_break: bool,
    last_char: Option<char>,
    current_run: u32,
}

impl Builder<'_> {
    fn run(&mut self, input: &str) {
        let bytes = input.as_bytes();
        let mut iter = input.char_indices().peekable();
        while let Some((at, ch)) = iter.next() {
            let end = at + ch.len_utf8();
            self.count_stats(ch);
            if ch.is_ascii() {
                let next = iter.peek().map(|&(_, c)| c);
                if ch == '[' && input[end..].starts_with("_]") {
                    // "[_]" stands for the letter u ("f[_]cker").
                    iter.next();
                    iter.next();
                    self.push_char('u', CharKind::LetterSymbol, at, end + 2);
                    continue;
                }
                if ch == '|' && input[end..].starts_with("\\|") {
                    // "|\|" stands for the letter n.
                    iter.next();
                    iter.next();
                    self.push_char('n', CharKind::LetterSymbol, at, end + 2);
                    continue;
                }
                if ch == '(' && next == Some(')') {
                    // "()" stands for the letter o ("f()()k").
                    iter.next();
                    self.push_char('o', CharKind::LetterSymbol, at, end + 1);
                    continue;
                }
                if (ch == '-' || ch == '_') && (next == Some(ch) || self.last_pending_is_wildcard())
                {
                    // A run of dashes inside a word censors letters ("f---ing").
                    if self.has_pending_letter() {
                        self.push_char(ch, CharKind::Wildcard, at, end);
                        continue;
                    }
                }
                if ch == '.' && bytes.get(end).is_some_and(|b| b.is_ascii_alphabetic()) {
                    self.line.stats.has_dot_word = true;
                }
                self.ascii(ch, at, end);
            } else {
                self.non_ascii(ch, at, end);
            }
        }
        self.flush_token();
    }

    fn count_stats(&mut self, ch: char) {
        let stats = &mut self.line.stats;
        stats.chars += 1;
        if ch.is_alphabetic() {
            stats.letters += 1;
            if ch.is_uppercase() {
                stats.uppercase += 1;
            }
        } else if ch.is_ascii_digit() {
            stats.digits += 1;
        } else if matches!(ch, '_' | '=' | '(') || (!ch.is_ascii() && !ch.is_alphabetic()) {
            stats.has_art = true;
        } else if ch == '@' {
            stats.has_at = true;
        } else if ch == '/' && self.last_char == Some(':') {
            stats.has_colon_slash = true;
        }
        if Some(ch) == self.last_char {
            self.current_run += 1;
        } else {
            self.current_run = 1;
            self.last_char = Some(ch);
        }
        stats.longest_run = stats.longest_run.max(self.current_run);
    }

    fn has_pending_letter(&self) -> bool {
        self.line
            .scratch
            .iter()
            .any(|c| c.kind == CharKind::Letter || c.kind == CharKind::LetterSymbol)
    }

    fn last_pending_is_wildcard(&self) -> bool {
        self.line
            .scratch
            .last()
            .is_some_and(|c| c.kind == CharKind::Wildcard)
    }

    fn ascii(&mut self, ch: char, at: usize, end: usize) {
        match ch {
            // "v" is read as "u" (both in lines and in lexicon terms): "fvck", "cvnt".
            'v' | 'V' => self.push_char('u', CharKind::Letter, at, end),
            'a'..='z' | 'A'..='Z' => {
                self.push_char(ch.to_ascii_lowercase(), CharKind::Letter, at, end)
            }
            '0'..='9' => self.push_char(ch, CharKind::Digit, at, end),
            '@' => self.push_char('a', CharKind::LetterSymbol, at, end),
            '$' => self.push_char('s', CharKind::LetterSymbol, at, end),
            '+' => self.push_char('t', CharKind::LetterSymbol, at, end),
            '<' => self.push_char('c', CharKind::LetterSymbol, at, end),
            '&' => {
                if self.line.scratch.is_empty() {
                    self.boundary(Boundary::Punct);
                } else {
                    self.push_char(ch, CharKind::Wildcard, at, end);
                }
            }
            '*' | '#' | '^' | '%' | '!' => {
                if self.line.scratch.is_empty() {
                    // Leading: punctuation or emphasis, not censoring.
                    self.boundary(if ch == '!' {
                        Boundary::Clause
                    } else {
                        Boundary::Punct
                    });
                } else {
                    self.push_char(ch, CharKind::Wildcard, at, end);
                }
            }
            // Apostrophes join contractions: "don't" -> "dont", "i'm" -> "im".
            '\'' | '`' => {}
            ',' | '.' | ';' | ':' | '?' => self.boundary(Boundary::Clause),
            '\n' | '\r' => self.boundary(Boundary::Clause),
            c if c.is_ascii_whitespace() => self.boundary(Boundary::Space),
            _ => self.boundary(Boundary::Punct),
        }
    }

    fn non_ascii(&mut self, ch: char, at: usize, end: usize) {
        if is_invisible(ch) {
            return;
        }
        if let Some(letter) = enclosed_letter(ch) {
            self.push_char(letter, CharKind::Letter, at, end);
            return;
        }
        if is_emoji(ch) {
            self.flush_token();
            self.push_char(ch, CharKind::Letter, at, end);
            self.flush_token();
            return;
        }
        if let Some(mapped) = homoglyph(ch) {
            self.push_char(mapped, CharKind::Letter, at, end);
            return;
        }
        if ch == '\u{2019}' || ch == '\u{2018}' {
            return; // typographic apostrophes, as '\''
        }
        let mut decomposed = [None::<char>; 4];
        let mut count = 0usize;
        decompose_compatible(ch, |d| {
            if count < decomposed.len() {
                decomposed[count] = Some(d);
            }
            count += 1;
        });
        if count > decomposed.len() {
            // Long compatibility expansions (ligature words, "(10)"): treat as a separator.
            self.boundary(Boundary::Punct);
            return;
        }
        for d in decomposed.iter().flatten().copied() {
            if is_combining_mark(d) || is_invisible(d) {
                continue;
            }
            if d.is_ascii() {
                self.ascii(d, at, end);
                continue;
            }
            if let Some(mapped) = homoglyph(d) {
                self.push_char(mapped, CharKind::Letter, at, end);
                continue;
            }
            if d.is_alphabetic() {
                let mut lower = d.to_lowercase();
                let first = lower.next().unwrap_or(d);
                let mapped = homoglyph(first).unwrap_or(first);
                self.push_char(mapped, CharKind::Letter, at, end);
            } else if d.is_numeric() {
                // Other digits (superscripts are already folded): keep as a letter-less symbol.
                self.boundary(Boundary::Punct);
            } else if d.is_whitespace() {
                self.boundary(Boundary::Space);
            } else {
                self.boundary(Boundary::Punct);
            }
        }
    }

    fn push_char(&mut self, ch: char, kind: CharKind, at: usize, end: usize) {
        self.line.scratch.push(PendingChar {
            ch,
            kind,
            start: at as u32,
            end: end as u32,
        });
    }

    fn boundary(&mut self, kind: Boundary) {
        self.flush_token();
        if kind == Boundary::Clause {
            self.clause_break = true;
        }
        // Whitespace wins over punctuation: "f. u" is spaced, "f.u" is not.
        if self.pending_boundary != Boundary::Space {
            self.pending_boundary = kind;
        }
    }

    /// Turns the pending characters into a token of the matching form.
    fn flush_token(&mut self) {
        let line = &mut *self.line;
        let mut chars = std::mem::take(&mut line.scratch);
        // Censoring characters at the end of a word are punctuation unless the
        // word is clearly censored ("s**"): keep them only after a short stem.
        while chars.last().is_some_and(|c| c.kind == CharKind::Wildcard) {
            let wildcards = chars
                .iter()
                .rev()
                .take_while(|c| c.kind == CharKind::Wildcard)
                .count();
            let stem = chars.len() - wildcards;
            let all_stars = chars[stem..].iter().all(|c| c.ch == '*');
            if stem <= 3 && wildcards >= 2 && all_stars {
                break;
            }
            chars.pop();
        }
        if chars.is_empty() {
            line.scratch = chars;
            return;
        }
        let previous_single = line
            .tokens
            .last()
            .is_some_and(|t| t.end as usize == line.text.len() && is_single_letter_run(line, t));
        if previous_single && chars.len() == 1 && chars[0].kind == CharKind::Digit {
            // "s-h-1-t": a lone digit among spaced letters is a letter.
            if let Some(letter) = leet_digit(chars[0].ch) {
                chars[0].ch = letter;
                chars[0].kind = CharKind::Letter;
            }
        }
        let has_letter = chars.iter().any(|c| c.kind == CharKind::Letter);
        let ordinal = chars[0].kind == CharKind::Digit && is_ordinal(&chars);
        let mut censored = false;
        let token_start = line.text.len();
        let token_index = line.tokens.len().min(u16::MAX as usize - 1) as u16;

        let single = {
            // A token made of one letter, before collapsing ("f", not "ff").
            chars.len() == 1 && chars[0].kind == CharKind::Letter
        };
        let previous = line
            .tokens
            .last()
            .filter(|t| t.end as usize == line.text.len() && t.plain)
            .map(|t| &line.text[t.start as usize..t.end as usize]);
        let plain = chars.iter().all(|c| c.kind == CharKind::Letter);
        let no_space = self.pending_boundary != Boundary::Space;
        let glued = plain
            && previous.is_some_and(|prev| {
                if no_space {
                    // "s.hit", "b.astard": a letter cut off by a dot or dash.
                    single || prev.len() == 1
                } else {
                    // "s hit", "w anker", "f uc k": a fragment that is no word on its
                    // own is glued to what follows, unless that is a common short word.
                    prev.len() <= 2 && is_fragment(prev) && {
                        let this = if chars.len() <= 4 {
                            chars.iter().map(|c| c.ch).collect::<FragmentText>()
                        } else {
                            FragmentText::default()
                        };
                        let this = this.as_str();
                        is_fragment(this)
                            || (!is_common_pair(this) && (prev.len() == 1 || chars.len() <= 3))
                    }
                }
            });
        let letter_run = single && previous_single;
        let join = letter_run || glued;

        if !line.tokens.is_empty() && !join {
            let gap_start = line.source.last().map(|s| s.1).unwrap_or(0);
            line.text.push(' ');
            line.source.push((gap_start, chars[0].start));
            line.runs.push(1);
            line.token_of_byte.push(u16::MAX);
        }
        let start = line.text.len();
        for pending in &chars {
            let ch = match pending.kind {
                CharKind::Letter => pending.ch,
                CharKind::Digit if has_letter && !ordinal => match leet_digit(pending.ch) {
                    Some(c) => c,
                    None => pending.ch,
                },
                CharKind::Digit => pending.ch,
                CharKind::LetterSymbol if has_letter => pending.ch,
                CharKind::LetterSymbol => continue,
                CharKind::Wildcard if has_letter => {
                    censored = true;
                    '*'
                }
                CharKind::Wildcard => continue,
            };
            // Collapse a repeated letter, remembering the run length (also across
            // joined single letters: "a s s").
            let joins_run = join && line.text.len() == start;
            if ch != '*'
                && !ch.is_ascii_digit()
                && (line.text.len() > start || joins_run)
                && ends_with_char(&line.text, ch)
            {
                let width = ch.len_utf8();
                let first = line.text.len() - width;
                for i in first..line.text.len() {
                    line.runs[i] = line.runs[i].saturating_add(1);
                    line.source[i].1 = pending.end;
                }
                continue;
            }
            line.text.push(ch);
            let width = ch.len_utf8();
            for _ in 0..width {
                line.source.push((pending.start, pending.end));
                line.runs.push(1);
                line.token_of_byte.push(token_index);
            }
        }
        let end = line.text.len();
        if end == start {
            // Nothing survived (e.g. only symbols): undo the separator.
            if start > token_start {
                line.text.truncate(token_start);
                line.source.truncate(token_start);
                line.runs.truncate(token_start);
                line.token_of_byte.truncate(token_start);
            }
            chars.clear();
            line.scratch = chars;
            return;
        }
        if join {
            if let Some(last) = line.tokens.last_mut() {
                last.end = end as u32;
                last.joined = letter_run;
                last.plain &= plain;
                last.censored |= censored;
            }
            let index = (line.tokens.len() - 1) as u16;
            for slot in &mut line.token_of_byte[start..end] {
                *slot = index;
            }
        } else {
            line.tokens.push(Token {
                start: start as u32,
                end: end as u32,
                censored,
                joined: false,
                after_clause_break: self.clause_break,
                plain,
            });
        }
        self.clause_break = false;
        self.pending_boundary = Boundary::Punct;
        chars.clear();
        line.scratch = chars;
    }
}

/// `text.ends_with(ch)` without encoding `ch` (this runs for every character).
fn ends_with_char(text: &str, ch: char) -> bool {
    if ch.is_ascii() {
        text.as_bytes().last() == Some(&(ch as u8))
    } else {
        text.ends_with(ch)
    }
}

/// Whether a token consists only of single letters joined together (or is one letter).
fn is_single_letter_run(line: &NormalizedLine, token: &Token) -> bool {
    let text = &line.text[token.start as usize..token.end as usize];
    if token.joined {
        return true;
    }
    let mut chars = text.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if c.is_alphabetic() && !is_emoji(c))
        && line.runs[token.start as usize] == 1
}

/// A word cut into pieces: a lone letter that is rarely a word in chat, or two
/// letters that are no common word or chat abbreviation.
fn is_fragment(word: &str) -> bool {
    const LONE: &str = "cfhjlmqstwz";

    let mut letters = word.chars();
    match (letters.next(), letters.next(), letters.next()) {
        (Some(c), None, None) => LONE.contains(c),
        (Some(a), Some(b), None) => {
            a.is_ascii_lowercase() && b.is_ascii_lowercase() && !is_common_pair(word)
        }
        _ => false,
    }
}

/// Two-letter words and chat abbreviations that are words on their own.
fn is_common_pair(word: &str) -> bool {
    matches!(
        word,
        "am" | "an"
            | "as"
            | "at"
            | "be"
            | "by"
            | "do"
            | "go"
            | "he"
            | "hi"
            | "if"
            | "in"
            | "is"
            | "it"
            | "me"
            | "my"
            | "no"
            | "of"
            | "oh"
            | "ok"
            | "on"
            | "or"
            | "so"
            | "to"
            | "up"
            | "us"
            | "we"
            | "ya"
            | "ye"
            | "yo"
            | "ur"
            | "gg"
            | "wp"
            | "gl"
            | "hf"
            | "ty"
            | "np"
            | "gj"
            | "xd"
            | "ez"
            | "ff"
            | "bb"
            | "kk"
            | "rn"
            | "tf"
            | "da"
            | "de"
            | "la"
            | "le"
            | "el"
            | "en"
            | "es"
            | "et"
            | "il"
            | "je"
            | "tu"
            | "un"
            | "nu"
            | "ha"
            | "eh"
            | "uh"
            | "mm"
            | "hm"
            | "ah"
            | "im"
            | "id"
            | "iu"
            | "ai"
            | "ay"
            | "ad"
            | "ag"
            | "ar"
            | "aw"
            | "ow"
            | "ou"
            | "ei"
            | "ja"
            | "si"
            | "na"
            | "ne"
            | "ni"
            | "ta"
            | "te"
    )
}

/// The letters of a pending token, for the fragment test (short words only).
#[derive(Default)]
struct FragmentText {
    bytes: [u8; 4],
    len: usize,
    overflow: bool,
}

impl FromIterator<char> for FragmentText {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> Self {
        let mut text = FragmentText::default();
        for c in iter {
            if c.is_ascii() && text.len < text.bytes.len() {
                text.bytes[text.len] = c as u8;
                text.len += 1;
            } else {
                text.overflow = true;
            }
        }
        text
    }
}

impl FragmentText {
    fn as_str(&self) -> &str {
        if self.overflow {
            return "";
        }
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

fn is_ordinal(chars: &[PendingChar]) -> bool {
    let digits = chars
        .iter()
        .take_while(|c| c.kind == CharKind::Digit)
        .count();
    if digits == 0 || chars.len() != digits + 2 {
        return false;
    }
    let suffix: String = chars[digits..].iter().map(|c| c.ch).collect();
    matches!(suffix.as_str(), "st" | "nd" | "rd" | "th")
}

fn leet_digit(d: char) -> Option<char> {
    Some(match d {
        '0' => 'o',
        '1' => 'i',
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        '8' => 'b',
        '9' => 'g',
        _ => return None,
    })
}

/// Zero-width, direction, variation and tag characters: removed without a trace.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5
        | 0x180B..=0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0x1D173..=0x1D17A
        | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE007F)
}

/// Squared, circled and regional-indicator letters (🅵, 🅕, 🇬) have no
/// compatibility decomposition; they are read as the letter they show.
fn enclosed_letter(c: char) -> Option<char> {
    let code = c as u32;
    let base = match code {
        0x1F130..=0x1F149 => 0x1F130,
        0x1F150..=0x1F169 => 0x1F150,
        0x1F170..=0x1F189 => 0x1F170,
        0x1F1E6..=0x1F1FF => 0x1F1E6,
        _ => return None,
    };
    char::from_u32('a' as u32 + code - base)
}

fn is_emoji(c: char) -> bool {
    matches!(c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF)
}

/// Letters that look like a Latin letter (Cyrillic, Greek, small capitals, symbols).
fn homoglyph(c: char) -> Option<char> {
    Some(match c {
        'а' | 'А' | 'α' | 'Α' | 'ɑ' | 'ᴀ' | 'ä' | 'Ɐ' | 'ⲁ' => 'a',
        'в' | 'В' | 'β' | 'Β' | 'ß' | 'ь' | 'Ь' | 'ъ' | 'Ъ' | 'ʙ' | 'б' => 'b',
        'с' | 'С' | '⊂' | '¢' | 'ς' | 'ᴄ' | 'ϲ' | 'Ϲ' | 'ƈ' | 'Ꞓ' | 'ꞓ' | '匚' => {
            'c'
        }
        'ԁ' | 'đ' | 'ð' | 'ᴅ' | '∂' | 'ɗ' => 'd',
        'е' | 'Е' | 'ё' | 'Ё' | 'ε' | 'Ε' | 'є' | 'Є' | '€' | 'ᴇ' | 'э' => 'e',
        'ғ' | 'ꜰ' | 'ƒ' => 'f',
        'ɡ' | 'ɢ' => 'g',
        'н' | 'Н' | 'Η' | 'η' | 'һ' | 'ʜ' => 'h',
        'і' | 'І' | 'ї' | 'Ї' | 'ι' | 'Ι' | 'ı' | 'ɪ' | '¡' | 'ӏ' | 'Ӏ' | 'ɨ' => 'i',
        'ј' | 'Ј' | 'ᴊ' | 'ʝ' => 'j',
        'к' | 'К' | 'κ' | 'Κ' | 'ᴋ' | 'ĸ' | 'ꓘ' | 'Ҝ' | 'ҝ' => 'k',
        'ł' | 'ʟ' => 'l',
        'м' | 'М' | 'Μ' | 'ᴍ' => 'm',
        'п' | 'П' | 'π' | 'Ν' | 'ո' | 'ɴ' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | 'σ' | 'θ' | 'ø' | 'Ø' | 'օ' | 'ᴏ' | '〇' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' | 'þ' | 'ᴘ' => 'p',
        'ԛ' | 'զ' => 'q',
        'г' | 'Г' | 'ʀ' => 'r',
        'ѕ' | 'Ѕ' | 'ſ' | 'ꜱ' | 'ʂ' | '§' | 'ϟ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' | 'ᴛ' | 'ŧ' | 'Ŧ' | '†' => 't',
        'μ' | 'υ' | 'ս' | 'ᴜ' | 'ц' | 'ㄩ' | '凵' => 'u',
        'ν' | 'ᴠ' | 'ѵ' => 'u',
        'ш' | 'Ш' | 'щ' | 'Щ' | 'ω' | 'ԝ' | 'ᴡ' => 'w',
        'х' | 'Х' | 'χ' | 'Χ' | 'ҳ' | 'Ҳ' | '×' | 'ㄨ' => 'x',
        'у' | 'У' | 'γ' | 'ү' | 'Ү' | 'ʏ' => 'y',
        'ζ' | 'Ζ' | 'ʐ' | 'ᴢ' => 'z',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        let mut line = NormalizedLine::new();
        line.normalize(s);
        line.trimmed().to_string()
    }

    #[test]
    fn folds_case_accents_homoglyphs_and_leet() {
        assert_eq!(norm("FuCk"), "fuck");
        assert_eq!(norm("fučk"), "fuck");
        assert_eq!(norm("βιτ⊂η"), "bitch");
        assert_eq!(norm("ＦＵＣＫ"), "fuck");
        assert_eq!(norm("5h1t"), "shit");
        assert_eq!(norm("a$$"), "as");
        assert_eq!(norm("f\u{200b}u\u{202e}ck"), "fuck");
        assert_eq!(norm("f̸̪͇͘ų̷̖̽c̸͙̎̚k̶͚̗͛"), "fuck");
    }

    #[test]
    fn keeps_pure_numbers_and_ordinals() {
        assert_eq!(norm("call 555 1234"), "cal 555 1234");
        assert_eq!(norm("take 3rd place"), "take 3rd place");
    }

    #[test]
    fn joins_single_letters_but_not_words() {
        assert_eq!(norm("f u c k"), "fuck");
        assert_eq!(norm("f.u.c.k you"), "fuck you");
        assert_eq!(norm("F_u c_K"), "fuck");
        assert_eq!(norm("but treason"), "but treason");
        assert_eq!(norm("push it"), "push it");
        assert_eq!(norm("side.going"), "side going");
    }

    #[test]
    fn censoring_characters() {
        assert_eq!(norm("f*ck"), "f*ck");
        assert_eq!(norm("sh!t"), "sh*t");
        assert_eq!(norm("f---ing"), "f***ing");
        assert_eq!(norm("*hello*"), "helo");
        assert_eq!(norm("hi!!!"), "hi");
        assert_eq!(norm("s**"), "s**");
    }

    #[test]
    fn collapses_runs_and_remembers_lengths() {
        let mut line = NormalizedLine::new();
        line.normalize("fuuuuuck ass as");
        assert_eq!(line.text, " fuck as as ");
        assert_eq!(line.run_at(2), 5);
        assert_eq!(line.run_at(7), 2);
        assert_eq!(line.run_at(10), 1);
    }

    #[test]
    fn spans_map_back_to_the_original_characters() {
        let input = "oh Ｆ u c k   off";
        let mut line = NormalizedLine::new();
        line.normalize(input);
        assert_eq!(line.text, " oh fuck of ");
        let (s, e) = line.original_span(4, 8);
        assert_eq!(&input[s..e], "Ｆ u c k");
        let (s, e) = line.original_span(9, 11);
        assert_eq!(&input[s..e], "off");
        let input = "sh!iiiit";
        line.normalize(input);
        let (s, e) = line.original_span(1, line.text.len() - 1);
        assert_eq!(&input[s..e], input);
    }

    #[test]
    fn never_panics_on_odd_input() {
        let samples = [
            "",
            " ",
            "\u{0}",
            "ﷺ",
            "ﱠ",
            "(((",
            "()",
            "-",
            "--",
            "a--",
            "--a",
            "$$$",
            "@@",
            "\u{10FFFF}",
            "👍🏽👍",
            "ǅ",
            "İ",
            "ﬃ",
            "⑩",
            "a\u{301}\u{301}\u{301}",
        ];
        let mut line = NormalizedLine::new();
        for s in samples {
            line.normalize(s);
            assert_eq!(line.source.len(), line.text.len());
            assert_eq!(line.runs.len(), line.text.len());
        }
    }
}
