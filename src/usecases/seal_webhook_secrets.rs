//! Check the webhook sealing key at start-up, and seal what was stored before sealing existed.
//! Sealed secrets open only under the key they were sealed with, so an emptied or changed
//! `[webhooks] sealing_key` would silently stop every delivery: its check value, recorded with
//! the first sealing, tells whether the configured key is that one. Subscriptions written
//! before sealing (a plain secret, credentials in the URL) keep working as they are while no
//! key is set, and are sealed here once one is.

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::Connection;

use crate::store::key_checks::{self, CheckedKey};
use crate::store::webhook_sealing::{Sealed, SealingKey};
use crate::store::webhook_subscriptions::{self, StoredTarget};
use crate::store::webhook_url::WebhookUrl;
use crate::store::DbConnection;

/// The configured key (or its absence) may run this database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealingAccepted {
    /// No key, and nothing sealed: `legacy` subscriptions keep plain secrets.
    NoKey { legacy: usize },
    /// The key is the one rows were sealed under (or the first); `sealed_now` legacy
    /// subscriptions were sealed by this start-up.
    Key { sealed_now: usize },
}

#[derive(Debug, thiserror::Error)]
pub enum SealingRefused {
    #[error("webhook secrets are sealed, and no key is configured")]
    Missing,
    #[error("webhook secrets were sealed under another key")]
    Mismatch,
    #[error(transparent)]
    Db(#[from] DieselError),
}

/// Whether the configured key (`None`: none) can run this database; with a key, seals the
/// legacy subscriptions, in the same transaction as the check.
pub fn check_and_seal(
    conn: &mut DbConnection,
    key: Option<&SealingKey>,
    now: NaiveDateTime,
) -> Result<SealingAccepted, SealingRefused> {
    conn.transaction(|conn| {
        let Some(key) = key else {
            if webhook_subscriptions::any_sealed(conn)? {
                return Err(SealingRefused::Missing);
            }
            let legacy = webhook_subscriptions::legacy_rows(conn)?.len();
            return Ok(SealingAccepted::NoKey { legacy });
        };
        match key_checks::recorded(conn, CheckedKey::WebhookSealing)? {
            Some(recorded) if recorded != key.check() => return Err(SealingRefused::Mismatch),
            Some(_) => {}
            None => {
                key_checks::record_first(conn, CheckedKey::WebhookSealing, key.check(), now)?;
            }
        }
        let mut sealed_now = 0;
        for legacy in webhook_subscriptions::legacy_rows(conn)? {
            // A URL that no longer parses is kept as it is: it cannot be sent to anyway.
            let (url, credentials) = match WebhookUrl::parse(&legacy.url) {
                Ok(url) => (
                    url.as_str().to_string(),
                    url.credentials()
                        .map(|c| key.seal(Sealed::UrlCredentials, c)),
                ),
                Err(_) => (legacy.url.clone(), None),
            };
            let secret = key.seal(Sealed::Secret, &legacy.secret);
            let sealed = StoredTarget {
                url: &url,
                url_credentials: credentials.as_deref(),
                secret: &secret,
            };
            if webhook_subscriptions::seal_legacy(conn, &legacy, sealed)? {
                sealed_now += 1;
            }
        }
        Ok(SealingAccepted::Key { sealed_now })
    })
}
