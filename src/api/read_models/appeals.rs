//! Appeals as admins list them: oldest first, open ones by default, each with the sanction it
//! contests.

use chrono::NaiveDateTime;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::cursor_key::CursorKey;
use crate::api::error::ApiError;
use crate::api::json::invalid_query;
use crate::api::pagination::{
    checked_limit, decode_cursor, encode_cursor, from_micros_field, invalid_cursor, micros_field,
    Page,
};
use crate::api::state::AppState;
use crate::api::statuses::AppealStatusFilter;
use crate::api::views::appeals::QueuedAppeal;
use crate::moderation::AppealStatus;
use crate::store::appeals;

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

fn appeal_cursor(key: &CursorKey, filed_at: NaiveDateTime, id: i64) -> String {
    encode_cursor(key, "appeal", &[micros_field(filed_at), id.to_string()])
}

fn decode_appeal_cursor(key: &CursorKey, cursor: &str) -> Result<(NaiveDateTime, i64), ApiError> {
    let [at, id] = decode_cursor(key, cursor, "appeal")?;
    Ok((
        from_micros_field(&at)?,
        id.parse().map_err(|_| invalid_cursor())?,
    ))
}

/// The stored status `status` asks for; `None` for every status.
fn status_filter(status: Option<&str>) -> Result<Option<AppealStatus>, ApiError> {
    match status {
        None | Some("open") => Ok(Some(AppealStatus::Open)),
        Some("upheld") => Ok(Some(AppealStatus::Upheld)),
        Some("reduced") => Ok(Some(AppealStatus::Reduced)),
        Some("lifted") => Ok(Some(AppealStatus::Lifted)),
        Some("all") => Ok(None),
        Some(_) => Err(invalid_query(
            "status",
            "`status` must be one of open, upheld, reduced, lifted, all.".to_string(),
        )),
    }
}

/// One page of the appeals `query` asks for.
pub async fn read_appeals(
    state: &AppState,
    query: AppealListQuery,
) -> Result<Page<QueuedAppeal>, ApiError> {
    let limit = checked_limit(query.limit)? as usize;
    let status = status_filter(query.status.as_deref())?;
    let after = query
        .cursor
        .as_deref()
        .map(|cursor| decode_appeal_cursor(&state.cursor_key, cursor))
        .transpose()?;
    let mut rows = state
        .read(move |conn| appeals::appeals_page(conn, status, after, limit as i64 + 1))
        .await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor = match rows.last() {
        Some(r) if more => Some(appeal_cursor(
            &state.cursor_key,
            r.appeal.filed_at,
            r.appeal.id.0,
        )),
        _ => None,
    };
    Ok(Page {
        items: rows
            .into_iter()
            .map(QueuedAppeal::from_listing)
            .collect::<Result<_, _>>()?,
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use chrono::DateTime;

    use super::*;

    #[test]
    fn appeal_cursor_round_trips_exactly() {
        let at = |s: i64| {
            DateTime::from_timestamp(s, 123_456_000)
                .map(|d| d.naive_utc())
                .unwrap_or_default()
        };
        let key = CursorKey::from_setting("");
        let (filed, id) =
            decode_appeal_cursor(&key, &appeal_cursor(&key, at(5), 9)).unwrap_or_default();
        assert_eq!((filed, id), (at(5), 9));
    }
}
