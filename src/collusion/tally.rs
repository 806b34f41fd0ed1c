//! Running sums that summarise many games' [`PairPlay`]s per channel and seat geometry: enough
//! to compute a rate, its expected count for any pair, and how much the counts spread from one
//! game to the next. Sums add and subtract, so a player's baseline without one opponent is the
//! player's tally minus the pair's, and a game's arrival is one addition.

use serde::{Deserialize, Serialize};

use super::interaction::{GameInteractions, PairPlay, SeatGeometry};
use crate::rules::geometry::Seat;

/// What is counted: trials (chances or turns) and successes (taken or given) per game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TallyKind {
    /// Free captures: chances, captures taken.
    Capture,
    /// Checks: chances, checks given.
    Check,
    /// Gifts: turns, turns that left a piece hanging to this opponent.
    Gift,
}

impl TallyKind {
    pub const ALL: [TallyKind; 3] = [TallyKind::Capture, TallyKind::Check, TallyKind::Gift];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TallyKind::Capture => "capture",
            TallyKind::Check => "check",
            TallyKind::Gift => "gift",
        }
    }

    /// (trials, successes) of one game.
    pub fn counts(self, play: &PairPlay) -> (u32, u32) {
        match self {
            TallyKind::Capture => (play.capture_chances, play.captures),
            TallyKind::Check => (play.check_chances, play.checks),
            TallyKind::Gift => (play.turns, play.gifts),
        }
    }
}

/// Sums over (game, opponent) units of one channel: trials `n`, successes `o`, and the second
/// moments that give the spread of `o - p n` for any rate `p`. Stored as six numbers in field
/// order (a pair's record holds 54 of these).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredSums", into = "[u64; 6]")]
pub struct Sums {
    pub units: u64,
    pub trials: u64,
    pub successes: u64,
    pub trials_sq: u64,
    pub successes_sq: u64,
    pub cross: u64,
}

/// Sums as read back: the six numbers, or the named form that rows written before the
/// compact one hold.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredSums {
    Compact([u64; 6]),
    Named {
        units: u64,
        trials: u64,
        successes: u64,
        trials_sq: u64,
        successes_sq: u64,
        cross: u64,
    },
}

impl From<StoredSums> for Sums {
    fn from(stored: StoredSums) -> Sums {
        match stored {
            StoredSums::Compact([units, trials, successes, trials_sq, successes_sq, cross])
            | StoredSums::Named {
                units,
                trials,
                successes,
                trials_sq,
                successes_sq,
                cross,
            } => Sums {
                units,
                trials,
                successes,
                trials_sq,
                successes_sq,
                cross,
            },
        }
    }
}

impl From<Sums> for [u64; 6] {
    fn from(s: Sums) -> [u64; 6] {
        [
            s.units,
            s.trials,
            s.successes,
            s.trials_sq,
            s.successes_sq,
            s.cross,
        ]
    }
}

impl Sums {
    pub fn add(&mut self, trials: u32, successes: u32) {
        let (n, o) = (u64::from(trials), u64::from(successes));
        self.units += 1;
        self.trials += n;
        self.successes += o;
        self.trials_sq += n * n;
        self.successes_sq += o * o;
        self.cross += n * o;
    }

    pub fn plus(&self, other: &Sums) -> Sums {
        Sums {
            units: self.units + other.units,
            trials: self.trials + other.trials,
            successes: self.successes + other.successes,
            trials_sq: self.trials_sq + other.trials_sq,
            successes_sq: self.successes_sq + other.successes_sq,
            cross: self.cross + other.cross,
        }
    }

    /// These sums without `part` (saturating: a part is never larger than its whole).
    pub fn minus(&self, part: &Sums) -> Sums {
        Sums {
            units: self.units.saturating_sub(part.units),
            trials: self.trials.saturating_sub(part.trials),
            successes: self.successes.saturating_sub(part.successes),
            trials_sq: self.trials_sq.saturating_sub(part.trials_sq),
            successes_sq: self.successes_sq.saturating_sub(part.successes_sq),
            cross: self.cross.saturating_sub(part.cross),
        }
    }

    /// `Σ (o - p n)²` over the units.
    pub fn squared_residuals(&self, p: f64) -> f64 {
        let (n2, o2, on) = (
            self.trials_sq as f64,
            self.successes_sq as f64,
            self.cross as f64,
        );
        (o2 - 2.0 * p * on + p * p * n2).max(0.0)
    }
}

/// Sums per channel and seat geometry: one player's baseline (against every opponent) or
/// one ordered pair's record (what one did to the other).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    pub sums: [[Sums; 3]; 3],
}

impl Tally {
    pub fn get(&self, channel: TallyKind, geometry: SeatGeometry) -> &Sums {
        &self.sums[channel.index()][geometry.index()]
    }

    /// Adds one game's play toward one opponent sitting at `geometry`.
    pub fn add(&mut self, play: &PairPlay, geometry: SeatGeometry) {
        for channel in TallyKind::ALL {
            let (n, o) = channel.counts(play);
            self.sums[channel.index()][geometry.index()].add(n, o);
        }
    }

    /// Adds another tally's games and sums to this one (the population's rows summed).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        for (mine, theirs) in self.sums.iter_mut().zip(other.sums.iter()) {
            for (sums, more) in mine.iter_mut().zip(theirs.iter()) {
                *sums = sums.plus(more);
            }
        }
    }

    /// Adds what the player in `seat` gave each opponent in one game (the population's sum).
    pub fn add_given(&mut self, game: &GameInteractions, seat: Seat) {
        self.games += 1;
        for other in Seat::ALL.into_iter().filter(|&o| o != seat) {
            self.add(game.pair(seat, other), SeatGeometry::of(seat, other));
        }
    }

    pub fn plus(&self, other: &Tally) -> Tally {
        let mut out = *self;
        out.games += other.games;
        for (c, row) in out.sums.iter_mut().enumerate() {
            for (g, sums) in row.iter_mut().enumerate() {
                *sums = sums.plus(&other.sums[c][g]);
            }
        }
        out
    }

    pub fn minus(&self, part: &Tally) -> Tally {
        let mut out = *self;
        out.games = out.games.saturating_sub(part.games);
        for (c, row) in out.sums.iter_mut().enumerate() {
            for (g, sums) in row.iter_mut().enumerate() {
                *sums = sums.minus(&part.sums[c][g]);
            }
        }
        out
    }
}

/// A player's two baselines: what they did to their opponents, and what their opponents did
/// to them (some players draw more captures, checks and gifts than others, whoever plays
/// them). Both are kept by the giver's seat geometry (where the receiver sits as seen from
/// the giver), so that a pair's play is taken out of either baseline cell by cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTallies {
    pub given: Tally,
    pub received: Tally,
}

impl PlayerTallies {
    /// Adds one game as played from `seat`.
    pub fn add_game(&mut self, game: &GameInteractions, seat: Seat) {
        self.given.games += 1;
        self.received.games += 1;
        for other in Seat::ALL.into_iter().filter(|&o| o != seat) {
            self.given
                .add(game.pair(seat, other), SeatGeometry::of(seat, other));
            self.received
                .add(game.pair(other, seat), SeatGeometry::of(other, seat));
        }
    }
}

/// A pair's record over their shared games: what the first (in name order) did to the second
/// and back, and each one's whole play in those games (toward and from every seat). A pair is
/// judged against baselines without their shared games: in a ring, a third member's sparing
/// would otherwise lower the very baselines the pair is compared with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairRecord {
    pub first_to_second: Tally,
    pub second_to_first: Tally,
    pub first_shared: PlayerTallies,
    pub second_shared: PlayerTallies,
}

impl PairRecord {
    /// Adds one shared game in which the first sat in `first` and the second in `second`.
    pub fn add_game(&mut self, game: &GameInteractions, first: Seat, second: Seat) {
        self.first_to_second.games += 1;
        self.first_to_second
            .add(game.pair(first, second), SeatGeometry::of(first, second));
        self.second_to_first.games += 1;
        self.second_to_first
            .add(game.pair(second, first), SeatGeometry::of(second, first));
        self.first_shared.add_game(game, first);
        self.second_shared.add_game(game, second);
    }

    pub fn games(&self) -> u64 {
        self.first_to_second.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_stored_as_six_numbers_and_the_named_form_still_reads() {
        let mut sums = Sums::default();
        sums.add(3, 2);
        sums.add(4, 1);
        let text = serde_json::to_string(&sums).expect("serialise");
        assert_eq!(text, "[2,7,3,25,5,10]");
        assert_eq!(serde_json::from_str::<Sums>(&text).expect("compact"), sums);
        let named =
            r#"{"units":2,"trials":7,"successes":3,"trials_sq":25,"successes_sq":5,"cross":10}"#;
        assert_eq!(serde_json::from_str::<Sums>(named).expect("named"), sums);
    }

    #[test]
    fn minus_undoes_plus_and_residuals_match_a_direct_sum() {
        let units = [(10, 3), (4, 0), (7, 7), (0, 0)];
        let mut all = Sums::default();
        for (n, o) in units {
            all.add(n, o);
        }
        let p = 0.4;
        let direct: f64 = units
            .iter()
            .map(|&(n, o)| (f64::from(o) - p * f64::from(n)).powi(2))
            .sum();
        assert!((all.squared_residuals(p) - direct).abs() < 1e-9);
        let mut part = Sums::default();
        part.add(10, 3);
        let rest = all.minus(&part);
        assert_eq!(rest.trials, 11);
        assert_eq!(rest.successes, 7);
        assert_eq!(rest.plus(&part), all);
    }
}
