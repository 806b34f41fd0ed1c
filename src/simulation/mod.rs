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
mod colluding_pair;
mod config;
mod play;
mod population;
mod ratings;
mod simulated_game;
#[cfg(test)]
mod tests;

pub use colluding_pair::{ColludingPair, CollusionKind};
pub use config::SimulationConfig;
pub use population::Plan;
pub use ratings::rate;
pub use simulated_game::{SimulatedGame, SimulatedSeat};

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
