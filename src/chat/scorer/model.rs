//! The learned scorer's weights: a linear model per head over the hashed features of
//! [`super::features`], stored as one signed byte per weight, and the score thresholds that
//! turn a score into a severity. Scoring is a sum of table rows, so a score splits exactly
//! into what each word of the line contributed: that is what a learned flag names.
//!
//! File layout (little-endian): the magic `ARBSCR01`, the table's bits (u32), the number of
//! heads (u32), the shortest and longest character n-gram (u32 each), per head its bias, scale and low, medium and high thresholds (f32 each), then
//! `2^bits` rows of one byte per head.

use std::borrow::Cow;

use super::features::{occurrence_value, Feature, Shape};

const MAGIC: &[u8; 8] = b"ARBSCR01";
const HEADER_LEN: usize = 8 + 4 * 4 + HEADS * 5 * 4;

/// What each head of the model reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Head {
    /// Hostility toward a person: insults in ordinary words, threats, contempt.
    Hostile = 0,
    /// Hate aimed at a group: origin, religion, gender, orientation, disability.
    IdentityHate = 1,
}

impl Head {
    pub const ALL: [Head; HEADS] = [Head::Hostile, Head::IdentityHate];

    pub fn name(self) -> &'static str {
        match self {
            Head::Hostile => "hostile",
            Head::IdentityHate => "identity_hate",
        }
    }
}

pub const HEADS: usize = 2;

/// The scores at which a head's flag is low, medium and high.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub low: f32,
    pub medium: f32,
    pub high: f32,
}

/// A head's bias, the scale of its byte weights, and its thresholds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadParams {
    pub bias: f32,
    pub scale: f32,
    pub thresholds: Thresholds,
}

/// The weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("not a scorer weights file (bad magic)")]
    Magic,
    #[error("the weights file is cut short: {0}")]
    Truncated(&'static str),
    #[error("unsupported shape: {0}")]
    Shape(String),
}

#[derive(Clone, Debug)]
pub struct Model {
    shape: Shape,
    heads: [HeadParams; HEADS],
    /// `2^bits` rows of `HEADS` signed bytes.
    weights: Cow<'static, [u8]>,
}

impl Model {
    /// Reads a weights file; `bytes` is borrowed when it is embedded in the binary, so the
    /// table costs no heap and only the pages a line touches are read in.
    pub fn parse(bytes: Cow<'static, [u8]>) -> Result<Model, ModelError> {
        let header_len = HEADER_LEN;
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(ModelError::Magic);
        }
        if bytes.len() < header_len {
            return Err(ModelError::Truncated("header"));
        }
        let word = |at: usize| [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
        let u32_at = |at: usize| u32::from_le_bytes(word(at));
        let f32_at = |at: usize| f32::from_le_bytes(word(at));
        let shape = Shape {
            bits: u32_at(8),
            shortest_gram: u32_at(16),
            longest_gram: u32_at(20),
        };
        if !shape.is_valid() {
            return Err(ModelError::Shape(format!("{shape:?}")));
        }
        if u32_at(12) as usize != HEADS {
            return Err(ModelError::Shape(format!("{} heads", u32_at(12))));
        }
        let mut heads = [HeadParams::default(); HEADS];
        for (i, head) in heads.iter_mut().enumerate() {
            let at = 24 + i * 20;
            *head = HeadParams {
                bias: f32_at(at),
                scale: f32_at(at + 4),
                thresholds: Thresholds {
                    low: f32_at(at + 8),
                    medium: f32_at(at + 12),
                    high: f32_at(at + 16),
                },
            };
        }
        if bytes.len() != header_len + shape.rows() * HEADS {
            return Err(ModelError::Truncated("weights"));
        }
        let weights = match bytes {
            Cow::Borrowed(all) => Cow::Borrowed(&all[header_len..]),
            Cow::Owned(mut all) => {
                all.drain(..header_len);
                Cow::Owned(all)
            }
        };
        Ok(Model {
            shape,
            heads,
            weights,
        })
    }

    /// A model from trained parts (`weights`: the shape's rows of `HEADS` bytes).
    pub fn from_parts(
        shape: Shape,
        heads: [HeadParams; HEADS],
        weights: Vec<i8>,
    ) -> Result<Model, ModelError> {
        if !shape.is_valid() {
            return Err(ModelError::Shape(format!("{shape:?}")));
        }
        if weights.len() != shape.rows() * HEADS {
            return Err(ModelError::Shape(format!("{} weights", weights.len())));
        }
        Ok(Model {
            shape,
            heads,
            weights: Cow::Owned(weights.into_iter().map(|w| w as u8).collect()),
        })
    }

    /// A model from a table the trainer built to `shape` (`2^bits` rows of `HEADS` bytes).
    pub(super) fn from_table(shape: Shape, heads: [HeadParams; HEADS], table: Vec<i8>) -> Model {
        debug_assert_eq!(table.len(), shape.rows() * HEADS);
        Model {
            shape,
            heads,
            weights: Cow::Owned(table.into_iter().map(|w| w as u8).collect()),
        }
    }

    /// A model that never flags: the lexicon alone, to compare against.
    pub fn never() -> Model {
        let shape = Shape {
            bits: 8,
            shortest_gram: 2,
            longest_gram: 2,
        };
        Model {
            shape,
            heads: [HeadParams::default(); HEADS],
            weights: Cow::Owned(vec![0u8; shape.rows() * HEADS]),
        }
    }

    /// The weights file of this model.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.shape.bits.to_le_bytes());
        out.extend_from_slice(&(HEADS as u32).to_le_bytes());
        out.extend_from_slice(&self.shape.shortest_gram.to_le_bytes());
        out.extend_from_slice(&self.shape.longest_gram.to_le_bytes());
        for head in &self.heads {
            for value in [
                head.bias,
                head.scale,
                head.thresholds.low,
                head.thresholds.medium,
                head.thresholds.high,
            ] {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.weights);
        out
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn head(&self, head: Head) -> &HeadParams {
        &self.heads[head as usize]
    }

    /// This model with other thresholds for a head (set after training, from the dev split).
    pub fn with_thresholds(mut self, head: Head, thresholds: Thresholds) -> Model {
        self.heads[head as usize].thresholds = thresholds;
        self
    }

    fn weight(&self, bucket: u32, head: Head) -> i32 {
        i32::from(self.weights[bucket as usize * HEADS + head as usize] as i8)
    }

    /// The score of every head, between 0 and 1.
    pub fn score(&self, features: &[Feature]) -> [f32; HEADS] {
        let mut sums = [0i32; HEADS];
        for feature in features {
            for head in Head::ALL {
                sums[head as usize] += self.weight(feature.bucket, head);
            }
        }
        let value = occurrence_value(features.len());
        Head::ALL.map(|head| {
            let params = &self.heads[head as usize];
            sigmoid(params.bias + params.scale * value * sums[head as usize] as f32)
        })
    }

    /// What each token added to a head's score before the sigmoid, for `tokens` tokens; a
    /// bigram gives half to each of its words.
    pub fn contributions(&self, head: Head, features: &[Feature], tokens: usize) -> Vec<f32> {
        let mut per_token = vec![0f32; tokens];
        let params = &self.heads[head as usize];
        let unit = params.scale * occurrence_value(features.len());
        for feature in features {
            let amount = unit * self.weight(feature.bucket, head) as f32;
            let Some(slot) = per_token.get_mut(feature.token as usize) else {
                continue;
            };
            match feature.next_token {
                Some(next) => {
                    *slot += amount / 2.0;
                    if let Some(next_slot) = per_token.get_mut(next as usize) {
                        *next_slot += amount / 2.0;
                    }
                }
                None => *slot += amount,
            }
        }
        per_token
    }
}

impl Default for HeadParams {
    fn default() -> HeadParams {
        HeadParams {
            bias: 0.0,
            scale: 1.0,
            thresholds: Thresholds {
                low: 1.0,
                medium: 1.0,
                high: 1.0,
            },
        }
    }
}

pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Model {
        let shape = Shape {
            bits: 8,
            shortest_gram: 2,
            longest_gram: 4,
        };
        let mut weights = vec![0i8; shape.rows() * HEADS];
        weights[3 * HEADS] = 100;
        weights[3 * HEADS + 1] = -50;
        let head = HeadParams {
            bias: -1.0,
            scale: 0.02,
            thresholds: Thresholds {
                low: 0.5,
                medium: 0.7,
                high: 0.9,
            },
        };
        Model::from_parts(shape, [head; HEADS], weights).unwrap()
    }

    fn feature(bucket: u32, token: u16) -> Feature {
        Feature {
            bucket,
            token,
            next_token: None,
        }
    }

    #[test]
    fn a_weights_file_reads_back_as_written() {
        let model = tiny();
        let bytes = model.to_bytes();
        let read = Model::parse(Cow::Owned(bytes.clone())).unwrap();
        assert_eq!(read.to_bytes(), bytes);
        let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let borrowed = Model::parse(Cow::Borrowed(leaked)).unwrap();
        assert_eq!(borrowed.head(Head::Hostile), model.head(Head::Hostile));
    }

    #[test]
    fn bad_files_are_refused() {
        let bytes = tiny().to_bytes();
        assert_eq!(
            Model::parse(Cow::Owned(b"nonsense".to_vec())).unwrap_err(),
            ModelError::Magic
        );
        assert_eq!(
            Model::parse(Cow::Owned(bytes[..bytes.len() - 1].to_vec())).unwrap_err(),
            ModelError::Truncated("weights")
        );
    }

    #[test]
    fn a_score_is_the_sigmoid_of_the_rows_and_splits_into_tokens() {
        let model = tiny();
        let features = [feature(3, 0), feature(4, 1), feature(3, 1)];
        let scores = model.score(&features);
        let value = occurrence_value(3);
        assert!((scores[0] - sigmoid(-1.0 + 0.02 * value * 200.0)).abs() < 1e-6);
        assert!((scores[1] - sigmoid(-1.0 - 0.02 * value * 100.0)).abs() < 1e-6);
        let parts = model.contributions(Head::Hostile, &features, 2);
        assert!((parts[0] - 0.02 * value * 100.0).abs() < 1e-6);
        assert!((parts[0] - parts[1]).abs() < 1e-6);
    }
}
