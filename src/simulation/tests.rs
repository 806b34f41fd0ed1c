//! The simulator's promises: determinism, exact replays, stances kept, arranged tables held,
//! alts on their main's fingerprints, order independence.

use std::collections::{BTreeMap, BTreeSet};

use crate::rules::geometry::Seat;
use crate::rules::replay::{check, replay};

use super::*;

fn names(game: &SimulatedGame) -> [&str; 4] {
    std::array::from_fn(|i| game.seats[i].player.as_str())
}

fn seat_of(game: &SimulatedGame, player: &str) -> Option<Seat> {
    Seat::ALL
        .into_iter()
        .find(|s| game.seats[s.index()].player == player)
}

#[test]
fn same_seed_same_games_other_seed_other_games() {
    let a = simulate(&SimulationConfig::small(7));
    let b = simulate(&SimulationConfig::small(7));
    assert_eq!(a, b);
    let c = simulate(&SimulationConfig::small(8));
    assert_ne!(
        a.iter().map(|g| &g.pgn4).collect::<Vec<_>>(),
        c.iter().map(|g| &g.pgn4).collect::<Vec<_>>()
    );
}

#[test]
fn every_game_replays_exactly_with_four_distinct_players() {
    for seed in [1, 2] {
        let games = simulate(&SimulationConfig::small(seed));
        assert!(games.len() >= 20);
        let mut ids = BTreeSet::new();
        for game in &games {
            let result = check(&game.pgn4);
            assert!(result.ok(), "{}\n{}", result, game.pgn4);
            let distinct: BTreeSet<&str> = names(game).into_iter().collect();
            assert_eq!(distinct.len(), 4);
            assert!(ids.insert(game.site_game_id));
            assert!(game.ended_at > game.started_at);
            let replayed = replay(&game.pgn4).expect("replays");
            assert!(replayed.game.end().is_some(), "ends: {}", game.pgn4);
        }
    }
}

/// Whether a ply captured a piece of `partner` or checked its king.
fn hits(capture: Option<crate::rules::piece::Piece>, checks: &[Seat], partner: Seat) -> bool {
    capture.is_some_and(|p| p.seat == partner) || checks.contains(&partner)
}

#[test]
fn sparing_pairs_never_capture_or_check_each_other_unless_forced() {
    let mut together = 0;
    for seed in [3, 4] {
        let config = SimulationConfig::small(seed);
        let plan = plan(&config);
        let sparing: Vec<&ColludingPair> = plan
            .colluding()
            .iter()
            .filter(|p| p.kind == CollusionKind::Sparing)
            .collect();
        for i in 0..plan.len() {
            let game = plan.play(i);
            for pair in &sparing {
                let (Some(a), Some(b)) =
                    (seat_of(&game, &pair.first), seat_of(&game, &pair.second))
                else {
                    continue;
                };
                together += 1;
                let replayed = replay(&game.pgn4).expect("replays");
                for ply in &replayed.plies {
                    let partner = if ply.mover == a {
                        b
                    } else if ply.mover == b {
                        a
                    } else {
                        continue;
                    };
                    if !hits(ply.captured, &ply.checks, partner) {
                        continue;
                    }
                    // Allowed only when every legal move would do it.
                    let pos = replayed.position_at(ply.index).expect("position");
                    let mut list = crate::rules::position::MoveList::new();
                    pos.legal_moves(&mut list);
                    let forced = list.iter().all(|&mv| {
                        let mut next = *pos;
                        let effect = next.make(mv);
                        let checks = next
                            .king_square(partner)
                            .is_some_and(|k| next.is_attacked_by(k, 1 << ply.mover.index()));
                        effect.captured.is_some_and(|(p, _)| p.seat == partner) || checks
                    });
                    assert!(forced, "ply {} of game {}: {}", ply.index, i, game.pgn4);
                }
            }
        }
    }
    assert!(together >= 4);
}

#[test]
fn arranged_tables_seat_each_pair_together() {
    let config = SimulationConfig::small(5);
    let plan = plan(&config);
    let games = simulate(&config);
    assert_eq!(games.len(), plan.len());
    assert_eq!(
        plan.len(),
        config.games
            + plan
                .colluding()
                .iter()
                .map(|p| p.arranged_games as usize)
                .sum::<usize>()
    );
    let kinds: BTreeSet<&str> = plan.colluding().iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds.len(), 3);
    for pair in plan.colluding() {
        let met = games
            .iter()
            .filter(|g| seat_of(g, &pair.first).is_some() && seat_of(g, &pair.second).is_some())
            .count();
        assert!(met >= pair.arranged_games as usize, "{pair:?} met {met}");
    }
}

#[test]
fn alts_share_both_fingerprints_with_their_main_and_play_only_with_it() {
    let config = SimulationConfig::small(6);
    let plan = plan(&config);
    let games = simulate(&config);
    let mut fingerprints: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for game in &games {
        for seat in &game.seats {
            fingerprints.insert(&seat.player, (&seat.device_fp, &seat.network_fp));
        }
    }
    let alts: Vec<&ColludingPair> = plan
        .colluding()
        .iter()
        .filter(|p| p.kind == CollusionKind::SelfPartnering)
        .collect();
    assert!(!alts.is_empty());
    for pair in alts {
        assert_eq!(pair.second, format!("{}alt", pair.first));
        assert_eq!(
            fingerprints[pair.first.as_str()],
            fingerprints[pair.second.as_str()]
        );
        for game in &games {
            if seat_of(game, &pair.second).is_some() {
                assert!(seat_of(game, &pair.first).is_some());
            }
        }
    }
    // Everyone else has a device of their own.
    let devices: BTreeSet<&str> = fingerprints.values().map(|f| f.0).collect();
    assert_eq!(devices.len(), fingerprints.len() - config.self_partnering);
}

#[test]
fn play_in_any_order_then_rate_equals_simulate() {
    let config = SimulationConfig::small(9);
    let plan = plan(&config);
    let all = simulate(&config);
    let mut backwards: Vec<SimulatedGame> = (0..plan.len()).rev().map(|i| plan.play(i)).collect();
    backwards.reverse();
    // Unrated games carry the same moves and seats.
    for (a, b) in backwards.iter().zip(&all) {
        assert_eq!(names(a), names(b));
        let moves = |g: &SimulatedGame| g.pgn4.split("\n\n").nth(1).map(str::to_string);
        assert_eq!(moves(a), moves(b));
    }
    rate(&mut backwards);
    assert_eq!(backwards, all);
    // Ratings carry over from game to game.
    let mut last: BTreeMap<&str, i32> = BTreeMap::new();
    for game in &all {
        for seat in &game.seats {
            if let Some(&r) = last.get(seat.player.as_str()) {
                assert_eq!(r, seat.rating_before);
            }
            last.insert(&seat.player, seat.rating_after);
        }
        assert!(check(&game.pgn4).ok());
    }
}

#[test]
fn standard_population_has_shared_networks_and_frequent_honest_pairs() {
    let config = SimulationConfig::standard(11);
    let plan = plan(&config);
    let honest = &plan.players[..config.players];
    let mut networks: BTreeMap<&str, usize> = BTreeMap::new();
    for p in honest {
        *networks.entry(p.network_fp.as_str()).or_default() += 1;
    }
    let sharing: usize = networks.values().filter(|&&n| n > 1).sum();
    assert!((4..=12).contains(&sharing), "{sharing} share a network");
    let colluders: BTreeSet<usize> = plan
        .pair_members
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .collect();
    let mut meetings: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for table in &plan.tables {
        for i in 0..4 {
            for j in i + 1..4 {
                let (a, b) = (table.players[i], table.players[j]);
                if plan.pair_of.contains_key(&(a, b)) {
                    continue;
                }
                *meetings.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    let frequent = meetings.values().filter(|&&n| n >= 40).count();
    let rare = meetings.values().filter(|&&n| n <= 3).count();
    assert!(frequent >= 1, "no honest pair meets 40+ times");
    assert!(rare > meetings.len() / 2);
    assert!(colluders.len() >= 2 * 16 + 8);
}

/// Diagnostics, not a promise: `cargo test --lib simulation::tests::profile -- --ignored
/// --nocapture` prints how games end, their length and the time per game.
#[test]
#[ignore]
fn profile() {
    let config = SimulationConfig {
        games: 200,
        ..SimulationConfig::small(12)
    };
    let plan = plan(&config);
    let started = std::time::Instant::now();
    let games: Vec<SimulatedGame> = (0..plan.len()).map(|i| plan.play(i)).collect();
    let elapsed = started.elapsed();
    let mut endings: BTreeMap<String, usize> = BTreeMap::new();
    let mut plies = 0;
    // Captures of a partner's live pieces, per kind of pair.
    let mut partner_captures: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &games {
        let replayed = replay(&game.pgn4).expect("replays");
        plies += replayed.plies.len();
        for pair in plan.colluding() {
            let (Some(a), Some(b)) = (seat_of(game, &pair.first), seat_of(game, &pair.second))
            else {
                continue;
            };
            let taken = replayed
                .plies
                .iter()
                .filter(|p| {
                    p.captured.is_some_and(|c| {
                        !c.dead && ((p.mover == a && c.seat == b) || (p.mover == b && c.seat == a))
                    })
                })
                .count();
            *partner_captures.entry(pair.kind.as_str()).or_default() += taken;
        }
        let term = replayed.pgn.tag("Termination").unwrap_or("").to_string();
        let key = if term.starts_with('(') {
            "(claim or last)".to_string()
        } else {
            term
        };
        *endings.entry(key).or_default() += 1;
    }
    println!(
        "{} games, {:.1} ms/game, {} plies/game, endings {endings:?}, partner captures {partner_captures:?}",
        games.len(),
        elapsed.as_secs_f64() * 1000.0 / games.len() as f64,
        plies / games.len()
    );
    println!("{}", games[0].pgn4);
}
