//! Sanctions as lists show them: with the player's name and the appeal against each, filtered
//! by player, kind, being in force and ending time. Reads only.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::appeals::AppealRow;
use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{appeals, players, sanctions, separation_members};
use crate::moderation::{PlayerId, SanctionId, SanctionKind};

/// Which sanctions a listing shows; every field narrows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SanctionFilter {
    /// The sanctioned player, by name, with the separations they are a member of.
    pub player: Option<String>,
    pub kind: Option<SanctionKind>,
    /// Only those in force at this moment: started, not lifted, not yet ended.
    pub in_force_at: Option<NaiveDateTime>,
    /// Only those whose end (after reductions) comes before this moment; permanent ones never do.
    pub ending_before: Option<NaiveDateTime>,
}

/// A sanction with the player's name and the appeal against it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct SanctionListing {
    pub sanction: SanctionRow,
    pub player: String,
    pub appeal: Option<AppealRow>,
    /// A separation's members by name; empty for other kinds.
    pub members: Vec<String>,
}

/// Sanctions matching `filter`, newest first: at most `limit` with id below `before_id`.
pub fn page(
    conn: &mut DbConnection,
    filter: &SanctionFilter,
    before_id: Option<SanctionId>,
    limit: i64,
) -> QueryResult<Vec<SanctionListing>> {
    let mut query = sanctions::table
        .inner_join(players::table.on(players::id.eq(sanctions::player_id)))
        .left_join(appeals::table.on(appeals::sanction_id.eq(sanctions::id)))
        .select((
            SanctionRow::as_select(),
            players::name,
            Option::<AppealRow>::as_select(),
        ))
        .into_boxed();
    if let Some(player) = &filter.player {
        // The player's separations: found by id first, since `players` is already joined.
        let id: Option<PlayerId> = players::table
            .filter(players::name.eq(player.clone()))
            .select(players::id)
            .first(conn)
            .optional()?;
        let separations = separation_members::table
            .filter(separation_members::player_id.nullable().eq(id))
            .select(separation_members::sanction_id);
        query = query.filter(
            players::name
                .eq(player.clone())
                .or(sanctions::id.eq_any(separations)),
        );
    }
    if let Some(kind) = &filter.kind {
        query = query.filter(sanctions::kind.eq(*kind));
    }
    if let Some(now) = filter.in_force_at {
        query = query.filter(
            sanctions::lifted_at
                .is_null()
                .and(sanctions::starts_at.le(now))
                .and(
                    sanctions::reduced_until.gt(now).or(sanctions::reduced_until
                        .is_null()
                        .and(sanctions::ends_at.is_null().or(sanctions::ends_at.gt(now)))),
                ),
        );
    }
    if let Some(before) = filter.ending_before {
        query = query.filter(
            sanctions::reduced_until
                .lt(before)
                .or(sanctions::reduced_until
                    .is_null()
                    .and(sanctions::ends_at.lt(before))),
        );
    }
    if let Some(before) = before_id {
        query = query.filter(sanctions::id.lt(before));
    }
    let rows: Vec<(SanctionRow, String, Option<AppealRow>)> =
        query.order(sanctions::id.desc()).limit(limit).load(conn)?;
    let separations: Vec<SanctionId> = rows
        .iter()
        .filter(|(s, _, _)| s.kind == SanctionKind::Separation)
        .map(|(s, _, _)| s.id)
        .collect();
    let mut members = if separations.is_empty() {
        Default::default()
    } else {
        super::separations::member_names(conn, &separations)?
    };
    Ok(rows
        .into_iter()
        .map(|(sanction, player, appeal)| SanctionListing {
            members: members.remove(&sanction.id).unwrap_or_default(),
            sanction,
            player,
            appeal,
        })
        .collect())
}
