//! The text an admin reads on an automatic collusion report: the measure, what drives it, the
//! account link and the surprising moments with their games and plies.

use super::accounts::AccountLink;
use super::interaction::{Moment, MomentKind};
use super::rings::Ring;
use super::score::{Direction, Driver, PairScore};
use super::tally::TallyKind;

/// A surprising moment of one shared game: `by` spared or fed `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MomentAt {
    /// The site's game number.
    pub game: String,
    pub by: String,
    pub to: String,
    pub moment: Moment,
}

/// Drivers and moments listed in a summary.
pub const DRIVERS_LISTED: usize = 4;
pub const MOMENTS_LISTED: usize = 6;

/// One paragraph: `first` and `second` in the order the score was computed.
pub fn summary(
    first: &str,
    second: &str,
    score: &PairScore,
    link: &AccountLink,
    moments: &[MomentAt],
) -> String {
    let mut out = headline(first, second, score);
    let drivers: Vec<String> = score
        .drivers
        .iter()
        .filter(|d| d.trials > 0)
        .take(DRIVERS_LISTED)
        .map(|d| driver_clause(first, second, d))
        .collect();
    if !drivers.is_empty() {
        out.push(' ');
        out.push_str(&drivers.join("; "));
        out.push('.');
    }
    if link.shares_fingerprint() {
        out.push_str(&format!(
            " Same device fingerprint in {} and same network fingerprint in {} of the shared games.",
            link.shared_device_games, link.shared_network_games
        ));
    }
    if link.rating_to_first + link.rating_to_second > 0 {
        out.push_str(&format!(
            " Rating went from {first} to {second} in {} games and from {second} to {first} in {}.",
            link.rating_to_second, link.rating_to_first
        ));
    }
    if !moments.is_empty() {
        let listed: Vec<String> = moments
            .iter()
            .take(MOMENTS_LISTED)
            .map(moment_clause)
            .collect();
        out.push_str(" Moments: ");
        out.push_str(&listed.join("; "));
        out.push('.');
    }
    out
}

/// The opening sentence: the pair, its shared games, the pattern and its direction, the
/// score.
fn headline(first: &str, second: &str, score: &PairScore) -> String {
    format!(
        "{first} / {second}, {} shared games: {} ({}), score {:.1} (p = {:.1e}).",
        score.games,
        score.pattern.as_str(),
        match score.direction {
            Direction::Both => "both ways".to_string(),
            Direction::FirstToSecond => format!("{first} toward {second}"),
            Direction::SecondToFirst => format!("{second} toward {first}"),
        },
        score.score,
        score.p_value,
    )
}

/// What one driver counted: who did what to whom, how often, against what was expected.
fn driver_clause(first: &str, second: &str, d: &Driver) -> String {
    let (by, to) = match d.direction {
        Direction::SecondToFirst => (second, first),
        _ => (first, second),
    };
    let what = match d.channel {
        TallyKind::Capture => format!(
            "took {to}'s free pieces on {} of {} chances",
            d.observed, d.trials
        ),
        TallyKind::Check => {
            format!("checked {to} on {} of {} chances", d.observed, d.trials)
        }
        TallyKind::Gift => format!(
            "left pieces hanging to {to} on {} of {} moves",
            d.observed, d.trials
        ),
    };
    format!("{by} {what} ({:.1} expected)", d.expected)
}

/// One surprising moment with its game and ply.
fn moment_clause(m: &MomentAt) -> String {
    let piece = format!("{:?}", m.moment.piece).to_lowercase();
    match m.moment.kind {
        MomentKind::SparedCapture => format!(
            "game {} ply {}: {} left {}'s free {piece}",
            m.game, m.moment.ply, m.by, m.to
        ),
        MomentKind::Gift => format!(
            "game {} ply {}: {} left a {piece} hanging to {}",
            m.game, m.moment.ply, m.by, m.to
        ),
    }
}

/// The sentence that opens a report on a ring: its members and the flagged pairs that join
/// them, each with its shared games.
pub fn ring_summary(ring: &Ring, shared_games: impl Fn(&str, &str) -> u64) -> String {
    let pairs: Vec<String> = ring
        .pairs
        .iter()
        .map(|(a, b)| format!("{a} / {b} ({} games)", shared_games(a, b)))
        .collect();
    format!(
        "Ring of {} accounts: {}; flagged pairs: {}.",
        ring.members.len(),
        ring.members.join(", "),
        pairs.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_lists_its_members_and_pairs() {
        let ring = Ring {
            members: vec!["ann".into(), "bo".into(), "cy".into()],
            pairs: vec![("ann".into(), "bo".into()), ("bo".into(), "cy".into())],
        };
        assert_eq!(
            ring_summary(&ring, |a, _| if a == "ann" { 12 } else { 7 }),
            "Ring of 3 accounts: ann, bo, cy; flagged pairs: ann / bo (12 games), bo / cy (7 games)."
        );
    }
}
