//! Export a player's data: what the service holds about a player (their moderation records
//! and conduct record, read whole; their games and chat lines, read a page at a time by the
//! caller with `store::player_export::{games_page, chat_page}` as it streams them), and the
//! export logged as `player_exported`.

use chrono::NaiveDateTime;
use diesel::{Connection, QueryResult};

use crate::conduct::PlayerRecord;
use crate::moderation::AuditAction;
use crate::store::modlog::{log_action, LogActor, LogRefs};
use crate::store::player_export::{self, ExportRecords};
use crate::store::{conduct, players, DbConnection};

/// The records an export holds whole.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldRecords {
    pub moderation: ExportRecords,
    /// The player's conduct record, if they have one.
    pub conduct: Option<PlayerRecord>,
}

/// The player's records, or `None` when nothing is held under the name (no moderation row,
/// no archived game).
pub fn held_records(conn: &mut DbConnection, name: &str) -> QueryResult<Option<HeldRecords>> {
    if !player_export::is_known(conn, name)? {
        return Ok(None);
    }
    let moderation = player_export::records(conn, name)?;
    let conduct = conduct::record(conn, name)?;
    Ok(Some(HeldRecords {
        moderation,
        conduct,
    }))
}

/// Logs an export of `name`'s data, by an admin or by the player; one transaction.
pub fn log_export(
    conn: &mut DbConnection,
    actor: LogActor<'_>,
    name: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    conn.transaction(|conn| {
        let player_id = players::id_or_create(conn, name, now)?;
        log_action(
            conn,
            now,
            actor,
            &AuditAction::PlayerExported { player: player_id },
            LogRefs {
                subject: Some(name),
                ..LogRefs::default()
            },
        )
    })
}
