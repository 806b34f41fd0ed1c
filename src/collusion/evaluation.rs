//! Detection power on labelled pairs (simulated play): the share of colluding pairs found, per
//! kind of collusion and number of shared games, next to the share of honest pairs wrongly
//! found.

use super::finding::Finding;

/// One judged pair: its true label (`None` for honest), shared games, score and finding.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgedPair {
    pub label: Option<&'static str>,
    pub games: u64,
    pub score: f64,
    pub finding: Option<Finding>,
}

/// Shared-game bins of the table: 5-9, 10-19, 20-39, 40 and more.
pub const BINS: [(u64, u64); 4] = [(5, 9), (10, 19), (20, 39), (40, u64::MAX)];

/// One cell: pairs of a kind in a bin and how many were found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCell {
    pub pairs: usize,
    pub found: usize,
}

impl TableCell {
    pub fn rate(&self) -> Option<f64> {
        (self.pairs > 0).then(|| self.found as f64 / self.pairs as f64)
    }
}

/// The table: per kind, one cell per bin; honest pairs the same way (found = false positives).
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    pub kinds: Vec<(&'static str, Vec<TableCell>)>,
    pub honest: Vec<TableCell>,
    /// Honest pairs with at least the first bin's games, and how many were found.
    pub honest_total: TableCell,
    /// The honest pairs' 99.9th percentile score: the threshold an FPR of 1 in 1,000 allows.
    pub honest_score_999: Option<f64>,
}

fn bin_of(games: u64) -> Option<usize> {
    BINS.iter().position(|&(lo, hi)| games >= lo && games <= hi)
}

/// A colluding pair counts as found when its finding is of the right kind: self-partnering
/// accounts as self-partnering, every other kind as any finding.
fn found(pair: &JudgedPair) -> bool {
    match (pair.label, pair.finding) {
        (_, None) => false,
        (Some("self_partnering"), Some(f)) => f == Finding::SelfPartnering,
        (_, Some(_)) => true,
    }
}

pub fn evaluate(pairs: &[JudgedPair], kinds: &[&'static str]) -> Evaluation {
    let empty = || vec![TableCell { pairs: 0, found: 0 }; BINS.len()];
    let mut table: Vec<(&'static str, Vec<TableCell>)> =
        kinds.iter().map(|k| (*k, empty())).collect();
    let mut honest = empty();
    let mut honest_scores = Vec::new();
    for pair in pairs {
        let Some(bin) = bin_of(pair.games) else {
            continue;
        };
        let cells = match pair.label {
            None => {
                honest_scores.push(pair.score);
                &mut honest
            }
            Some(label) => match table.iter_mut().find(|(k, _)| *k == label) {
                Some((_, cells)) => cells,
                None => continue,
            },
        };
        cells[bin].pairs += 1;
        if found(pair) {
            cells[bin].found += 1;
        }
    }
    honest_scores.sort_by(f64::total_cmp);
    let honest_score_999 = (!honest_scores.is_empty()).then(|| {
        let at = ((honest_scores.len() as f64) * 0.999).floor() as usize;
        honest_scores[at.min(honest_scores.len() - 1)]
    });
    let honest_total = TableCell {
        pairs: honest.iter().map(|c| c.pairs).sum(),
        found: honest.iter().map(|c| c.found).sum(),
    };
    Evaluation {
        kinds: table,
        honest,
        honest_total,
        honest_score_999,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(label: Option<&'static str>, games: u64, finding: Option<Finding>) -> JudgedPair {
        JudgedPair {
            label,
            games,
            score: if finding.is_some() { 5.0 } else { 1.0 },
            finding,
        }
    }

    #[test]
    fn recall_counts_the_right_kind_and_honest_findings_are_false_positives() {
        let pairs = [
            judged(Some("sparing"), 20, Some(Finding::PrearrangedTeaming)),
            judged(Some("sparing"), 22, None),
            judged(
                Some("self_partnering"),
                40,
                Some(Finding::PrearrangedTeaming),
            ),
            judged(Some("self_partnering"), 41, Some(Finding::SelfPartnering)),
            judged(None, 5, None),
            judged(None, 12, Some(Finding::PrearrangedTeaming)),
            judged(None, 3, Some(Finding::PrearrangedTeaming)),
        ];
        let e = evaluate(&pairs, &["sparing", "self_partnering"]);
        assert_eq!(e.kinds[0].1[2], TableCell { pairs: 2, found: 1 });
        assert_eq!(e.kinds[1].1[3], TableCell { pairs: 2, found: 1 });
        assert_eq!(e.honest_total, TableCell { pairs: 2, found: 1 });
        assert_eq!(e.honest[1], TableCell { pairs: 1, found: 1 });
    }
}
