//! Counts of one yes-or-no decision against labels, and precision, recall and F1 from them:
//! for the analyser's evaluation (`eval`) and the learned scorer's training report.

/// Counts and scores of one binary decision.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Score {
    pub true_positives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    pub true_negatives: usize,
}

impl Score {
    pub fn precision(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_positives,
        )
    }

    pub fn recall(&self) -> f64 {
        ratio(
            self.true_positives,
            self.true_positives + self.false_negatives,
        )
    }

    pub fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }

    /// Lines counted.
    pub fn lines(&self) -> usize {
        self.true_positives + self.false_positives + self.false_negatives + self.true_negatives
    }

    /// Lines whose label is positive.
    pub fn positives(&self) -> usize {
        self.true_positives + self.false_negatives
    }

    /// Counts one line: flagged or not, and its label.
    pub fn add(&mut self, predicted: bool, expected: bool) {
        match (predicted, expected) {
            (true, true) => self.true_positives += 1,
            (true, false) => self.false_positives += 1,
            (false, true) => self.false_negatives += 1,
            (false, false) => self.true_negatives += 1,
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}
