//! What to simulate: the seed, the population, the colluders and the length of games.

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
