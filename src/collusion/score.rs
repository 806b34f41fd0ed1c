//! How surprising a pair's play is, given each player's own baseline.
//!
//! For each direction (what `first` did to `second`, and back), channel and seat geometry, the
//! expected rate combines what the giver does to every *other* opponent and what every other
//! opponent does to the receiver (their tallies minus the pair's, so a colluder's partner
//! never dilutes their baseline): `p = giver × receiver / population`. Under the hypothesis
//! that the pair treats each other like anyone else, the pair's successes `O` over `N` trials
//! have mean `p N` and variance `φ p (1 - p) N`, where `φ >= 1` is the giver's own
//! game-to-game overdispersion (a hanging piece stays hanging for several turns, so turns are
//! not independent). Summing over channels and directions gives a z score: standard
//! deviations below expectation for sparing (captures and checks not made), above it for
//! feeding (pieces left hanging to the partner). A pair who met twice has a small `N` and
//! cannot reach a large score; forty meetings can.

use super::interaction::SeatGeometry;
use super::policy::CollusionPolicy;
use super::tally::{PairRecord, PlayerTallies, Sums, Tally, TallyKind};

/// Which way a pair's play leans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Fewer captures and checks between them than their baselines predict.
    Sparing,
    /// More pieces left hanging to each other than their baselines predict.
    Feeding,
}

impl Pattern {
    pub fn as_str(self) -> &'static str {
        match self {
            Pattern::Sparing => "sparing",
            Pattern::Feeding => "feeding",
        }
    }
}

/// Which of the two players' play a figure describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// What the first player did to the second.
    FirstToSecond,
    /// What the second player did to the first.
    SecondToFirst,
    /// Both, summed.
    Both,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::FirstToSecond => "first_to_second",
            Direction::SecondToFirst => "second_to_first",
            Direction::Both => "both",
        }
    }
}

/// One channel of one direction: observed against expected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Driver {
    pub direction: Direction,
    pub channel: TallyKind,
    pub trials: u64,
    pub observed: u64,
    pub expected: f64,
    /// This driver's own z score.
    pub z: f64,
}

/// The verdict on one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PairScore {
    pub games: u64,
    /// The larger of the sparing and feeding scores (0 when neither leans).
    pub score: f64,
    pub pattern: Pattern,
    /// The direction whose figures gave the score.
    pub direction: Direction,
    /// One-sided normal tail probability of a score this large.
    pub p_value: f64,
    /// Per direction and channel, largest deviation first.
    pub drivers: Vec<Driver>,
}

impl PairScore {
    /// Whether the pair is a finding under `threshold`, never below the policy's game count.
    pub fn reaches(&self, threshold: f64, policy: &CollusionPolicy) -> bool {
        self.games >= u64::from(policy.min_games) && self.score >= threshold
    }
}

/// Deviation and variance of one component.
#[derive(Debug, Clone, Copy, Default)]
struct Part {
    trials: u64,
    observed: u64,
    expected: f64,
    variance: f64,
}

impl Part {
    fn add(&mut self, other: Part) {
        self.trials += other.trials;
        self.observed += other.observed;
        self.expected += other.expected;
        self.variance += other.variance;
    }

    /// The signed root of the binomial deviance of `O` successes in `N` trials against the
    /// expected `E`, scaled by how much wider than binomial the spread is (overdispersion and
    /// the uncertainty of the rate): close to a standard normal score even when few successes,
    /// or few failures, are expected, where `(O - E) / sqrt(V)` would overstate them.
    fn z(&self) -> f64 {
        let (n, o, e) = (self.trials as f64, self.observed as f64, self.expected);
        if n <= 0.0 || e <= 0.0 || e >= n || self.variance <= 0.0 {
            return 0.0;
        }
        let term = |x: f64, m: f64| if x > 0.0 { x * (x / m).ln() } else { 0.0 };
        let deviance = 2.0 * (term(o, e) + term(n - o, n - e));
        let binomial = e * (1.0 - e / n);
        let dispersion = (self.variance / binomial).max(1.0);
        (o - e).signum() * (deviance.max(0.0) / dispersion).sqrt()
    }
}

/// A smoothed rate: `successes / trials`, pulled toward `prior` by `weight` pseudo-trials.
fn rate(sums: &Sums, prior: f64, weight: f64) -> f64 {
    ((sums.successes as f64 + weight * prior) / (sums.trials as f64 + weight))
        .clamp(1e-4, 1.0 - 1e-4)
}

/// The population rate of a channel and geometry (Jeffreys-smoothed).
fn population_rate(population: &Tally, channel: TallyKind, geometry: SeatGeometry) -> f64 {
    let s = population.get(channel, geometry);
    ((s.successes as f64 + 0.5) / (s.trials as f64 + 1.0)).clamp(1e-4, 1.0 - 1e-4)
}

/// The part of one channel and geometry: the pair's sums against the rate the giver's and the
/// receiver's baselines predict (`giver × receiver / population`, as in a log-linear model).
fn part(
    pair: &Sums,
    giver: &Sums,
    receiver: &Sums,
    population: f64,
    policy: &CollusionPolicy,
) -> Part {
    if pair.trials == 0 {
        return Part::default();
    }
    let m = policy.prior_trials;
    let gives = rate(giver, population, m);
    let draws = rate(receiver, population, m);
    let p = (gives * draws / population).clamp(1e-4, 1.0 - 1e-4);
    // Overdispersion of the giver's own games around their rate, with a unit-weight prior of
    // 1 so that a few games cannot shrink it.
    let binomial = gives * (1.0 - gives);
    let prior = 10.0 * binomial;
    let spread =
        (giver.squared_residuals(gives) + prior) / (binomial * giver.trials as f64 + prior);
    let phi = spread.max(1.0);
    let n = pair.trials as f64;
    // The rate is itself estimated: a thin baseline (a player with few games) widens the
    // spread of what the pair could show, by the relative variance of both factors.
    let relative = (1.0 - gives) / (gives * (giver.trials as f64 + m).max(1.0))
        + (1.0 - draws) / (draws * (receiver.trials as f64 + m).max(1.0));
    // Honest pairs differ too (styles, openings): their rate spreads around the prediction by
    // `pair_spread` of itself, so no number of games makes a small deviation conclusive.
    let heterogeneity = (policy.pair_spread * p * n).powi(2);
    Part {
        trials: pair.trials,
        observed: pair.successes,
        expected: p * n,
        variance: phi * (p * (1.0 - p) * n + (p * n).powi(2) * relative) + heterogeneity,
    }
}

/// One side of a pair: a player's tallies over all their games, and over the games shared
/// with the other (removed from the baseline).
struct Side<'a> {
    all: &'a PlayerTallies,
    shared: &'a PlayerTallies,
}

/// One direction's parts per channel: `play` is what the giver did to the receiver.
fn direction_parts(
    play: &Tally,
    giver: Side<'_>,
    receiver: Side<'_>,
    population: &Tally,
    policy: &CollusionPolicy,
) -> [Part; 3] {
    let gives = giver.all.given.minus(&giver.shared.given);
    let draws = receiver.all.received.minus(&receiver.shared.received);
    let population = population.minus(play);
    TallyKind::ALL.map(|channel| {
        let mut total = Part::default();
        for g in SeatGeometry::ALL {
            total.add(part(
                play.get(channel, g),
                gives.get(channel, g),
                draws.get(channel, g),
                population_rate(&population, channel, g),
                policy,
            ));
        }
        total
    })
}

/// Scores a pair from its record; `first` and `second` are the two players' tallies over all
/// their games (shared ones included), `population` everybody's given tallies summed.
pub fn score_pair(
    pair: &PairRecord,
    first: &PlayerTallies,
    second: &PlayerTallies,
    population: &Tally,
    policy: &CollusionPolicy,
) -> PairScore {
    let (first_play, second_play) = (&pair.first_to_second, &pair.second_to_first);
    let first_side = || Side {
        all: first,
        shared: &pair.first_shared,
    };
    let second_side = || Side {
        all: second,
        shared: &pair.second_shared,
    };
    let forward = direction_parts(first_play, first_side(), second_side(), population, policy);
    let backward = direction_parts(second_play, second_side(), first_side(), population, policy);
    let mut drivers = Vec::new();
    let mut best = (0.0, Pattern::Sparing, Direction::Both);
    for direction in [
        Direction::Both,
        Direction::FirstToSecond,
        Direction::SecondToFirst,
    ] {
        let parts: Vec<&[Part; 3]> = match direction {
            Direction::Both => vec![&forward, &backward],
            Direction::FirstToSecond => vec![&forward],
            Direction::SecondToFirst => vec![&backward],
        };
        let mut sparing = Part::default();
        let mut feeding = Part::default();
        for p in &parts {
            // Checks are shown as a driver but not scored: whether a check is worth giving
            // depends on both kings' surroundings far more than a free capture does, and in
            // the simulator honest pairs' check counts spread too widely to judge by.
            sparing.add(p[TallyKind::Capture.index()]);
            feeding.add(p[TallyKind::Gift.index()]);
        }
        for (pattern, value) in [
            (Pattern::Sparing, -sparing.z()),
            (Pattern::Feeding, feeding.z()),
        ] {
            if value > best.0 {
                best = (value, pattern, direction);
            }
        }
        if direction != Direction::Both {
            for channel in TallyKind::ALL {
                let p = parts[0][channel.index()];
                drivers.push(Driver {
                    direction,
                    channel,
                    trials: p.trials,
                    observed: p.observed,
                    expected: p.expected,
                    z: p.z(),
                });
            }
        }
    }
    drivers.sort_by(|a, b| b.z.abs().total_cmp(&a.z.abs()));
    let (score, pattern, direction) = best;
    PairScore {
        games: first_play.games.min(second_play.games),
        score,
        pattern,
        direction,
        p_value: normal_upper_tail(score),
        drivers,
    }
}

/// `P(Z >= z)` for a standard normal `Z` (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
pub fn normal_upper_tail(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if x >= 0.0 {
        0.5 * erfc
    } else {
        1.0 - 0.5 * erfc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collusion::interaction::PairPlay;

    fn play(capture_chances: u32, captures: u32, turns: u32, gifts: u32) -> PairPlay {
        PairPlay {
            turns,
            capture_chances,
            captures,
            check_chances: 0,
            checks: 0,
            gifts,
            ..PairPlay::default()
        }
    }

    /// A player's tallies: `games` games with three opponents who play and are played like
    /// `against`, plus the pair's games (`gave` to the partner, `got` from them).
    fn player(games: u64, against: &PairPlay, gave: &Tally, got: &Tally) -> PlayerTallies {
        let t = many(games, against);
        PlayerTallies {
            given: t.plus(gave),
            received: t.plus(got),
        }
    }

    /// `games` games against three opponents, each played like `each`.
    fn many(games: u64, each: &PairPlay) -> Tally {
        let mut t = Tally::default();
        for _ in 0..games {
            t.games += 1;
            for g in [
                SeatGeometry::Next,
                SeatGeometry::Opposite,
                SeatGeometry::Previous,
            ] {
                t.add(each, g);
            }
        }
        t
    }

    fn pair_tally(games: u64, each: &PairPlay) -> Tally {
        let mut t = Tally::default();
        for _ in 0..games {
            t.games += 1;
            t.add(each, SeatGeometry::Next);
        }
        t
    }

    fn score(
        forward: &Tally,
        backward: &Tally,
        first: &PlayerTallies,
        second: &PlayerTallies,
    ) -> PairScore {
        let population = first.given.plus(&second.given);
        // The pair's games here hold only their play toward each other.
        let record = PairRecord {
            first_to_second: *forward,
            second_to_first: *backward,
            first_shared: PlayerTallies {
                given: *forward,
                received: *backward,
            },
            second_shared: PlayerTallies {
                given: *backward,
                received: *forward,
            },
        };
        score_pair(
            &record,
            first,
            second,
            &population,
            &CollusionPolicy::default(),
        )
    }

    #[test]
    fn a_pair_that_never_takes_is_surprising_only_after_many_games() {
        let honest = play(10, 5, 40, 1);
        let spared = play(10, 0, 40, 1);
        let policy = CollusionPolicy::default();
        let after = |games: u64| {
            let pair = pair_tally(games, &spared);
            let first = player(100, &honest, &pair, &pair);
            let second = player(100, &honest, &pair, &pair);
            score(&pair, &pair, &first, &second)
        };
        let two = after(2);
        let forty = after(40);
        assert_eq!(two.pattern, Pattern::Sparing);
        assert!(two.score < forty.score, "{} {}", two.score, forty.score);
        assert!(!two.reaches(policy.threshold, &policy));
        assert!(forty.reaches(policy.threshold, &policy), "{}", forty.score);
        assert_eq!(forty.direction, Direction::Both);
        assert_eq!(forty.drivers[0].channel, TallyKind::Capture);
        assert_eq!(forty.drivers[0].observed, 0);
    }

    #[test]
    fn playing_like_everyone_else_scores_near_zero() {
        let honest = play(10, 5, 40, 1);
        let pair = pair_tally(40, &honest);
        let first = player(100, &honest, &pair, &pair);
        let result = score(&pair, &pair, &first, &first);
        assert!(result.score < 0.5, "{}", result.score);
    }

    #[test]
    fn one_sided_feeding_is_found_in_its_direction() {
        let honest = play(10, 5, 40, 1);
        let feeding = play(10, 5, 40, 6);
        let policy = CollusionPolicy::default();
        let gifts = pair_tally(20, &feeding);
        let normal = pair_tally(20, &honest);
        let first = player(100, &honest, &gifts, &normal);
        let second = player(100, &honest, &normal, &gifts);
        let result = score(&gifts, &normal, &first, &second);
        assert_eq!(result.pattern, Pattern::Feeding);
        assert_eq!(result.direction, Direction::FirstToSecond);
        assert!(
            result.reaches(policy.threshold, &policy),
            "{}",
            result.score
        );
    }

    #[test]
    fn an_opponent_everyone_feeds_is_no_evidence_against_one_of_them() {
        // Everybody leaves pieces hanging to the second player (say, an attacking player):
        // the first doing the same is expected.
        let honest = play(10, 5, 40, 1);
        let toward = play(10, 5, 40, 4);
        let policy = CollusionPolicy::default();
        let gifts = pair_tally(20, &toward);
        let normal = pair_tally(20, &honest);
        let first = player(100, &honest, &gifts, &normal);
        let second = PlayerTallies {
            given: many(100, &honest).plus(&normal),
            received: many(100, &toward).plus(&gifts),
        };
        let result = score(&gifts, &normal, &first, &second);
        assert!(!result.reaches(policy.threshold, &policy), "{result:?}");
    }

    #[test]
    fn normal_tail_is_accurate() {
        assert!((normal_upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_upper_tail(1.96) - 0.024_997_9).abs() < 1e-6);
        assert!((normal_upper_tail(-1.96) - 0.975_002_1).abs() < 1e-6);
        assert!((normal_upper_tail(4.0) - 3.167e-5).abs() < 1e-6);
    }
}
