//! Warnings (`warnings`): one per warning decision, read by the player's own list, their
//! standing (the oldest still awaiting acknowledgement) and the console.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{players, warnings};
use super::to_utc;
use crate::moderation::{CaseId, Ground, Language, PlayerId, ReportReason, Warning, WarningId};

/// A warning to store.
#[derive(Debug, Clone, Copy)]
pub struct NewWarning<'a> {
    pub player_id: PlayerId,
    pub case_id: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    pub language: Language,
    pub text: &'a str,
    pub text_en: &'a str,
    pub needs_acknowledgement: bool,
    pub issued_at: NaiveDateTime,
}

/// Stores a warning; returns its id.
pub fn insert(conn: &mut DbConnection, new: &NewWarning<'_>) -> QueryResult<WarningId> {
    insert_returning_id!(
        conn,
        warnings::table,
        (
            warnings::player_id.eq(new.player_id),
            warnings::case_id.eq(new.case_id),
            warnings::reason.eq(new.reason),
            warnings::ground.eq(new.ground),
            warnings::language.eq(new.language),
            warnings::text.eq(new.text),
            warnings::text_en.eq(new.text_en),
            warnings::needs_acknowledgement.eq(new.needs_acknowledgement),
            warnings::issued_at.eq(new.issued_at),
        ),
        warnings::id
    )
    .map(WarningId)
}

/// A stored warning with its player's id and name.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = warnings)]
pub struct WarningRow {
    pub id: WarningId,
    pub player_id: PlayerId,
    pub case_id: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    pub language: Language,
    pub text: String,
    pub text_en: String,
    pub needs_acknowledgement: bool,
    pub issued_at: NaiveDateTime,
    pub acknowledged_at: Option<NaiveDateTime>,
}

impl WarningRow {
    /// The warning as the policy and the views read it.
    pub fn to_warning(&self, player: String) -> Warning {
        Warning {
            id: self.id,
            player,
            case: self.case_id,
            reason: self.reason,
            ground: self.ground,
            language: self.language,
            text: self.text.clone(),
            text_en: self.text_en.clone(),
            issued_at: to_utc(self.issued_at),
            needs_acknowledgement: self.needs_acknowledgement,
            acknowledged_at: self.acknowledged_at.map(to_utc),
        }
    }
}

/// One warning by id, with its player's name.
pub fn find(conn: &mut DbConnection, id: WarningId) -> QueryResult<Option<Warning>> {
    let row: Option<(WarningRow, String)> = warnings::table
        .inner_join(players::table)
        .filter(warnings::id.eq(id))
        .select((WarningRow::as_select(), players::name))
        .first(conn)
        .optional()?;
    Ok(row.map(|(row, name)| row.to_warning(name)))
}

/// A player's warnings, newest first: at most `limit` with id below `before_id`.
pub fn page_of(
    conn: &mut DbConnection,
    player: PlayerId,
    before_id: Option<WarningId>,
    limit: i64,
) -> QueryResult<Vec<Warning>> {
    let mut query = warnings::table
        .inner_join(players::table)
        .filter(warnings::player_id.eq(player))
        .select((WarningRow::as_select(), players::name))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(warnings::id.lt(before));
    }
    let rows: Vec<(WarningRow, String)> =
        query.order(warnings::id.desc()).limit(limit).load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(row, name)| row.to_warning(name))
        .collect())
}

/// The oldest warning still awaiting acknowledgement of the player a name answers for
/// (`ids`, from `players::answering_to`): what the standing carries.
pub fn awaiting_of(conn: &mut DbConnection, ids: &[PlayerId]) -> QueryResult<Option<Warning>> {
    if ids.is_empty() {
        return Ok(None);
    }
    let query = warnings::table
        .inner_join(players::table)
        .filter(warnings::player_id.eq_any(ids))
        .filter(warnings::needs_acknowledgement.eq(true))
        .filter(warnings::acknowledged_at.is_null())
        .order(warnings::id.asc())
        .select((WarningRow::as_select(), players::name));
    let row: Option<(WarningRow, String)> = query.first(conn).optional()?;
    Ok(row.map(|(row, name)| row.to_warning(name)))
}

/// Marks the warning acknowledged at `now` unless it already is; returns whether this call
/// marked it (the first acknowledgement is the one logged).
pub fn acknowledge(
    conn: &mut DbConnection,
    id: WarningId,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let marked = diesel::update(
        warnings::table
            .filter(warnings::id.eq(id))
            .filter(warnings::acknowledged_at.is_null()),
    )
    .set(warnings::acknowledged_at.eq(now))
    .execute(conn)?;
    Ok(marked == 1)
}

/// Every warning of the player, oldest first: the personal-data export.
pub fn all_of(conn: &mut DbConnection, player: PlayerId) -> QueryResult<Vec<WarningRow>> {
    warnings::table
        .filter(warnings::player_id.eq(player))
        .order(warnings::id.asc())
        .select(WarningRow::as_select())
        .load(conn)
}
