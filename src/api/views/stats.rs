//! Workload and response times as admins read them (docs/moderation.md, "Stats").

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::stats::{BucketSize, BucketStats, CaseOrigin, Waits};
use crate::moderation::{DecisionKind, ReportReason};

/// The stats of a range of days, bucketed.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsView {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub bucket: BucketSize,
    /// When the newest day shown was last rolled from the log (null: nothing rolled yet).
    pub as_of: Option<DateTime<Utc>>,
    pub buckets: Vec<StatsBucketView>,
    /// Waits of the cases decided in the whole range, by reason.
    #[schema(value_type = BTreeMap<String, WaitView>)]
    pub to_decision_by_reason: BTreeMap<ReportReason, WaitView>,
    /// Each admin's work over the whole range, most decisions first.
    pub admins: Vec<AdminWorkView>,
}

/// One bucket (a day, or the part of an ISO week inside the range).
#[derive(Debug, Serialize, ToSchema)]
pub struct StatsBucketView {
    pub start: NaiveDate,
    /// The bucket's last day inside the range.
    pub end: NaiveDate,
    pub opened: u32,
    #[schema(value_type = BTreeMap<String, u32>)]
    pub opened_by_reason: BTreeMap<ReportReason, u32>,
    /// `player`, `automatic` (chat, conduct, collusion, fingerprints), `admin`.
    #[schema(value_type = BTreeMap<String, u32>)]
    pub opened_by_origin: BTreeMap<CaseOrigin, u32>,
    pub decided: u32,
    #[schema(value_type = BTreeMap<String, u32>)]
    pub decided_by_outcome: BTreeMap<DecisionKind, u32>,
    /// Waits of the cases first claimed in the bucket.
    pub to_first_claim: WaitView,
    /// Waits of the cases decided in the bucket.
    pub to_decision: WaitView,
    #[schema(value_type = BTreeMap<String, WaitView>)]
    pub to_decision_by_reason: BTreeMap<ReportReason, WaitView>,
    /// Cases open at the end of the bucket.
    pub open_at_end: i64,
    /// When the oldest case open at the end of the bucket opened.
    pub oldest_open_at: Option<DateTime<Utc>>,
    /// Each admin's work in the bucket.
    pub admins: Vec<AdminWorkView>,
}

/// Median and p90 of some waits, in seconds, read to within 12 % (null without any).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct WaitView {
    pub cases: u32,
    pub median_secs: Option<i64>,
    pub p90_secs: Option<i64>,
}

impl From<&Waits> for WaitView {
    fn from(waits: &Waits) -> Self {
        WaitView {
            cases: waits.count(),
            median_secs: waits.quantile(0.5),
            p90_secs: waits.quantile(0.9),
        }
    }
}

/// One admin's work.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminWorkView {
    pub admin: String,
    pub decisions: u32,
    /// Claims that ended without their decision (released, or run out and taken over).
    pub claims_dropped: u32,
    /// Their decisions whose sanction an appeal reduced or lifted (counted when the appeal
    /// was decided).
    pub reversed_on_appeal: u32,
}

impl StatsBucketView {
    pub fn from_bucket(bucket: &BucketStats) -> StatsBucketView {
        let tally = &bucket.tally;
        let mut by_origin: BTreeMap<CaseOrigin, u32> =
            CaseOrigin::ALL.iter().map(|o| (*o, 0)).collect();
        let mut by_outcome: BTreeMap<DecisionKind, u32> =
            DecisionKind::ALL.iter().map(|k| (*k, 0)).collect();
        let mut to_first_claim = Waits::default();
        let mut to_decision = Waits::default();
        for reason_tally in tally.reasons.values() {
            for (origin, n) in &reason_tally.opened {
                *by_origin.entry(*origin).or_default() += n;
            }
            for (kind, n) in &reason_tally.decided {
                *by_outcome.entry(*kind).or_default() += n;
            }
            to_first_claim.merge(&reason_tally.to_first_claim);
            to_decision.merge(&reason_tally.to_decision);
        }
        StatsBucketView {
            start: bucket.start,
            end: bucket.last_day,
            opened: by_origin.values().sum(),
            opened_by_reason: ReportReason::ALL
                .iter()
                .map(|r| (*r, tally.reasons.get(r).map_or(0, |t| t.opened_total())))
                .collect(),
            opened_by_origin: by_origin,
            decided: by_outcome.values().sum(),
            decided_by_outcome: by_outcome,
            to_first_claim: WaitView::from(&to_first_claim),
            to_decision: WaitView::from(&to_decision),
            to_decision_by_reason: tally
                .reasons
                .iter()
                .filter(|(_, t)| t.to_decision.count() > 0)
                .map(|(r, t)| (*r, WaitView::from(&t.to_decision)))
                .collect(),
            open_at_end: bucket.open_at_end,
            oldest_open_at: bucket.oldest_open_at,
            admins: admin_views(&tally.admins),
        }
    }
}

/// Admins by decisions, then name.
pub fn admin_views(
    admins: &BTreeMap<String, crate::moderation::stats::AdminTally>,
) -> Vec<AdminWorkView> {
    let mut views: Vec<AdminWorkView> = admins
        .iter()
        .map(|(admin, t)| AdminWorkView {
            admin: admin.clone(),
            decisions: t.decisions,
            claims_dropped: t.claims_dropped,
            reversed_on_appeal: t.reversed_on_appeal,
        })
        .collect();
    views.sort_by(|a, b| b.decisions.cmp(&a.decisions).then(a.admin.cmp(&b.admin)));
    views
}
