//! Webhook subscriptions and their deliveries, as admins see them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::DeliveryStatus;
use crate::api::wire_enums::stored;
use crate::moderation::WebhookEventKind;
use crate::store::to_utc;
use crate::store::webhook_outbox::DeliveryListing;
use crate::store::webhook_subscriptions::SubscriptionListing;
use crate::store::webhook_url::WebhookUrl;

/// A subscription (its secret is shown only when it is created).
#[derive(Debug, Serialize, ToSchema)]
pub struct SubscriptionView {
    pub id: i64,
    /// Without the credentials (`user:password@`) it was subscribed with, which are sealed.
    pub url: String,
    /// Whether the URL was subscribed with credentials (sent as `Authorization: Basic`).
    pub credentials: bool,
    #[schema(value_type = Vec<WebhookEventKind>)]
    pub events: Vec<WebhookEventKind>,
    /// The admin who made it.
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    /// Set once revoked: nothing more is delivered to it.
    pub revoked_at: Option<DateTime<Utc>>,
}

impl From<SubscriptionListing> for SubscriptionView {
    fn from(s: SubscriptionListing) -> Self {
        let (url, in_url) = shown_url(&s.url);
        SubscriptionView {
            id: s.id,
            url,
            credentials: s.sealed_credentials || in_url,
            events: s.events,
            created_by: s.created_by,
            created_at: to_utc(s.created_at),
            revoked_at: s.revoked_at.map(to_utc),
        }
    }
}

/// A stored URL as shown, and whether it held credentials: a URL stored before sealing may
/// still hold them, and they are never shown.
fn shown_url(stored: &str) -> (String, bool) {
    if let Ok(url) = WebhookUrl::parse(stored) {
        return (url.as_str().to_string(), url.credentials().is_some());
    }
    // Not parsable now: drop whatever stands before an `@` in the authority.
    let Some((scheme, rest)) = stored.split_once("://") else {
        return (stored.to_string(), false);
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((_, host)) => (format!("{scheme}://{host}{path}"), true),
        None => (stored.to_string(), false),
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
    pub event: WebhookEventKind,
    /// The sanction a sanction event is about; null for `refunds_due`, which is about a case.
    pub sanction_id: Option<i64>,
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

#[cfg(test)]
mod tests {
    use super::shown_url;

    #[test]
    fn credentials_are_never_shown() {
        assert_eq!(
            shown_url("https://bob:pw@x.example/e"),
            ("https://x.example/e".to_string(), true)
        );
        assert_eq!(
            shown_url("https://x.example/e@f"),
            ("https://x.example/e@f".to_string(), false)
        );
        // Not a URL the parser takes: still no credentials.
        assert_eq!(
            shown_url("gopher://bob:pw@x.example/e"),
            ("gopher://x.example/e".to_string(), true)
        );
    }
}
