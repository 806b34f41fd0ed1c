//! Workload and response times over a range of days: the rolled days of `stats_days`
//! summed into buckets (docs/moderation.md, "Stats").

use chrono::{NaiveDate, TimeDelta};
use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;

use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::stats::{admin_views, StatsBucketView, StatsView, WaitView};
use crate::moderation::stats::{buckets, BucketSize, DayStats, DayTally};
use crate::store::{stats_days, to_utc};

/// The longest range one call may ask for, in days.
pub const MAX_DAYS: i64 = 731;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatsQuery {
    /// First day (UTC, `YYYY-MM-DD`); default: 29 days before `to` (by day) or 83 (by week).
    pub from: Option<NaiveDate>,
    /// Last day, inclusive; default: today.
    pub to: Option<NaiveDate>,
    /// `day` (default) or `week` (ISO weeks, Monday to Sunday).
    #[param(value_type = Option<String>)]
    pub bucket: Option<BucketSize>,
}

impl StatsQuery {
    /// The range and bucket asked for, checked: `from` not after `to`, at most `MAX_DAYS`.
    pub fn resolve(
        &self,
        today: NaiveDate,
    ) -> Result<(NaiveDate, NaiveDate, BucketSize), ApiError> {
        let bucket = self.bucket.unwrap_or(BucketSize::Day);
        let to = self.to.unwrap_or(today);
        let span = match bucket {
            BucketSize::Day => 29,
            BucketSize::Week => 83,
        };
        let from = self.from.unwrap_or(to - TimeDelta::days(span));
        if from > to {
            return Err(invalid("from", "`from` must not be after `to`."));
        }
        if (to - from).num_days() >= MAX_DAYS {
            return Err(invalid(
                "to",
                &format!("A range may span at most {MAX_DAYS} days."),
            ));
        }
        Ok((from, to, bucket))
    }
}

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::unprocessable("invalid_range", message, json!({ "field": field }))
}

/// The stats of the days `from`..=`to` in buckets of `size` (checked by the caller).
pub async fn read(
    state: &AppState,
    from: NaiveDate,
    to: NaiveDate,
    size: BucketSize,
) -> Result<StatsView, ApiError> {
    let today = state.clock.now().date();
    let rows = state
        .read(move |conn| stats_days::days_between(conn, from, to))
        .await?;
    let as_of = rows.iter().map(|(_, rolled)| *rolled).max().map(to_utc);
    let days = every_day(
        rows.into_iter().map(|(day, _)| day).collect(),
        from,
        to.min(today),
    );
    let mut whole = DayTally::default();
    for day in &days {
        whole.merge(&day.tally);
    }
    let to_decision_by_reason = whole
        .reasons
        .iter()
        .filter(|(_, t)| t.to_decision.count() > 0)
        .map(|(reason, t)| (*reason, WaitView::from(&t.to_decision)))
        .collect();
    Ok(StatsView {
        from,
        to,
        bucket: size,
        as_of,
        buckets: buckets(&days, size)
            .iter()
            .map(StatsBucketView::from_bucket)
            .collect(),
        to_decision_by_reason,
        admins: admin_views(&whole.admins),
    })
}

/// One entry per day from `from` to `through`: a day without a row (before the log's first
/// line, or not rolled yet) counts nothing and keeps the queue as the day before left it.
fn every_day(rolled: Vec<DayStats>, from: NaiveDate, through: NaiveDate) -> Vec<DayStats> {
    let mut rolled = rolled.into_iter().peekable();
    let mut days = Vec::new();
    let mut queue = (0, None);
    let mut day = from;
    while day <= through {
        let stats = match rolled.next_if(|d| d.day == day) {
            Some(stats) => stats,
            None => DayStats {
                day,
                tally: DayTally::default(),
                open_at_end: queue.0,
                oldest_open_at: queue.1,
            },
        };
        queue = (stats.open_at_end, stats.oldest_open_at);
        days.push(stats);
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    days
}
