//! The `refunds_due` event in the webhook outbox (`webhook_events`, `webhook_deliveries`): like
//! a sanction event, written in the transaction of the decision it follows, with one delivery
//! per live subscription that wants it; unlike one, it names a case, and the unique key (kind,
//! case) lets a case announce its refunds once whatever happens to it later.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{webhook_deliveries, webhook_events, webhook_subscriptions};
use super::webhook_subscriptions::events_of;
use crate::moderation::{CaseId, RefundsDueEvent, SanctionEventKind};

/// Writes the event and its deliveries unless the case announced its refunds already; returns
/// whether it wrote them. Without subscribers there is nobody to tell, and nothing is kept.
pub fn emit_refunds_due(
    conn: &mut DbConnection,
    case_id: CaseId,
    event: &RefundsDueEvent,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let kind = SanctionEventKind::RefundsDue;
    let subscriptions: Vec<(i64, String)> = webhook_subscriptions::table
        .filter(webhook_subscriptions::revoked_at.is_null())
        .select((webhook_subscriptions::id, webhook_subscriptions::events))
        .load(conn)?;
    let wanting: Vec<i64> = subscriptions
        .into_iter()
        .filter(|(_, events)| events_of(events).contains(&kind))
        .map(|(id, _)| id)
        .collect();
    if wanting.is_empty() || announced(conn, case_id)? {
        return Ok(false);
    }
    let body = serde_json::to_string(event)
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    let id = insert_returning_id!(
        conn,
        webhook_events::table,
        (
            webhook_events::event_id.eq(&event.id),
            webhook_events::kind.eq(kind.name()),
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
    Ok(true)
}

/// Whether the case's `refunds_due` event is already in the outbox.
pub fn announced(conn: &mut DbConnection, case_id: CaseId) -> QueryResult<bool> {
    let count: i64 = webhook_events::table
        .filter(webhook_events::kind.eq(SanctionEventKind::RefundsDue.name()))
        .filter(webhook_events::case_id.eq(case_id))
        .count()
        .get_result(conn)?;
    Ok(count > 0)
}
