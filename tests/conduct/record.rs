//! The incremental record equals the rebuilt one, whatever the order of arrival.

use crate::support;

use arbiter::archive::AbortPreset;
use arbiter::conduct::*;
use arbiter::moderation::{GameNumber, PlayerId, Variant};
use arbiter::rules::replay::replay;
use chrono::TimeDelta;
use support::*;

fn shuffle<T>(g: &mut Gen, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = g.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

fn record_policy(recent: u32) -> RecordPolicy {
    RecordPolicy {
        recent_games: recent,
        short_window_days: 30,
        long_window_days: 90,
    }
}

#[test]
fn real_games_applied_in_any_order_equal_the_rebuild() {
    let policy = ConductPolicy::default();
    let mut all = Vec::new();
    let mut game = 0i64;
    let mut g = Gen(0x5eed_1234);
    for dir in ["ffa", "teams"] {
        let mut paths: Vec<_> = std::fs::read_dir(format!("{DATA}/{dir}"))
            .expect("dir")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
            .collect();
        paths.sort();
        for path in paths {
            let Ok(r) = replay(&std::fs::read_to_string(&path).expect("read")) else {
                continue;
            };
            game += 1;
            let variant = if dir == "ffa" {
                Variant::Ffa
            } else {
                Variant::Teams
            };
            let mut f = facts(variant, vec![]);
            f.game = GameNumber(game);
            f.ended_at = t0() + TimeDelta::hours(game * 7);
            // Six players rotate through the seats.
            for (i, seat) in f.seats.iter_mut().enumerate() {
                seat.player = PlayerId(((game + i as i64) % 6) + 1);
                seat.rating_after = Some(1500 + g.below(21) as i32 - 10);
            }
            all.extend(outcomes(&r, &f, &policy, AbortPreset::Seed001));
        }
    }
    assert!(all.len() > 400);
    for player in 1..=6 {
        let player = PlayerId(player);
        let rebuilt = PlayerRecord::rebuild(player, &all, &record_policy(30));
        assert!(rebuilt.totals.games > 50);
        for round in 0..5 {
            let mut order = all.clone();
            shuffle(&mut g, &mut order);
            let mut incremental = PlayerRecord::new(player, &record_policy(30));
            for o in &order {
                incremental.apply(o);
            }
            assert_eq!(incremental, rebuilt, "player {player} round {round}");
        }
        let json = serde_json::to_string(&rebuilt).expect("serialises");
        let back: PlayerRecord = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, rebuilt);
    }
}

#[test]
fn thousands_of_generated_outcomes_in_random_order_equal_the_rebuild() {
    for seed in 1..=8u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let count = 2_000 + g.below(2_000) as i64;
        let outcomes: Vec<SeatOutcome> = (0..count)
            .map(|game| random_outcome(&mut g, 7, game, 400))
            .collect();
        for recent in [1, 30, 100] {
            let policy = record_policy(recent);
            let rebuilt = PlayerRecord::rebuild(PlayerId(7), &outcomes, &policy);
            let mut order = outcomes.clone();
            shuffle(&mut g, &mut order);
            let mut incremental = PlayerRecord::new(PlayerId(7), &policy);
            for o in &order {
                assert_eq!(incremental.apply(o), Applied::Applied);
            }
            assert_eq!(incremental, rebuilt, "seed {seed} recent {recent}");

            // The parts agree with counting directly.
            assert_eq!(rebuilt.totals.games as i64, count);
            let mut sorted = outcomes.clone();
            sorted.sort_by_key(|o| (o.ended_at, o.game));
            let tail = &sorted[sorted.len() - recent as usize..];
            assert_eq!(rebuilt.recent, tail.to_vec());
            let latest = sorted.last().map(|o| o.ended_at).expect("some");
            for days in [1u32, 30, 90] {
                let first = day_of(latest) - i64::from(days) + 1;
                let direct = sorted
                    .iter()
                    .filter(|o| day_of(o.ended_at) >= first)
                    .count() as u32;
                assert_eq!(rebuilt.counts_in_last_days(latest, days).games, direct);
            }
            assert!(rebuilt.days.len() <= 90);
        }
    }
}

#[test]
fn counts_follow_the_outcomes() {
    let mut g = Gen(42);
    let outcomes: Vec<SeatOutcome> = (0..500).map(|n| random_outcome(&mut g, 3, n, 60)).collect();
    let record = PlayerRecord::rebuild(PlayerId(3), &outcomes, &record_policy(50));
    let t = &record.totals;
    let total_of = |k: OutcomeKind| outcomes.iter().filter(|o| o.kind == k).count() as u32;
    for kind in OutcomeKind::ALL {
        assert_eq!(t.of_kind(kind), total_of(kind));
    }
    assert_eq!(
        t.forfeits_after_disconnect,
        outcomes
            .iter()
            .filter(|o| o.forfeited_after_disconnect())
            .count() as u32
    );
    assert_eq!(
        t.reconnects,
        outcomes.iter().map(|o| o.reconnects).sum::<u32>()
    );
    assert_eq!(
        t.teams_early_resignations,
        outcomes
            .iter()
            .filter(|o| o.teams_early_resignation())
            .count() as u32
    );
    assert_eq!(
        t.rating_lost_leaving_early,
        outcomes
            .iter()
            .map(|o| o.rating_lost_leaving_early())
            .sum::<i64>()
    );
    assert_eq!(record.recent.len(), 50);
    assert_eq!(record.recent_sequence().len(), 50);
}

#[test]
fn duplicates_and_other_players_change_nothing() {
    let mut g = Gen(9);
    let o = random_outcome(&mut g, 1, 77, 10);
    let mut record = PlayerRecord::new(PlayerId(1), &record_policy(30));
    assert_eq!(record.apply(&o), Applied::Applied);
    let before = record.clone();
    assert_eq!(record.apply(&o), Applied::Duplicate);
    let mut other = o.clone();
    other.player = PlayerId(2);
    other.game = GameNumber(78);
    assert_eq!(record.apply(&other), Applied::OtherPlayer);
    assert_eq!(record, before);
}

#[test]
fn an_arrival_older_than_the_kept_days_counts_only_in_the_totals() {
    let policy = record_policy(30);
    let new = synth(1, 2, t0() + TimeDelta::days(200), OutcomeKind::Completed);
    let old = synth(1, 1, t0(), OutcomeKind::Forfeited);
    let mut record = PlayerRecord::new(PlayerId(1), &policy);
    record.apply(&new);
    record.apply(&old);
    assert_eq!(record.totals.games, 2);
    assert_eq!(record.days.len(), 1);
    assert_eq!(
        record,
        PlayerRecord::rebuild(PlayerId(1), [&old, &new], &policy)
    );
}
