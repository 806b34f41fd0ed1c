//! The webhook outbox (`webhook_events`, `webhook_deliveries`, `webhook_attempts`): an event
//! (about a sanction, or about a decided case) is written in the same transaction as the change it announces, with one delivery per
//! subscription that wants it; deliverers lease due deliveries, so of several instances one
//! sends each at a time, and record every attempt with its retry schedule.

use chrono::{NaiveDateTime, TimeDelta};
use diesel::prelude::*;

use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{
    players, sanctions, webhook_attempts, webhook_deliveries, webhook_events, webhook_subscriptions,
};
use super::to_utc;
use super::webhook_subscriptions::events_of;
use serde::Serialize;

use crate::moderation::alert::AlertEvent;
use crate::moderation::{
    CaseId, Language, SanctionEvent, SanctionId, SanctionKind, WebhookEventKind,
};

/// The live subscriptions that want `kind`.
fn wanting(conn: &mut DbConnection, kind: WebhookEventKind) -> QueryResult<Vec<i64>> {
    let subscriptions: Vec<(i64, String)> = webhook_subscriptions::table
        .filter(webhook_subscriptions::revoked_at.is_null())
        .select((webhook_subscriptions::id, webhook_subscriptions::events))
        .load(conn)?;
    Ok(subscriptions
        .into_iter()
        .filter(|(_, events)| events_of(events).contains(&kind))
        .map(|(id, _)| id)
        .collect())
}

/// What an event is about: a sanction, a decided case, or an alert (whose own table keeps
/// it once per rule and case).
#[derive(Debug, Clone, Copy)]
enum Subject {
    Sanction(SanctionId),
    Case(CaseId),
    Alert,
}

/// Writes one event and a pending delivery for each subscription in `wanting`.
fn write_event(
    conn: &mut DbConnection,
    kind: WebhookEventKind,
    subject: Subject,
    event_id: &str,
    body: &impl Serialize,
    wanting: Vec<i64>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let body = serde_json::to_string(body)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let (sanction_id, case_id) = match subject {
        Subject::Sanction(id) => (Some(id), None),
        Subject::Case(id) => (None, Some(id)),
        Subject::Alert => (None, None),
    };
    let id = insert_returning_id!(
        conn,
        webhook_events::table,
        (
            webhook_events::event_id.eq(event_id),
            webhook_events::kind.eq(kind.name()),
            webhook_events::sanction_id.eq(sanction_id),
            webhook_events::case_id.eq(case_id),
            webhook_events::body.eq(&body),
            webhook_events::created_at.eq(now),
        ),
        webhook_events::id
    )?;
    for subscription in wanting {
        diesel::insert_into(webhook_deliveries::table)
            .values((
                webhook_deliveries::event_id.eq(id),
                webhook_deliveries::subscription_id.eq(subscription),
                webhook_deliveries::status.eq("pending"),
                webhook_deliveries::attempts.eq(0),
                webhook_deliveries::next_attempt_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Writes the event announcing `kind` for the sanction (as it now stands), and a pending
/// delivery for each live subscription that wants it. Runs in the caller's transaction.
pub fn emit(
    conn: &mut DbConnection,
    kind: WebhookEventKind,
    sanction_id: SanctionId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let wanting = wanting(conn, kind)?;
    // Without subscribers there is nobody to tell, and nothing to keep.
    if wanting.is_empty() {
        return Ok(());
    }
    let row: SanctionRow = sanctions::table
        .find(sanction_id)
        .select(SanctionRow::as_select())
        .first(conn)?;
    let player: String = players::table
        .find(row.player_id)
        .select(players::name)
        .first(conn)?;
    let members = if row.kind == SanctionKind::Separation {
        super::separations::member_names(conn, &[sanction_id])?
            .remove(&sanction_id)
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let event_id = uuid::Uuid::new_v4().to_string();
    let event = SanctionEvent::new(
        event_id.clone(),
        kind,
        &row.to_policy(),
        &player,
        to_utc(now),
    )
    .with_members(members)
    .with_texts(
        row.language.unwrap_or(Language::En),
        row.player_note.clone().unwrap_or_else(|| row.note.clone()),
        row.note.clone(),
    );
    write_event(
        conn,
        kind,
        Subject::Sanction(sanction_id),
        &event_id,
        &event,
        wanting,
        now,
    )
}

/// Writes an event about a decided case (`refunds_due`, `warning_issued`, `report_decided`)
/// and its deliveries, unless the case announced this kind already; returns whether it wrote
/// them. Without subscribers there is nobody to tell, and nothing is kept. Runs in the
/// caller's transaction.
/// Writes a fired alert's `case_needs_attention` event for the subscriptions that want it,
/// in the caller's transaction (the one that stored the alert); returns whether any did.
pub fn emit_alert(
    conn: &mut DbConnection,
    event: &AlertEvent,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let kind = WebhookEventKind::CaseNeedsAttention;
    let wanting = wanting(conn, kind)?;
    if wanting.is_empty() {
        return Ok(false);
    }
    write_event(conn, kind, Subject::Alert, &event.id, event, wanting, now)?;
    Ok(true)
}

pub fn emit_case_event(
    conn: &mut DbConnection,
    kind: WebhookEventKind,
    case_id: CaseId,
    event_id: &str,
    body: &impl Serialize,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let wanting = wanting(conn, kind)?;
    if wanting.is_empty() || announced(conn, kind, case_id)? {
        return Ok(false);
    }
    write_event(
        conn,
        kind,
        Subject::Case(case_id),
        event_id,
        body,
        wanting,
        now,
    )?;
    Ok(true)
}

/// Whether the case's event of this kind is already in the outbox.
pub fn announced(
    conn: &mut DbConnection,
    kind: WebhookEventKind,
    case_id: CaseId,
) -> QueryResult<bool> {
    let count: i64 = webhook_events::table
        .filter(webhook_events::kind.eq(kind.name()))
        .filter(webhook_events::case_id.eq(case_id))
        .count()
        .get_result(conn)?;
    Ok(count > 0)
}

/// Announces the ends of timed sanctions that have passed (not lifted, not yet announced), at
/// most `limit` of them; each is marked in the same transaction as its event, so of several
/// instances exactly one announces it. Returns how many were announced.
pub fn announce_ended(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    limit: i64,
) -> QueryResult<usize> {
    let ended: Vec<SanctionId> = sanctions::table
        .filter(sanctions::end_announced_at.is_null())
        .filter(sanctions::lifted_at.is_null())
        .filter(
            sanctions::reduced_until
                .le(now)
                .or(sanctions::ends_at.le(now)),
        )
        .select(sanctions::id)
        .order(sanctions::id.asc())
        .limit(limit)
        .load(conn)?;
    let mut announced = 0;
    for id in ended {
        let mine = conn.transaction(|conn| {
            let marked = diesel::update(
                sanctions::table
                    .filter(sanctions::id.eq(id))
                    .filter(sanctions::end_announced_at.is_null()),
            )
            .set(sanctions::end_announced_at.eq(now))
            .execute(conn)?;
            if marked == 1 {
                emit(conn, WebhookEventKind::SanctionEnded, id, now)?;
            }
            Ok::<_, diesel::result::Error>(marked == 1)
        })?;
        announced += usize::from(mine);
    }
    Ok(announced)
}

/// A delivery leased to this deliverer, with what sending it needs.
#[derive(Clone, PartialEq)]
pub struct DueDelivery {
    pub delivery_id: i64,
    /// As stored: without credentials, or a legacy URL with them.
    pub url: String,
    /// Sealed, if the URL has credentials.
    pub url_credentials: Option<String>,
    /// Sealed, or a legacy plain secret.
    pub secret: String,
    pub event_id: String,
    pub kind: String,
    pub body: String,
    pub attempts: i32,
}

// Hand-written so a legacy plain secret, or a URL's credentials, never reach a log line.
impl std::fmt::Debug for DueDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DueDelivery")
            .field("delivery_id", &self.delivery_id)
            .field("event_id", &self.event_id)
            .field("kind", &self.kind)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

/// Leases up to `limit` due deliveries until `now + lease`. Each lease is a conditional
/// update, so two deliverers never both hold one; a deliverer that dies loses its lease when
/// it runs out, and another sends the delivery again (at least once).
pub fn lease_due(
    conn: &mut DbConnection,
    now: NaiveDateTime,
    lease: TimeDelta,
    limit: i64,
) -> QueryResult<Vec<DueDelivery>> {
    type Row = (
        i64,
        String,
        Option<String>,
        String,
        String,
        String,
        String,
        i32,
    );
    let due: Vec<Row> = webhook_deliveries::table
        .inner_join(webhook_events::table)
        .inner_join(webhook_subscriptions::table)
        .filter(webhook_deliveries::status.eq("pending"))
        .filter(webhook_deliveries::next_attempt_at.le(now))
        .filter(
            webhook_deliveries::lease_until
                .is_null()
                .or(webhook_deliveries::lease_until.lt(now)),
        )
        .filter(webhook_subscriptions::revoked_at.is_null())
        .order(webhook_deliveries::next_attempt_at.asc())
        .limit(limit)
        .select((
            webhook_deliveries::id,
            webhook_subscriptions::url,
            webhook_subscriptions::url_credentials,
            webhook_subscriptions::secret,
            webhook_events::event_id,
            webhook_events::kind,
            webhook_events::body,
            webhook_deliveries::attempts,
        ))
        .load(conn)?;
    let mut leased = Vec::with_capacity(due.len());
    for (delivery_id, url, url_credentials, secret, event_id, kind, body, attempts) in due {
        let taken = diesel::update(
            webhook_deliveries::table
                .filter(webhook_deliveries::id.eq(delivery_id))
                .filter(webhook_deliveries::status.eq("pending"))
                .filter(
                    webhook_deliveries::lease_until
                        .is_null()
                        .or(webhook_deliveries::lease_until.lt(now)),
                ),
        )
        .set(webhook_deliveries::lease_until.eq(now + lease))
        .execute(conn)?;
        if taken == 1 {
            leased.push(DueDelivery {
                delivery_id,
                url,
                url_credentials,
                secret,
                event_id,
                kind,
                body,
                attempts,
            });
        }
    }
    Ok(leased)
}

/// How retries are spaced: `base` after the first failure, doubling up to `max`; after
/// `max_attempts` attempts a delivery is given up (status `failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetrySchedule {
    pub base: TimeDelta,
    pub max: TimeDelta,
    pub max_attempts: u32,
}

impl RetrySchedule {
    /// The wait after the `failures`-th failed attempt (1-based).
    pub fn delay_after(&self, failures: u32) -> TimeDelta {
        let doublings = failures.saturating_sub(1).min(30);
        let factor = 1_i32 << doublings;
        self.base
            .checked_mul(factor)
            .map_or(self.max, |delay| delay.min(self.max))
    }
}

/// What one attempt found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptResult {
    /// The receiver's status, if it answered.
    pub status_code: Option<u16>,
    /// Why it failed, if it did.
    pub error: Option<String>,
    pub duration_ms: i64,
}

impl AttemptResult {
    pub fn succeeded(&self) -> bool {
        self.error.is_none() && self.status_code.is_some_and(|s| (200..300).contains(&s))
    }
}

/// What an attempt changes on its delivery; `None` leaves a column as it is.
#[derive(AsChangeset)]
#[diesel(table_name = webhook_deliveries)]
struct AfterAttempt {
    status: Option<&'static str>,
    attempts: i32,
    next_attempt_at: Option<NaiveDateTime>,
    delivered_at: Option<NaiveDateTime>,
    /// `Some(None)`: the lease ends.
    lease_until: Option<Option<NaiveDateTime>>,
}

/// Records an attempt and what follows from it, in one transaction: delivered, the next try
/// scheduled, or given up. The lease ends either way.
pub fn record_attempt(
    conn: &mut DbConnection,
    delivery: &DueDelivery,
    result: &AttemptResult,
    schedule: &RetrySchedule,
    now: NaiveDateTime,
) -> QueryResult<()> {
    conn.transaction(|conn| {
        diesel::insert_into(webhook_attempts::table)
            .values((
                webhook_attempts::delivery_id.eq(delivery.delivery_id),
                webhook_attempts::attempted_at.eq(now),
                webhook_attempts::status_code.eq(result.status_code.map(i32::from)),
                webhook_attempts::error.eq(result.error.as_deref()),
                webhook_attempts::duration_ms.eq(result.duration_ms),
            ))
            .execute(conn)?;
        let attempts = delivery.attempts.saturating_add(1);
        let failures = u32::try_from(attempts).unwrap_or(u32::MAX);
        let mut after = AfterAttempt {
            status: None,
            attempts,
            next_attempt_at: None,
            delivered_at: None,
            lease_until: Some(None),
        };
        if result.succeeded() {
            after.status = Some("delivered");
            after.delivered_at = Some(now);
        } else if failures >= schedule.max_attempts {
            after.status = Some("failed");
        } else {
            after.next_attempt_at = Some(now + schedule.delay_after(failures));
        }
        diesel::update(webhook_deliveries::table.find(delivery.delivery_id))
            .set(&after)
            .execute(conn)?;
        Ok(())
    })
}

/// A delivery as admins see it, with its attempts (oldest first).
#[derive(Debug, Clone, PartialEq)]
pub struct DeliveryListing {
    pub id: i64,
    pub event_id: String,
    pub kind: String,
    /// `None` for an event about a case (`refunds_due`).
    pub sanction_id: Option<i64>,
    pub status: String,
    pub attempts: i32,
    pub next_attempt_at: NaiveDateTime,
    pub delivered_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub tries: Vec<AttemptListing>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AttemptListing {
    pub attempted_at: NaiveDateTime,
    pub status_code: Option<i32>,
    pub error: Option<String>,
    pub duration_ms: i64,
}

/// A subscription's deliveries, newest first, before `before_id`.
pub fn deliveries_page(
    conn: &mut DbConnection,
    subscription_id: i64,
    before_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<DeliveryListing>> {
    type Row = (
        i64,
        String,
        String,
        Option<i64>,
        String,
        i32,
        NaiveDateTime,
        Option<NaiveDateTime>,
        NaiveDateTime,
    );
    let mut query = webhook_deliveries::table
        .inner_join(webhook_events::table)
        .filter(webhook_deliveries::subscription_id.eq(subscription_id))
        .order(webhook_deliveries::id.desc())
        .limit(limit)
        .select((
            webhook_deliveries::id,
            webhook_events::event_id,
            webhook_events::kind,
            webhook_events::sanction_id,
            webhook_deliveries::status,
            webhook_deliveries::attempts,
            webhook_deliveries::next_attempt_at,
            webhook_deliveries::delivered_at,
            webhook_events::created_at,
        ))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(webhook_deliveries::id.lt(before));
    }
    let rows: Vec<Row> = query.load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    type AttemptRow = (i64, NaiveDateTime, Option<i32>, Option<String>, i64);
    let attempts: Vec<AttemptRow> = webhook_attempts::table
        .filter(webhook_attempts::delivery_id.eq_any(&ids))
        .order(webhook_attempts::id.asc())
        .select((
            webhook_attempts::delivery_id,
            webhook_attempts::attempted_at,
            webhook_attempts::status_code,
            webhook_attempts::error,
            webhook_attempts::duration_ms,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, event_id, kind, sanction_id, status, count, next, delivered, created)| {
                DeliveryListing {
                    id,
                    event_id,
                    kind,
                    sanction_id,
                    status,
                    attempts: count,
                    next_attempt_at: next,
                    delivered_at: delivered,
                    created_at: created,
                    tries: attempts
                        .iter()
                        .filter(|a| a.0 == id)
                        .map(|a| AttemptListing {
                            attempted_at: a.1,
                            status_code: a.2,
                            error: a.3.clone(),
                            duration_ms: a.4,
                        })
                        .collect(),
                }
            },
        )
        .collect())
}
