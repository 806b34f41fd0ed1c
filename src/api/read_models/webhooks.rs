//! Webhook subscriptions and their deliveries, as admins see them.

use crate::api::error::ApiError;
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::views::webhooks::{DeliveryView, SubscriptionView};
use crate::store::{webhook_outbox, webhook_subscriptions, DbConnection};

pub fn subscription_not_found(id: i64) -> ApiError {
    ApiError::not_found(
        "subscription_not_found",
        format!("No webhook subscription has id {id}."),
    )
}

/// One page of the subscriptions, revoked ones included, oldest first.
pub fn subscriptions_page(
    conn: &mut DbConnection,
    page: IdPage,
) -> Result<Page<SubscriptionView>, ApiError> {
    let rows = webhook_subscriptions::page(conn, page.after_id, page.fetch_limit())?;
    Ok(Page::from_rows(
        rows,
        page,
        |s| s.id,
        SubscriptionView::from,
    ))
}

/// One page of subscription `id`'s deliveries, newest first (the subscription exists).
pub fn deliveries_page(
    conn: &mut DbConnection,
    id: i64,
    page: IdPage,
) -> Result<Page<DeliveryView>, ApiError> {
    let rows = webhook_outbox::deliveries_page(conn, id, page.after_id, page.fetch_limit())?;
    Page::try_from_rows(rows, page, |d| d.id, DeliveryView::from_listing)
}

/// `subscriptions_page` on a pooled connection.
pub async fn read_subscriptions(
    state: &AppState,
    page: IdPage,
) -> Result<Page<SubscriptionView>, ApiError> {
    state.read(move |conn| subscriptions_page(conn, page)).await
}

/// `deliveries_page` on a pooled connection; 404 for a subscription that does not exist.
pub async fn read_deliveries(
    state: &AppState,
    id: i64,
    page: IdPage,
) -> Result<Page<DeliveryView>, ApiError> {
    state
        .read(move |conn| {
            if webhook_subscriptions::find(conn, id)?.is_none() {
                return Err(subscription_not_found(id));
            }
            deliveries_page(conn, id, page)
        })
        .await
}

/// A page of subscriptions, each with its latest deliveries.
pub struct SubscriptionsWithDeliveries {
    pub subscriptions: Page<SubscriptionView>,
    /// Per subscription, in the same order: its latest deliveries, newest first.
    pub deliveries: Vec<Vec<DeliveryView>>,
}

/// A page of subscriptions and the latest deliveries of each, in one read.
pub async fn read_with_deliveries(
    state: &AppState,
    page: IdPage,
    per_subscription: IdPage,
) -> Result<SubscriptionsWithDeliveries, ApiError> {
    state
        .read(move |conn| {
            let subscriptions = subscriptions_page(conn, page)?;
            let deliveries = subscriptions
                .items
                .iter()
                .map(|s| deliveries_page(conn, s.id, per_subscription).map(|d| d.items))
                .collect::<Result<_, _>>()?;
            Ok::<_, ApiError>(SubscriptionsWithDeliveries {
                subscriptions,
                deliveries,
            })
        })
        .await
}
