//! Keyset pagination: `?limit=&cursor=` in, `next_cursor` out. Cursors are opaque to callers
//! and sealed (`cursor_key`): a cursor this service did not issue answers 400 `invalid_cursor`.

use chrono::{DateTime, NaiveDateTime};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::cursor_key::CursorKey;
use super::error::ApiError;

pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 200;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

/// A resolved page request over an integer key, with the key that seals the cursor of the
/// page after it.
#[derive(Debug, Clone, Copy)]
pub struct IdPage {
    pub after_id: Option<i64>,
    pub limit: i64,
    pub cursor_key: CursorKey,
}

impl PageQuery {
    /// The page asked for; a cursor must be one sealed under `cursor_key`.
    pub fn by_id(&self, cursor_key: &CursorKey) -> Result<IdPage, ApiError> {
        let limit = checked_limit(self.limit)?;
        let after_id = self
            .cursor
            .as_deref()
            .map(|cursor| {
                let [id] = decode_cursor(cursor_key, cursor, "id")?;
                id.parse().map_err(|_| invalid_cursor())
            })
            .transpose()?;
        Ok(IdPage {
            after_id,
            limit: i64::from(limit),
            cursor_key: *cursor_key,
        })
    }
}

/// A page size from `limit`: 1 to `MAX_LIMIT`, `DEFAULT_LIMIT` when absent.
pub fn checked_limit(limit: Option<u32>) -> Result<u32, ApiError> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(ApiError::bad_request(
            "invalid_limit",
            format!("`limit` must be between 1 and {MAX_LIMIT}."),
        ));
    }
    Ok(limit)
}

/// Every list's cursor: the list's kind and the last item's sort key, as `kind:field:...`,
/// sealed under `key` so that callers can neither read nor write one.
pub fn encode_cursor(key: &CursorKey, kind: &str, fields: &[String]) -> String {
    let mut text = kind.to_string();
    for field in fields {
        text.push(':');
        text.push_str(field);
    }
    key.seal(text.as_bytes())
}

/// The `N` fields of a cursor of `kind` sealed under `key`, or 400 `invalid_cursor`.
pub fn decode_cursor<const N: usize>(
    key: &CursorKey,
    cursor: &str,
    kind: &str,
) -> Result<[String; N], ApiError> {
    let bytes = key.open(cursor).ok_or_else(invalid_cursor)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| invalid_cursor())?;
    let mut parts = text.split(':');
    if parts.next() != Some(kind) {
        return Err(invalid_cursor());
    }
    let fields: Vec<String> = parts.map(str::to_string).collect();
    fields.try_into().map_err(|_| invalid_cursor())
}

pub fn encode_id_cursor(key: &CursorKey, id: i64) -> String {
    encode_cursor(key, "id", &[id.to_string()])
}

/// A time as a cursor field (microseconds since the epoch, as stored).
pub fn micros_field(at: NaiveDateTime) -> String {
    at.and_utc().timestamp_micros().to_string()
}

/// A cursor field written by `micros_field`.
pub fn from_micros_field(field: &str) -> Result<NaiveDateTime, ApiError> {
    field
        .parse()
        .ok()
        .and_then(DateTime::from_timestamp_micros)
        .map(|at| at.naive_utc())
        .ok_or_else(invalid_cursor)
}

pub fn invalid_cursor() -> ApiError {
    ApiError::bad_request(
        "invalid_cursor",
        "`cursor` is not a cursor this API returned.",
    )
}

/// One page of results.
#[derive(Debug, Serialize, ToSchema)]
pub struct Page<T: ToSchema> {
    pub items: Vec<T>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

impl IdPage {
    /// Rows to fetch: one more than the page, to learn whether another page follows.
    pub fn fetch_limit(&self) -> i64 {
        self.limit + 1
    }
}

impl<T: ToSchema> Page<T> {
    /// Builds a page from rows fetched with `page.fetch_limit()`.
    pub fn from_rows<R>(
        mut rows: Vec<R>,
        page: IdPage,
        key: impl Fn(&R) -> i64,
        view: impl Fn(R) -> T,
    ) -> Page<T> {
        let next_cursor = cut_to_page(&mut rows, page, key);
        Page {
            items: rows.into_iter().map(view).collect(),
            next_cursor,
        }
    }

    /// `from_rows` with a view that can fail (a stored value the view's type does not hold).
    pub fn try_from_rows<R, E>(
        mut rows: Vec<R>,
        page: IdPage,
        key: impl Fn(&R) -> i64,
        view: impl Fn(R) -> Result<T, E>,
    ) -> Result<Page<T>, E> {
        let next_cursor = cut_to_page(&mut rows, page, key);
        Ok(Page {
            items: rows.into_iter().map(view).collect::<Result<_, _>>()?,
            next_cursor,
        })
    }
}

/// Drops the row past the page; the cursor of the next page when there was one.
fn cut_to_page<R>(rows: &mut Vec<R>, page: IdPage, key: impl Fn(&R) -> i64) -> Option<String> {
    let keep = usize::try_from(page.limit).unwrap_or(usize::MAX);
    let more = rows.len() > keep;
    rows.truncate(keep);
    if more {
        rows.last()
            .map(|row| encode_id_cursor(&page.cursor_key, key(row)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trip_and_limits() {
        let key = CursorKey::from_setting("");
        let q = PageQuery {
            limit: Some(10),
            cursor: Some(encode_id_cursor(&key, 42)),
        };
        let page = q.by_id(&key).ok().map(|p| (p.after_id, p.limit));
        assert_eq!(page, Some((Some(42), 10)));
        let other_key = CursorKey::from_setting("");
        assert!(q.by_id(&other_key).is_err(), "sealed under another key");
        assert!(PageQuery {
            limit: Some(0),
            cursor: None
        }
        .by_id(&key)
        .is_err());
        assert!(PageQuery {
            limit: Some(MAX_LIMIT + 1),
            cursor: None
        }
        .by_id(&key)
        .is_err());
        assert!(PageQuery {
            limit: None,
            cursor: Some("nope!".into())
        }
        .by_id(&key)
        .is_err());
    }
}
