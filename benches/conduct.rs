//! Conduct record costs: apply() per game, and reading/serialising a record that has had
//! 10,000 games applied (the record is bounded, so this should be microseconds).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::hint::black_box;
use std::time::Instant;

use arbiter::conduct::*;
use arbiter::moderation::{GameNumber, PlayerId, Variant};
use chrono::{TimeDelta, TimeZone, Utc};

struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

fn outcome(g: &mut Gen, game: i64) -> SeatOutcome {
    let start = Utc
        .with_ymd_and_hms(2025, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_default();
    let kind = OutcomeKind::ALL[(g.next() % 6) as usize];
    let departure = matches!(
        kind,
        OutcomeKind::Resigned | OutcomeKind::TimedOut | OutcomeKind::Forfeited
    )
    .then(|| Departure {
        kind: DepartureKind::TimedOut,
        ply: 40,
        moves_made: 10,
        early: false,
        in_check: false,
        lost_position: g.next().is_multiple_of(3),
        partner_still_playing: None,
        assessment: PositionAssessment::Points {
            points: [10, 20, 30, 40],
            reachable: 50,
            next_above: Some(20),
        },
    });
    SeatOutcome {
        game: GameNumber(game),
        player: PlayerId(1),
        seat: SeatColor::Red,
        variant: Variant::Ffa,
        // Two games an hour for 10,000 games (~208 days); a few arrive out of order.
        ended_at: start + TimeDelta::minutes(game * 30 - (g.next() % 4) as i64 * 45),
        kind,
        caused_abort: false,
        departure,
        disconnects: (g.next() % 2) as u32,
        reconnects: 0,
        rating_change: Some((g.next() % 21) as i32 - 10),
    }
}

fn main() {
    let policy = ConductPolicy::default();
    let mut g = Gen(0x1234_5678_9abc_def1);
    let games: Vec<SeatOutcome> = (0..10_000).map(|n| outcome(&mut g, n)).collect();

    let mut record = PlayerRecord::new(PlayerId(1), &policy.record);
    let started = Instant::now();
    for o in &games {
        black_box(record.apply(o));
    }
    let apply_total = started.elapsed();
    println!(
        "apply: {} games in {:.2} ms, {:.2} us per game (ring {} games, {} day buckets)",
        games.len(),
        apply_total.as_secs_f64() * 1e3,
        apply_total.as_secs_f64() * 1e6 / games.len() as f64,
        record.recent.len(),
        record.days.len()
    );

    let rounds = 1_000;
    // The plain serde form, and the compact form the store keeps.
    let plain = codec_cost(
        rounds,
        || serde_json::to_string(black_box(&record)).unwrap_or_default(),
        |text| serde_json::from_str::<PlayerRecord>(text).is_ok(),
    );
    let stored = codec_cost(
        rounds,
        || stored::encode(black_box(&record)),
        |text| stored::decode(text).is_ok(),
    );
    let now = games.last().map(|o| o.ended_at).unwrap_or_default();
    let started = Instant::now();
    for _ in 0..rounds {
        black_box(signals(black_box(&record), now, &policy));
        black_box(server_view(&record, now, &policy));
    }
    let judged = started.elapsed() / rounds;
    for (label, (bytes, write, read)) in [("plain JSON", plain), ("stored form", stored)] {
        println!(
            "record with 10,000 games applied, {label}: {bytes} bytes; serialise {:.1} us, read {:.1} us",
            write * 1e6,
            read * 1e6
        );
    }
    println!(
        "signals + server view {:.1} us (goal: reading a record under 5 ms)",
        judged.as_secs_f64() * 1e6
    );
}

/// (bytes, seconds to write, seconds to read back) of one text form of a record.
fn codec_cost(
    rounds: u32,
    write: impl Fn() -> String,
    read: impl Fn(&str) -> bool,
) -> (usize, f64, f64) {
    let started = Instant::now();
    let mut text = String::new();
    for _ in 0..rounds {
        text = write();
    }
    let write_secs = started.elapsed().as_secs_f64() / f64::from(rounds);
    let started = Instant::now();
    for _ in 0..rounds {
        black_box(read(black_box(&text)));
    }
    let read_secs = started.elapsed().as_secs_f64() / f64::from(rounds);
    (text.len(), write_secs, read_secs)
}
