//! The alert job: a pass of `usecases::raise_alerts` every `[alerts] check_every_secs` (in
//! `config/moderation.toml`), at the instance's clock, on the bulk write line. Several
//! instances may pass at once: each alert is stored once (its unique key), so only one of them
//! queues its event. A pass that fired anything wakes the webhook deliverer.

use std::time::Duration;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::moderation::ReportReason;
use crate::store::alerts::queue_gauges;
use crate::store::to_utc;
use crate::usecases::raise_alerts::{raise_alerts, AlertPass};

pub struct Alerter {
    interval: Duration,
}

impl Job for Alerter {
    const NAME: &'static str = "alerts";

    fn for_instance(state: &AppState) -> Option<Self> {
        if state.moderation.alerts.rules.is_empty() {
            return None;
        }
        Some(Alerter {
            interval: Duration::from_secs(state.moderation.alerts.check_every_secs),
        })
    }

    fn pause(&self) -> Duration {
        self.interval
    }

    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        alert_pass(state).await?;
        refresh_gauges(state).await?;
        Ok(AfterPass::Pause)
    }
}

/// One pass now (the job's, and what tests call after moving the clock).
pub async fn alert_pass(state: &AppState) -> Result<AlertPass, ApiError> {
    let policy = state.moderation.clone();
    let console_url = Some(state.settings.console.public_url.clone()).filter(|u| !u.is_empty());
    let now = state.clock.now();
    let pass = state
        .write_bulk(move |conn| raise_alerts(conn, &policy, console_url.as_deref(), now))
        .await?;
    if pass.events {
        state.webhooks_wake.notify_one();
    }
    Ok(pass)
}

/// Sets the queue gauges of `/metrics` (open cases by reason, the oldest one's age, alerts
/// nobody acknowledged) from one read.
pub async fn refresh_gauges(state: &AppState) -> Result<(), ApiError> {
    let gauges = state.read(queue_gauges).await?;
    let metrics = &state.metrics;
    for reason in ReportReason::ALL {
        let open = gauges
            .open_by_reason
            .iter()
            .find(|(r, _)| *r == reason)
            .map_or(0, |(_, n)| *n);
        metrics
            .open_cases
            .with_label_values(&[reason.stored_name()])
            .set(open);
    }
    let age = gauges.oldest_open.map_or(0, |opened| {
        (to_utc(state.clock.now()) - to_utc(opened))
            .num_seconds()
            .max(0)
    });
    metrics.oldest_open_case_age.set(age);
    metrics
        .alerts_unacknowledged
        .set(gauges.unacknowledged_alerts);
    Ok(())
}
