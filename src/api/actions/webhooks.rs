//! Subscribe a game server's URL to sanction events, and revoke a subscription. A URL must
//! point at a public address unless the operator allows its host or network
//! (`webhook_policy`), and its secret and credentials are stored sealed (`webhook_sealing`).

use std::time::Duration;

use diesel::Connection;
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::read_models::webhooks::subscription_not_found;
use crate::api::state::AppState;
use crate::api::views::webhooks::CreatedSubscription;
use crate::api::webhook_policy::DestinationPolicy;
use crate::api::webhook_resolver::{check_destination, DestinationRefused};
use crate::moderation::WebhookEventKind;
use crate::store::key_checks::{self, CheckedKey};
use crate::store::webhook_sealing::{Sealed, SealingKey};
use crate::store::webhook_subscriptions::{self, StoredTarget};
use crate::store::webhook_url::WebhookUrl;
use crate::store::{self};

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
    #[schema(value_type = Option<Vec<WebhookEventKind>>)]
    pub events: Option<Vec<WebhookEventKind>>,
}

fn invalid(field: &str, message: String) -> ApiError {
    ApiError::unprocessable("invalid_subscription", message, json!({ "field": field }))
}

fn checked_url(url: &str) -> Result<WebhookUrl, ApiError> {
    let url = url.trim();
    if url.chars().count() > MAX_URL_CHARS {
        return Err(invalid(
            "url",
            format!("`url` may hold at most {MAX_URL_CHARS} characters."),
        ));
    }
    WebhookUrl::parse(url).map_err(|problem| invalid("url", problem.to_string()))
}

/// 422 naming the address, its class and the setting that would allow it.
fn refused(url: &WebhookUrl, refused: &DestinationRefused) -> ApiError {
    let address = refused.address();
    let allow_host = match refused {
        DestinationRefused::Name { name, .. } => {
            format!(", or the host to [webhooks] allowed_hosts ([\"{name}\"])")
        }
        DestinationRefused::Address(_) => String::new(),
    };
    let network = match address.address {
        std::net::IpAddr::V4(ip) => format!("{ip}/32"),
        std::net::IpAddr::V6(ip) => format!("{ip}/128"),
    };
    ApiError::unprocessable(
        "webhook_url_refused",
        format!(
            "`url` is refused: {refused}. Webhooks go only to public addresses; to allow this \
             one, add its network to [webhooks] allowed_networks ([\"{network}\"]){allow_host}."
        ),
        json!({
            "field": "url",
            "host": url.host_str(),
            "address": address.address.to_string(),
            "address_class": address.class.name(),
        }),
    )
}

/// 409 while `[webhooks] sealing_key` is empty: a secret is never stored in plain text.
fn sealing_not_configured() -> ApiError {
    ApiError::conflict(
        "webhook_sealing_not_configured",
        "Webhook subscriptions need [webhooks] sealing_key (ARBITER_WEBHOOKS__SEALING_KEY): the \
         key their signing secrets and URL credentials are sealed with in the database.",
    )
}

fn sealing_key_mismatch() -> ApiError {
    ApiError::conflict(
        "webhook_sealing_key_mismatch",
        "Webhook secrets were sealed under another [webhooks] sealing_key \
         (ARBITER_WEBHOOKS__SEALING_KEY): every instance must run with the key they were \
         sealed under.",
    )
}

/// Refuses a URL whose host is, or resolves to, an address the settings do not allow.
async fn check_url_destination(state: &AppState, url: &WebhookUrl) -> Result<(), ApiError> {
    let hooks = &state.settings.webhooks;
    let policy = DestinationPolicy::from_settings(hooks)
        .map_err(|(key, message)| ApiError::internal(format!("{key}: {message}")))?;
    check_destination(&policy, url, Duration::from_millis(hooks.timeout_ms))
        .await
        .map_err(|e| refused(url, &e))
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
    let key = SealingKey::from_setting(&state.settings.webhooks.sealing_key)
        .ok_or_else(sealing_not_configured)?;
    let url = checked_url(&body.url)?;
    let mut events = body
        .events
        .unwrap_or_else(|| WebhookEventKind::FOR_GAME_SERVERS.to_vec());
    events.sort_by_key(|k| k.name());
    events.dedup();
    if events.is_empty() {
        return Err(invalid(
            "events",
            "`events` must name at least one event.".into(),
        ));
    }
    check_url_destination(state, &url).await?;
    let secret = new_secret();
    let sealed_secret = key.seal(Sealed::Secret, &secret);
    let sealed_credentials = url
        .credentials()
        .map(|c| key.seal(Sealed::UrlCredentials, c));
    let key_check = key.check().to_string();
    let admin = admin.to_string();
    let created = state
        .write(move |conn| {
            // The key's check value and the row it first sealed, together.
            conn.transaction(|conn| {
                let now = store::now();
                let recorded =
                    key_checks::record_first(conn, CheckedKey::WebhookSealing, &key_check, now)?;
                if recorded != key_check {
                    return Err(sealing_key_mismatch());
                }
                let target = StoredTarget {
                    url: url.as_str(),
                    url_credentials: sealed_credentials.as_deref(),
                    secret: &sealed_secret,
                };
                let id = webhook_subscriptions::create(conn, target, &events, &admin, now)?;
                Ok::<_, ApiError>(webhook_subscriptions::find(conn, id)?)
            })
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
