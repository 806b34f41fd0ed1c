//! The webhook deliverer: announces timed sanctions whose end has passed, leases due
//! deliveries from the outbox, posts each signed event to its subscription's URL and records
//! the attempt (delivered, retried later with exponential backoff, or given up). A decision on this instance wakes it at once;
//! otherwise it looks every `[webhooks] poll_interval_ms`. Delivery is at least once:
//! receivers deduplicate by the `Arbiter-Event-Id` header (the body's `id`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::TimeDelta;
use tokio::sync::Notify;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::webhook_signature::{signature_header, SIGNATURE_HEADER};
use crate::store::webhook_outbox::{self, AttemptResult, DueDelivery, RetrySchedule};
use crate::store::{self};

/// Deliveries leased per look.
const BATCH: i64 = 20;
/// Ended sanctions announced per look.
const ENDS_PER_LOOK: i64 = 100;

pub struct WebhookDeliverer {
    client: awc::Client,
    poll: Duration,
    wake: Arc<Notify>,
}

impl Job for WebhookDeliverer {
    const NAME: &'static str = "webhook deliverer";

    fn for_instance(state: &AppState) -> Option<Self> {
        let hooks = &state.settings.webhooks;
        let client = awc::Client::builder()
            .timeout(Duration::from_millis(hooks.timeout_ms))
            .add_default_header(("User-Agent", "arbiter-webhooks"))
            .finish();
        Some(WebhookDeliverer {
            client,
            poll: Duration::from_millis(hooks.poll_interval_ms),
            wake: state.webhooks_wake.clone(),
        })
    }

    fn pause(&self) -> Duration {
        self.poll
    }

    fn wake(&self) -> Option<Arc<Notify>> {
        Some(self.wake.clone())
    }

    /// Everything is durable: what failed is looked at again on the next pass. A full batch
    /// means more may be due, so the next look follows at once.
    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        let leased = deliver_once(state, &self.client).await?;
        Ok(if leased == BATCH as usize {
            AfterPass::Again
        } else {
            AfterPass::Pause
        })
    }
}

fn schedule(state: &AppState) -> RetrySchedule {
    let hooks = &state.settings.webhooks;
    RetrySchedule {
        base: millis(hooks.retry_base_ms),
        max: millis(hooks.retry_max_ms),
        max_attempts: hooks.max_attempts,
    }
}

fn millis(ms: u64) -> TimeDelta {
    TimeDelta::milliseconds(i64::try_from(ms).unwrap_or(i64::MAX))
}

/// One look: announce ended sanctions, then lease and send what is due. Returns how many
/// deliveries were leased.
async fn deliver_once(state: &AppState, client: &awc::Client) -> Result<usize, ApiError> {
    state
        .write_bulk(|conn| webhook_outbox::announce_ended(conn, store::now(), ENDS_PER_LOOK))
        .await?;
    // Long enough for one attempt to time out and be recorded.
    let lease = millis(
        state
            .settings
            .webhooks
            .timeout_ms
            .saturating_mul(2)
            .saturating_add(5_000),
    );
    let leased = state
        .write_bulk(move |conn| webhook_outbox::lease_due(conn, store::now(), lease, BATCH))
        .await?;
    let count = leased.len();
    let schedule = schedule(state);
    for delivery in leased {
        let result = send(client, &delivery).await;
        if !result.succeeded() {
            tracing::warn!(
                delivery = delivery.delivery_id,
                status = ?result.status_code,
                error = ?result.error,
                "webhook attempt failed"
            );
        }
        state
            .write_bulk(move |conn| {
                webhook_outbox::record_attempt(conn, &delivery, &result, &schedule, store::now())
            })
            .await?;
    }
    Ok(count)
}

/// Posts one event and says how it went.
async fn send(client: &awc::Client, delivery: &DueDelivery) -> AttemptResult {
    let started = Instant::now();
    let timestamp = chrono::Utc::now().timestamp();
    let sent = client
        .post(delivery.url.as_str())
        .insert_header(("Content-Type", "application/json"))
        .insert_header(("Arbiter-Event", delivery.kind.as_str()))
        .insert_header(("Arbiter-Event-Id", delivery.event_id.as_str()))
        .insert_header((
            SIGNATURE_HEADER,
            signature_header(&delivery.secret, timestamp, &delivery.body),
        ))
        .send_body(delivery.body.clone())
        .await;
    let duration_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    match sent {
        Ok(response) => {
            let status = response.status().as_u16();
            let error =
                (!(200..300).contains(&status)).then(|| format!("the receiver answered {status}"));
            AttemptResult {
                status_code: Some(status),
                error,
                duration_ms,
            }
        }
        Err(e) => AttemptResult {
            status_code: None,
            error: Some(e.to_string()),
            duration_ms,
        },
    }
}
