//! `api_tokens`: opaque tokens of the `server` and `admin` roles, stored as SHA-256 hashes.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::api_tokens;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Identifiable)]
#[diesel(table_name = api_tokens)]
pub struct ApiTokenRow {
    pub id: i64,
    pub name: String,
    /// `server` or `admin` (checked by the table).
    pub role: String,
    /// Lower-case hex SHA-256 of the token.
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = api_tokens)]
pub struct NewApiToken<'a> {
    pub name: &'a str,
    pub role: &'a str,
    pub token_hash: &'a str,
    pub created_at: NaiveDateTime,
}

/// Inserts and reads the row back by its unique hash (RETURNING is not available through
/// the multi-backend connection).
pub fn insert(conn: &mut DbConnection, new: &NewApiToken<'_>) -> QueryResult<ApiTokenRow> {
    conn.transaction(|conn| {
        diesel::insert_into(api_tokens::table)
            .values(new)
            .execute(conn)?;
        api_tokens::table
            .filter(api_tokens::token_hash.eq(new.token_hash))
            .select(ApiTokenRow::as_select())
            .first(conn)
    })
}

/// The token with this hash, revoked or not (the caller decides what revocation means).
/// Every authenticated server and admin request runs it: on the native connection (see
/// `on_backend`).
pub fn find_by_hash(conn: &mut DbConnection, hash: &str) -> QueryResult<Option<ApiTokenRow>> {
    on_backend!(conn, c => api_tokens::table
        .filter(api_tokens::token_hash.eq(hash))
        .select(ApiTokenRow::as_select())
        .first(c)
        .optional())
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<ApiTokenRow>> {
    api_tokens::table
        .find(id)
        .select(ApiTokenRow::as_select())
        .first(conn)
        .optional()
}

/// One page in id order: at most `limit` rows with id greater than `after_id`.
pub fn list_page(
    conn: &mut DbConnection,
    after_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<ApiTokenRow>> {
    api_tokens::table
        .filter(api_tokens::id.gt(after_id.unwrap_or(0)))
        .order(api_tokens::id.asc())
        .limit(limit)
        .select(ApiTokenRow::as_select())
        .load(conn)
}

/// Marks the token revoked (keeping the first revocation time). Returns the row, or None when
/// no token has this id.
pub fn revoke(
    conn: &mut DbConnection,
    id: i64,
    at: NaiveDateTime,
) -> QueryResult<Option<ApiTokenRow>> {
    conn.transaction(|conn| {
        diesel::update(
            api_tokens::table
                .filter(api_tokens::id.eq(id))
                .filter(api_tokens::revoked_at.is_null()),
        )
        .set(api_tokens::revoked_at.eq(at))
        .execute(conn)?;
        find(conn, id)
    })
}

/// Records use of the token unless it was recorded after `stale_before`; this keeps
/// authentication from writing on every request.
pub fn touch_last_used(
    conn: &mut DbConnection,
    id: i64,
    at: NaiveDateTime,
    stale_before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        api_tokens::table.filter(api_tokens::id.eq(id)).filter(
            api_tokens::last_used_at
                .is_null()
                .or(api_tokens::last_used_at.lt(stale_before)),
        ),
    )
    .set(api_tokens::last_used_at.eq(at))
    .execute(conn)
}
