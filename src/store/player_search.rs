//! Finding players by name: a page of archive players by folded-name prefix, each with what
//! an admin looks for first (games, open cases, sanctions in force). Reads only; a few indexed
//! queries per page, whatever the size of the archive.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::archive_players::{self, ArchivePlayer};
use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{cases, players, sanctions};
use super::to_utc;
use crate::moderation::{CaseStatus, PlayerId};

/// One player found.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerFound {
    pub player: ArchivePlayer,
    pub open_cases: i64,
    /// Sanctions restricting the player now.
    pub in_force: Vec<SanctionRow>,
}

/// Players whose name starts with `prefix` (ASCII case folded), in folded-name order.
pub fn page(
    conn: &mut DbConnection,
    prefix: &str,
    after: Option<(String, String)>,
    limit: i64,
    now: NaiveDateTime,
) -> QueryResult<Vec<PlayerFound>> {
    let found = archive_players::search(conn, prefix, after, limit)?;
    let names: Vec<&str> = found.iter().map(|p| p.name.as_str()).collect();
    let ids: HashMap<PlayerId, String> = players::table
        .filter(players::name.eq_any(&names))
        .select((players::id, players::name))
        .load::<(PlayerId, String)>(conn)?
        .into_iter()
        .collect();
    let id_list: Vec<PlayerId> = ids.keys().copied().collect();
    let mut open: HashMap<String, i64> = HashMap::new();
    for accused in cases::table
        .filter(cases::accused_id.eq_any(&id_list))
        .filter(cases::status.eq(CaseStatus::Open))
        .select(cases::accused_id)
        .load::<PlayerId>(conn)?
    {
        if let Some(name) = ids.get(&accused) {
            *open.entry(name.clone()).or_default() += 1;
        }
    }
    // Not lifted and not past their planned end; reductions are checked below.
    let candidates: Vec<SanctionRow> = sanctions::table
        .filter(sanctions::player_id.eq_any(&id_list))
        .filter(sanctions::lifted_at.is_null())
        .filter(sanctions::starts_at.le(now))
        .filter(sanctions::ends_at.is_null().or(sanctions::ends_at.gt(now)))
        .order(sanctions::id.asc())
        .select(SanctionRow::as_select())
        .load(conn)?;
    let mut in_force: HashMap<String, Vec<SanctionRow>> = HashMap::new();
    for row in candidates {
        if row.to_policy().is_active(to_utc(now)) {
            if let Some(name) = ids.get(&row.player_id) {
                in_force.entry(name.clone()).or_default().push(row);
            }
        }
    }
    Ok(found
        .into_iter()
        .map(|player| PlayerFound {
            open_cases: open.remove(&player.name).unwrap_or(0),
            in_force: in_force.remove(&player.name).unwrap_or_default(),
            player,
        })
        .collect())
}
