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

use super::common_pairs_table::is_common_pair;
use super::confusables_table::CONFUSABLES;

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
    /// A whole word already replaced by asterisks ("**** off"), written as `*`.
    CensoredWord,
}

#[derive(Clone, Copy, Debug)]
struct PendingChar {
    ch: char,
    kind: CharKind,
    /// For a Cyrillic or Greek letter: the Latin letter it looks like. A word written in
    /// one of those scripts keeps its own letters ("его" stays Russian); a word mixing
    /// them with Latin letters is a disguise and reads in Latin ("fuсk" with a Cyrillic с).
    latin: Option<char>,
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
            prefer_latin: prefers_latin(input),
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
    /// The line is written mostly in Latin letters: a word made only of Cyrillic or Greek
    /// look-alikes in it is a disguise ("you are an аѕѕ").
    prefer_latin: bool,
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
                if ch == '*' && self.line.scratch.is_empty() {
                    let run = bytes[at..].iter().take_while(|&&b| b == b'*').count();
                    let word_ends = bytes
                        .get(at + run)
                        .is_none_or(|b| !b.is_ascii_alphanumeric());
                    if run >= 3 && word_ends {
                        for _ in 1..run {
                            iter.next();
                        }
                        self.push_char('*', CharKind::CensoredWord, at, at + run);
                        self.flush_token();
                        continue;
                    }
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
            } else if is_unusual_space(ch)
                && self.has_pending_letter()
                && iter.peek().is_some_and(|&(_, next)| next.is_alphabetic())
            {
                // A no-break or typographic space between two letters hides a word
                // ("id\u{a0}iot"); keyboards put them between words or before punctuation.
                continue;
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
            // "v" is read as "u" when the token is flushed: "fvck", "cvnt".
            'v' | 'V' => self.push_char('v', CharKind::Letter, at, end),
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
            self.push_letter(ch, mapped, at, end);
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
                self.push_letter(d, mapped, at, end);
                continue;
            }
            if d.is_alphabetic() {
                let mut lower = d.to_lowercase();
                let first = lower.next().unwrap_or(d);
                match homoglyph(first) {
                    Some(mapped) => self.push_letter(first, mapped, at, end),
                    None => self.push_char(first, CharKind::Letter, at, end),
                }
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

    /// A letter that looks like the Latin `latin`: Cyrillic and Greek letters keep their
    /// own form until the word is complete (see [`PendingChar::latin`]); others read as Latin.
    fn push_letter(&mut self, ch: char, latin: char, at: usize, end: usize) {
        if is_cyrillic_or_greek(ch) {
            let lower = ch.to_lowercase().next().unwrap_or(ch);
            self.line.scratch.push(PendingChar {
                ch: lower,
                kind: CharKind::Letter,
                latin: Some(latin),
                start: at as u32,
                end: end as u32,
            });
        } else {
            self.push_char(latin, CharKind::Letter, at, end);
        }
    }

    fn push_char(&mut self, ch: char, kind: CharKind, at: usize, end: usize) {
        self.line.scratch.push(PendingChar {
            ch,
            kind,
            latin: None,
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
        // The pending characters are taken out and put back emptied: their buffer is reused.
        let mut chars = std::mem::take(&mut self.line.scratch);
        self.write_token(&mut chars);
        chars.clear();
        self.line.scratch = chars;
    }

    /// Writes `chars` as a new token, or onto the previous token when they join it.
    fn write_token(&mut self, chars: &mut Vec<PendingChar>) {
        drop_trailing_wildcards(chars);
        if chars.is_empty() {
            return;
        }
        let line = &mut *self.line;
        let previous_single = line
            .tokens
            .last()
            .is_some_and(|t| t.end as usize == line.text.len() && is_single_letter_run(line, t));
        if previous_single {
            read_lone_digit_as_letter(chars);
        }
        drop_trailing_emphasis(chars);
        read_lookalikes(chars, self.prefer_latin);
        let shape = TokenShape::of(chars);
        let no_space = self.pending_boundary != Boundary::Space;
        let glued = shape.plain && glues_to_previous(line, chars, shape.single, no_space);
        let letter_run = shape.single && previous_single;
        let join = letter_run || glued;

        let token_start = line.text.len();
        if !line.tokens.is_empty() && !join {
            line.push_separator(chars[0].start);
        }
        let start = line.text.len();
        let censored = line.write_chars(chars, &shape, join);
        let end = line.text.len();
        if end == start {
            // Nothing survived (e.g. only symbols): undo the separator.
            line.truncate_text(token_start);
            return;
        }
        if join {
            line.extend_last_token(start, end, letter_run, shape.plain, censored);
        } else {
            line.tokens.push(Token {
                start: start as u32,
                end: end as u32,
                censored,
                joined: false,
                after_clause_break: self.clause_break,
                plain: shape.plain,
            });
        }
        self.clause_break = false;
        self.pending_boundary = Boundary::Punct;
    }
}

/// Writing a token's characters into the matching form (see [`Builder::write_token`]).
impl NormalizedLine {
    /// The space between two tokens; it maps to the original gap before `next_start`.
    fn push_separator(&mut self, next_start: u32) {
        let gap_start = self.source.last().map(|s| s.1).unwrap_or(0);
        self.text.push(' ');
        self.source.push((gap_start, next_start));
        self.runs.push(1);
        self.token_of_byte.push(u16::MAX);
    }

    /// Writes the characters of one token, reading leetspeak and collapsing repeated
    /// letters; returns whether the token is censored.
    fn write_chars(&mut self, chars: &[PendingChar], shape: &TokenShape, join: bool) -> bool {
        let token_index = self.tokens.len().min(u16::MAX as usize - 1) as u16;
        let start = self.text.len();
        let mut censored = false;
        for pending in chars {
            let ch = match pending.kind {
                // "v" reads as "u" ("fvck", "f v"), except in a two-letter word ("fv").
                CharKind::Letter if pending.ch == 'v' && (chars.len() > 2 || join) => 'u',
                CharKind::Letter => pending.ch,
                CharKind::Digit if shape.has_letter && !shape.ordinal && !shape.notation => {
                    match leet_digit(pending.ch) {
                        Some(c) => c,
                        None => pending.ch,
                    }
                }
                CharKind::Digit => pending.ch,
                CharKind::LetterSymbol if shape.notation => continue,
                CharKind::LetterSymbol if shape.has_letter => pending.ch,
                CharKind::LetterSymbol => continue,
                CharKind::Wildcard if shape.has_letter => {
                    censored = true;
                    '*'
                }
                CharKind::Wildcard => continue,
                CharKind::CensoredWord => {
                    censored = true;
                    '*'
                }
            };
            // Collapse a repeated letter, remembering the run length (also across
            // joined single letters: "a s s").
            let joins_run = join && self.text.len() == start;
            if ch != '*'
                && !ch.is_ascii_digit()
                && (self.text.len() > start || joins_run)
                && ends_with_char(&self.text, ch)
            {
                let width = ch.len_utf8();
                let first = self.text.len() - width;
                for i in first..self.text.len() {
                    self.runs[i] = self.runs[i].saturating_add(1);
                    self.source[i].1 = pending.end;
                }
                continue;
            }
            self.text.push(ch);
            let width = ch.len_utf8();
            for _ in 0..width {
                self.source.push((pending.start, pending.end));
                self.runs.push(1);
                self.token_of_byte.push(token_index);
            }
        }
        censored
    }

    /// Cuts the matching form back to its first `len` bytes.
    fn truncate_text(&mut self, len: usize) {
        self.text.truncate(len);
        self.source.truncate(len);
        self.runs.truncate(len);
        self.token_of_byte.truncate(len);
    }

    /// Makes the bytes `start..end`, just written, part of the last token.
    fn extend_last_token(
        &mut self,
        start: usize,
        end: usize,
        letter_run: bool,
        plain: bool,
        censored: bool,
    ) {
        if let Some(last) = self.tokens.last_mut() {
            last.end = end as u32;
            last.joined = letter_run;
            last.plain &= plain;
            last.censored |= censored;
        }
        let index = (self.tokens.len() - 1) as u16;
        for slot in &mut self.token_of_byte[start..end] {
            *slot = index;
        }
    }
}

/// What the pending characters of a token are made of, read once before they are written.
#[derive(Clone, Copy)]
struct TokenShape {
    /// Some character is a letter: digits and symbols among them stand for letters.
    has_letter: bool,
    /// Squares and moves ("c8", "h8", "Qg1xk11") keep their digits: never leetspeak.
    notation: bool,
    /// "1st", "22nd" keep their digits too.
    ordinal: bool,
    /// A token made of one letter, before collapsing ("f", not "ff").
    single: bool,
    /// Letters only (see [`Token::plain`]).
    plain: bool,
}

impl TokenShape {
    #[inline]
    fn of(chars: &[PendingChar]) -> TokenShape {
        TokenShape {
            has_letter: chars.iter().any(|c| c.kind == CharKind::Letter),
            notation: is_move_notation(chars),
            ordinal: chars[0].kind == CharKind::Digit && is_ordinal(chars),
            single: chars.len() == 1 && chars[0].kind == CharKind::Letter,
            plain: chars.iter().all(|c| c.kind == CharKind::Letter),
        }
    }
}

/// Censoring characters at the end of a word are punctuation unless the
/// word is clearly censored ("s**"): keep them only after a short stem.
#[inline]
fn drop_trailing_wildcards(chars: &mut Vec<PendingChar>) {
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
}

/// "s-h-1-t": a lone digit among spaced letters is a letter.
#[inline]
fn read_lone_digit_as_letter(chars: &mut [PendingChar]) {
    if chars.len() == 1 && chars[0].kind == CharKind::Digit {
        if let Some(letter) = leet_digit(chars[0].ch) {
            chars[0].ch = letter;
            chars[0].kind = CharKind::Letter;
        }
    }
}

/// Cyrillic and Greek look-alikes read as Latin in a word that mixes scripts, or in a
/// word made only of look-alikes inside a Latin line.
#[inline]
fn read_lookalikes(chars: &mut [PendingChar], prefer_latin: bool) {
    let has_latin = chars.iter().any(|c| c.latin.is_none() && c.ch.is_ascii());
    let all_lookalikes = chars
        .iter()
        .all(|c| c.kind != CharKind::Letter || c.ch.is_ascii() || c.latin.is_some());
    let read_latin = has_latin || (prefer_latin && all_lookalikes);
    if read_latin {
        for c in chars.iter_mut() {
            if let Some(latin) = c.latin.take() {
                c.ch = latin;
            }
        }
    }
}

/// Whether a plain token continues the plain token right before it (nothing between them
/// in the matching form yet) as one word cut into pieces.
#[inline]
fn glues_to_previous(
    line: &NormalizedLine,
    chars: &[PendingChar],
    single: bool,
    no_space: bool,
) -> bool {
    let previous = line
        .tokens
        .last()
        .filter(|t| t.end as usize == line.text.len() && t.plain)
        .map(|t| &line.text[t.start as usize..t.end as usize]);
    previous.is_some_and(|prev| {
        if no_space {
            // "s.hit", "b.astard": a letter cut off by a dot or dash.
            single || prev.len() == 1
        } else {
            // "s hit", "w anker", "f uc k": a fragment that is no word on its
            // own is glued to what follows, unless that is a common short word.
            prev.len() <= 2 && is_fragment(prev) && continues_fragment(chars, prev.len())
        }
    })
}

/// Whether `chars`, after a spaced fragment of `previous_len` letters, are its rest rather
/// than a word of their own.
#[inline]
fn continues_fragment(chars: &[PendingChar], previous_len: usize) -> bool {
    let this = if chars.len() <= 4 {
        chars.iter().map(|c| c.ch).collect::<FragmentText>()
    } else {
        FragmentText::default()
    };
    let this = this.as_str();
    is_fragment(this) || (!is_common_pair(this) && (previous_len == 1 || chars.len() <= 3))
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

/// A square or a move as the site writes it, without its separators: an optional piece
/// letter, a square (files a-n, ranks 1-14), optionally a capture or second square, and
/// check marks (`+`, read as a letter symbol). "c8", "nj1", "qg1xk11", "e4+".
fn is_move_notation(chars: &[PendingChar]) -> bool {
    if chars.len() > 12 || !chars.iter().any(|c| c.kind == CharKind::Digit) {
        return false;
    }
    let mut text = [0u8; 12];
    for (slot, c) in text.iter_mut().zip(chars) {
        *slot = match c.kind {
            CharKind::Letter | CharKind::Digit if c.ch.is_ascii() => c.ch as u8,
            CharKind::LetterSymbol if c.ch == 't' => b'+',
            _ => return false,
        };
    }
    let text = &text[..chars.len()];
    let piece = |at: usize| text.get(at).is_some_and(|b| b"kqrbnpd".contains(b));
    // The length of a square at `at` (file and rank), if there is one.
    let square = |at: usize| -> Option<usize> {
        if !text.get(at).is_some_and(|b| (b'a'..=b'n').contains(b)) {
            return None;
        }
        match (text.get(at + 1), text.get(at + 2)) {
            (Some(b'1'), Some(b'0'..=b'4')) => Some(3),
            (Some(b'1'..=b'9'), _) => Some(2),
            _ => None,
        }
    };
    let square_with_piece = |at: usize| -> Option<usize> {
        square(at).or_else(|| piece(at).then(|| square(at + 1).map(|n| n + 1)).flatten())
    };
    let Some(mut at) = square_with_piece(0) else {
        return false;
    };
    // A second square only after a capture mark: "k1k3" is leetspeak more often than a move
    // (the site writes "k1-k3", which reaches here as two squares).
    if text.get(at) == Some(&b'x') {
        at += 1;
        match square_with_piece(at) {
            Some(n) => at += n,
            None => return false,
        }
    }
    text[at..].iter().all(|&b| b == b'+')
}

/// Digits and exclamation marks after a word are emphasis or a count, not letters:
/// "idiot!!1", "noob123", "noob2". Leetspeak inside a word ("sh1t", "b!tch") and one final
/// digit that reads as a letter ("ars3") are untouched.
fn drop_trailing_emphasis(chars: &mut Vec<PendingChar>) {
    let trailing = chars
        .iter()
        .rev()
        .take_while(|c| c.kind == CharKind::Digit || (c.kind == CharKind::Wildcard && c.ch == '!'))
        .count();
    if trailing == 0 || trailing == chars.len() || is_move_notation(chars) {
        return;
    }
    let stem = &chars[..chars.len() - trailing];
    let tail = &chars[stem.len()..];
    // One digit that reads as a letter ends many disguised words ("ars3", "h0l3").
    let leet_letter = tail.len() == 1 && leet_digit(tail[0].ch).is_some();
    let stem_letters = stem.iter().filter(|c| c.kind == CharKind::Letter).count();
    if !leet_letter && stem_letters >= 3 && stem.last().is_some_and(|c| c.kind == CharKind::Letter)
    {
        chars.truncate(stem.len());
    }
}

/// Whether the line has more Latin letters than Cyrillic and Greek ones.
fn prefers_latin(input: &str) -> bool {
    if input.is_ascii() {
        return true;
    }
    let (mut latin, mut other) = (0usize, 0usize);
    for c in input.chars() {
        if c.is_ascii_alphabetic() {
            latin += 1;
        } else if is_cyrillic_or_greek(c) {
            other += 1;
        }
    }
    latin > other
}

/// Spaces other than the ordinary one (no-break, typographic widths, narrow, medium
/// mathematical); the ideographic space is a real space in Chinese and Japanese text.
fn is_unusual_space(c: char) -> bool {
    matches!(
        c as u32,
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F
    )
}

fn is_cyrillic_or_greek(c: char) -> bool {
    matches!(c as u32, 0x0370..=0x03FF | 0x0400..=0x052F | 0x1F00..=0x1FFF)
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

/// The Latin letter a character is drawn like: Unicode's confusables first, then the
/// few stylistic stand-ins that list does not have.
fn homoglyph(c: char) -> Option<char> {
    CONFUSABLES
        .binary_search_by_key(&c, |&(from, _)| from)
        .ok()
        .map(|i| CONFUSABLES[i].1)
        .or_else(|| stand_in(c))
}

/// Characters players use for Latin letters that are not confusables in Unicode's sense
/// (they look like the letter only when written in a word): "ш" for w, "匚" for c.
fn stand_in(c: char) -> Option<char> {
    Some(match c {
        'ä' | 'ᴀ' | 'Ɐ' | 'ⲁ' => 'a',
        'ʙ' | 'Β' | 'β' | 'В' | 'Ъ' | 'Ь' | 'б' | 'в' | 'ъ' | 'ь' => 'b',
        '¢' | 'ƈ' | 'ς' | '⊂' | '匚' | 'Ꞓ' | 'ꞓ' => 'c',
        'ð' | 'đ' | 'ɗ' | 'ᴅ' | '∂' => 'd',
        'Ε' | 'ε' | 'Ё' | 'Є' | 'э' | 'ё' | 'є' | 'ᴇ' | '€' => 'e',
        'ғ' | 'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' | 'Η' | 'η' | 'Н' | 'н' => 'h',
        'ɨ' | 'Ї' | 'ї' => 'i',
        'ʝ' | 'ᴊ' => 'j',
        'ĸ' | 'Κ' | 'κ' | 'К' | 'к' | 'Ҝ' | 'ҝ' | 'ᴋ' | 'ꓘ' => 'k',
        'ł' | 'ʟ' => 'l',
        'Μ' | 'М' | 'м' | 'ᴍ' => 'm',
        'ɴ' | 'π' | 'П' | 'п' => 'n',
        'Ø' | 'ø' | 'θ' => 'o',
        'ᴘ' => 'p',
        'ʀ' => 'r',
        '§' | 'ʂ' | 'ϟ' => 's',
        'Ŧ' | 'ŧ' | 'Τ' | 'τ' | 'Т' | 'т' | 'ᴛ' | '†' => 't',
        'μ' | 'ц' | 'ㄩ' | '凵' => 'u',
        'ω' | 'Щ' | 'щ' => 'w',
        'Χ' | 'χ' | 'Ҳ' | 'ҳ' | 'ㄨ' => 'x',
        'ʐ' | 'Ζ' | 'ζ' => 'z',
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
    fn squares_and_moves_keep_their_digits() {
        assert_eq!(norm("knight to c8"), "knight to c8");
        assert_eq!(norm("h8 c3 n14 a1"), "h8 c3 n14 a1");
        assert_eq!(norm("Qg1xk11+"), "qg1xk11");
        assert_eq!(norm("Nj1-i3"), "nj1 i3");
        // Not a square: leetspeak as before.
        assert_eq!(norm("h8r"), "hbr");
        assert_eq!(norm("sh1t"), "shit");
        assert_eq!(norm("k1k3"), "kike");
    }

    #[test]
    fn v_reads_as_u_except_in_a_two_letter_word() {
        assert_eq!(norm("fvck"), "fuck");
        assert_eq!(norm("fv"), "fv");
        assert_eq!(norm("f v"), "fu");
    }

    #[test]
    fn a_word_in_one_script_keeps_its_letters() {
        // Russian "его" ("him") is not the Latin "ero".
        assert_eq!(norm("его"), "его");
        assert_eq!(norm("gg его"), "g его");
        // Accents go on both sides, so й reads as и in terms and lines alike.
        assert_eq!(norm("ХУЙ"), "хуи");
        // Cyrillic letters mixed into a Latin word are a disguise.
        assert_eq!(norm("fu\u{441}k"), "fuck");
        assert_eq!(norm("\u{435}g\u{43e}"), "ego");
        // A word made only of look-alikes inside a Latin line, too.
        assert_eq!(norm("you are an \u{430}\u{455}\u{455}"), "you are an as");
    }

    #[test]
    fn trailing_emphasis_is_not_part_of_the_word() {
        assert_eq!(norm("idiot!!1"), "idiot");
        assert_eq!(norm("noob123"), "nob");
        assert_eq!(norm("noob2"), "nob");
        assert_eq!(norm("ars3"), "arse");
        assert_eq!(norm("b!tch"), "b*tch");
    }

    #[test]
    fn unusual_spaces_inside_a_word_join_it() {
        assert_eq!(norm("id\u{a0}iot"), "idiot");
        assert_eq!(norm("id\u{2009}iot"), "idiot");
        assert_eq!(norm("good\u{a0}game"), "godgame");
        assert_eq!(norm("gg\u{a0}!"), "g");
        assert_eq!(norm("ok\u{3000}go"), "ok go");
    }

    #[test]
    fn a_word_of_asterisks_is_a_censored_word() {
        assert_eq!(norm("**** off"), "* of");
        assert_eq!(norm("5 * 3"), "5 3");
        assert_eq!(norm("** bold **"), "bold");
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
