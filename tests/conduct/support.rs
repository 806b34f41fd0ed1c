//! Shared builders for the conduct tests (no tests of its own).
#![allow(dead_code)]

use arbiter::conduct::*;
use arbiter::moderation::{GameNumber, PlayerId, Variant};
use arbiter::rules::replay::{replay, Replay};
use chrono::{DateTime, TimeDelta, TimeZone, Utc};

pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
        .single()
        .expect("valid date")
}

pub fn read(rel: &str) -> String {
    std::fs::read_to_string(format!("{DATA}/{rel}")).expect("real game present")
}

/// The record cut after `plies` plies, without `Result`/`Termination` (the game "ends" there).
pub fn truncated(text: &str, plies: usize) -> String {
    let full = replay(text).expect("real game replays");
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[')
            && !line.starts_with("[Result")
            && !line.starts_with("[Termination")
        {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    let mut round = 0;
    for (i, ply) in full.plies.iter().take(plies).enumerate() {
        if ply.round != round {
            round = ply.round;
            out.push_str(&format!("\n{round}. "));
        } else {
            out.push_str(" .. ");
        }
        out.push_str(full.ply_text(i).expect("ply text"));
    }
    out.push('\n');
    out
}

pub fn replay_cut(rel: &str, plies: usize) -> Replay {
    replay(&truncated(&read(rel), plies)).expect("truncated game replays")
}

pub fn facts(variant: Variant, events: Vec<GameEvent>) -> ConductFacts {
    ConductFacts {
        game: GameNumber(1000),
        variant,
        time_control: TimeControl::parse("1+15D"),
        custom_start: false,
        seats: std::array::from_fn(|i| ConductSeat {
            player: PlayerId(i as i64 + 1),
            rating_before: Some(1500),
            rating_after: Some(1500),
        }),
        events,
        ended_at: t0(),
    }
}

pub fn event(kind: GameEventKind, seat: SeatColor, ply: usize, second: i64) -> GameEvent {
    GameEvent {
        kind,
        seat,
        ply,
        at: t0() - TimeDelta::minutes(30) + TimeDelta::seconds(second),
    }
}

/// A synthetic outcome for record and signal tests.
pub fn synth(player: i64, game: i64, at: DateTime<Utc>, kind: OutcomeKind) -> SeatOutcome {
    SeatOutcome {
        game: GameNumber(game),
        player: PlayerId(player),
        seat: SeatColor::Red,
        variant: Variant::Ffa,
        ended_at: at,
        kind,
        caused_abort: false,
        departure: None,
        disconnects: 0,
        reconnects: 0,
        rating_change: Some(0),
    }
}

pub fn departure(kind: DepartureKind, moves: u32, lost: bool) -> Departure {
    Departure {
        kind,
        ply: moves as usize * 4,
        moves_made: moves,
        early: moves < 10,
        in_check: false,
        lost_position: lost,
        partner_still_playing: None,
        assessment: PositionAssessment::NotAssessed,
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
pub struct Gen(pub u64);

impl Gen {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random outcome for `player` in `game`, ending within `span_days` after `t0()`.
pub fn random_outcome(g: &mut Gen, player: i64, game: i64, span_days: i64) -> SeatOutcome {
    let at = t0() + TimeDelta::seconds(g.below((span_days * 86_400) as u64) as i64);
    let kind = OutcomeKind::ALL[g.below(6) as usize];
    let mut o = synth(player, game, at, kind);
    o.variant = if g.chance(40) {
        Variant::Teams
    } else {
        Variant::Ffa
    };
    o.seat = SeatColor::ALL[g.below(4) as usize];
    o.disconnects = g.below(3) as u32;
    o.reconnects = g.below(u64::from(o.disconnects) + 1) as u32;
    o.rating_change = if g.chance(10) {
        None
    } else {
        Some(g.below(41) as i32 - 20)
    };
    let departs = match kind {
        OutcomeKind::Resigned => Some(DepartureKind::Resigned),
        OutcomeKind::TimedOut => Some(DepartureKind::TimedOut),
        OutcomeKind::Forfeited => Some(DepartureKind::Forfeited),
        OutcomeKind::Aborted if g.chance(50) => {
            o.caused_abort = true;
            Some(if g.chance(50) {
                DepartureKind::Forfeited
            } else {
                DepartureKind::Resigned
            })
        }
        _ => None,
    };
    o.departure = departs.map(|k| {
        let mut d = departure(k, g.below(40) as u32, g.chance(30));
        if o.variant == Variant::Teams {
            d.partner_still_playing = Some(g.chance(80));
        }
        d
    });
    o
}
