//! `console_sessions`: the admin console's sign-ins. The cookie's value is never stored, only
//! its SHA-256; a session is found by that hash together with the admin token it came from,
//! so a revoked token ends its sessions at once.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{api_tokens, console_sessions};

/// What a new sign-in stores.
#[derive(Debug, Insertable)]
#[diesel(table_name = console_sessions)]
pub struct NewSession<'a> {
    pub session_hash: &'a str,
    pub token_id: i64,
    pub admin_name: &'a str,
    pub user_agent: &'a str,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

/// A stored session with its token's revocation, whatever its state.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct SessionRow {
    pub id: i64,
    pub token_id: i64,
    pub admin_name: String,
    pub user_agent: String,
    pub created_at: NaiveDateTime,
    pub last_seen_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub ended_at: Option<NaiveDateTime>,
    pub flash: Option<String>,
    pub token_revoked_at: Option<NaiveDateTime>,
}

type SessionColumns = (
    console_sessions::id,
    console_sessions::token_id,
    console_sessions::admin_name,
    console_sessions::user_agent,
    console_sessions::created_at,
    console_sessions::last_seen_at,
    console_sessions::expires_at,
    console_sessions::ended_at,
    console_sessions::flash,
    api_tokens::revoked_at,
);

const SESSION_COLUMNS: SessionColumns = (
    console_sessions::id,
    console_sessions::token_id,
    console_sessions::admin_name,
    console_sessions::user_agent,
    console_sessions::created_at,
    console_sessions::last_seen_at,
    console_sessions::expires_at,
    console_sessions::ended_at,
    console_sessions::flash,
    api_tokens::revoked_at,
);

/// Stores a new session and returns its id.
pub fn open(conn: &mut DbConnection, new: &NewSession<'_>) -> QueryResult<i64> {
    insert_returning_id!(conn, console_sessions::table, new, console_sessions::id)
}

/// The session whose cookie hashes to `hash`, in whatever state it is.
pub fn find_by_hash(conn: &mut DbConnection, hash: &str) -> QueryResult<Option<SessionRow>> {
    console_sessions::table
        .inner_join(api_tokens::table)
        .filter(console_sessions::session_hash.eq(hash))
        .select(SESSION_COLUMNS)
        .first(conn)
        .optional()
}

/// Records use of the session, at most once per `stale_before` (the condition keeps two
/// requests from both writing).
pub fn touch(
    conn: &mut DbConnection,
    id: i64,
    at: NaiveDateTime,
    stale_before: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(
        console_sessions::table
            .filter(console_sessions::id.eq(id))
            .filter(console_sessions::last_seen_at.lt(stale_before)),
    )
    .set(console_sessions::last_seen_at.eq(at))
    .execute(conn)?;
    Ok(())
}

/// Leaves a sentence for the session's next page.
pub fn set_flash(conn: &mut DbConnection, id: i64, text: &str) -> QueryResult<()> {
    diesel::update(console_sessions::table.find(id))
        .set(console_sessions::flash.eq(Some(text)))
        .execute(conn)?;
    Ok(())
}

/// Clears the sentence once a page has shown it.
pub fn clear_flash(conn: &mut DbConnection, id: i64) -> QueryResult<()> {
    diesel::update(console_sessions::table.find(id))
        .set(console_sessions::flash.eq(None::<String>))
        .execute(conn)?;
    Ok(())
}

/// Ends one of this admin's running sessions; false when they have no such running session.
pub fn end(
    conn: &mut DbConnection,
    id: i64,
    admin_name: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let ended = diesel::update(
        console_sessions::table
            .filter(console_sessions::id.eq(id))
            .filter(console_sessions::admin_name.eq(admin_name))
            .filter(console_sessions::ended_at.is_null()),
    )
    .set(console_sessions::ended_at.eq(Some(at)))
    .execute(conn)?;
    Ok(ended == 1)
}

/// This admin's sessions that have not ended nor expired, newest first.
pub fn running_of(
    conn: &mut DbConnection,
    admin_name: &str,
    now: NaiveDateTime,
    idle_since: NaiveDateTime,
    limit: i64,
) -> QueryResult<Vec<SessionRow>> {
    console_sessions::table
        .inner_join(api_tokens::table)
        .filter(console_sessions::admin_name.eq(admin_name))
        .filter(console_sessions::ended_at.is_null())
        .filter(console_sessions::expires_at.gt(now))
        .filter(console_sessions::last_seen_at.gt(idle_since))
        .filter(api_tokens::revoked_at.is_null())
        .order((
            console_sessions::created_at.desc(),
            console_sessions::id.desc(),
        ))
        .limit(limit)
        .select(SESSION_COLUMNS)
        .load(conn)
}
