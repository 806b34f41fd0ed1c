//! Appeals (`appeals`): a player appeals their own sanction once; an admin upholds, reduces
//! or lifts it. The rows and their queries; filing and deciding are the use cases
//! `file_appeal` and `decide_appeal`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{appeals, players, sanctions as sanctions_table};
use super::to_utc;
use crate::moderation::{AppealId, AppealRecord, AppealStatus, PlayerId, SanctionId};

/// A stored appeal.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = appeals)]
pub struct AppealRow {
    pub id: AppealId,
    pub sanction_id: SanctionId,
    pub player_id: PlayerId,
    pub text: String,
    pub filed_at: NaiveDateTime,
    pub status: AppealStatus,
    pub decided_by: Option<PlayerId>,
    pub decided_at: Option<NaiveDateTime>,
    pub note: Option<String>,
}

pub fn find(conn: &mut DbConnection, id: AppealId) -> QueryResult<Option<AppealRow>> {
    appeals::table
        .find(id)
        .select(AppealRow::as_select())
        .first(conn)
        .optional()
}

/// The appeals filed against a sanction, as the policy sees them.
pub fn of_sanction(
    conn: &mut DbConnection,
    sanction_id: SanctionId,
) -> QueryResult<Vec<AppealRecord>> {
    Ok(appeals::table
        .filter(appeals::sanction_id.eq(sanction_id))
        .select((appeals::id, appeals::filed_at))
        .load::<(AppealId, NaiveDateTime)>(conn)?
        .into_iter()
        .map(|(id, filed_at)| AppealRecord {
            id,
            sanction: sanction_id,
            filed_at: to_utc(filed_at),
        })
        .collect())
}

/// The id of an appeal against the sanction (there is one at most: a unique index).
pub fn id_of_sanction(conn: &mut DbConnection, sanction_id: SanctionId) -> QueryResult<AppealId> {
    appeals::table
        .filter(appeals::sanction_id.eq(sanction_id))
        .select(appeals::id)
        .first(conn)
}

/// Stores an open appeal; returns its id. The unique index on `sanction_id` refuses a second
/// appeal against the same sanction.
pub fn insert(
    conn: &mut DbConnection,
    sanction_id: SanctionId,
    player_id: PlayerId,
    text: &str,
    now: NaiveDateTime,
) -> QueryResult<AppealId> {
    insert_returning_id!(
        conn,
        appeals::table,
        (
            appeals::sanction_id.eq(sanction_id),
            appeals::player_id.eq(player_id),
            appeals::text.eq(text),
            appeals::filed_at.eq(now),
            appeals::status.eq(AppealStatus::Open),
        ),
        appeals::id
    )
    .map(AppealId)
}

/// Answers appeal `id` with `status` only while it is open; returns the rows changed, so of
/// two simultaneous answers exactly one applies.
pub fn answer_if_open(
    conn: &mut DbConnection,
    id: AppealId,
    status: AppealStatus,
    admin_id: PlayerId,
    note: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        appeals::table
            .filter(appeals::id.eq(id))
            .filter(appeals::status.eq(AppealStatus::Open)),
    )
    .set((
        appeals::status.eq(status),
        appeals::decided_by.eq(admin_id),
        appeals::decided_at.eq(now),
        appeals::note.eq(note),
    ))
    .execute(conn)
}

/// An appeal with its sanction and the appellant's name.
#[derive(Debug, Clone, PartialEq)]
pub struct AppealListing {
    pub appeal: AppealRow,
    pub sanction: SanctionRow,
    pub player: String,
}

/// Appeals with this status (any status without), oldest first: at most `limit` after the
/// `(filed_at, id)` position `after`.
pub fn appeals_page(
    conn: &mut DbConnection,
    status: Option<AppealStatus>,
    after: Option<(NaiveDateTime, i64)>,
    limit: i64,
) -> QueryResult<Vec<AppealListing>> {
    let mut query = appeals::table
        .inner_join(sanctions_table::table)
        .inner_join(players::table.on(players::id.eq(appeals::player_id)))
        .select((
            AppealRow::as_select(),
            SanctionRow::as_select(),
            players::name,
        ))
        .into_boxed();
    if let Some(status) = status {
        query = query.filter(appeals::status.eq(status));
    }
    if let Some((filed_at, id)) = after {
        query = query.filter(
            appeals::filed_at
                .gt(filed_at)
                .or(appeals::filed_at.eq(filed_at).and(appeals::id.gt(id))),
        );
    }
    let rows: Vec<(AppealRow, SanctionRow, String)> = query
        .order((appeals::filed_at.asc(), appeals::id.asc()))
        .limit(limit)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(appeal, sanction, player)| AppealListing {
            appeal,
            sanction,
            player,
        })
        .collect())
}
