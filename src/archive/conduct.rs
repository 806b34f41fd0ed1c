//! A game's conduct outcomes, computed from what the archive stores, so that a rebuild from
//! stored rows computes what the ingest computed.

use std::sync::Arc;

use chrono::{DateTime, NaiveDateTime, Utc};

use super::facts::{stored, to_i32};
use super::submission::{EventInput, EventKind, SeatColour};
use crate::conduct::abort::{AbortPreset, TimeControl};
use crate::conduct::{self, ConductPolicy, SeatOutcome};
use crate::moderation::{GameNumber, PlayerId, Variant};
use crate::rules::replay::Replay;

/// The conduct outcomes of a game's four seats, computed from the ingest's own replay, and
/// the policy the store applies them under. The outcomes' `game`, `player` and `ended_at` are
/// placeholders until the store knows the archive id, the player ids and `played_at`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConductOutcomes {
    pub outcomes: [SeatOutcome; 4],
    pub policy: Arc<ConductPolicy>,
}

/// What the conduct outcomes are computed from, as the archive stores it (so a rebuild from
/// stored rows computes what the ingest computed).
#[derive(Debug, Clone, PartialEq)]
pub struct ConductInput<'a> {
    /// `games.variant`.
    pub variant: &'a str,
    /// `games.time_control`.
    pub time_control: &'a str,
    /// `games.start_setup`.
    pub start_setup: &'a str,
    /// (rating before, rating after) of Red, Blue, Yellow, Green.
    pub ratings: [(Option<i32>, Option<i32>); 4],
    /// The game's events in stored order: kind, seat, ply, time.
    pub events: Vec<StoredEvent>,
}

/// The conduct variant of an archived game's `variant`.
pub fn conduct_variant(variant: &str) -> Variant {
    match variant.trim().to_ascii_lowercase().as_str() {
        "teams" => Variant::Teams,
        "ffa" | "free-for-all" => Variant::Ffa,
        "solo" => Variant::Solo,
        _ => Variant::Other,
    }
}

/// The four seats' conduct outcomes, with the one abort rule of the archive.
pub fn conduct_outcomes(
    replay: &Replay,
    input: &ConductInput<'_>,
    policy: &ConductPolicy,
    preset: AbortPreset,
) -> [SeatOutcome; 4] {
    let placeholder = DateTime::<Utc>::UNIX_EPOCH;
    let facts = conduct::ConductFacts {
        game: GameNumber(0),
        variant: conduct_variant(input.variant),
        time_control: TimeControl::parse(input.time_control),
        custom_start: !matches!(input.start_setup, "4PC" | "4PCo"),
        seats: std::array::from_fn(|i| conduct::ConductSeat {
            player: PlayerId(0),
            rating_before: input.ratings[i].0,
            rating_after: input.ratings[i].1,
        }),
        events: conduct_events(&input.events),
        ended_at: placeholder,
    };
    conduct::outcomes(replay, &facts, policy, preset)
}

/// An event as stored: kind, seat, ply, time.
pub type StoredEvent = (EventKind, SeatColour, i32, Option<NaiveDateTime>);

pub(super) fn stored_events(events: &[EventInput]) -> Vec<StoredEvent> {
    events
        .iter()
        .map(|e| (e.kind, e.seat, to_i32(e.ply), e.at.map(stored)))
        .collect()
}

/// The events in the conduct module's terms (an event without a time sorts by ply alone).
pub(super) fn conduct_events(events: &[StoredEvent]) -> Vec<conduct::GameEvent> {
    events
        .iter()
        .map(|&(kind, seat, ply, at)| conduct::GameEvent {
            kind: match kind {
                EventKind::Disconnect => conduct::GameEventKind::Disconnect,
                EventKind::Reconnect => conduct::GameEventKind::Reconnect,
                EventKind::Forfeit => conduct::GameEventKind::Forfeit,
                EventKind::Resign => conduct::GameEventKind::Resign,
                EventKind::Timeout => conduct::GameEventKind::Timeout,
                EventKind::ClaimWin => conduct::GameEventKind::ClaimWin,
            },
            seat: conduct::SeatColor::from_seat(seat.seat()),
            ply: usize::try_from(ply).unwrap_or(0),
            at: at.map_or(DateTime::<Utc>::UNIX_EPOCH, |t| t.and_utc()),
        })
        .collect()
}
