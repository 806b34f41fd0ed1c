//! The learned scorer's features: hashed word unigrams, word bigrams and character n-grams
//! of each token of the normalised line (the lengths are the model's [`Shape`]). Hashing keeps the model a fixed-size table
//! with no vocabulary to ship; character n-grams carry misspellings, inflections and scripts
//! written without spaces (a Chinese or Japanese run is one token, read by its n-grams).
//! Each feature remembers the token(s) it came from, so a score can name the words that
//! carried it.

use crate::chat::normalize::NormalizedLine;

/// The size of the feature table and the character n-grams read: part of a model, written
/// in its weights file, so a model is always read with the features it was trained on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The table has `2^bits` rows.
    pub bits: u32,
    /// The shortest and longest character n-gram read inside a token.
    pub shortest_gram: u32,
    pub longest_gram: u32,
}

impl Shape {
    pub fn rows(&self) -> usize {
        1usize << self.bits
    }

    /// Whether a weights file may hold this shape.
    pub fn is_valid(&self) -> bool {
        (8..=24).contains(&self.bits)
            && (1..=8).contains(&self.shortest_gram)
            && (self.shortest_gram..=8).contains(&self.longest_gram)
    }
}

/// Marks the start and the end of a token in its character n-grams.
const TOKEN_START: char = '\u{2}';
const TOKEN_END: char = '\u{3}';

/// At most this many tokens of a line are read: chat lines are short, and a pasted wall of
/// text is judged by its beginning.
const MAX_TOKENS: usize = 64;

/// One feature occurrence: a table row and the token(s) it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    pub bucket: u32,
    /// The token it came from; a bigram also names the next token.
    pub token: u16,
    pub next_token: Option<u16>,
}

/// Kinds of feature, hashed apart so that the word "ab" and the n-gram "ab" differ.
#[derive(Clone, Copy)]
enum Kind {
    Word = 1,
    Bigram = 2,
    CharGram = 3,
}

/// Writes the features of `line` into `out` (cleared first).
pub fn extract(line: &NormalizedLine, shape: Shape, out: &mut Vec<Feature>, chars: &mut Vec<char>) {
    out.clear();
    let bits = shape.bits;
    let tokens = &line.tokens[..line.tokens.len().min(MAX_TOKENS)];
    for (index, token) in tokens.iter().enumerate() {
        let text = line.token_text(token);
        let index = index as u16;
        out.push(Feature {
            bucket: bucket(hash_parts(Kind::Word, &[text]), bits),
            token: index,
            next_token: None,
        });
        if let Some(next) = tokens.get(index as usize + 1) {
            let next_text = line.token_text(next);
            out.push(Feature {
                bucket: bucket(hash_parts(Kind::Bigram, &[text, next_text]), bits),
                token: index,
                next_token: Some(index + 1),
            });
        }
        chars.clear();
        chars.push(TOKEN_START);
        chars.extend(text.chars());
        chars.push(TOKEN_END);
        for n in shape.shortest_gram as usize..=shape.longest_gram as usize {
            for window in chars.windows(n) {
                out.push(Feature {
                    bucket: bucket(hash_chars(window), bits),
                    token: index,
                    next_token: None,
                });
            }
        }
    }
}

/// The weight every occurrence gets: lines of any length score on one scale.
pub fn occurrence_value(count: usize) -> f32 {
    if count == 0 {
        0.0
    } else {
        1.0 / (count as f32).sqrt()
    }
}

fn bucket(hash: u64, bits: u32) -> u32 {
    (hash >> (64 - bits)) as u32
}

/// FNV-1a over the kind and the parts (a separator between parts), then a final mix so the
/// top bits are well spread. Fixed forever: the shipped weights are indexed by it.
fn hash_parts(kind: Kind, parts: &[&str]) -> u64 {
    let mut hash = Fnv::new(kind);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            hash.byte(0xff);
        }
        for &b in part.as_bytes() {
            hash.byte(b);
        }
    }
    hash.finish()
}

fn hash_chars(chars: &[char]) -> u64 {
    let mut hash = Fnv::new(Kind::CharGram);
    let mut buf = [0u8; 4];
    for c in chars {
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            hash.byte(b);
        }
    }
    hash.finish()
}

struct Fnv(u64);

impl Fnv {
    fn new(kind: Kind) -> Fnv {
        let mut fnv = Fnv(0xcbf2_9ce4_8422_2325);
        fnv.byte(kind as u8);
        fnv
    }

    fn byte(&mut self, b: u8) {
        self.0 ^= u64::from(b);
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }

    /// The finaliser of SplitMix64, so that nearby inputs land in distant rows.
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(text: &str) -> Vec<Feature> {
        let mut line = NormalizedLine::new();
        line.normalize(text);
        let mut out = Vec::new();
        let shape = Shape {
            bits: 18,
            shortest_gram: 2,
            longest_gram: 4,
        };
        extract(&line, shape, &mut out, &mut Vec::new());
        out
    }

    #[test]
    fn every_token_gives_a_word_its_ngrams_and_a_bigram_to_the_next() {
        let found = features("go home");
        // "go": word, bigram, padded 4 chars -> 3 + 2 + 1 n-grams; "home": word, 6 chars -> 5+4+3.
        assert_eq!(found.len(), 2 + 6 + 1 + 12);
        assert_eq!(found.iter().filter(|f| f.next_token.is_some()).count(), 1);
        assert!(found.iter().all(|f| f.bucket < 1 << 18));
    }

    #[test]
    fn disguises_read_as_the_plain_word() {
        assert_eq!(features("idiot"), features("1d10t"));
        assert_ne!(features("idiot"), features("idiom"));
    }

    #[test]
    fn a_word_and_the_same_letters_as_an_ngram_hash_apart() {
        let word = bucket(hash_parts(Kind::Word, &["ab"]), 18);
        let gram = bucket(hash_chars(&['a', 'b']), 18);
        assert_ne!(word, gram);
    }

    #[test]
    fn the_value_of_an_occurrence_falls_with_the_line_length() {
        assert_eq!(occurrence_value(0), 0.0);
        assert_eq!(occurrence_value(4), 0.5);
    }
}
