//! Tallies of many games held in memory: every player's baseline and every pair's record.
//! What a full recompute, the simulator's evaluation and the real-games check build; the
//! service keeps the same sums in its database instead.

use std::collections::HashMap;

use super::interaction::GameInteractions;
use super::policy::CollusionPolicy;
use super::score::{score_pair, PairScore};
use super::tally::{PairRecord, PlayerTallies, Tally};
use crate::rules::geometry::Seat;

#[derive(Debug, Clone, Default)]
pub struct Ledger {
    players: HashMap<String, PlayerTallies>,
    pairs: HashMap<(String, String), PairRecord>,
    /// Every player's given tally, summed.
    population: Tally,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Adds one game; `names[s]` is the player in seat `s`. A name seated twice counts once
    /// per seat in its baseline and never as a pair with itself.
    pub fn add_game(&mut self, names: [&str; 4], game: &GameInteractions) {
        for seat in Seat::ALL {
            self.players
                .entry(names[seat.index()].to_string())
                .or_default()
                .add_game(game, seat);
            self.population.add_given(game, seat);
        }
        for a in Seat::ALL {
            for b in Seat::ALL.into_iter().filter(|&b| b.index() > a.index()) {
                let (na, nb) = (names[a.index()], names[b.index()]);
                if na == nb {
                    continue;
                }
                let (first, second) = if na < nb { (a, b) } else { (b, a) };
                let key = (
                    names[first.index()].to_string(),
                    names[second.index()].to_string(),
                );
                self.pairs
                    .entry(key)
                    .or_default()
                    .add_game(game, first, second);
            }
        }
    }

    pub fn player(&self, name: &str) -> Option<&PlayerTallies> {
        self.players.get(name)
    }

    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    pub fn population(&self) -> &Tally {
        &self.population
    }

    pub fn pairs(&self) -> impl Iterator<Item = (&(String, String), &PairRecord)> {
        self.pairs.iter()
    }

    /// Scores one pair (`key` in name order) once it has at least `min_games` shared games.
    pub fn score(&self, key: &(String, String), policy: &CollusionPolicy) -> Option<PairScore> {
        let record = self.pairs.get(key)?;
        (record.games() >= u64::from(policy.min_games)).then(|| {
            score_pair(
                record,
                &self.players[&key.0],
                &self.players[&key.1],
                &self.population,
                policy,
            )
        })
    }

    /// The pairs of a game's table, each in name order (a name seated twice makes none).
    pub fn pairs_at(names: [&str; 4]) -> Vec<(String, String)> {
        let mut out = Vec::with_capacity(6);
        for a in 0..4 {
            for b in a + 1..4 {
                let (x, y) = (names[a], names[b]);
                if x != y {
                    let (low, high) = if x < y { (x, y) } else { (y, x) };
                    out.push((low.to_string(), high.to_string()));
                }
            }
        }
        out
    }

    /// Scores every pair with at least `min_games` shared games, in name order.
    pub fn score_all(&self, policy: &CollusionPolicy) -> Vec<((String, String), PairScore)> {
        let mut out: Vec<((String, String), PairScore)> = self
            .pairs
            .keys()
            .filter_map(|key| Some((key.clone(), self.score(key, policy)?)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}
