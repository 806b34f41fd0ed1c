//! The review queue (admin role): open cases in priority order, one case with its evidence
//! gathered, and the appeals waiting for a decision.

use std::sync::Arc;

use actix_web::web;
use chrono::NaiveDateTime;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::{invalid_query, query_enum};
use crate::api::pagination::{
    checked_limit, decode_cursor, encode_cursor, from_micros_field, invalid_cursor, micros_field,
    Page,
};
use crate::api::state::AppState;
use crate::api::statuses::{AppealStatusFilter, CaseStatusFilter};
use crate::api::views::appeals::QueuedAppeal;
use crate::api::views::queue::{CaseDetailView, CaseListItem, CasePage};
use crate::conduct::admin_view;
use crate::moderation::{max_age_points, priority_with_age, ModerationPolicy, ReportReason};
use crate::store::queue::{self, QueueFilter, QueueKey, Ranking, StatusFilter};
use crate::store::{appeals, case_evidence, player_notes};

/// Notes on the accused shown in a case.
const CASE_NOTES: i64 = 50;
use crate::store::{conduct, to_utc};

/// A queue position at the moment of the first page (`as_of`), so every later page ranks by
/// the same clock and no case moves between pages while the admin reads them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct QueueCursor {
    as_of: NaiveDateTime,
    key: QueueKey,
}

impl QueueCursor {
    fn encode(&self) -> String {
        encode_cursor(
            "queue",
            &[
                micros_field(self.as_of),
                format!("{:016x}", self.key.priority.to_bits()),
                micros_field(self.key.opened_at),
                self.key.id.to_string(),
            ],
        )
    }

    fn decode(cursor: &str) -> Result<QueueCursor, ApiError> {
        let [as_of, priority, opened_at, id] = decode_cursor(cursor, "queue")?;
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
                id: id.parse().map_err(|_| invalid_cursor())?,
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

/// The review queue: cases by priority (age included) descending, then oldest first, then id.
#[utoipa::path(get, path = "/api/v1/admin/cases", tag = "moderation",
    security(("bearer" = [])),
    params(CaseListQuery),
    responses(
        (status = 200, description = "One page of the queue", body = CasePage),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_cases(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<CaseListQuery>,
) -> Result<web::Json<CasePage>, ApiError> {
    let query = query.into_inner();
    let limit = checked_limit(query.limit)? as usize;
    let filter = QueueFilter {
        status: parse_status(query.status.as_deref())?,
        reason: query
            .reason
            .as_deref()
            .map(|r| parse_reason(r).map(|_| r.to_string()))
            .transpose()?,
        claimed: query.claimed,
        accused: query.accused.filter(|name| !name.trim().is_empty()),
        reporter: query.reporter.filter(|name| !name.trim().is_empty()),
    };
    let cursor = query
        .cursor
        .as_deref()
        .map(QueueCursor::decode)
        .transpose()?;
    let now = cursor.map_or_else(crate::store::now, |c| c.as_of);
    let after = cursor.map(|c| c.key);
    let policy: Arc<ModerationPolicy> = Arc::clone(&state.moderation);
    let rows = state
        .read(move |conn| {
            let rank = |base: f64, opened_at: NaiveDateTime| {
                priority_with_age(base, to_utc(opened_at), to_utc(now), &policy)
            };
            let ranking = Ranking {
                priority: &rank,
                max_age_points: max_age_points(&policy),
                now,
            };
            queue::queue_page(conn, &filter, &ranking, after, limit + 1)
        })
        .await?;
    let mut rows = rows;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor = if more {
        rows.last().map(|last| {
            QueueCursor {
                as_of: now,
                key: last.key(),
            }
            .encode()
        })
    } else {
        None
    };
    Ok(web::Json(CasePage {
        items: rows
            .into_iter()
            .map(|q| CaseListItem::from_queued(q, now, &state.moderation))
            .collect::<Result<_, _>>()?,
        next_cursor,
        as_of: to_utc(now),
    }))
}

/// One case with its evidence gathered: entries, games, flagged chat with context, the
/// accused's history and, for pair reasons, the pair's shared games and fingerprints.
#[utoipa::path(get, path = "/api/v1/admin/cases/{id}", tag = "moderation",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "The case", body = CaseDetailView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
    ))]
pub async fn get_case(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<CaseDetailView>, ApiError> {
    let id = id.into_inner();
    let now = crate::store::now();
    let (evidence, record, notes) = state
        .read(move |conn| {
            let Some(evidence) = case_evidence::case_evidence(conn, id)? else {
                return Ok(None);
            };
            let record = conduct::record(conn, &evidence.accused)?;
            let notes = player_notes::of_player(conn, &evidence.accused, None, CASE_NOTES)?;
            Ok::<_, diesel::result::Error>(Some((evidence, record, notes)))
        })
        .await?
        .ok_or_else(|| ApiError::not_found("case_not_found", format!("No case has id {id}.")))?;
    let conduct = record.map(|r| admin_view(&r, to_utc(now), &state.conduct));
    Ok(web::Json(CaseDetailView::from_evidence(
        evidence,
        conduct,
        notes,
        now,
        &state.moderation,
    )?))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AppealListQuery {
    /// Default `open`.
    #[param(value_type = Option<AppealStatusFilter>)]
    pub status: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

fn appeal_cursor(filed_at: NaiveDateTime, id: i64) -> String {
    encode_cursor("appeal", &[micros_field(filed_at), id.to_string()])
}

fn decode_appeal_cursor(cursor: &str) -> Result<(NaiveDateTime, i64), ApiError> {
    let [at, id] = decode_cursor(cursor, "appeal")?;
    Ok((
        from_micros_field(&at)?,
        id.parse().map_err(|_| invalid_cursor())?,
    ))
}

/// Appeals, oldest first (open ones by default): the sanction and the appellant's text.
#[utoipa::path(get, path = "/api/v1/admin/appeals", tag = "moderation",
    security(("bearer" = [])),
    params(AppealListQuery),
    responses(
        (status = 200, description = "One page of appeals", body = Page<QueuedAppeal>),
        (status = 400, description = "Bad status, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_appeals(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<AppealListQuery>,
) -> Result<web::Json<Page<QueuedAppeal>>, ApiError> {
    let query = query.into_inner();
    let limit = checked_limit(query.limit)? as usize;
    let status: Option<&'static str> = match query.status.as_deref() {
        None | Some("open") => Some("open"),
        Some("upheld") => Some("upheld"),
        Some("reduced") => Some("reduced"),
        Some("lifted") => Some("lifted"),
        Some("all") => None,
        Some(_) => {
            return Err(invalid_query(
                "status",
                "`status` must be one of open, upheld, reduced, lifted, all.".to_string(),
            ))
        }
    };
    let after = query
        .cursor
        .as_deref()
        .map(decode_appeal_cursor)
        .transpose()?;
    let mut rows = state
        .read(move |conn| appeals::appeals_page(conn, status, after, limit as i64 + 1))
        .await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor = if more {
        rows.last()
            .map(|r| appeal_cursor(r.appeal.filed_at, r.appeal.id))
    } else {
        None
    };
    Ok(web::Json(Page {
        items: rows
            .into_iter()
            .map(QueuedAppeal::from_listing)
            .collect::<Result<_, _>>()?,
        next_cursor,
    }))
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
                id: 77,
            },
        };
        assert_eq!(QueueCursor::decode(&cursor.encode()).ok(), Some(cursor));
        assert!(QueueCursor::decode("nope").is_err());
        assert!(QueueCursor::decode(&encode_cursor("id", &["5".to_string()])).is_err());
        let nan = format!("{:016x}", f64::NAN.to_bits());
        let fields = ["1".to_string(), nan, "1".to_string(), "1".to_string()];
        assert!(QueueCursor::decode(&encode_cursor("queue", &fields)).is_err());
        let (filed, id) = decode_appeal_cursor(&appeal_cursor(at(5), 9)).unwrap_or_default();
        assert_eq!((filed, id), (at(5), 9));
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
