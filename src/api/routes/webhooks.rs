//! Webhook subscriptions (admin role): game servers receive signed sanction events at a URL.

use actix_web::{web, HttpResponse};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::webhooks::{
    read_deliveries, read_subscriptions, subscription_not_found,
};
use crate::api::state::AppState;
use crate::api::views::webhooks::{CreatedSubscription, DeliveryView, SubscriptionView};
use crate::moderation::SanctionEventKind;
use crate::store::webhook_subscriptions;
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

/// Subscribe a URL to sanction events. The answer holds the signing secret, shown this once.
#[utoipa::path(post, path = "/api/v1/admin/webhooks", tag = "admin",
    security(("bearer" = [])),
    request_body = NewSubscription,
    responses(
        (status = 201, description = "Subscribed; keep the secret", body = CreatedSubscription),
        (status = 400, description = "Malformed body or an unknown event", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "Not an http(s) URL, or an empty event list", body = ErrorEnvelope),
    ))]
pub async fn create_subscription(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<NewSubscription>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
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
    let created = state
        .write(move |conn| {
            let id = webhook_subscriptions::create(
                conn,
                &url,
                &events,
                &stored_secret,
                &admin.name,
                store::now(),
            )?;
            webhook_subscriptions::find(conn, id)
        })
        .await?
        .ok_or_else(|| ApiError::internal("created subscription not found"))?;
    tracing::info!(subscription = created.id, by = %created.created_by, "webhook subscription created");
    Ok(HttpResponse::Created().json(CreatedSubscription {
        subscription: created.into(),
        secret,
    }))
}

/// The subscriptions, revoked ones included, oldest first.
#[utoipa::path(get, path = "/api/v1/admin/webhooks", tag = "admin",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of subscriptions", body = Page<SubscriptionView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_subscriptions(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SubscriptionView>>, ApiError> {
    let page = page.by_id()?;
    Ok(web::Json(read_subscriptions(&state, page).await?))
}

/// Revoke a subscription: nothing more is delivered to it (pending deliveries stop).
/// Revoking one already revoked succeeds and changes nothing.
#[utoipa::path(delete, path = "/api/v1/admin/webhooks/{id}", tag = "admin",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Subscription id", example = 1)),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such subscription", body = ErrorEnvelope),
    ))]
pub async fn revoke_subscription(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
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
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(subscription_not_found(id))
    }
}

/// A subscription's deliveries, newest first, each with its attempts.
#[utoipa::path(get, path = "/api/v1/admin/webhooks/{id}/deliveries", tag = "admin",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Subscription id", example = 1), PageQuery),
    responses(
        (status = 200, description = "One page of deliveries", body = Page<DeliveryView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such subscription", body = ErrorEnvelope),
    ))]
pub async fn list_deliveries(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<DeliveryView>>, ApiError> {
    let id = id.into_inner();
    let page = page.by_id()?;
    Ok(web::Json(read_deliveries(&state, id, page).await?))
}
