//! Subscribe a game server's URL to sanction events, and revoke a subscription.

use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::read_models::webhooks::subscription_not_found;
use crate::api::state::AppState;
use crate::api::views::webhooks::CreatedSubscription;
use crate::moderation::SanctionEventKind;
use crate::store::{self, webhook_subscriptions};

/// The longest URL a subscription may have.
const MAX_URL_CHARS: usize = 2000;

/// A new subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSubscription {
    /// Where events are posted: an `http://` or `https://` URL.
    #[schema(example = "https://eu-1.example.org/arbiter/events")]
    pub url: String,
    /// The events wanted; every kind when absent.
    #[serde(default)]
    #[schema(value_type = Option<Vec<SanctionEventKind>>)]
    pub events: Option<Vec<SanctionEventKind>>,
}

fn invalid(field: &str, message: String) -> ApiError {
    ApiError::unprocessable("invalid_subscription", message, json!({ "field": field }))
}

fn checked_url(url: &str) -> Result<String, ApiError> {
    let url = url.trim();
    if url.chars().count() > MAX_URL_CHARS {
        return Err(invalid(
            "url",
            format!("`url` may hold at most {MAX_URL_CHARS} characters."),
        ));
    }
    let parsed: awc::http::Uri = url
        .parse()
        .map_err(|_| invalid("url", format!("`url` is not a URL: {url:?}.")))?;
    let scheme_ok = matches!(parsed.scheme_str(), Some("http" | "https"));
    if !scheme_ok || parsed.host().is_none() {
        return Err(invalid(
            "url",
            "`url` must be an absolute http:// or https:// URL with a host.".into(),
        ));
    }
    Ok(url.to_string())
}

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("whsec_{}", hex::encode(bytes))
}

/// `admin` subscribes a URL; the answer holds the signing secret, shown this once.
pub async fn subscribe(
    state: &AppState,
    admin: &str,
    body: NewSubscription,
) -> Result<CreatedSubscription, ApiError> {
    let url = checked_url(&body.url)?;
    let mut events = body
        .events
        .unwrap_or_else(|| SanctionEventKind::ALL.to_vec());
    events.sort_by_key(|k| k.name());
    events.dedup();
    if events.is_empty() {
        return Err(invalid(
            "events",
            "`events` must name at least one event.".into(),
        ));
    }
    let secret = new_secret();
    let stored_secret = secret.clone();
    let admin = admin.to_string();
    let created = state
        .write(move |conn| {
            let id = webhook_subscriptions::create(
                conn,
                &url,
                &events,
                &stored_secret,
                &admin,
                store::now(),
            )?;
            webhook_subscriptions::find(conn, id)
        })
        .await?
        .ok_or_else(|| ApiError::internal("created subscription not found"))?;
    tracing::info!(subscription = created.id, by = %created.created_by, "webhook subscription created");
    Ok(CreatedSubscription {
        subscription: created.into(),
        secret,
    })
}

/// Revoke subscription `id`: nothing more is delivered to it (pending deliveries stop).
/// Revoking one already revoked succeeds and changes nothing.
pub async fn revoke(state: &AppState, id: i64) -> Result<(), ApiError> {
    let found = state
        .write(move |conn| {
            let found = webhook_subscriptions::find(conn, id)?.is_some();
            if found {
                webhook_subscriptions::revoke(conn, id, store::now())?;
            }
            Ok::<_, ApiError>(found)
        })
        .await?;
    if found {
        Ok(())
    } else {
        Err(subscription_not_found(id))
    }
}
