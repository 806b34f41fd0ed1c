//! Tallies of many games held in memory: every player's baseline and every pair's record.
//! What a full recompute, the simulator's evaluation and the real-games check build; the
//! service keeps the same sums in its database instead.

use std::collections::HashMap;

use super::interaction::{GameInteractions, SeatGeometry};
use super::policy::CollusionPolicy;
use super::score::{score_pair, PairScore};
use super::tally::{PlayerTallies, Tally};
use crate::rules::geometry::Seat;

/// A pair's record: what the first (in name order) did to the second, and back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PairRecord {
    pub first_to_second: Tally,
    pub second_to_first: Tally,
}

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
        for a in Seat::ALL {
            let tallies = self
                .players
                .entry(names[a.index()].to_string())
                .or_default();
            tallies.given.games += 1;
            tallies.received.games += 1;
            self.population.games += 1;
            for b in Seat::ALL.into_iter().filter(|&b| b != a) {
                let geometry = SeatGeometry::of(a, b);
                tallies.given.add(game.pair(a, b), geometry);
                tallies.received.add(game.pair(b, a), geometry);
                self.population.add(game.pair(a, b), geometry);
            }
        }
        for a in Seat::ALL {
            for b in Seat::ALL.into_iter().filter(|&b| b.index() > a.index()) {
                let (na, nb) = (names[a.index()], names[b.index()]);
                if na == nb {
                    continue;
                }
                let geometry = SeatGeometry::of(a, b);
                let (first, second) = if na < nb { (a, b) } else { (b, a) };
                let key = (
                    names[first.index()].to_string(),
                    names[second.index()].to_string(),
                );
                let record = self.pairs.entry(key).or_default();
                record.first_to_second.games += 1;
                record
                    .first_to_second
                    .add(game.pair(first, second), geometry);
                record.second_to_first.games += 1;
                record
                    .second_to_first
                    .add(game.pair(second, first), geometry);
            }
        }
    }

    pub fn player(&self, name: &str) -> Option<&PlayerTallies> {
        self.players.get(name)
    }

    pub fn population(&self) -> &Tally {
        &self.population
    }

    pub fn pairs(&self) -> impl Iterator<Item = (&(String, String), &PairRecord)> {
        self.pairs.iter()
    }

    /// Scores every pair with at least `min_games` shared games, in name order.
    pub fn score_all(&self, policy: &CollusionPolicy) -> Vec<((String, String), PairScore)> {
        let mut out: Vec<((String, String), PairScore)> = self
            .pairs
            .iter()
            .filter(|(_, r)| r.first_to_second.games >= u64::from(policy.min_games))
            .map(|(key, record)| {
                let score = score_pair(
                    &record.first_to_second,
                    &record.second_to_first,
                    &self.players[&key.0],
                    &self.players[&key.1],
                    &self.population,
                    policy,
                );
                (key.clone(), score)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}
