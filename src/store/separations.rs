//! Separations' members (`separation_members`) and the table check's reads: the seated
//! players' bans and the separations they belong to.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{players, sanctions, separation_members};
use super::to_utc;
use crate::moderation::{
    Ground, PlayerId, ReportReason, Sanction, SanctionId, SanctionKind, TableSanction,
};

/// Stores a separation's members (the sanctioned accused among them). Runs inside the
/// caller's transaction.
pub fn insert_members(
    conn: &mut DbConnection,
    sanction: SanctionId,
    members: &[PlayerId],
) -> QueryResult<()> {
    let rows: Vec<_> = members
        .iter()
        .map(|player| {
            (
                separation_members::sanction_id.eq(sanction),
                separation_members::player_id.eq(*player),
            )
        })
        .collect();
    insert_all!(conn, separation_members::table, &rows)?;
    Ok(())
}

/// The members' names of each of `ids` that is a separation, in player order; sanctions of
/// other kinds are absent.
pub fn member_names(
    conn: &mut DbConnection,
    ids: &[SanctionId],
) -> QueryResult<HashMap<SanctionId, Vec<String>>> {
    let rows: Vec<(SanctionId, String)> = separation_members::table
        .inner_join(players::table.on(players::id.eq(separation_members::player_id)))
        .filter(separation_members::sanction_id.eq_any(ids))
        .order((
            separation_members::sanction_id,
            separation_members::player_id,
        ))
        .select((separation_members::sanction_id, players::name))
        .load(conn)?;
    let mut members: HashMap<SanctionId, Vec<String>> = HashMap::new();
    for (id, name) in rows {
        members.entry(id).or_default().push(name);
    }
    Ok(members)
}

/// Whether `player` is one of the separation's members.
pub fn is_member(
    conn: &mut DbConnection,
    sanction: SanctionId,
    player: PlayerId,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        separation_members::table
            .filter(separation_members::sanction_id.eq(sanction))
            .filter(separation_members::player_id.eq(player)),
    ))
    .get_result(conn)
}

/// A sanction's columns as the table check reads them, with the seated player's name.
type TableRow = (
    String,
    SanctionId,
    PlayerId,
    SanctionKind,
    NaiveDateTime,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
);

/// What may matter at `now` to a table of `names`: two indexed reads, each player's own
/// sanctions not yet over (by name through `players`, then `sanctions_player`), and the
/// separations not yet over that hold any of them (`separation_members_player`).
pub fn table_sanctions(
    conn: &mut DbConnection,
    names: &[String],
    now: NaiveDateTime,
) -> QueryResult<Vec<TableSanction>> {
    let columns = (
        players::name,
        sanctions::id,
        sanctions::player_id,
        sanctions::kind,
        sanctions::starts_at,
        sanctions::ends_at,
        sanctions::lifted_at,
        sanctions::reduced_until,
    );
    let own = sanctions::table
        .inner_join(players::table.on(players::id.eq(sanctions::player_id)))
        .filter(players::name.eq_any(names))
        .filter(sanctions::kind.ne(SanctionKind::Separation))
        .filter(sanctions::lifted_at.is_null())
        .filter(sanctions::ends_at.is_null().or(sanctions::ends_at.gt(now)))
        .select(columns);
    let held = separation_members::table
        .inner_join(players::table.on(players::id.eq(separation_members::player_id)))
        .inner_join(sanctions::table.on(sanctions::id.eq(separation_members::sanction_id)))
        .filter(players::name.eq_any(names))
        .filter(sanctions::lifted_at.is_null())
        .filter(sanctions::ends_at.is_null().or(sanctions::ends_at.gt(now)))
        .select(columns);
    // A hot path like standing: on the native connection (see `on_backend`).
    let mut rows: Vec<TableRow> = on_backend!(conn, c => own.load(c))?;
    rows.extend(on_backend!(conn, c => held.load::<TableRow>(c))?);
    Ok(rows.into_iter().map(table_sanction).collect())
}

fn table_sanction(row: TableRow) -> TableSanction {
    let (name, id, player, kind, starts, ends, lifted, reduced) = row;
    TableSanction {
        name,
        sanction: Sanction {
            id,
            player,
            kind,
            // The table check reads only kind and times.
            reason: ReportReason::Other,
            ground: Ground::Other,
            starts_at: to_utc(starts),
            duration: super::sanctions::duration_of(starts, ends),
            lifted_at: lifted.map(to_utc),
            reduced_until: reduced.map(to_utc),
        },
    }
}
