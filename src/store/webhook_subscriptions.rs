//! Webhook subscriptions (`webhook_subscriptions`): where game servers want sanction events,
//! which events, and the secret that signs them. The secret and the URL's credentials are
//! stored sealed (`webhook_sealing`); this file stores and reads what it is given.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::players;
use super::schema::{players as players_table, webhook_subscriptions};
use super::webhook_sealing::SEALED_PREFIX;
use crate::moderation::WebhookEventKind;

/// A subscription as listed (never with its secret or the URL's credentials).
#[derive(Debug, Clone, PartialEq)]
pub struct SubscriptionListing {
    pub id: i64,
    /// As stored: a legacy row's may still hold credentials, which views remove.
    pub url: String,
    /// Whether sealed URL credentials are stored.
    pub sealed_credentials: bool,
    pub events: Vec<WebhookEventKind>,
    pub created_by: String,
    pub created_at: NaiveDateTime,
    pub revoked_at: Option<NaiveDateTime>,
}

/// The stored form of an event list.
pub fn events_text(events: &[WebhookEventKind]) -> String {
    events
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// The event list of a stored subscription (unknown names are skipped).
pub fn events_of(text: &str) -> Vec<WebhookEventKind> {
    text.split(',')
        .filter_map(WebhookEventKind::from_name)
        .collect()
}

/// A subscription's stored values: the URL without credentials, and the sealed credentials
/// and secret.
#[derive(Debug, Clone, Copy)]
pub struct StoredTarget<'a> {
    pub url: &'a str,
    pub url_credentials: Option<&'a str>,
    pub secret: &'a str,
}

/// Stores a subscription and returns its id.
pub fn create(
    conn: &mut DbConnection,
    target: StoredTarget<'_>,
    events: &[WebhookEventKind],
    admin: &str,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    conn.transaction(|conn| {
        let admin_id = players::id_or_create(conn, admin, now)?;
        insert_returning_id!(
            conn,
            webhook_subscriptions::table,
            (
                webhook_subscriptions::url.eq(target.url),
                webhook_subscriptions::url_credentials.eq(target.url_credentials),
                webhook_subscriptions::secret.eq(target.secret),
                webhook_subscriptions::events.eq(events_text(events)),
                webhook_subscriptions::created_by.eq(admin_id),
                webhook_subscriptions::created_at.eq(now),
            ),
            webhook_subscriptions::id
        )
    })
}

type ListingRow = (
    i64,
    String,
    Option<String>,
    String,
    String,
    NaiveDateTime,
    Option<NaiveDateTime>,
);

fn listing(
    (id, url, credentials, events, created_by, created_at, revoked_at): ListingRow,
) -> SubscriptionListing {
    SubscriptionListing {
        id,
        url,
        sealed_credentials: credentials.is_some(),
        events: events_of(&events),
        created_by,
        created_at,
        revoked_at,
    }
}

/// The listing columns, with the maker's name (joined from `players`).
macro_rules! listing_query {
    () => {
        webhook_subscriptions::table
            .inner_join(
                players_table::table.on(players_table::id.eq(webhook_subscriptions::created_by)),
            )
            .select((
                webhook_subscriptions::id,
                webhook_subscriptions::url,
                webhook_subscriptions::url_credentials,
                webhook_subscriptions::events,
                players_table::name,
                webhook_subscriptions::created_at,
                webhook_subscriptions::revoked_at,
            ))
    };
}

/// Subscriptions by id, revoked ones included, after `after_id`.
pub fn page(
    conn: &mut DbConnection,
    after_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<SubscriptionListing>> {
    let mut query = listing_query!()
        .order(webhook_subscriptions::id.asc())
        .limit(limit)
        .into_boxed();
    if let Some(after) = after_id {
        query = query.filter(webhook_subscriptions::id.gt(after));
    }
    Ok(query
        .load::<ListingRow>(conn)?
        .into_iter()
        .map(listing)
        .collect())
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<SubscriptionListing>> {
    Ok(listing_query!()
        .filter(webhook_subscriptions::id.eq(id))
        .first::<ListingRow>(conn)
        .optional()?
        .map(listing))
}

/// Stops deliveries to a subscription; `false` when there is none or it was revoked already.
pub fn revoke(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> QueryResult<bool> {
    let changed = diesel::update(
        webhook_subscriptions::table
            .filter(webhook_subscriptions::id.eq(id))
            .filter(webhook_subscriptions::revoked_at.is_null()),
    )
    .set(webhook_subscriptions::revoked_at.eq(now))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Whether any subscription holds a sealed value (which only its key opens).
pub fn any_sealed(conn: &mut DbConnection) -> QueryResult<bool> {
    let pattern = format!("{SEALED_PREFIX}%");
    diesel::select(diesel::dsl::exists(
        webhook_subscriptions::table.filter(
            webhook_subscriptions::secret
                .like(pattern)
                .or(webhook_subscriptions::url_credentials.is_not_null()),
        ),
    ))
    .get_result(conn)
}

/// A subscription written before sealing: its plain secret, and its URL with any
/// credentials still in it.
#[derive(Clone, PartialEq, Eq)]
pub struct LegacyRow {
    pub id: i64,
    pub url: String,
    pub secret: String,
}

// Hand-written so the plain secret never reaches a log line.
impl std::fmt::Debug for LegacyRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LegacyRow")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// The subscriptions whose secret is not sealed.
pub fn legacy_rows(conn: &mut DbConnection) -> QueryResult<Vec<LegacyRow>> {
    let pattern = format!("{SEALED_PREFIX}%");
    let rows: Vec<(i64, String, String)> = webhook_subscriptions::table
        .filter(webhook_subscriptions::secret.not_like(pattern))
        .select((
            webhook_subscriptions::id,
            webhook_subscriptions::url,
            webhook_subscriptions::secret,
        ))
        .order(webhook_subscriptions::id.asc())
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, url, secret)| LegacyRow { id, url, secret })
        .collect())
}

/// Replaces a legacy row's values by their sealed forms, unless another instance did first
/// (the secret is no longer the legacy one); `true` when this call did.
pub fn seal_legacy(
    conn: &mut DbConnection,
    legacy: &LegacyRow,
    sealed: StoredTarget<'_>,
) -> QueryResult<bool> {
    let changed = diesel::update(
        webhook_subscriptions::table
            .filter(webhook_subscriptions::id.eq(legacy.id))
            .filter(webhook_subscriptions::secret.eq(&legacy.secret)),
    )
    .set((
        webhook_subscriptions::url.eq(sealed.url),
        webhook_subscriptions::url_credentials.eq(sealed.url_credentials),
        webhook_subscriptions::secret.eq(sealed.secret),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
