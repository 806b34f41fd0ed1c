//! Abuse of reporting: the per-reporter rate limit, reporter accuracy and report timeouts
//! (too many unjustified reports bar a player from reporting for a while: docs/moderation.md,
//! "Report timeouts").

use super::policy::ModerationPolicy;
use super::types::{add_saturating, days, hours};
use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// The rate limit is reached; filing works again at `at` (HTTP 429 with Retry-After).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter {
    pub at: DateTime<Utc>,
    /// Whole seconds from now until `at`, rounded up (at least 1).
    pub seconds: i64,
    /// Which window is full: "hour" or "day".
    pub window: RateWindow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RateWindow {
    Hour,
    Day,
}

/// Checks a player's filing against the rolling per-hour and per-day limits. `recent` are the
/// times of the reporter's earlier filings (any order; merged filings count too, as each one
/// is work for the service). Times in the future count as inside every window.
pub fn check_rate(
    recent: &[DateTime<Utc>],
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> Result<(), RetryAfter> {
    let limits = &policy.rate_limit;
    let mut latest: Option<RetryAfter> = None;
    for (window, length, limit) in [
        (RateWindow::Hour, hours(1), limits.per_hour),
        (RateWindow::Day, hours(24), limits.per_day),
    ] {
        if let Some(at) = free_again_at(recent, now, length, limit) {
            if latest.is_none_or(|l| at > l.at) {
                let seconds = ceil_seconds(at.signed_duration_since(now)).max(1);
                latest = Some(RetryAfter {
                    at,
                    seconds,
                    window,
                });
            }
        }
    }
    match latest {
        Some(retry) => Err(retry),
        None => Ok(()),
    }
}

/// When fewer than `limit` filings will lie in the window ending then; `None` if that is now.
fn free_again_at(
    recent: &[DateTime<Utc>],
    now: DateTime<Utc>,
    window: TimeDelta,
    limit: u32,
) -> Option<DateTime<Utc>> {
    let start = add_saturating(now, -window);
    let mut inside: Vec<DateTime<Utc>> = recent.iter().copied().filter(|t| *t > start).collect();
    let limit = limit as usize;
    if inside.len() < limit {
        return None;
    }
    inside.sort_unstable();
    // Once the oldest (len - limit + 1) filings have left the window, one slot is free.
    let leaving = inside.get(inside.len() - limit).copied()?;
    Some(add_saturating(leaving, window).max(now))
}

fn ceil_seconds(delta: TimeDelta) -> i64 {
    let whole = delta.num_seconds();
    if delta > TimeDelta::seconds(whole) {
        whole.saturating_add(1)
    } else {
        whole
    }
}

/// How a decided report turned out for its reporter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportOutcome {
    /// The case ended with a warning or a sanction.
    Upheld,
    /// Dismissed as unjustified: counts against the reporter.
    DismissedUnjustified,
    /// Dismissed as not actionable: the report was fair, there was just nothing to act on.
    DismissedNotActionable,
}

impl ReportOutcome {
    pub const ALL: [ReportOutcome; 3] = [
        ReportOutcome::Upheld,
        ReportOutcome::DismissedUnjustified,
        ReportOutcome::DismissedNotActionable,
    ];
}

/// A reporter's record: the smoothed share of their decided reports that were upheld.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Accuracy {
    pub upheld: u32,
    /// Upheld plus dismissed-as-unjustified; not-actionable dismissals count neither way.
    pub decided: u32,
    /// `(upheld + prior_upheld) / (decided + prior_upheld + prior_unjustified)`, in 0..=1.
    pub share: f64,
}

/// Reporter accuracy with a prior, so that a newcomer's first dismissal does not zero them.
pub fn reporter_accuracy(outcomes: &[ReportOutcome], policy: &ModerationPolicy) -> Accuracy {
    let count = |wanted: ReportOutcome| outcomes.iter().filter(|o| **o == wanted).count();
    accuracy_of_counts(
        count(ReportOutcome::Upheld),
        count(ReportOutcome::DismissedUnjustified),
        policy,
    )
}

/// [`reporter_accuracy`] from the two counts it reads, for a store that counts in SQL.
pub fn accuracy_of_counts(
    upheld: usize,
    unjustified: usize,
    policy: &ModerationPolicy,
) -> Accuracy {
    let prior_up = policy.accuracy.prior_upheld.max(0.0);
    let prior_down = policy.accuracy.prior_unjustified.max(0.0);
    let numerator = upheld as f64 + prior_up;
    let denominator = (upheld + unjustified) as f64 + prior_up + prior_down;
    let share = if denominator > 0.0 && numerator.is_finite() && denominator.is_finite() {
        (numerator / denominator).clamp(0.0, 1.0)
    } else {
        0.5
    };
    Accuracy {
        upheld: u32::try_from(upheld).unwrap_or(u32::MAX),
        decided: u32::try_from(upheld + unjustified).unwrap_or(u32::MAX),
        share,
    }
}

/// One of the reporter's reports after its decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecidedReport {
    pub decided_at: DateTime<Utc>,
    pub outcome: ReportOutcome,
}

/// A period in which a player may not file reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportTimeout {
    pub starts_at: DateTime<Utc>,
    pub until: DateTime<Utc>,
    /// 1 for the first step of the ladder, 2 for the second...
    pub level: u32,
}

impl ReportTimeout {
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.starts_at <= now && now < self.until
    }
}

/// Whether a decision that just closed one of the reporter's reports earns them a timeout.
///
/// Counts the reporter's decided reports from the last `window_days`, decided after their
/// latest timeout began (a timeout is not earned twice for the same reports), newest
/// `window_reports` of them; at `unjustified_threshold` unjustified ones a timeout follows.
/// No new timeout while one is running: the reports stay counted for later. The level is one
/// above the previous timeout's, less one step per full clean period since it ended.
pub fn report_timeout_after_decision(
    history: &[DecidedReport],
    earlier: &[ReportTimeout],
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> Option<ReportTimeout> {
    let rules = &policy.report_timeout;
    if earlier.iter().any(|t| t.is_active(now)) {
        return None;
    }
    let previous = earlier.iter().max_by_key(|t| t.starts_at);
    let window_start = add_saturating(now, -days(rules.window_days));
    let counted_after = previous.map_or(window_start, |p| p.starts_at.max(window_start));

    let mut counted: Vec<&DecidedReport> = history
        .iter()
        .filter(|r| r.decided_at > counted_after && r.decided_at <= now)
        .collect();
    counted.sort_unstable_by_key(|r| std::cmp::Reverse(r.decided_at));
    let unjustified = counted
        .iter()
        .take(rules.window_reports as usize)
        .filter(|r| r.outcome == ReportOutcome::DismissedUnjustified)
        .count();
    if unjustified < rules.unjustified_threshold.max(1) as usize {
        return None;
    }

    let base = previous.map_or(0, |p| {
        let clean = now.signed_duration_since(p.until);
        let periods = if rules.clean_period_days == 0 || clean <= TimeDelta::zero() {
            0
        } else {
            clean.num_days() / i64::from(rules.clean_period_days)
        };
        i64::from(p.level).saturating_sub(periods).max(0)
    });
    let steps = rules.ladder_days.len().max(1);
    let level = usize::try_from(base.saturating_add(1))
        .unwrap_or(steps)
        .min(steps);
    let length = rules.ladder_days.get(level - 1).copied().unwrap_or(1);
    Some(ReportTimeout {
        starts_at: now,
        until: add_saturating(now, days(length)),
        level: u32::try_from(level).unwrap_or(u32::MAX),
    })
}

/// The running timeout with the latest end, if any.
pub fn active_report_timeout(
    timeouts: &[ReportTimeout],
    now: DateTime<Utc>,
) -> Option<ReportTimeout> {
    timeouts
        .iter()
        .filter(|t| t.is_active(now))
        .max_by_key(|t| t.until)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn mins(m: i64) -> TimeDelta {
        TimeDelta::minutes(m)
    }

    #[test]
    fn under_the_limits_passes() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let recent: Vec<_> = (1..=4).map(|i| now - mins(i * 10)).collect();
        assert_eq!(check_rate(&recent, now, &policy), Ok(()));
        assert_eq!(check_rate(&[], now, &policy), Ok(()));
    }

    #[test]
    fn hourly_limit_gives_the_time_the_oldest_leaves() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let recent: Vec<_> = [50, 40, 30, 20, 10]
            .iter()
            .map(|m| now - mins(*m))
            .collect();
        let retry = check_rate(&recent, now, &policy).err();
        assert_eq!(
            retry,
            Some(RetryAfter {
                at: now + mins(10),
                seconds: 600,
                window: RateWindow::Hour
            })
        );
        // A filing exactly one hour old has left the window.
        let recent: Vec<_> = [60, 40, 30, 20, 10]
            .iter()
            .map(|m| now - mins(*m))
            .collect();
        assert_eq!(check_rate(&recent, now, &policy), Ok(()));
    }

    #[test]
    fn daily_limit_wins_when_later() {
        let policy = ModerationPolicy::default();
        let now = t0();
        // 20 filings spread over the last 20 hours: hourly fine, daily full.
        let recent: Vec<_> = (0..20).map(|h| now - mins(h * 60 + 30)).collect();
        let retry = check_rate(&recent, now, &policy).err();
        assert_eq!(retry.map(|r| r.window), Some(RateWindow::Day));
        // The oldest was 19.5 h ago: free again in 4.5 h.
        assert_eq!(retry.map(|r| r.at), Some(now + mins(270)));
    }

    #[test]
    fn future_filings_count_and_retry_is_never_in_the_past() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let recent = vec![now + mins(5); 5];
        let retry = check_rate(&recent, now, &policy).err();
        assert_eq!(retry.map(|r| r.at), Some(now + mins(65)));
        let recent = vec![DateTime::<Utc>::MAX_UTC; 30];
        assert!(check_rate(&recent, now, &policy).is_err());
        // At the ends of time nothing panics.
        let recent = vec![DateTime::<Utc>::MIN_UTC; 30];
        let _ = check_rate(&recent, DateTime::<Utc>::MIN_UTC, &policy);
        let _ = check_rate(&recent, DateTime::<Utc>::MAX_UTC, &policy);
    }

    #[test]
    fn accuracy_uses_a_prior() {
        let policy = ModerationPolicy::default();
        let newcomer = reporter_accuracy(&[], &policy);
        assert_eq!((newcomer.upheld, newcomer.decided), (0, 0));
        assert!((newcomer.share - 0.5).abs() < 1e-12);
        let one_bad = reporter_accuracy(&[ReportOutcome::DismissedUnjustified], &policy);
        assert!(one_bad.share > 0.3 && one_bad.share < 0.5);
        let not_actionable = reporter_accuracy(&[ReportOutcome::DismissedNotActionable], &policy);
        assert_eq!(not_actionable.decided, 0);
        assert!((not_actionable.share - 0.5).abs() < 1e-12);
        let good = reporter_accuracy(&[ReportOutcome::Upheld; 20], &policy);
        assert_eq!((good.upheld, good.decided), (20, 20));
        assert!(good.share > 0.9 && good.share <= 1.0);
    }

    #[test]
    fn accuracy_with_zero_priors_is_the_raw_share() {
        let mut policy = ModerationPolicy::default();
        policy.accuracy.prior_upheld = 0.0;
        policy.accuracy.prior_unjustified = 0.0;
        let acc = reporter_accuracy(
            &[ReportOutcome::Upheld, ReportOutcome::DismissedUnjustified],
            &policy,
        );
        assert!((acc.share - 0.5).abs() < 1e-12);
        // Nothing decided and no prior: neutral, not NaN.
        assert!((reporter_accuracy(&[], &policy).share - 0.5).abs() < 1e-12);
        policy.accuracy.prior_upheld = f64::NAN;
        assert!(reporter_accuracy(&[], &policy).share.is_finite());
    }

    fn decided(n_unjustified: usize, n_upheld: usize, now: DateTime<Utc>) -> Vec<DecidedReport> {
        let mut out = Vec::new();
        for i in 0..n_unjustified {
            out.push(DecidedReport {
                decided_at: now - mins(i as i64 * 60 + 1),
                outcome: ReportOutcome::DismissedUnjustified,
            });
        }
        for i in 0..n_upheld {
            out.push(DecidedReport {
                decided_at: now - mins(i as i64 * 60 + 2),
                outcome: ReportOutcome::Upheld,
            });
        }
        out
    }

    #[test]
    fn five_unjustified_of_ten_earn_a_one_day_timeout() {
        let policy = ModerationPolicy::default();
        let now = t0();
        assert_eq!(
            report_timeout_after_decision(&decided(4, 6, now), &[], now, &policy),
            None
        );
        let timeout = report_timeout_after_decision(&decided(5, 5, now), &[], now, &policy);
        assert_eq!(
            timeout,
            Some(ReportTimeout {
                starts_at: now,
                until: now + TimeDelta::days(1),
                level: 1
            })
        );
    }

    #[test]
    fn only_the_last_ten_within_thirty_days_count() {
        let policy = ModerationPolicy::default();
        let now = t0();
        // Five unjustified, but ten newer upheld reports push them out of the last ten.
        let mut history = decided(0, 10, now);
        history.extend((0..5).map(|i| DecidedReport {
            decided_at: now - TimeDelta::days(2) - mins(i),
            outcome: ReportOutcome::DismissedUnjustified,
        }));
        assert_eq!(
            report_timeout_after_decision(&history, &[], now, &policy),
            None
        );
        // Five unjustified, but older than 30 days.
        let old: Vec<_> = (0..5)
            .map(|i| DecidedReport {
                decided_at: now - TimeDelta::days(31) - mins(i),
                outcome: ReportOutcome::DismissedUnjustified,
            })
            .collect();
        assert_eq!(report_timeout_after_decision(&old, &[], now, &policy), None);
    }

    #[test]
    fn timeouts_escalate_and_decay() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let history = decided(5, 0, now);
        let first = ReportTimeout {
            starts_at: now - TimeDelta::days(10),
            until: now - TimeDelta::days(9),
            level: 1,
        };
        let second = report_timeout_after_decision(&history, &[first], now, &policy);
        assert_eq!(
            second.map(|t| (t.level, t.until)),
            Some((2, now + TimeDelta::days(7)))
        );
        let earlier_first = ReportTimeout {
            starts_at: now - TimeDelta::days(20),
            until: now - TimeDelta::days(19),
            level: 1,
        };
        let then_second = ReportTimeout {
            starts_at: now - TimeDelta::days(10),
            until: now - TimeDelta::days(3),
            level: 2,
        };
        let third =
            report_timeout_after_decision(&history, &[then_second, earlier_first], now, &policy);
        // The latest earlier timeout (level 2) decides: next is level 3, 30 days.
        assert_eq!(
            third.map(|t| (t.level, t.until)),
            Some((3, now + TimeDelta::days(30)))
        );
        let top = ReportTimeout {
            starts_at: now - TimeDelta::days(29),
            until: now - TimeDelta::days(28) - TimeDelta::hours(23),
            level: 3,
        };
        assert_eq!(
            report_timeout_after_decision(&history, &[top], now, &policy)
                .map(|t| (t.level, t.until)),
            Some((3, now + TimeDelta::days(30))),
            "stays on the last step"
        );
        // One clean period after a level-2 timeout ended: back to level 2 (2 - 1 + 1).
        let long_ago = ReportTimeout {
            starts_at: now - TimeDelta::days(120),
            until: now - TimeDelta::days(113),
            level: 2,
        };
        assert_eq!(
            report_timeout_after_decision(&history, &[long_ago], now, &policy).map(|t| t.level),
            Some(2)
        );
        let ancient = ReportTimeout {
            starts_at: now - TimeDelta::days(400),
            until: now - TimeDelta::days(370),
            level: 3,
        };
        assert_eq!(
            report_timeout_after_decision(&history, &[ancient], now, &policy).map(|t| t.level),
            Some(1)
        );
    }

    #[test]
    fn reports_before_the_last_timeout_and_running_timeouts_do_not_count() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let history = decided(5, 0, now - TimeDelta::days(3));
        let previous = ReportTimeout {
            starts_at: now - TimeDelta::days(2),
            until: now - TimeDelta::days(1),
            level: 1,
        };
        assert_eq!(
            report_timeout_after_decision(&history, &[previous], now, &policy),
            None
        );
        let running = ReportTimeout {
            starts_at: now - TimeDelta::hours(1),
            until: now + TimeDelta::hours(1),
            level: 1,
        };
        assert_eq!(
            report_timeout_after_decision(&decided(9, 0, now), &[running], now, &policy),
            None
        );
    }

    #[test]
    fn active_timeout_is_the_latest_running_one() {
        let now = t0();
        let a = ReportTimeout {
            starts_at: now - TimeDelta::days(1),
            until: now + TimeDelta::hours(1),
            level: 1,
        };
        let b = ReportTimeout {
            starts_at: now - TimeDelta::hours(2),
            until: now + TimeDelta::days(6),
            level: 2,
        };
        let over = ReportTimeout {
            starts_at: now - TimeDelta::days(9),
            until: now,
            level: 1,
        };
        assert_eq!(active_report_timeout(&[a, b, over], now), Some(b));
        assert_eq!(active_report_timeout(&[over], now), None);
        assert_eq!(active_report_timeout(&[], now), None);
    }
}
