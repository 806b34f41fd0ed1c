//! Models for tests: the hostile head weighs only the features of one phrase, so a test can
//! say which lines read hostile and by how much.

use super::features::{extract, Shape};
use super::model::{HeadParams, Model, Thresholds, HEADS};
use crate::chat::normalize::NormalizedLine;

pub const SHAPE: Shape = Shape {
    bits: 12,
    shortest_gram: 2,
    longest_gram: 4,
};

/// The features of `phrase` that a model of [`SHAPE`] reads.
pub fn feature_count(phrase: &str) -> usize {
    let mut line = NormalizedLine::new();
    line.normalize(phrase);
    let mut features = Vec::new();
    extract(&line, SHAPE, &mut features, &mut Vec::new());
    features.len()
}

/// A model whose hostile head gives each feature of `phrase` the weight 100 (times
/// `hostile.scale`), and whose identity head never fires.
pub fn hostile_to(phrase: &str, hostile: HeadParams) -> Model {
    let mut line = NormalizedLine::new();
    line.normalize(phrase);
    let mut features = Vec::new();
    extract(&line, SHAPE, &mut features, &mut Vec::new());
    let mut weights = vec![0i8; SHAPE.rows() * HEADS];
    for f in &features {
        weights[f.bucket as usize * HEADS] = 100;
    }
    let never = HeadParams {
        bias: -10.0,
        scale: 0.01,
        thresholds: Thresholds {
            low: 0.6,
            medium: 0.8,
            high: 0.95,
        },
    };
    match Model::from_parts(SHAPE, [hostile, never], weights) {
        Ok(model) => model,
        Err(e) => panic!("test model: {e:?}"),
    }
}
