//! Workload and response times (docs/moderation.md, "Stats"): what one day of the moderation
//! log adds up to, and days summed into the buckets admins read. Pure: the store turns log
//! entries into [`StatsEvent`]s and keeps each closed day's [`DayStats`].
//!
//! Every figure counts an event on the day it happened (a case opened, first claimed, decided;
//! a claim dropped; an appeal that reduced or lifted a decision's sanction), so a case that
//! spans days counts once in each place it belongs. Waiting times go into a histogram of
//! geometric bins 25 % wide, so days merge into weeks exactly and a median or p90 is read to
//! within 12 %.

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, NaiveDate, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::types::{DecisionKind, ReportReason};

/// Where a case came from: its first entry's filer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseOrigin {
    Player,
    /// Chat analysis, conduct signals, collusion statistics, fingerprint matches.
    Automatic,
    Admin,
}

impl CaseOrigin {
    pub const ALL: [CaseOrigin; 3] = [CaseOrigin::Player, CaseOrigin::Automatic, CaseOrigin::Admin];
}

/// The smallest bin's upper bound, in seconds, and the ratio between bins.
const FIRST_BOUND_SECS: f64 = 60.0;
const BIN_RATIO: f64 = 1.25;
/// Bins up to about 90 days; the last one holds everything longer.
pub const BINS: usize = 54;

/// Waiting times, counted in geometric bins.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waits(BTreeMap<u8, u32>);

impl Waits {
    fn bin_of(seconds: i64) -> u8 {
        let secs = seconds.max(0) as f64;
        if secs <= FIRST_BOUND_SECS {
            return 0;
        }
        let bin = ((secs / FIRST_BOUND_SECS).ln() / BIN_RATIO.ln()).ceil();
        (bin as usize).min(BINS - 1) as u8
    }

    /// The bin's upper bound in seconds.
    pub fn upper_bound(bin: u8) -> f64 {
        FIRST_BOUND_SECS * BIN_RATIO.powi(i32::from(bin))
    }

    pub fn add(&mut self, seconds: i64) {
        *self.0.entry(Self::bin_of(seconds)).or_default() += 1;
    }

    pub fn merge(&mut self, other: &Waits) {
        for (bin, n) in &other.0 {
            *self.0.entry(*bin).or_default() += n;
        }
    }

    pub fn count(&self) -> u32 {
        self.0.values().sum()
    }

    /// The `q` quantile (0..=1) in seconds: the geometric middle of the bin holding the
    /// `ceil(q * n)`-th wait (the first bin: its upper bound's half). None without waits.
    pub fn quantile(&self, q: f64) -> Option<i64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((q * f64::from(n)).ceil() as u32).clamp(1, n);
        let mut seen = 0;
        for (bin, count) in &self.0 {
            seen += count;
            if seen >= rank {
                let upper = Self::upper_bound(*bin);
                let middle = if *bin == 0 {
                    upper / 2.0
                } else {
                    upper / BIN_RATIO.sqrt()
                };
                return Some(middle.round() as i64);
            }
        }
        None
    }
}

/// One moderation event as the stats count it.
#[derive(Debug, Clone, PartialEq)]
pub enum StatsEvent {
    Opened {
        reason: ReportReason,
        origin: CaseOrigin,
    },
    /// The first claim on a case, `waited` seconds after it opened.
    FirstClaim { reason: ReportReason, waited: i64 },
    Decided {
        reason: ReportReason,
        outcome: DecisionKind,
        admin: String,
        waited: i64,
    },
    /// An admin's claim ended without their decision (released, or run out and taken over).
    ClaimDropped { admin: String },
    /// An appeal reduced or lifted the sanction `admin`'s decision imposed.
    Reversed { admin: String },
}

/// What one reason adds up to in a day (or a bucket).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasonTally {
    pub opened: BTreeMap<CaseOrigin, u32>,
    pub decided: BTreeMap<DecisionKind, u32>,
    pub to_first_claim: Waits,
    pub to_decision: Waits,
}

impl ReasonTally {
    pub fn opened_total(&self) -> u32 {
        self.opened.values().sum()
    }

    pub fn decided_total(&self) -> u32 {
        self.decided.values().sum()
    }

    fn merge(&mut self, other: &ReasonTally) {
        for (origin, n) in &other.opened {
            *self.opened.entry(*origin).or_default() += n;
        }
        for (kind, n) in &other.decided {
            *self.decided.entry(*kind).or_default() += n;
        }
        self.to_first_claim.merge(&other.to_first_claim);
        self.to_decision.merge(&other.to_decision);
    }
}

/// One admin's work in a day (or a bucket).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminTally {
    pub decisions: u32,
    pub claims_dropped: u32,
    pub reversed_on_appeal: u32,
}

/// What one day of events adds up to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayTally {
    pub reasons: BTreeMap<ReportReason, ReasonTally>,
    pub admins: BTreeMap<String, AdminTally>,
}

impl DayTally {
    pub fn add(&mut self, event: &StatsEvent) {
        match event {
            StatsEvent::Opened { reason, origin } => {
                *self.reason(*reason).opened.entry(*origin).or_default() += 1;
            }
            StatsEvent::FirstClaim { reason, waited } => {
                self.reason(*reason).to_first_claim.add(*waited);
            }
            StatsEvent::Decided {
                reason,
                outcome,
                admin,
                waited,
            } => {
                let tally = self.reason(*reason);
                *tally.decided.entry(*outcome).or_default() += 1;
                tally.to_decision.add(*waited);
                self.admins.entry(admin.clone()).or_default().decisions += 1;
            }
            StatsEvent::ClaimDropped { admin } => {
                self.admins.entry(admin.clone()).or_default().claims_dropped += 1;
            }
            StatsEvent::Reversed { admin } => {
                self.admins
                    .entry(admin.clone())
                    .or_default()
                    .reversed_on_appeal += 1;
            }
        }
    }

    fn reason(&mut self, reason: ReportReason) -> &mut ReasonTally {
        self.reasons.entry(reason).or_default()
    }

    pub fn merge(&mut self, other: &DayTally) {
        for (reason, tally) in &other.reasons {
            self.reason(*reason).merge(tally);
        }
        for (admin, tally) in &other.admins {
            let mine = self.admins.entry(admin.clone()).or_default();
            mine.decisions += tally.decisions;
            mine.claims_dropped += tally.claims_dropped;
            mine.reversed_on_appeal += tally.reversed_on_appeal;
        }
    }

    /// Cases opened minus cases decided.
    pub fn net_opened(&self) -> i64 {
        self.reasons
            .values()
            .map(|t| i64::from(t.opened_total()) - i64::from(t.decided_total()))
            .sum()
    }
}

/// A day's tally with the queue as it stood at the day's end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayStats {
    pub day: NaiveDate,
    pub tally: DayTally,
    /// Open cases at the end of the day.
    pub open_at_end: i64,
    /// When the oldest case open at the end of the day opened.
    pub oldest_open_at: Option<DateTime<Utc>>,
}

/// How days are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BucketSize {
    Day,
    /// ISO weeks, Monday to Sunday.
    Week,
}

impl BucketSize {
    /// The first day of the bucket holding `day`.
    pub fn start_of(self, day: NaiveDate) -> NaiveDate {
        match self {
            BucketSize::Day => day,
            BucketSize::Week => {
                day - TimeDelta::days(i64::from(day.weekday().num_days_from_monday()))
            }
        }
    }
}

/// Days summed into one bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketStats {
    pub start: NaiveDate,
    /// The last day of the bucket that lies in the range asked for.
    pub last_day: NaiveDate,
    pub tally: DayTally,
    pub open_at_end: i64,
    pub oldest_open_at: Option<DateTime<Utc>>,
}

/// Sums consecutive `days` (ascending, one per day) into buckets of `size`.
pub fn buckets(days: &[DayStats], size: BucketSize) -> Vec<BucketStats> {
    let mut out: Vec<BucketStats> = Vec::new();
    for day in days {
        let start = size.start_of(day.day);
        match out.last_mut() {
            Some(bucket) if bucket.start == start => {
                bucket.tally.merge(&day.tally);
                bucket.last_day = day.day;
                bucket.open_at_end = day.open_at_end;
                bucket.oldest_open_at = day.oldest_open_at;
            }
            _ => out.push(BucketStats {
                start,
                last_day: day.day,
                tally: day.tally.clone(),
                open_at_end: day.open_at_end,
                oldest_open_at: day.oldest_open_at,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, d).unwrap()
    }

    #[test]
    fn waits_are_read_within_a_bin() {
        let mut waits = Waits::default();
        for minutes in [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560] {
            waits.add(minutes * 60);
        }
        let median = waits.quantile(0.5).unwrap() as f64;
        // The 5th of 10 waits is 80 minutes.
        assert!((median / 4800.0 - 1.0).abs() <= 0.125, "{median}");
        let p90 = waits.quantile(0.9).unwrap() as f64;
        assert!((p90 / (1280.0 * 60.0) - 1.0).abs() <= 0.125, "{p90}");
        assert_eq!(Waits::default().quantile(0.5), None);
        // Under a minute, and beyond the last bin.
        let mut edges = Waits::default();
        edges.add(10);
        edges.add(400 * 86_400);
        assert_eq!(edges.quantile(0.5), Some(30));
        assert!(edges.quantile(1.0).unwrap() > 60 * 86_400);
    }

    #[test]
    fn days_merge_into_iso_weeks() {
        let mut tally = DayTally::default();
        tally.add(&StatsEvent::Opened {
            reason: ReportReason::OffensiveChat,
            origin: CaseOrigin::Automatic,
        });
        tally.add(&StatsEvent::Decided {
            reason: ReportReason::OffensiveChat,
            outcome: DecisionKind::Warn,
            admin: "alice".into(),
            waited: 3600,
        });
        tally.add(&StatsEvent::ClaimDropped {
            admin: "bob".into(),
        });
        let days: Vec<DayStats> = (6..=9)
            .map(|d| DayStats {
                day: day(d),
                tally: tally.clone(),
                open_at_end: i64::from(d),
                oldest_open_at: None,
            })
            .collect();
        // 2026-12-06 is a Sunday: it closes one week, the 7th opens the next.
        let weeks = buckets(&days, BucketSize::Week);
        assert_eq!(weeks.len(), 2);
        let monday_before = NaiveDate::from_ymd_opt(2026, 11, 30).unwrap();
        assert_eq!((weeks[0].start, weeks[1].start), (monday_before, day(7)));
        let second = &weeks[1];
        assert_eq!(second.last_day, day(9));
        assert_eq!(second.open_at_end, 9);
        let chat = &second.tally.reasons[&ReportReason::OffensiveChat];
        assert_eq!(chat.opened[&CaseOrigin::Automatic], 3);
        assert_eq!(chat.to_decision.count(), 3);
        assert_eq!(second.tally.admins["alice"].decisions, 3);
        assert_eq!(second.tally.admins["bob"].claims_dropped, 3);
        assert_eq!(buckets(&days, BucketSize::Day).len(), 4);
        assert_eq!(tally.net_opened(), 0);
    }
}
