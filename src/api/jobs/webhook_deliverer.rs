//! The webhook deliverer: announces timed sanctions whose end has passed, leases due
//! deliveries from the outbox, posts each signed event to its subscription's URL and records
//! the attempt (delivered, retried later with exponential backoff, or given up). A decision on this instance wakes it at once;
//! otherwise it looks every `[webhooks] poll_interval_ms`. Delivery is at least once:
//! receivers deduplicate by the `Arbiter-Event-Id` header (the body's `id`).
//!
//! Requests go only where `[webhooks]` allows (issue #40, server-side request forgery): each
//! URL is checked before it is sent to (a literal address, and the addresses its name resolves
//! to), the client connects only to addresses its own resolver allowed (so a name cannot
//! rebind inward between check and connect), and redirects are not followed (a 3xx is a failed
//! attempt). A refused URL is recorded as a failed attempt, and nothing is sent.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::TimeDelta;
use tokio::sync::Notify;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::webhook_policy::DestinationPolicy;
use crate::api::webhook_resolver::{check_destination, CheckedResolver};
use crate::api::webhook_signature::{signature_header, SIGNATURE_HEADER};
use crate::store::webhook_outbox::{self, AttemptResult, DueDelivery, RetrySchedule};
use crate::store::webhook_sealing::{self, Sealed, SealingKey};
use crate::store::webhook_url::WebhookUrl;
use crate::store::{self};

/// Deliveries leased per look.
const BATCH: i64 = 20;
/// Ended sanctions announced per look.
const ENDS_PER_LOOK: i64 = 100;

pub struct WebhookDeliverer {
    sender: Sender,
    poll: Duration,
    wake: Arc<Notify>,
}

/// What sending needs: the client, where it may send, and the key that opens secrets.
struct Sender {
    client: awc::Client,
    policy: Arc<DestinationPolicy>,
    key: Option<SealingKey>,
    timeout: Duration,
}

impl Job for WebhookDeliverer {
    const NAME: &'static str = "webhook deliverer";

    fn for_instance(state: &AppState) -> Option<Self> {
        let hooks = &state.settings.webhooks;
        let policy = match DestinationPolicy::from_settings(hooks) {
            Ok(policy) => Arc::new(policy),
            Err((key, message)) => {
                // `Settings::validate` refuses this before start-up.
                tracing::error!(key, message, "webhook deliverer not started");
                return None;
            }
        };
        let timeout = Duration::from_millis(hooks.timeout_ms);
        let resolver =
            actix_tls::connect::Resolver::custom(CheckedResolver::new(policy.clone(), timeout));
        let connector = awc::Connector::new()
            .connector(actix_tls::connect::Connector::new(resolver).service())
            .timeout(timeout);
        let client = awc::Client::builder()
            .connector(connector)
            .disable_redirects()
            .timeout(timeout)
            .add_default_header(("User-Agent", "arbiter-webhooks"))
            .finish();
        Some(WebhookDeliverer {
            sender: Sender {
                client,
                policy,
                key: SealingKey::from_setting(&hooks.sealing_key),
                timeout,
            },
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
        let leased = deliver_once(state, &self.sender).await?;
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
async fn deliver_once(state: &AppState, sender: &Sender) -> Result<usize, ApiError> {
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
        let result = sender.send(&delivery).await;
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

impl Sender {
    /// Posts one event and says how it went; a URL that may not be sent to is a failed
    /// attempt, sent nothing.
    async fn send(&self, delivery: &DueDelivery) -> AttemptResult {
        let started = Instant::now();
        let failed = |error: String| AttemptResult {
            status_code: None,
            error: Some(error),
            duration_ms: elapsed_ms(started),
        };
        let (url, secret) = match self.open(delivery) {
            Ok(opened) => opened,
            Err(error) => return failed(error),
        };
        if let Err(refused) = check_destination(&self.policy, &url, self.timeout).await {
            return failed(format!("not sent: {refused}"));
        }
        let timestamp = chrono::Utc::now().timestamp();
        let mut request = self
            .client
            .post(url.as_str())
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Arbiter-Event", delivery.kind.as_str()))
            .insert_header(("Arbiter-Event-Id", delivery.event_id.as_str()))
            .insert_header((
                SIGNATURE_HEADER,
                signature_header(&secret, timestamp, &delivery.body),
            ));
        if let Some((user, password)) = url.basic_auth() {
            request = request.basic_auth(user, password);
        }
        match request.send_body(delivery.body.clone()).await {
            Ok(response) => {
                let status = response.status().as_u16();
                let error = match status {
                    200..=299 => None,
                    300..=399 => Some(format!(
                        "the receiver answered {status}: redirects are not followed"
                    )),
                    _ => Some(format!("the receiver answered {status}")),
                };
                AttemptResult {
                    status_code: Some(status),
                    error,
                    duration_ms: elapsed_ms(started),
                }
            }
            Err(e) => failed(with_causes(&e)),
        }
    }

    /// The URL with its credentials, and the secret, unsealed.
    fn open(&self, delivery: &DueDelivery) -> Result<(WebhookUrl, String), String> {
        let key = self.key.as_ref();
        let secret = webhook_sealing::open(key, Sealed::Secret, &delivery.secret)
            .map_err(|e| format!("the secret cannot be opened: {e}"))?;
        let credentials = delivery
            .url_credentials
            .as_deref()
            .map(|sealed| webhook_sealing::open(key, Sealed::UrlCredentials, sealed))
            .transpose()
            .map_err(|e| format!("the URL's credentials cannot be opened: {e}"))?;
        let url = WebhookUrl::from_stored(&delivery.url, credentials)
            .map_err(|e| format!("not sent: {e}"))?;
        Ok((url, secret))
    }
}

fn elapsed_ms(started: Instant) -> i64 {
    i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX)
}

/// An error and its causes, so a refused connection says why ("Failed to resolve hostname:
/// localhost resolves to 127.0.0.1, which is not public").
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}
