//! An admin acknowledges an alert: someone has it in hand. The first acknowledgement is
//! stored with who gave it; later ones change nothing (docs/moderation.md, "Alerts").

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::moderation::{AlertId, PlayerId};
use crate::store::alerts::{self, AlertListing};
use crate::store::DbConnection;

/// `admin` acknowledges alert `id`; returns the alert as it now stands, `None` when there is
/// no such alert.
pub fn acknowledge_alert(
    conn: &mut DbConnection,
    id: AlertId,
    admin: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<Option<AlertListing>> {
    conn.transaction(|conn| {
        alerts::acknowledge(conn, id, admin, now)?;
        alerts::find(conn, id)
    })
}
