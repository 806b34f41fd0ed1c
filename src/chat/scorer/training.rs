//! Trains the scorer: logistic regression per head over the hashed features, by AdaGrad in
//! one thread with a seeded shuffle, so the same corpus gives the same bytes. Each line goes
//! to train, dev or test by a hash of its normalised text, so a line and its disguised
//! spelling land together. The dev split sets the thresholds; the test split is only
//! reported. Pure: the corpus comes in as rows, the model and the figures go out.

use std::collections::BTreeMap;

use super::features::{extract, occurrence_value, Shape};
use super::model::{sigmoid, Head, HeadParams, Model, Thresholds, HEADS};
use crate::chat::binary_score::Score;
use crate::chat::normalize::NormalizedLine;

/// One labelled line of the corpus.
#[derive(Clone, Debug)]
pub struct Example {
    pub source: String,
    pub lang: String,
    pub hostile: bool,
    /// Whether it is hate aimed at a group; `None` where the source does not say.
    pub identity: Option<bool>,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingSettings {
    pub shape: Shape,
    pub epochs: u32,
    pub learning_rate: f32,
    pub l2: f32,
    pub seed: u64,
    /// Per head, the dev precision each threshold is set for: low, medium, high.
    pub precision_targets: [[f64; 3]; HEADS],
}

impl Default for TrainingSettings {
    fn default() -> TrainingSettings {
        TrainingSettings {
            shape: Shape {
                bits: 20,
                shortest_gram: 2,
                longest_gram: 4,
            },
            epochs: 6,
            learning_rate: 0.2,
            l2: 1e-6,
            seed: 0x4172_6269_7465_7221,
            // A learned flag warns only where dev precision reaches 0.98: on game chat and
            // chess talk (CONDA's clean lines, tests/chat/benign.rs) readings at 0.93 still
            // flag ordinary lines; between the two it is a low flag, recorded for admins.
            // Hate against a group is rare in game chat and its dev set is small: 0.93 is as
            // far as its dev precision goes with 20 flags or more.
            precision_targets: [[0.93, 0.98, 0.995], [0.85, 0.93, 0.98]],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Split {
    Train,
    Dev,
    Test,
}

/// The splits a report measures, in its column order.
pub const SPLITS_MEASURED: [Split; 2] = [Split::Dev, Split::Test];

/// The figures of a trained model: sizes, and per split, head and language the counts at the
/// medium threshold.
#[derive(Clone, Debug, Default)]
pub struct TrainingReport {
    /// Lines per (split, language, hostile label).
    pub sizes: BTreeMap<(Split, String, bool), usize>,
    /// Lines per source.
    pub sources: BTreeMap<String, usize>,
    /// Counts per (split, head name, language) at the medium threshold; language "all" pools.
    pub scores: BTreeMap<(Split, &'static str, String), Score>,
    /// Training loss after each epoch (weighted mean log-loss of the hostile head).
    pub epoch_loss: Vec<f64>,
}

/// The features of every example, flattened.
struct Encoded {
    buckets: Vec<u32>,
    offsets: Vec<usize>,
    splits: Vec<Split>,
}

impl Encoded {
    fn of(examples: &[Example], shape: Shape) -> Encoded {
        let mut line = NormalizedLine::new();
        let mut features = Vec::new();
        let mut chars = Vec::new();
        let mut encoded = Encoded {
            buckets: Vec::new(),
            offsets: vec![0],
            splits: Vec::with_capacity(examples.len()),
        };
        for example in examples {
            line.normalize(&example.text);
            extract(&line, shape, &mut features, &mut chars);
            encoded.buckets.extend(features.iter().map(|f| f.bucket));
            encoded.offsets.push(encoded.buckets.len());
            encoded
                .splits
                .push(split_of_example(example, line.trimmed()));
        }
        encoded
    }

    fn features(&self, i: usize) -> &[u32] {
        &self.buckets[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// Where an example goes (`normalized`: its matching form). A row whose source names a
/// template frame (`own/<lang>/<section>/<n>`) goes where its frame goes, so one frame with
/// another group noun is never both trained on and measured.
pub fn split_of_example(example: &Example, normalized: &str) -> Split {
    if example.source.contains('/') {
        split_of(&example.lang, &example.source)
    } else {
        split_of(&example.lang, normalized)
    }
}

/// A tenth to test, a tenth to dev, by a hash of the language and the key.
pub fn split_of(lang: &str, normalized: &str) -> Split {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in lang
        .as_bytes()
        .iter()
        .chain([0u8].iter())
        .chain(normalized.as_bytes())
    {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    match hash % 10 {
        0 => Split::Test,
        1 => Split::Dev,
        _ => Split::Train,
    }
}

/// Trains, quantises, sets thresholds on dev and measures dev and test.
pub fn train(examples: &[Example], settings: &TrainingSettings) -> (Model, TrainingReport) {
    let encoded = Encoded::of(examples, settings.shape);
    let weights = example_weights(examples, &encoded);
    let mut report = TrainingReport::default();
    for (example, split) in examples.iter().zip(&encoded.splits) {
        *report
            .sizes
            .entry((*split, example.lang.clone(), example.hostile))
            .or_default() += 1;
        let source = example.source.split('/').next().unwrap_or_default();
        *report.sources.entry(source.to_string()).or_default() += 1;
    }
    let (table, biases) = fit(examples, &encoded, &weights, settings, &mut report);
    let mut model = quantise(settings.shape, &table, &biases);
    for head in Head::ALL {
        let dev = scored(&model, head, examples, &encoded, Split::Dev);
        let thresholds = thresholds_for(&dev, settings.precision_targets[head as usize]);
        model = model.with_thresholds(head, thresholds);
    }
    for split in SPLITS_MEASURED {
        for head in Head::ALL {
            let threshold = model.head(head).thresholds.medium;
            for (lang, counts) in measure(&model, head, examples, &encoded, split, threshold) {
                report.scores.insert((split, head.name(), lang), counts);
            }
        }
    }
    (model, report)
}

/// The label of an example for a head, if it has one.
fn label(example: &Example, head: Head) -> Option<bool> {
    match head {
        Head::Hostile => Some(example.hostile),
        Head::IdentityHate => match example.identity {
            Some(identity) => Some(identity),
            // A clean line is not hate of any kind.
            None if !example.hostile => Some(false),
            None => None,
        },
    }
}

/// Per example and head, the weight of its loss: each language's two classes weigh the same,
/// and a language weighs the square root of its size, so English does not drown the rest
/// and a small set does not get learned by heart.
fn example_weights(examples: &[Example], encoded: &Encoded) -> Vec<[f32; HEADS]> {
    let mut class_sizes: BTreeMap<(&str, usize, bool), usize> = BTreeMap::new();
    let mut lang_sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for (example, split) in examples.iter().zip(&encoded.splits) {
        if *split != Split::Train {
            continue;
        }
        *lang_sizes.entry(&example.lang).or_default() += 1;
        for head in Head::ALL {
            if let Some(y) = label(example, head) {
                *class_sizes
                    .entry((&example.lang, head as usize, y))
                    .or_default() += 1;
            }
        }
    }
    let mut weights: Vec<[f32; HEADS]> = examples
        .iter()
        .map(|example| {
            let lang_total = *lang_sizes.get(example.lang.as_str()).unwrap_or(&1) as f64;
            Head::ALL.map(|head| match label(example, head) {
                None => 0.0,
                Some(y) => {
                    let class = *class_sizes
                        .get(&(example.lang.as_str(), head as usize, y))
                        .unwrap_or(&1) as f64;
                    // Languages with one class only still learn it, at half weight.
                    (0.5 * lang_total.sqrt() / class) as f32
                }
            })
        })
        .collect();
    for head in Head::ALL {
        let (sum, n) = weights
            .iter()
            .zip(&encoded.splits)
            .filter(|(w, s)| **s == Split::Train && w[head as usize] > 0.0)
            .fold((0f64, 0usize), |(sum, n), (w, _)| {
                (sum + f64::from(w[head as usize]), n + 1)
            });
        let mean = if n == 0 { 1.0 } else { sum / n as f64 };
        for w in weights.iter_mut() {
            w[head as usize] = (f64::from(w[head as usize]) / mean) as f32;
        }
    }
    weights
}

/// AdaGrad over shuffled training lines; returns the table (`2^bits` rows of `HEADS`) and
/// the biases.
fn fit(
    examples: &[Example],
    encoded: &Encoded,
    weights: &[[f32; HEADS]],
    settings: &TrainingSettings,
    report: &mut TrainingReport,
) -> (Vec<f32>, [f32; HEADS]) {
    let rows = settings.shape.rows();
    let mut table = vec![0f32; rows * HEADS];
    let mut squares = vec![1e-8f32; rows * HEADS];
    let mut biases = [0f32; HEADS];
    let mut bias_squares = [1e-8f32; HEADS];
    let mut order: Vec<usize> = (0..examples.len())
        .filter(|&i| encoded.splits[i] == Split::Train)
        .collect();
    let mut rng = SplitMix(settings.seed);
    for _ in 0..settings.epochs {
        shuffle(&mut order, &mut rng);
        let (mut loss, mut weight_sum) = (0f64, 0f64);
        for &i in &order {
            let features = encoded.features(i);
            let value = occurrence_value(features.len());
            for head in Head::ALL {
                let weight = weights[i][head as usize];
                let Some(y) = label(&examples[i], head) else {
                    continue;
                };
                if weight == 0.0 {
                    continue;
                }
                let h = head as usize;
                let mut z = biases[h];
                for &b in features {
                    z += table[b as usize * HEADS + h] * value;
                }
                let p = sigmoid(z);
                let target = if y { 1.0 } else { 0.0 };
                if head == Head::Hostile {
                    let q = if y { p } else { 1.0 - p };
                    loss -= f64::from(weight) * f64::from(q.max(1e-7)).ln();
                    weight_sum += f64::from(weight);
                }
                let gradient = (p - target) * weight;
                bias_squares[h] += gradient * gradient;
                biases[h] -= settings.learning_rate * gradient / bias_squares[h].sqrt();
                for &b in features {
                    let at = b as usize * HEADS + h;
                    let g = gradient * value + settings.l2 * table[at];
                    squares[at] += g * g;
                    table[at] -= settings.learning_rate * g / squares[at].sqrt();
                }
            }
        }
        report.epoch_loss.push(if weight_sum == 0.0 {
            0.0
        } else {
            loss / weight_sum
        });
    }
    (table, biases)
}

/// One signed byte per weight: the scale maps the 99.99th percentile of a head's absolute
/// weights to 127 and clips the few above it.
fn quantise(shape: Shape, table: &[f32], biases: &[f32; HEADS]) -> Model {
    let mut heads = [HeadParams::default(); HEADS];
    let mut scales = [1f32; HEADS];
    for head in Head::ALL {
        let h = head as usize;
        let mut magnitudes: Vec<f32> = table
            .iter()
            .skip(h)
            .step_by(HEADS)
            .map(|w| w.abs())
            .filter(|w| *w > 0.0)
            .collect();
        magnitudes.sort_by(f32::total_cmp);
        let top = magnitudes
            .get((magnitudes.len() as f64 * 0.9999) as usize)
            .or(magnitudes.last())
            .copied()
            .unwrap_or(1.0);
        scales[h] = if top > 0.0 { top / 127.0 } else { 1.0 };
        heads[h] = HeadParams {
            bias: biases[h],
            scale: scales[h],
            ..HeadParams::default()
        };
    }
    let bytes = table
        .iter()
        .enumerate()
        .map(|(i, w)| (w / scales[i % HEADS]).round().clamp(-127.0, 127.0) as i8)
        .collect();
    Model::from_table(shape, heads, bytes)
}

/// (score, label) of every line of a split that has a label for the head.
fn scored(
    model: &Model,
    head: Head,
    examples: &[Example],
    encoded: &Encoded,
    split: Split,
) -> Vec<(f32, bool, usize)> {
    let mut line = NormalizedLine::new();
    let mut features = Vec::new();
    let mut chars = Vec::new();
    let mut out = Vec::new();
    for (i, example) in examples.iter().enumerate() {
        if encoded.splits[i] != split {
            continue;
        }
        let Some(y) = label(example, head) else {
            continue;
        };
        line.normalize(&example.text);
        extract(&line, model.shape(), &mut features, &mut chars);
        out.push((model.score(&features)[head as usize], y, i));
    }
    out
}

/// The lowest score whose flags reach each precision target on dev (1.0: never flag).
fn thresholds_for(dev: &[(f32, bool, usize)], targets: [f64; 3]) -> Thresholds {
    let mut sorted: Vec<(f32, bool)> = dev.iter().map(|(s, y, _)| (*s, *y)).collect();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let pick = |target: f64| {
        let (mut tp, mut fp) = (0usize, 0usize);
        let mut best = 1.0f32;
        for (i, (score, y)) in sorted.iter().enumerate() {
            if *y {
                tp += 1;
            } else {
                fp += 1;
            }
            let next_differs = sorted.get(i + 1).is_none_or(|n| n.0 < *score);
            // At least 20 flags, so a handful of lucky lines does not set a threshold.
            if next_differs && tp + fp >= 20 && tp as f64 / (tp + fp) as f64 >= target {
                best = *score;
            }
        }
        best
    };
    let low = pick(targets[0]);
    let medium = pick(targets[1]).max(low);
    let high = pick(targets[2]).max(medium);
    Thresholds { low, medium, high }
}

/// Counts per language (and "all") at `threshold`.
fn measure(
    model: &Model,
    head: Head,
    examples: &[Example],
    encoded: &Encoded,
    split: Split,
    threshold: f32,
) -> BTreeMap<String, Score> {
    let mut out: BTreeMap<String, Score> = BTreeMap::new();
    for (score, y, i) in scored(model, head, examples, encoded, split) {
        for key in [examples[i].lang.as_str(), "all"] {
            let counts = out.entry(key.to_string()).or_default();
            counts.add(score >= threshold, y);
        }
    }
    out
}

/// SplitMix64: a small seeded generator, so the shuffle is the same on every machine.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn shuffle(items: &mut [usize], rng: &mut SplitMix) {
    for i in (1..items.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Vec<Example> {
        let hostile = [
            "you are a worthless loser",
            "nobody wants you here loser",
            "get lost you worthless clown",
            "you are pathetic and worthless",
            "uninstall you pathetic clown",
        ];
        let clean = [
            "good game everyone",
            "nice move on e4",
            "well played red",
            "i will take your rook",
            "thanks for the game",
        ];
        let mut out = Vec::new();
        for round in 0..40 {
            for (i, text) in hostile.iter().enumerate() {
                out.push(example(&format!("{text} {round} {i}"), true));
            }
            for (i, text) in clean.iter().enumerate() {
                out.push(example(&format!("{text} {round} {i}"), false));
            }
        }
        out
    }

    fn example(text: &str, hostile: bool) -> Example {
        Example {
            source: "test".into(),
            lang: "en".into(),
            hostile,
            identity: None,
            text: text.into(),
        }
    }

    fn small() -> TrainingSettings {
        TrainingSettings {
            shape: Shape {
                bits: 12,
                shortest_gram: 2,
                longest_gram: 4,
            },
            epochs: 3,
            ..TrainingSettings::default()
        }
    }

    #[test]
    fn it_learns_a_separable_corpus_and_reports_held_out_lines() {
        let (_, report) = train(&corpus(), &small());
        let test = report.scores[&(Split::Test, "hostile", "all".to_string())];
        assert!(test.lines() > 0);
        assert!(test.f1() > 0.9, "{test:?}");
        assert!(report.epoch_loss.last() < report.epoch_loss.first());
    }

    #[test]
    fn the_same_corpus_gives_the_same_bytes() {
        let (a, _) = train(&corpus(), &small());
        let (b, _) = train(&corpus(), &small());
        assert_eq!(a.to_bytes(), b.to_bytes());
    }

    #[test]
    fn a_line_and_its_disguise_share_a_split() {
        let mut a = NormalizedLine::new();
        a.normalize("you 1d10t");
        let mut b = NormalizedLine::new();
        b.normalize("you idiot");
        assert_eq!(split_of("en", a.trimmed()), split_of("en", b.trimmed()));
    }

    #[test]
    fn thresholds_reach_their_precision_or_never_flag() {
        let mut dev: Vec<(f32, bool, usize)> =
            (0..100).map(|i| (i as f32 / 100.0, i >= 50, i)).collect();
        dev.push((0.99, false, 100));
        let t = thresholds_for(&dev, [0.8, 0.9, 1.01]);
        // The lowest score where at least 80% of the flags are right: 50 of 62 at 0.39.
        assert!((t.low - 0.39).abs() < 1e-6, "{t:?}");
        assert!((t.medium - 0.46).abs() < 1e-6, "{t:?}");
        assert_eq!(t.high, 1.0);
        assert!(t.medium >= t.low);
    }
}
