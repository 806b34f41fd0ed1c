//! Sanctions as lists show them: with the player's name and the appeal against each, filtered
//! by player, kind, being in force and ending time. Reads only.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::appeals::AppealRow;
use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{appeals, players, sanctions};
use crate::moderation::{SanctionId, SanctionKind};

/// Which sanctions a listing shows; every field narrows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SanctionFilter {
    /// The sanctioned player, by name.
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
        query = query.filter(players::name.eq(player.clone()));
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
    Ok(rows
        .into_iter()
        .map(|(sanction, player, appeal)| SanctionListing {
            sanction,
            player,
            appeal,
        })
        .collect())
}
