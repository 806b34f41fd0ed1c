//! What each audience sees: the admin (everything), the player (their own counts and any
//! notices, explained), a game server (the few numbers it acts on).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::outcome::OutcomeKind;
use super::policy::ConductPolicy;
use super::record::{share, OutcomeCounts, OutcomeRates, PlayerRecord};
use super::signal::{signals, Signal, SignalKind};
use crate::moderation::{GameNumber, PlayerId};

/// Counts and rates over one window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WindowSummary {
    pub counts: OutcomeCounts,
    pub rates: OutcomeRates,
}

impl WindowSummary {
    fn of(counts: OutcomeCounts) -> WindowSummary {
        let rates = counts.rates();
        WindowSummary { counts, rates }
    }
}

/// The admin's view: the full record, the windows and every signal with its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdminConductView {
    pub record: PlayerRecord,
    pub recent_games: WindowSummary,
    pub last_short_window: WindowSummary,
    pub last_long_window: WindowSummary,
    pub signals: Vec<Signal>,
}

/// A notice the player sees about their own record (what and why, not how strong).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConductNotice {
    pub kind: SignalKind,
    pub explanation: String,
    pub games: Vec<GameNumber>,
}

/// The player's own view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerConductSummary {
    pub player: PlayerId,
    pub games_recorded: u32,
    /// Aborts the player caused, all time (the archive's count).
    pub aborted_games: u32,
    pub recent_games: WindowSummary,
    pub short_window_days: u32,
    pub last_short_window: WindowSummary,
    pub long_window_days: u32,
    pub last_long_window: WindowSummary,
    /// The recent outcome sequence, oldest first.
    pub recent_sequence: Vec<(GameNumber, OutcomeKind)>,
    pub notices: Vec<ConductNotice>,
}

/// What a game server needs to know about a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerConductView {
    pub player: PlayerId,
    /// Aborts the player caused, all time.
    pub aborted_games: u32,
    /// Share of the recent games forfeited after a disconnect.
    pub recent_abandonment_rate: f64,
    pub signal_active: bool,
    pub active_signals: Vec<SignalKind>,
}

pub fn admin_view(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    policy: &ConductPolicy,
) -> AdminConductView {
    AdminConductView {
        record: record.clone(),
        recent_games: WindowSummary::of(record.recent_counts()),
        last_short_window: WindowSummary::of(
            record.counts_in_last_days(now, policy.record.short_window_days),
        ),
        last_long_window: WindowSummary::of(
            record.counts_in_last_days(now, policy.record.long_window_days),
        ),
        signals: signals(record, now, policy),
    }
}

pub fn player_summary(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    policy: &ConductPolicy,
) -> PlayerConductSummary {
    PlayerConductSummary {
        player: record.player,
        games_recorded: record.totals.games,
        aborted_games: record.totals.aborts_caused,
        recent_games: WindowSummary::of(record.recent_counts()),
        short_window_days: policy.record.short_window_days,
        last_short_window: WindowSummary::of(
            record.counts_in_last_days(now, policy.record.short_window_days),
        ),
        long_window_days: policy.record.long_window_days,
        last_long_window: WindowSummary::of(
            record.counts_in_last_days(now, policy.record.long_window_days),
        ),
        recent_sequence: record.recent_sequence(),
        notices: signals(record, now, policy)
            .into_iter()
            .map(|s| ConductNotice {
                kind: s.kind,
                explanation: s.explanation,
                games: s.supporting_games,
            })
            .collect(),
    }
}

pub fn server_view(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    policy: &ConductPolicy,
) -> ServerConductView {
    let recent = record.recent_counts();
    let active: Vec<SignalKind> = signals(record, now, policy)
        .iter()
        .map(|s| s.kind)
        .collect();
    ServerConductView {
        player: record.player,
        aborted_games: record.totals.aborts_caused,
        recent_abandonment_rate: share(recent.forfeits_after_disconnect, recent.games),
        signal_active: !active.is_empty(),
        active_signals: active,
    }
}
