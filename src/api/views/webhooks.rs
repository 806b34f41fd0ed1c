//! Webhook subscriptions and their deliveries, as admins see them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::DeliveryStatus;
use crate::api::wire_enums::stored;
use crate::moderation::SanctionEventKind;
use crate::store::to_utc;
use crate::store::webhook_outbox::DeliveryListing;
use crate::store::webhook_subscriptions::SubscriptionListing;

/// A subscription (its secret is shown only when it is created).
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionView {
    pub id: i64,
    pub url: String,
    #[schema(value_type = Vec<SanctionEventKind>)]
    pub events: Vec<SanctionEventKind>,
    /// The admin who made it.
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    /// Set once revoked: nothing more is delivered to it.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl From<SubscriptionListing> for SubscriptionView {
    fn from(s: SubscriptionListing) -> Self {
        SubscriptionView {
            id: s.id,
            url: s.url,
            events: s.events,
            created_by: s.created_by,
            created_at: to_utc(s.created_at),
            revoked_at: s.revoked_at.map(to_utc),
        }
    }
}

/// A new subscription with its signing secret, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedSubscription {
    pub subscription: SubscriptionView,
    /// Verify each delivery's `Arbiter-Signature` with it; it is never shown again.
    pub secret: String,
}

/// One attempt at a delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptView {
    pub attempted_at: DateTime<Utc>,
    /// The receiver's HTTP status, if it answered.
    pub status_code: Option<i32>,
    pub error: Option<String>,
    pub duration_ms: i64,
}

/// One event's delivery to the subscription, with every attempt.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    pub id: i64,
    /// The event's id (the `Arbiter-Event-Id` header).
    pub event_id: String,
    pub event: SanctionEventKind,
    pub sanction_id: i64,
    /// `pending` (next attempt at `next_attempt_at`), `delivered` or `failed` (given up).
    pub status: DeliveryStatus,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub tries: Vec<AttemptView>,
}

impl DeliveryView {
    pub fn from_listing(d: DeliveryListing) -> Result<DeliveryView, ApiError> {
        Ok(DeliveryView {
            id: d.id,
            event_id: d.event_id,
            event: stored("sanction event", &d.kind)?,
            sanction_id: d.sanction_id,
            status: stored("delivery status", &d.status)?,
            attempts: d.attempts,
            next_attempt_at: to_utc(d.next_attempt_at),
            delivered_at: d.delivered_at.map(to_utc),
            created_at: to_utc(d.created_at),
            tries: d
                .tries
                .into_iter()
                .map(|a| AttemptView {
                    attempted_at: to_utc(a.attempted_at),
                    status_code: a.status_code,
                    error: a.error,
                    duration_ms: a.duration_ms,
                })
                .collect(),
        })
    }
}
