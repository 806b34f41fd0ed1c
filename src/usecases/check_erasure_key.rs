//! Check the erasure key at start-up: erased players' names are kept only as a keyed hash
//! (`erased_names`), so under an emptied or changed `[privacy] erasure_key` their bans would
//! silently stop answering the standing check. The key's check value, recorded with the first
//! erasure (`erase_player`), tells whether the configured key is the one they were hashed with.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::Connection;

use crate::store::erasure;
use crate::store::key_checks::{self, CheckedKey};
use crate::store::DbConnection;

/// The configured key may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAccepted {
    /// No name was ever erased: any key, or none, will do.
    NothingErased,
    /// The key is the one the erased names were hashed with.
    Matches,
    /// Names were erased before check values were kept: the configured key's is recorded now,
    /// and trusted (nothing stored can tell it is the right one).
    RecordedNow,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyRefused {
    #[error("names were erased under a key, and no key is configured")]
    Missing,
    #[error("names were erased under another key")]
    Mismatch,
    #[error(transparent)]
    Db(#[from] DieselError),
}

/// Whether the configured key, by its check value (`None`: no key), can run this database.
pub fn check(
    conn: &mut DbConnection,
    key_check: Option<&str>,
    now: NaiveDateTime,
) -> Result<KeyAccepted, KeyRefused> {
    conn.transaction(|conn| {
        if !erasure::any_erased(conn)? {
            return Ok(KeyAccepted::NothingErased);
        }
        let Some(key_check) = key_check else {
            return Err(KeyRefused::Missing);
        };
        match key_checks::recorded(conn, CheckedKey::Erasure)? {
            Some(recorded) if recorded == key_check => Ok(KeyAccepted::Matches),
            Some(_) => Err(KeyRefused::Mismatch),
            None => {
                key_checks::record_first(conn, CheckedKey::Erasure, key_check, now)?;
                Ok(KeyAccepted::RecordedNow)
            }
        }
    })
}
