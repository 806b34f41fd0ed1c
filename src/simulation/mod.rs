//! Simulated FFA play: PURE, seeded (no I/O).
//!
//! A population of bot players plays four-player FFA games on the rules core, some of them in
//! colluding pairs, so that a collusion detector can be measured against a known truth.
//!
//! - [`plan`] draws the population, the colluding pairs and every table (who sits where, when)
//!   from `config.seed` alone (`population.rs`).
//! - [`Plan::play`] plays one table to a definite end and writes its PGN4 (`play.rs`, moves
//!   chosen by `bot.rs`). A game depends only on `(config.seed, index)`: games may be played
//!   on several threads, in any order, with identical results.
//! - Ratings are sequential by nature, so `play` gives each seat a provisional rating (the
//!   player's starting rating, and the Elo change this one game would give from there);
//!   [`rate`] then replays the rating updates in game order and rewrites both the seats and
//!   the PGN4 `Elo` tags (`ratings.rs`). [`simulate`] does both.

mod bot;
mod play;
mod population;
mod ratings;
#[cfg(test)]
mod tests;

use chrono::NaiveDateTime;

pub use population::Plan;
pub use ratings::rate;

/// What to simulate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulationConfig {
    pub seed: u64,
    /// Honest population (colluders are drawn from it).
    pub players: usize,
    /// Games at random tables (matchmaking), besides the arranged ones.
    pub games: usize,
    /// Colluding pairs who never capture or check each other.
    pub sparing_pairs: usize,
    /// Colluding pairs who spare each other and also feed each other points.
    pub feeding_pairs: usize,
    /// People who also play a second account (alt) at the same tables.
    pub self_partnering: usize,
    /// Rings: three players who all spare one another and arrange tables for the three.
    pub rings: usize,
    /// Games each colluding pair arranges together, assigned cyclically within each kind of
    /// pair (so every kind sees every count), e.g. `[5, 10, 20, 40]`.
    pub arranged_games: Vec<u32>,
    /// Cap on a game's length in rounds; past it the game is ended (claim or resignations).
    pub max_rounds: u32,
}

impl SimulationConfig {
    /// A tiny configuration for tests: a few dozen games, seconds in a debug build.
    pub fn small(seed: u64) -> Self {
        SimulationConfig {
            seed,
            players: 24,
            games: 14,
            sparing_pairs: 2,
            feeding_pairs: 1,
            self_partnering: 1,
            rings: 0,
            arranged_games: vec![2, 3],
            max_rounds: 60,
        }
    }

    /// A realistic size: 300 players, 4,000 matchmade games, a dozen colluding pairs of each
    /// kind arranging 5 to 40 games.
    pub fn standard(seed: u64) -> Self {
        SimulationConfig {
            seed,
            players: 300,
            games: 4_000,
            sparing_pairs: 8,
            feeding_pairs: 8,
            self_partnering: 8,
            rings: 0,
            arranged_games: vec![5, 10, 20, 40],
            max_rounds: 120,
        }
    }
}

/// The kind of collusion a pair practises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollusionKind {
    /// Neither captures the other's pieces nor checks the other's king.
    Sparing,
    /// Both never check each other, leave pieces en prise to the partner only, and take such
    /// gifts (a capture of the partner's piece only when the partner cannot take back).
    Feeding,
    /// `second` is an alt account of `first` (same device and network): the alt spares and
    /// feeds the main; the main takes the gifts and never checks the alt.
    SelfPartnering,
}

impl CollusionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CollusionKind::Sparing => "sparing",
            CollusionKind::Feeding => "feeding",
            CollusionKind::SelfPartnering => "self_partnering",
        }
    }
}

/// A colluding pair (the ground truth the detector should find).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColludingPair {
    pub first: String,
    pub second: String,
    pub kind: CollusionKind,
    /// Tables the pair arranges together (they may also meet by chance at random tables).
    pub arranged_games: u32,
}

/// One seat of a simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedSeat {
    pub player: String,
    pub device_fp: String,
    pub network_fp: String,
    pub rating_before: i32,
    pub rating_after: i32,
}

/// One simulated game: its PGN4 export (replays exactly with `rules::replay::check`), seats
/// in Red, Blue, Yellow, Green order, and its times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedGame {
    pub site_game_id: u64,
    pub pgn4: String,
    pub seats: [SimulatedSeat; 4],
    pub started_at: NaiveDateTime,
    pub ended_at: NaiveDateTime,
}

/// Draw the population, the pairs and the tables of a simulation.
pub fn plan(config: &SimulationConfig) -> Plan {
    population::build(config)
}

/// Every game in order, rated in order (single-threaded convenience).
pub fn simulate(config: &SimulationConfig) -> Vec<SimulatedGame> {
    let plan = plan(config);
    let mut games: Vec<SimulatedGame> = (0..plan.len()).map(|i| plan.play(i)).collect();
    rate(&mut games);
    games
}
