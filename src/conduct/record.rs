//! A player's conduct record, bounded in size and updated one outcome at a time.
//!
//! Three parts, none of which grows with the length of the history:
//! - `totals`: all-time counts (sums, so the order of arrival does not matter);
//! - `recent`: the last `record.recent_games` outcomes by end time (a sorted ring: the oldest
//!   falls out), each with its game number so a signal can list its supporting games;
//! - `days`: per-day counts for the days within `record.long_window_days` of the latest end
//!   time seen, enough to answer any window up to that length.
//!
//! Order of arrival: everything is keyed by the game's end time (then game number), never by
//! when the outcome arrived. A late outcome is slotted into the ring at its place (or dropped
//! from the ring if older than all kept ones while the ring is full), and into its day bucket
//! (or only into the totals if its day is already past the kept days). Applying outcomes in any
//! order therefore yields the record a rebuild in time order yields; the tests check this.
//!
//! Duplicates: the service applies each (player, game) once. A duplicate is recognised and
//! ignored while its game is still in the ring; an older one would be counted twice.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::outcome::{OutcomeKind, SeatOutcome};
use super::policy::RecordPolicy;
use crate::moderation::{GameNumber, PlayerId, Variant};

const SECONDS_PER_DAY: i64 = 86_400;

/// The day number (days since 1970-01-01, UTC) of an instant.
pub fn day_of(at: DateTime<Utc>) -> i64 {
    at.timestamp().div_euclid(SECONDS_PER_DAY)
}

/// Counts of outcomes and of what happened in them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    pub games: u32,
    pub completed: u32,
    /// Aborted games the player sat in (by anyone).
    pub aborted: u32,
    pub resigned: u32,
    pub timed_out: u32,
    pub forfeited: u32,
    pub claimed_win: u32,
    /// Aborts the player's own departure caused (the archive's "aborted games" count).
    pub aborts_caused: u32,
    pub disconnects: u32,
    /// Disconnects followed by a reconnect.
    pub reconnects: u32,
    /// Disconnects that ended in a forfeit (including ones that aborted the game).
    pub forfeits_after_disconnect: u32,
    pub lost_position_departures: u32,
    pub early_departures: u32,
    pub teams_games: u32,
    pub teams_early_resignations: u32,
    /// Rating lost in games the player aborted or left early.
    pub rating_lost_leaving_early: i64,
}

impl OutcomeCounts {
    pub fn add(&mut self, o: &SeatOutcome) {
        self.games += 1;
        match o.kind {
            OutcomeKind::Completed => self.completed += 1,
            OutcomeKind::Aborted => self.aborted += 1,
            OutcomeKind::Resigned => self.resigned += 1,
            OutcomeKind::TimedOut => self.timed_out += 1,
            OutcomeKind::Forfeited => self.forfeited += 1,
            OutcomeKind::ClaimedWin => self.claimed_win += 1,
        }
        self.aborts_caused += u32::from(o.caused_abort);
        self.disconnects += o.disconnects;
        self.reconnects += o.reconnects;
        self.forfeits_after_disconnect += u32::from(o.forfeited_after_disconnect());
        self.lost_position_departures += u32::from(o.departed_in_lost_position());
        self.early_departures += u32::from(o.early_departure());
        self.teams_games += u32::from(o.variant == Variant::Teams);
        self.teams_early_resignations += u32::from(o.teams_early_resignation());
        self.rating_lost_leaving_early += o.rating_lost_leaving_early();
    }

    pub fn merge(&mut self, other: &OutcomeCounts) {
        self.games += other.games;
        self.completed += other.completed;
        self.aborted += other.aborted;
        self.resigned += other.resigned;
        self.timed_out += other.timed_out;
        self.forfeited += other.forfeited;
        self.claimed_win += other.claimed_win;
        self.aborts_caused += other.aborts_caused;
        self.disconnects += other.disconnects;
        self.reconnects += other.reconnects;
        self.forfeits_after_disconnect += other.forfeits_after_disconnect;
        self.lost_position_departures += other.lost_position_departures;
        self.early_departures += other.early_departures;
        self.teams_games += other.teams_games;
        self.teams_early_resignations += other.teams_early_resignations;
        self.rating_lost_leaving_early += other.rating_lost_leaving_early;
    }

    pub fn of_kind(&self, kind: OutcomeKind) -> u32 {
        match kind {
            OutcomeKind::Completed => self.completed,
            OutcomeKind::Aborted => self.aborted,
            OutcomeKind::Resigned => self.resigned,
            OutcomeKind::TimedOut => self.timed_out,
            OutcomeKind::Forfeited => self.forfeited,
            OutcomeKind::ClaimedWin => self.claimed_win,
        }
    }

    /// Share of the games with this outcome (0 with no games).
    pub fn rate(&self, kind: OutcomeKind) -> f64 {
        share(self.of_kind(kind), self.games)
    }

    /// Rates of every outcome kind.
    pub fn rates(&self) -> OutcomeRates {
        OutcomeRates {
            completed: self.rate(OutcomeKind::Completed),
            aborted: self.rate(OutcomeKind::Aborted),
            resigned: self.rate(OutcomeKind::Resigned),
            timed_out: self.rate(OutcomeKind::TimedOut),
            forfeited: self.rate(OutcomeKind::Forfeited),
            claimed_win: self.rate(OutcomeKind::ClaimedWin),
            aborts_caused: share(self.aborts_caused, self.games),
        }
    }
}

/// `part / whole`, 0 when `whole` is 0.
pub(crate) fn share(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

/// Share of games per outcome kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRates {
    pub completed: f64,
    pub aborted: f64,
    pub resigned: f64,
    pub timed_out: f64,
    pub forfeited: f64,
    pub claimed_win: f64,
    pub aborts_caused: f64,
}

/// Counts of the games that ended on one day (UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayBucket {
    pub day: i64,
    pub counts: OutcomeCounts,
}

/// What [`PlayerRecord::apply`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    Applied,
    /// The game is already in the ring: nothing changed.
    Duplicate,
    /// The outcome belongs to another player: nothing changed.
    OtherPlayer,
}

/// One player's conduct record (the full, admin view; see the module notes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub player: PlayerId,
    /// Most outcomes kept in `recent`.
    pub recent_capacity: u32,
    /// Days of per-day counts kept, counted back from `latest_day`.
    pub kept_days: u32,
    pub totals: OutcomeCounts,
    /// The most recent outcomes, oldest first, ordered by (end time, game).
    pub recent: Vec<SeatOutcome>,
    /// Per-day counts, oldest first.
    pub days: Vec<DayBucket>,
    /// The day of the latest game end applied.
    pub latest_day: Option<i64>,
}

fn order_key(o: &SeatOutcome) -> (DateTime<Utc>, GameNumber) {
    (o.ended_at, o.game)
}

impl PlayerRecord {
    pub fn new(player: PlayerId, policy: &RecordPolicy) -> PlayerRecord {
        PlayerRecord {
            player,
            recent_capacity: policy.recent_games.max(1),
            kept_days: policy.long_window_days.max(1),
            totals: OutcomeCounts::default(),
            recent: Vec::new(),
            days: Vec::new(),
            latest_day: None,
        }
    }

    /// Add one outcome. The time that counts is the game's end (`outcome.ended_at`), so the
    /// result does not depend on arrival order. Cost: O(recent_capacity + kept_days).
    pub fn apply(&mut self, outcome: &SeatOutcome) -> Applied {
        if outcome.player != self.player {
            return Applied::OtherPlayer;
        }
        let key = order_key(outcome);
        let at = self.recent.partition_point(|r| order_key(r) < key);
        if self.recent.iter().any(|r| r.game == outcome.game) {
            return Applied::Duplicate;
        }
        self.totals.add(outcome);

        self.recent.insert(at, outcome.clone());
        while self.recent.len() > self.recent_capacity as usize {
            self.recent.remove(0);
        }

        let day = day_of(outcome.ended_at);
        let latest = self.latest_day.map_or(day, |l| l.max(day));
        self.latest_day = Some(latest);
        let first_kept = latest - i64::from(self.kept_days) + 1;
        if day >= first_kept {
            let slot = self.days.partition_point(|b| b.day < day);
            match self.days.get_mut(slot) {
                Some(bucket) if bucket.day == day => bucket.counts.add(outcome),
                _ => {
                    let mut counts = OutcomeCounts::default();
                    counts.add(outcome);
                    self.days.insert(slot, DayBucket { day, counts });
                }
            }
        }
        let stale = self.days.partition_point(|b| b.day < first_kept);
        self.days.drain(..stale);
        Applied::Applied
    }

    /// The record of a player from all their outcomes (any order; other players' outcomes are
    /// skipped). Equal to applying them one by one in any order.
    pub fn rebuild<'a>(
        player: PlayerId,
        outcomes: impl IntoIterator<Item = &'a SeatOutcome>,
        policy: &RecordPolicy,
    ) -> PlayerRecord {
        let mut mine: Vec<&SeatOutcome> = outcomes
            .into_iter()
            .filter(|o| o.player == player)
            .collect();
        mine.sort_by_key(|o| order_key(o));
        let mut record = PlayerRecord::new(player, policy);
        for o in mine {
            record.apply(o);
        }
        record
    }

    /// Counts over the games that ended in the `days` days up to and including `now`'s day
    /// (at most `kept_days` back).
    pub fn counts_in_last_days(&self, now: DateTime<Utc>, days: u32) -> OutcomeCounts {
        let today = day_of(now);
        let first = today - i64::from(days.min(self.kept_days)) + 1;
        let mut out = OutcomeCounts::default();
        for b in &self.days {
            if b.day >= first && b.day <= today {
                out.merge(&b.counts);
            }
        }
        out
    }

    /// Counts over the games in the ring (the last `recent_capacity` games).
    pub fn recent_counts(&self) -> OutcomeCounts {
        let mut out = OutcomeCounts::default();
        for o in &self.recent {
            out.add(o);
        }
        out
    }

    /// The recent outcome sequence, oldest first.
    pub fn recent_sequence(&self) -> Vec<(GameNumber, OutcomeKind)> {
        self.recent.iter().map(|o| (o.game, o.kind)).collect()
    }
}
