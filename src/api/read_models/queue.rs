//! The review queue: open cases in priority order (age included), by the queue's filters, a
//! page at a time at one moment.

use chrono::NaiveDateTime;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::cursor_key::CursorKey;
use crate::api::error::ApiError;
use crate::api::json::{invalid_query, query_enum};
use crate::api::pagination::{
    checked_limit, decode_cursor, encode_cursor, from_micros_field, invalid_cursor, micros_field,
};
use crate::api::state::AppState;
use crate::api::statuses::CaseStatusFilter;
use crate::api::views::queue::{CaseListItem, CasePage};
use crate::moderation::CaseId;
use crate::moderation::{max_age_points, priority_with_age, ModerationPolicy, ReportReason};
use crate::store::queue::{self, QueueFilter, QueueKey, Ranking, StatusFilter};
use crate::store::{to_utc, DbConnection};

/// A queue position at the moment of the first page (`as_of`), so every later page ranks by
/// the same clock and no case moves between pages while the admin reads them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct QueueCursor {
    as_of: NaiveDateTime,
    key: QueueKey,
}

impl QueueCursor {
    fn encode(&self, cursor_key: &CursorKey) -> String {
        encode_cursor(
            cursor_key,
            "queue",
            &[
                micros_field(self.as_of),
                format!("{:016x}", self.key.priority.to_bits()),
                micros_field(self.key.opened_at),
                self.key.id.to_string(),
            ],
        )
    }

    fn decode(cursor_key: &CursorKey, cursor: &str) -> Result<QueueCursor, ApiError> {
        let [as_of, priority, opened_at, id] = decode_cursor(cursor_key, cursor, "queue")?;
        let priority = u64::from_str_radix(&priority, 16)
            .map(f64::from_bits)
            .ok()
            .filter(|p| p.is_finite())
            .ok_or_else(invalid_cursor)?;
        Ok(QueueCursor {
            as_of: from_micros_field(&as_of)?,
            key: QueueKey {
                priority,
                opened_at: from_micros_field(&opened_at)?,
                id: CaseId(id.parse().map_err(|_| invalid_cursor())?),
            },
        })
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CaseListQuery {
    /// Default `open`.
    #[param(value_type = Option<CaseStatusFilter>)]
    pub status: Option<String>,
    /// Only cases of this reason.
    #[param(value_type = Option<ReportReason>)]
    pub reason: Option<String>,
    /// `true`: only cases an admin holds now; `false`: only cases nobody holds.
    pub claimed: Option<bool>,
    /// Only cases about this player, by name.
    pub accused: Option<String>,
    /// Only cases holding a report this player filed, by name.
    pub reporter: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

fn parse_reason(text: &str) -> Result<ReportReason, ApiError> {
    query_enum("reason", text, &ReportReason::ALL)
}

fn parse_status(text: Option<&str>) -> Result<StatusFilter, ApiError> {
    match text {
        None | Some("open") => Ok(StatusFilter::Open),
        Some("decided") => Ok(StatusFilter::Decided),
        Some("all") => Ok(StatusFilter::All),
        Some(_) => Err(invalid_query(
            "status",
            "`status` must be one of open, decided, all.".to_string(),
        )),
    }
}

/// A checked queue request: which cases, from where, how many, ranked at which moment.
pub struct CaseListing {
    filter: QueueFilter,
    after: Option<QueueKey>,
    limit: usize,
    now: NaiveDateTime,
    cursor_key: CursorKey,
}

impl CaseListQuery {
    /// The request checked; a page after the first ranks at the first page's moment. A cursor
    /// must be one sealed under `cursor_key`.
    pub fn checked(self, cursor_key: &CursorKey) -> Result<CaseListing, ApiError> {
        let limit = checked_limit(self.limit)? as usize;
        let filter = QueueFilter {
            status: parse_status(self.status.as_deref())?,
            reason: self
                .reason
                .as_deref()
                .map(|r| parse_reason(r).map(|_| r.to_string()))
                .transpose()?,
            claimed: self.claimed,
            accused: self.accused.filter(|name| !name.trim().is_empty()),
            reporter: self.reporter.filter(|name| !name.trim().is_empty()),
        };
        let cursor = self
            .cursor
            .as_deref()
            .map(|cursor| QueueCursor::decode(cursor_key, cursor))
            .transpose()?;
        Ok(CaseListing {
            filter,
            after: cursor.map(|c| c.key),
            limit,
            now: cursor.map_or_else(crate::store::now, |c| c.as_of),
            cursor_key: *cursor_key,
        })
    }
}

/// One page of the queue `listing` asks for.
pub fn cases_page(
    conn: &mut DbConnection,
    listing: &CaseListing,
    policy: &ModerationPolicy,
) -> Result<CasePage, ApiError> {
    let now = listing.now;
    let rank = |base: f64, opened_at: NaiveDateTime| {
        priority_with_age(base, to_utc(opened_at), to_utc(now), policy)
    };
    let ranking = Ranking {
        priority: &rank,
        max_age_points: max_age_points(policy),
        now,
    };
    let limit = listing.limit;
    let mut rows = queue::queue_page(conn, &listing.filter, &ranking, listing.after, limit + 1)?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor = match rows.last() {
        Some(last) if more => Some(
            QueueCursor {
                as_of: now,
                key: last.key(),
            }
            .encode(&listing.cursor_key),
        ),
        _ => None,
    };
    Ok(CasePage {
        items: rows
            .into_iter()
            .map(|q| CaseListItem::from_queued(q, now, policy))
            .collect::<Result<_, _>>()?,
        next_cursor,
        as_of: to_utc(now),
    })
}

/// `cases_page` on a pooled connection.
pub async fn read_cases(state: &AppState, query: CaseListQuery) -> Result<CasePage, ApiError> {
    let listing = query.checked(&state.cursor_key)?;
    let policy = state.moderation.clone();
    state
        .read(move |conn| cases_page(conn, &listing, &policy))
        .await
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;

    use super::*;

    #[test]
    fn queue_cursor_round_trips_exactly_and_refuses_others() {
        let at = |s: i64| {
            DateTime::from_timestamp(s, 123_456_000)
                .map(|d| d.naive_utc())
                .unwrap_or_default()
        };
        let cursor = QueueCursor {
            as_of: at(1_780_000_000),
            key: QueueKey {
                priority: 41.234_567_891_234_5,
                opened_at: at(1_779_000_000),
                id: CaseId(77),
            },
        };
        let key = CursorKey::from_setting("");
        let decode = |text: &str| QueueCursor::decode(&key, text);
        assert_eq!(decode(&cursor.encode(&key)).ok(), Some(cursor));
        assert!(decode("nope").is_err());
        assert!(decode(&encode_cursor(&key, "id", &["5".to_string()])).is_err());
        let nan = format!("{:016x}", f64::NAN.to_bits());
        let fields = ["1".to_string(), nan, "1".to_string(), "1".to_string()];
        assert!(decode(&encode_cursor(&key, "queue", &fields)).is_err());
    }

    #[test]
    fn reasons_and_statuses_are_checked() {
        assert!(parse_reason("self_partnering").is_ok());
        let error = parse_reason("cheating").err().map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("prearranged_teaming")));
        assert_eq!(parse_status(None).ok(), Some(StatusFilter::Open));
        assert!(parse_status(Some("closed")).is_err());
    }
}
