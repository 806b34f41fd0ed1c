//! Cases: what the policy needs to know about one, its queue priority, and admin claims.

use super::abuse::reporter_accuracy;
use super::policy::ModerationPolicy;
use super::report::CaseKey;
use super::types::{
    add_saturating, minutes, unit, GameNumber, PlayerId, ReportId, ReportReason, Reporter,
};
use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One report entry as part of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseEntry {
    pub report: ReportId,
    pub reporter: Reporter,
    /// Everyone the report named (the case's accused and any co-accused).
    pub accused: Vec<PlayerId>,
    pub game: Option<GameNumber>,
    pub supporting_games: Vec<GameNumber>,
    pub filed_at: DateTime<Utc>,
    /// The reporter's accuracy share (from [`reporter_accuracy`]); `None` when unknown, in which
    /// case the policy's prior is used. Ignored for automatic reports.
    pub reporter_accuracy: Option<f64>,
}

/// Everything the policy reads about one open case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseFacts {
    pub key: CaseKey,
    pub opened_at: DateTime<Utc>,
    pub entries: Vec<CaseEntry>,
    /// Earlier warnings and sanctions of the accused that were not lifted.
    pub accused_earlier_sanctions: u32,
}

/// The people a case is about or comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseParties {
    /// The case's accused and everyone named alongside them.
    pub accused: Vec<PlayerId>,
    /// Player reporters (automatic reporters are nobody).
    pub reporters: Vec<PlayerId>,
}

impl CaseFacts {
    pub fn parties(&self) -> CaseParties {
        let mut accused = vec![self.key.accused];
        let mut reporters = Vec::new();
        for entry in &self.entries {
            for player in &entry.accused {
                if !accused.contains(player) {
                    accused.push(*player);
                }
            }
            if let Some(player) = entry.reporter.player() {
                if !reporters.contains(&player) {
                    reporters.push(player);
                }
            }
        }
        CaseParties { accused, reporters }
    }

    /// Distinct games cited by any entry of the case.
    pub fn evidence_games(&self) -> Vec<GameNumber> {
        let mut games = Vec::new();
        for entry in &self.entries {
            for game in entry.game.iter().chain(entry.supporting_games.iter()) {
                if !games.contains(game) {
                    games.push(*game);
                }
            }
        }
        games
    }
}

/// The explained components of a case's priority, each the points it adds (0 up to its
/// weight).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PriorityParts {
    pub reason_severity: f64,
    pub independent_reporters: f64,
    pub reporter_accuracy: f64,
    pub automatic_evidence: f64,
    pub earlier_sanctions: f64,
    /// The only part that changes while nothing happens to the case: it is computed at read
    /// time, the others are stored (`priority_base`).
    pub age: f64,
}

impl PriorityParts {
    /// Each part with its name, in the order the queue explains them.
    pub fn named(&self) -> [(&'static str, f64); 6] {
        [
            ("reason_severity", self.reason_severity),
            ("independent_reporters", self.independent_reporters),
            ("reporter_accuracy", self.reporter_accuracy),
            ("automatic_evidence", self.automatic_evidence),
            ("earlier_sanctions", self.earlier_sanctions),
            ("age", self.age),
        ]
    }

    /// Every part but the age: what a case's row stores.
    pub fn without_age(&self) -> f64 {
        self.reason_severity
            + self.independent_reporters
            + self.reporter_accuracy
            + self.automatic_evidence
            + self.earlier_sanctions
    }

    /// The unrounded sum of the parts.
    pub fn total(&self) -> f64 {
        self.without_age() + self.age
    }
}

/// A case's place in the queue: higher first.
#[derive(Debug, Clone, PartialEq)]
pub struct Priority {
    /// 0..=100, the rounded sum of the parts.
    pub score: u8,
    pub parts: PriorityParts,
}

/// What a case's stored priority is made of, gathered entry by entry: the store keeps these
/// in the case's row so a new entry updates them without re-reading the case's earlier entries
/// (issue #41).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PriorityTally {
    /// Distinct player reporters.
    pub reporter_count: u32,
    /// The sum of those reporters' accuracy shares (each in 0..=1, the prior when unknown).
    pub reporter_accuracy_sum: f64,
    /// The strongest automatic evidence (an admin's filing counts as 1), 0..=1.
    pub automatic_best: f64,
    /// Earlier warnings and sanctions of the accused that were not lifted.
    pub earlier_measures: u32,
}

impl PriorityTally {
    /// The tally of a case's entries, counted from scratch: what the stored tally must equal.
    pub fn of(facts: &CaseFacts, policy: &ModerationPolicy) -> PriorityTally {
        let prior = reporter_accuracy(&[], policy).share;
        // Each player reporter counts once, with their best known accuracy.
        let mut reporters: BTreeMap<PlayerId, f64> = BTreeMap::new();
        let mut automatic: f64 = 0.0;
        for entry in &facts.entries {
            match entry.reporter.player() {
                Some(player) => {
                    let accuracy = entry.reporter_accuracy.map_or(prior, unit);
                    let best = reporters.entry(player).or_insert(accuracy);
                    *best = best.max(accuracy);
                }
                None => automatic = automatic.max(entry.reporter.automatic_score().unwrap_or(0.0)),
            }
        }
        PriorityTally {
            reporter_count: u32::try_from(reporters.len()).unwrap_or(u32::MAX),
            reporter_accuracy_sum: reporters.values().sum(),
            automatic_best: automatic,
            earlier_measures: facts.accused_earlier_sanctions,
        }
    }
}

/// Ranks a case for the admin queue. Each part is its weight times a fraction in 0..=1 that
/// never falls when its input grows, so the score is monotone in every input:
/// severity of the reason, distinct player reporters, the sum of their accuracies (several
/// credible reporters count more than one, and an extra reporter never lowers the score),
/// the strongest automatic evidence, the accused's earlier sanctions, and the case's age.
pub fn case_priority(facts: &CaseFacts, now: DateTime<Utc>, policy: &ModerationPolicy) -> Priority {
    let tally = PriorityTally::of(facts, policy);
    let parts = PriorityParts {
        age: age_points(facts.opened_at, now, policy),
        ..stored_parts(facts.key.reason, &tally, policy)
    };
    Priority {
        score: parts.total().round().clamp(0.0, 100.0) as u8,
        parts,
    }
}

/// Every part of a case's priority but its age (which is 0 here), from its tally: what the
/// store keeps as `priority_base` (see [`PriorityParts::without_age`]).
pub fn stored_parts(
    reason: ReportReason,
    tally: &PriorityTally,
    policy: &ModerationPolicy,
) -> PriorityParts {
    let p = &policy.priority;
    let points = |weight: f64, fraction: f64| safe_weight(weight) * unit(fraction);
    PriorityParts {
        reason_severity: points(p.severity_weight, f64::from(reason.severity()) / 5.0),
        independent_reporters: points(
            p.reporters_weight,
            saturate(
                f64::from(tally.reporter_count),
                f64::from(p.reporters_saturation),
            ),
        ),
        reporter_accuracy: points(
            p.accuracy_weight,
            saturate(tally.reporter_accuracy_sum, p.accuracy_saturation),
        ),
        automatic_evidence: points(p.automatic_weight, tally.automatic_best),
        earlier_sanctions: points(
            p.history_weight,
            saturate(
                f64::from(tally.earlier_measures),
                f64::from(p.history_saturation),
            ),
        ),
        age: 0.0,
    }
}

/// How far a case opened at `opened_at` has aged by `now`: hours open over
/// `age_saturation_hours`, in 0..=1 (a future opening counts as zero).
fn age_fraction(opened_at: DateTime<Utc>, now: DateTime<Utc>, policy: &ModerationPolicy) -> f64 {
    let age_hours = now
        .signed_duration_since(opened_at)
        .max(TimeDelta::zero())
        .num_seconds() as f64
        / 3600.0;
    saturate(age_hours, f64::from(policy.priority.age_saturation_hours))
}

/// The age part of a case's priority at `now`: `age_weight * min(hours open / saturation, 1)`.
/// Never more than [`max_age_points`].
pub fn age_points(opened_at: DateTime<Utc>, now: DateTime<Utc>, policy: &ModerationPolicy) -> f64 {
    safe_weight(policy.priority.age_weight) * age_fraction(opened_at, now, policy)
}

/// The most the age part can add: what a queue reader may assume about a case it has not read.
pub fn max_age_points(policy: &ModerationPolicy) -> f64 {
    safe_weight(policy.priority.age_weight)
}

/// The stored part of a case's priority: [`case_priority`]'s unrounded total without its age
/// part. Writers keep `cases.priority_base` equal to this.
pub fn priority_base(priority: &Priority) -> f64 {
    priority.parts.without_age()
}

/// A case's queue priority at `now` from its stored base: the base plus the age part. Equals
/// the unrounded total of [`case_priority`] at `now` when `base` is [`priority_base`] of it.
pub fn priority_with_age(
    base: f64,
    opened_at: DateTime<Utc>,
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> f64 {
    base + age_points(opened_at, now, policy)
}

/// `value / cap`, limited to 0..=1; a non-positive cap counts as reached.
fn saturate(value: f64, cap: f64) -> f64 {
    if cap.is_nan() || cap <= 0.0 || cap.is_infinite() {
        return if value > 0.0 { 1.0 } else { 0.0 };
    }
    unit(value / cap)
}

fn safe_weight(weight: f64) -> f64 {
    if weight.is_finite() {
        weight.clamp(0.0, 100.0)
    } else {
        0.0
    }
}

/// An admin's claim on a case: while it runs, only they work on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    pub admin: PlayerId,
    pub claimed_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

/// What happens when `admin` asks to claim a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// Nobody holds the case: claim it until `until`.
    Claim { until: DateTime<Utc> },
    /// Another admin's claim has run out: take it over (log `claim_expired` for `previous`).
    TakeOver {
        previous: PlayerId,
        expired_at: DateTime<Utc>,
        until: DateTime<Utc>,
    },
    /// The admin already holds it: extend to `until`.
    Renew { until: DateTime<Utc> },
    /// Another admin holds it until `until` (HTTP 409).
    Conflict {
        holder: PlayerId,
        until: DateTime<Utc>,
    },
}

impl ClaimOutcome {
    /// Whether the admin now holds the case.
    pub fn granted(&self) -> bool {
        !matches!(self, ClaimOutcome::Conflict { .. })
    }

    /// The claim to store when granted.
    pub fn claim(&self, admin: PlayerId, now: DateTime<Utc>) -> Option<Claim> {
        match *self {
            ClaimOutcome::Claim { until }
            | ClaimOutcome::TakeOver { until, .. }
            | ClaimOutcome::Renew { until } => Some(Claim {
                admin,
                claimed_at: now,
                expires_at: until,
            }),
            ClaimOutcome::Conflict { .. } => None,
        }
    }
}

/// One admin at a time; a claim expires after `claim.expiry_minutes` so an abandoned case
/// returns to the queue without anyone releasing it.
pub fn claim_status(
    current: Option<&Claim>,
    admin: PlayerId,
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> ClaimOutcome {
    let until = add_saturating(now, minutes(policy.claim.expiry_minutes));
    match current {
        None => ClaimOutcome::Claim { until },
        Some(claim) if claim.admin == admin => ClaimOutcome::Renew { until },
        Some(claim) if claim.expires_at <= now => ClaimOutcome::TakeOver {
            previous: claim.admin,
            expired_at: claim.expires_at,
            until,
        },
        Some(claim) => ClaimOutcome::Conflict {
            holder: claim.admin,
            until: claim.expires_at,
        },
    }
}

/// Why an admin may not decide a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Conflict {
    AdminIsAccused,
    AdminIsReporter,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Conflict::AdminIsAccused => {
                "You are accused in this case; another admin must decide it."
            }
            Conflict::AdminIsReporter => "You reported this case; another admin must decide it.",
        })
    }
}

/// Nobody judges their own case: an admin who is accused (or named alongside the accused) or
/// who reported it may not decide it.
pub fn may_decide(admin: PlayerId, parties: &CaseParties) -> Result<(), Conflict> {
    if parties.accused.contains(&admin) {
        Err(Conflict::AdminIsAccused)
    } else if parties.reporters.contains(&admin) {
        Err(Conflict::AdminIsReporter)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::report::case_key;
    use crate::moderation::types::ReportReason;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn player_entry(id: i64, reporter: i64, accuracy: Option<f64>) -> CaseEntry {
        CaseEntry {
            report: ReportId(id),
            reporter: Reporter::Player {
                player: PlayerId(reporter),
            },
            accused: vec![PlayerId(2)],
            game: Some(GameNumber(100 + id)),
            supporting_games: vec![],
            filed_at: t0(),
            reporter_accuracy: accuracy,
        }
    }

    fn facts(reason: ReportReason, entries: Vec<CaseEntry>) -> CaseFacts {
        CaseFacts {
            key: case_key(PlayerId(2), reason),
            opened_at: t0(),
            entries,
            accused_earlier_sanctions: 0,
        }
    }

    fn score(facts: &CaseFacts, now: DateTime<Utc>) -> u8 {
        case_priority(facts, now, &ModerationPolicy::default()).score
    }

    #[test]
    fn parts_are_explained_and_add_up() {
        let f = facts(
            ReportReason::SelfPartnering,
            vec![player_entry(1, 10, Some(0.5))],
        );
        let priority = case_priority(&f, t0(), &ModerationPolicy::default());
        let names: Vec<_> = priority
            .parts
            .named()
            .iter()
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(
            names,
            [
                "reason_severity",
                "independent_reporters",
                "reporter_accuracy",
                "automatic_evidence",
                "earlier_sanctions",
                "age"
            ]
        );
        // 30 (severity 5/5) + 20/4 + 15 * 0.5/2 = 38.75
        assert_eq!(priority.score, 39);
        let total: f64 = priority
            .parts
            .named()
            .iter()
            .map(|(_, points)| points)
            .sum();
        assert!((total - 38.75).abs() < 1e-9);
    }

    #[test]
    fn everything_maxed_is_one_hundred_and_nothing_exceeds_it() {
        let mut entries: Vec<_> = (0..10)
            .map(|i| player_entry(i, 10 + i, Some(1.0)))
            .collect();
        entries.push(CaseEntry {
            reporter: Reporter::ChatAnalysis { score: 7.0 },
            ..player_entry(99, 0, None)
        });
        let mut f = facts(ReportReason::SelfPartnering, entries);
        f.accused_earlier_sanctions = 50;
        assert_eq!(score(&f, t0() + TimeDelta::days(30)), 100);
    }

    #[test]
    fn same_reporter_counts_once_and_future_opening_is_age_zero() {
        let one = facts(
            ReportReason::Abandoning,
            vec![player_entry(1, 10, Some(0.9))],
        );
        let twice = facts(
            ReportReason::Abandoning,
            vec![
                player_entry(1, 10, Some(0.9)),
                player_entry(2, 10, Some(0.9)),
            ],
        );
        assert_eq!(score(&one, t0()), score(&twice, t0()));
        assert_eq!(score(&one, t0() - TimeDelta::days(3)), score(&one, t0()));
    }

    #[test]
    fn nan_inputs_do_not_poison_the_score() {
        let mut f = facts(
            ReportReason::Other,
            vec![player_entry(1, 10, Some(f64::NAN))],
        );
        f.entries.push(CaseEntry {
            reporter: Reporter::ConductSignal { score: f64::NAN },
            ..player_entry(2, 0, None)
        });
        let priority = case_priority(&f, t0(), &ModerationPolicy::default());
        assert!(priority
            .parts
            .named()
            .iter()
            .all(|(_, points)| points.is_finite()));
        let mut policy = ModerationPolicy::default();
        policy.priority.accuracy_saturation = 0.0;
        policy.priority.age_weight = f64::INFINITY;
        let priority = case_priority(&f, t0(), &policy);
        assert!(priority.score <= 100);
    }

    fn arb_reason() -> impl Strategy<Value = ReportReason> {
        prop::sample::select(ReportReason::ALL.to_vec())
    }

    proptest! {
        #[test]
        fn priority_is_monotone_in_every_input(
            reason in arb_reason(),
            accuracies in prop::collection::vec(0.0f64..=1.0, 0..6),
            automatic in 0.0f64..=1.0,
            earlier in 0u32..6,
            age_hours in 0i64..200,
            bump in 0usize..5,
            step in 0.0f64..=1.0,
        ) {
            let now = t0() + TimeDelta::hours(age_hours);
            let mut entries: Vec<CaseEntry> = accuracies
                .iter()
                .enumerate()
                .map(|(i, a)| player_entry(i as i64, 10 + i as i64, Some(*a)))
                .collect();
            entries.push(CaseEntry {
                reporter: Reporter::ChatAnalysis { score: automatic },
                ..player_entry(50, 0, None)
            });
            let mut base = facts(reason, entries);
            base.accused_earlier_sanctions = earlier;
            let before = case_priority(&base, now, &ModerationPolicy::default());
            let mut more = base.clone();
            let mut later = now;
            match bump {
                // One more independent reporter, however inaccurate.
                0 => more.entries.push(player_entry(70, 70, Some(step * 0.1))),
                // A more accurate reporter.
                1 => {
                    if let Some(entry) = more.entries.first_mut() {
                        let old = entry.reporter_accuracy.unwrap_or(0.0);
                        entry.reporter_accuracy = Some((old + step).min(1.0));
                    }
                }
                // Stronger automatic evidence.
                2 => more.entries.push(CaseEntry {
                    reporter: Reporter::ConductSignal { score: (automatic + step).min(1.0) },
                    ..player_entry(80, 0, None)
                }),
                // One more earlier sanction.
                3 => more.accused_earlier_sanctions += 1,
                // Older.
                _ => later = now + TimeDelta::minutes((step * 600.0) as i64),
            }
            let after = case_priority(&more, later, &ModerationPolicy::default());
            prop_assert!(after.score >= before.score);
            for ((name, a), (_, b)) in after.parts.named().into_iter().zip(before.parts.named()) {
                prop_assert!(a + 1e-12 >= b, "{} fell", name);
            }
        }
    }

    #[test]
    fn stored_base_plus_age_at_read_time_equals_the_priority_then() {
        let policy = ModerationPolicy::default();
        let mut f = facts(
            ReportReason::OffensiveChat,
            vec![player_entry(1, 10, Some(0.8)), player_entry(2, 11, None)],
        );
        f.entries.push(CaseEntry {
            reporter: Reporter::ChatAnalysis { score: 0.6 },
            ..player_entry(3, 0, None)
        });
        f.accused_earlier_sanctions = 1;
        // The writer stores the base when the case changes (here: at opening) ...
        let base = priority_base(&case_priority(&f, t0(), &policy));
        for hours in [0, 1, 5, 36, 71, 72, 73, 500] {
            let now = t0() + TimeDelta::hours(hours);
            let full = case_priority(&f, now, &policy);
            let total: f64 = full.parts.named().iter().map(|(_, points)| points).sum();
            // ... and the reader adds the age part of its own moment.
            let read = priority_with_age(base, f.opened_at, now, &policy);
            assert!((read - total).abs() < 1e-9, "{hours} h: {read} vs {total}");
            assert_eq!(read.round() as u8, full.score);
        }
        // Age adds at most its weight, and a case from the future has none.
        let old = priority_with_age(base, t0(), t0() + TimeDelta::days(30), &policy);
        assert!((old - base - max_age_points(&policy)).abs() < 1e-9);
        assert_eq!(
            priority_with_age(base, t0(), t0() - TimeDelta::hours(2), &policy),
            base
        );
        // 36 of 72 hours: half the age weight.
        let half = age_points(t0(), t0() + TimeDelta::hours(36), &policy);
        assert!((half - 5.0).abs() < 1e-9);
    }

    #[test]
    fn severity_orders_reasons() {
        let severe = facts(ReportReason::SelfPartnering, vec![]);
        let mild = facts(ReportReason::Other, vec![]);
        assert!(score(&severe, t0()) > score(&mild, t0()));
    }

    #[test]
    fn claims() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let me = PlayerId(1);
        let other = PlayerId(2);
        let until = now + TimeDelta::minutes(20);
        assert_eq!(
            claim_status(None, me, now, &policy),
            ClaimOutcome::Claim { until }
        );
        let mine = Claim {
            admin: me,
            claimed_at: now - TimeDelta::minutes(5),
            expires_at: now + TimeDelta::minutes(15),
        };
        assert_eq!(
            claim_status(Some(&mine), me, now, &policy),
            ClaimOutcome::Renew { until }
        );
        let theirs = Claim {
            admin: other,
            ..mine
        };
        let outcome = claim_status(Some(&theirs), me, now, &policy);
        assert_eq!(
            outcome,
            ClaimOutcome::Conflict {
                holder: other,
                until: now + TimeDelta::minutes(15)
            }
        );
        assert!(!outcome.granted());
        assert_eq!(outcome.claim(me, now), None);
        let expired = Claim {
            admin: other,
            claimed_at: now - TimeDelta::minutes(20),
            expires_at: now,
        };
        let outcome = claim_status(Some(&expired), me, now, &policy);
        assert_eq!(
            outcome,
            ClaimOutcome::TakeOver {
                previous: other,
                expired_at: now,
                until
            }
        );
        assert_eq!(
            outcome.claim(me, now),
            Some(Claim {
                admin: me,
                claimed_at: now,
                expires_at: until
            })
        );
        // At the end of time the claim saturates instead of panicking.
        assert!(claim_status(None, me, DateTime::<Utc>::MAX_UTC, &policy).granted());
    }

    #[test]
    fn parties_and_may_decide() {
        let mut entry = player_entry(1, 10, None);
        entry.accused = vec![PlayerId(2), PlayerId(3)];
        let automatic = CaseEntry {
            reporter: Reporter::ChatAnalysis { score: 0.5 },
            ..player_entry(2, 0, None)
        };
        let f = facts(ReportReason::SelfPartnering, vec![entry, automatic]);
        let parties = f.parties();
        assert_eq!(parties.accused, vec![PlayerId(2), PlayerId(3)]);
        assert_eq!(parties.reporters, vec![PlayerId(10)]);
        assert_eq!(
            may_decide(PlayerId(2), &parties),
            Err(Conflict::AdminIsAccused)
        );
        assert_eq!(
            may_decide(PlayerId(3), &parties),
            Err(Conflict::AdminIsAccused)
        );
        assert_eq!(
            may_decide(PlayerId(10), &parties),
            Err(Conflict::AdminIsReporter)
        );
        assert_eq!(may_decide(PlayerId(0), &parties), Ok(()));
        assert!(!Conflict::AdminIsReporter.to_string().is_empty());
        assert_eq!(f.evidence_games(), vec![GameNumber(101), GameNumber(102)]);
    }
}
