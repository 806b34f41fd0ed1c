//! Webhook subscriptions (admin role): game servers receive signed sanction events at a URL.

use actix_web::{web, HttpResponse};

use crate::api::actions::webhooks::{self, NewSubscription};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::webhooks::{read_deliveries, read_subscriptions};
use crate::api::state::AppState;
use crate::api::views::webhooks::{CreatedSubscription, DeliveryView, SubscriptionView};

/// Subscribe a URL to sanction events. The answer holds the signing secret, shown this once.
/// The URL must point at a public address unless `[webhooks] allowed_networks` or
/// `allowed_hosts` allows it; its secret and credentials are stored sealed.
#[utoipa::path(post, path = "/api/v1/admin/webhooks", tag = "admin",
    security(("bearer" = [])),
    request_body = NewSubscription,
    responses(
        (status = 201, description = "Subscribed; keep the secret", body = CreatedSubscription),
        (status = 400, description = "Malformed body or an unknown event", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 409, description = "No [webhooks] sealing_key to seal the secret with, or secrets were sealed under another key", body = ErrorEnvelope),
        (status = 422, description = "Not an http(s) URL, an address that is not public and not allowed (`webhook_url_refused`), or an empty event list", body = ErrorEnvelope),
    ))]
pub async fn create_subscription(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<NewSubscription>,
) -> Result<HttpResponse, ApiError> {
    let created = webhooks::subscribe(&state, &admin.name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
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
    let page = page.by_id(&state.cursor_key)?;
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
    webhooks::revoke(&state, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
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
    let page = page.by_id(&state.cursor_key)?;
    Ok(web::Json(read_deliveries(&state, id, page).await?))
}
