//! The thresholds of collusion detection, and the `[collusion]` settings that carry them.

use serde::{Deserialize, Serialize};

/// When a pair's play becomes a finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollusionPolicy {
    /// Fewest FFA or Solo games a pair must share before any finding (admins never act on a
    /// single game, and reporters are asked to check several games first: docs/moderation.md,
    /// "The several-games rule").
    pub min_games: u32,
    /// A pair is a finding when its score (standard deviations from what both players' own
    /// baselines predict) reaches this.
    pub threshold: f64,
    /// A pair whose players' seats shared a device or network fingerprint is a self-partnering
    /// finding from this lower score on.
    pub shared_fingerprint_threshold: f64,
    /// Weight, in trials, of the population rate mixed into a player's own rate, so that a
    /// player with little history is judged mostly by the population.
    pub prior_trials: f64,
    /// How far an honest pair's rate may differ from what the two players' baselines predict,
    /// as a share of it (standard deviation): a deviation of this size is never conclusive.
    pub pair_spread: f64,
}

impl Default for CollusionPolicy {
    fn default() -> Self {
        CollusionPolicy {
            min_games: 5,
            threshold: 4.0,
            shared_fingerprint_threshold: 3.0,
            prior_trials: 40.0,
            pair_spread: 0.15,
        }
    }
}

impl CollusionPolicy {
    /// The first problem with the values, as (key, message).
    pub fn problem(&self) -> Option<(&'static str, &'static str)> {
        if self.min_games < 2 {
            return Some((
                "collusion.min_games",
                "must be at least 2 (a single game is never judged)",
            ));
        }
        if !(self.threshold.is_finite() && self.threshold > 0.0) {
            return Some(("collusion.threshold", "must be a positive number"));
        }
        if !(self.shared_fingerprint_threshold.is_finite()
            && self.shared_fingerprint_threshold > 0.0
            && self.shared_fingerprint_threshold <= self.threshold)
        {
            return Some((
                "collusion.shared_fingerprint_threshold",
                "must be positive and at most collusion.threshold",
            ));
        }
        if !(self.prior_trials.is_finite() && self.prior_trials >= 0.0) {
            return Some(("collusion.prior_trials", "must be zero or more"));
        }
        if !(self.pair_spread.is_finite() && (0.0..1.0).contains(&self.pair_spread)) {
            return Some(("collusion.pair_spread", "must be at least 0 and below 1"));
        }
        None
    }
}

/// `[collusion]`: whether ingest keeps the statistics and raises reports, and the policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollusionSettings {
    /// Keep the statistics of every stored FFA or Solo game and raise automatic reports.
    pub enabled: bool,
    pub min_games: u32,
    pub threshold: f64,
    pub shared_fingerprint_threshold: f64,
    pub prior_trials: f64,
    pub pair_spread: f64,
}

impl CollusionSettings {
    pub fn policy(&self) -> CollusionPolicy {
        CollusionPolicy {
            min_games: self.min_games,
            threshold: self.threshold,
            shared_fingerprint_threshold: self.shared_fingerprint_threshold,
            prior_trials: self.prior_trials,
            pair_spread: self.pair_spread,
        }
    }
}
