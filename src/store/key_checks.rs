//! The check values of the operator's keys (`key_checks`): one per key, recorded when data is
//! first written under it, so start-up can tell whether the configured key is still that one.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::key_checks;

/// A key whose check value is kept, stored under the name of its setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckedKey {
    /// `[privacy] erasure_key`, under which erased names are hashed.
    Erasure,
    /// `[webhooks] sealing_key`, under which webhook secrets are sealed.
    WebhookSealing,
}

impl CheckedKey {
    /// The setting that holds the key.
    pub fn setting(self) -> &'static str {
        match self {
            CheckedKey::Erasure => "privacy.erasure_key",
            CheckedKey::WebhookSealing => "webhooks.sealing_key",
        }
    }
}

/// The recorded check value of `key`, if one is.
pub fn recorded(conn: &mut DbConnection, key: CheckedKey) -> QueryResult<Option<String>> {
    key_checks::table
        .find(key.setting())
        .select(key_checks::key_check)
        .first(conn)
        .optional()
}

/// Records `check` for `key` unless a value is recorded already; returns the value recorded
/// now (the first writer's, when two race).
pub fn record_first(
    conn: &mut DbConnection,
    key: CheckedKey,
    check: &str,
    now: NaiveDateTime,
) -> QueryResult<String> {
    on_backend!(conn, c => diesel::insert_into(key_checks::table)
        .values((
            key_checks::setting.eq(key.setting()),
            key_checks::key_check.eq(check),
            key_checks::recorded_at.eq(now),
        ))
        .on_conflict_do_nothing()
        .execute(c))?;
    key_checks::table
        .find(key.setting())
        .select(key_checks::key_check)
        .first(conn)
}
