//! Sanctions (`sanctions`), report timeouts (`report_timeouts`) and a player's standing.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::{cases, decisions, report_timeouts, sanctions};
use super::to_utc;
use crate::moderation::{
    standing, CaseId, DecisionKind, Ground, Language, NewSanction, PlayerId, PriorMeasure,
    ReportReason, ReportTimeout, Sanction, SanctionDuration, SanctionId, SanctionKind, Standing,
};

/// A stored sanction.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = sanctions)]
pub struct SanctionRow {
    pub id: SanctionId,
    pub player_id: PlayerId,
    pub case_id: Option<CaseId>,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: NaiveDateTime,
    pub ends_at: Option<NaiveDateTime>,
    pub lifted_at: Option<NaiveDateTime>,
    pub reduced_until: Option<NaiveDateTime>,
    pub issued_by: PlayerId,
    /// Why, in English: what admins read.
    pub note: String,
    /// The language the player was told it in, with `player_note`; null when English.
    pub language: Option<Language>,
    /// The note as the player was told it, in `language`.
    pub player_note: Option<String>,
}

impl SanctionRow {
    /// The policy's view of the row.
    pub fn to_policy(&self) -> Sanction {
        Sanction {
            id: self.id,
            player: self.player_id,
            kind: self.kind,
            reason: self.reason,
            ground: self.ground,
            starts_at: to_utc(self.starts_at),
            duration: duration_of(self.starts_at, self.ends_at),
            lifted_at: self.lifted_at.map(to_utc),
            reduced_until: self.reduced_until.map(to_utc),
        }
    }
}

/// Stored ends are the start plus whole minutes (decisions give minutes), so this is exact.
pub(super) fn duration_of(starts: NaiveDateTime, ends: Option<NaiveDateTime>) -> SanctionDuration {
    match ends {
        None => SanctionDuration::Permanent,
        Some(end) => SanctionDuration::Temporary {
            minutes: u32::try_from((end - starts).num_minutes().max(0)).unwrap_or(u32::MAX),
        },
    }
}

pub fn find(conn: &mut DbConnection, id: SanctionId) -> QueryResult<Option<SanctionRow>> {
    sanctions::table
        .find(id)
        .select(SanctionRow::as_select())
        .first(conn)
        .optional()
}

/// Stores a sanction the policy produced; returns its id. Runs inside the caller's transaction.
pub fn insert(
    conn: &mut DbConnection,
    sanction: &NewSanction,
    case_id: Option<CaseId>,
    issued_by: PlayerId,
    note: &str,
) -> QueryResult<SanctionId> {
    let starts_at = super::from_utc(sanction.starts_at);
    let ends_at = sanction.effective_end().map(super::from_utc);
    insert_returning_id!(
        conn,
        sanctions::table,
        (
            sanctions::player_id.eq(sanction.player),
            sanctions::case_id.eq(case_id),
            sanctions::kind.eq(sanction.kind),
            sanctions::reason.eq(sanction.reason),
            sanctions::ground.eq(sanction.ground),
            sanctions::starts_at.eq(starts_at),
            sanctions::ends_at.eq(ends_at),
            sanctions::issued_by.eq(issued_by),
            sanctions::note.eq(note),
        ),
        sanctions::id
    )
    .map(SanctionId)
}

/// Keeps the note as the player was told it in their language, when that is not English.
pub fn set_player_note(
    conn: &mut DbConnection,
    id: SanctionId,
    language: Language,
    note: Option<&str>,
) -> QueryResult<()> {
    if language == Language::En {
        return Ok(());
    }
    diesel::update(sanctions::table.find(id))
        .set((
            sanctions::language.eq(language),
            sanctions::player_note.eq(note),
        ))
        .execute(conn)?;
    Ok(())
}

/// The player's earlier measures for the sanction ladder: sanctions (lifted ones included, the
/// ladder skips them) and warnings.
pub fn prior_measures(
    conn: &mut DbConnection,
    player_id: PlayerId,
) -> QueryResult<Vec<PriorMeasure>> {
    let mut measures = Vec::new();
    for row in sanctions::table
        .filter(sanctions::player_id.eq(player_id))
        .select(SanctionRow::as_select())
        .load(conn)?
    {
        measures.push(PriorMeasure::from(&row.to_policy()));
    }
    let warnings: Vec<(ReportReason, NaiveDateTime)> = decisions::table
        .inner_join(cases::table)
        .filter(cases::accused_id.eq(player_id))
        .filter(decisions::kind.eq(DecisionKind::Warn))
        .select((cases::reason, decisions::decided_at))
        .load(conn)?;
    for (reason, at) in warnings {
        measures.push(PriorMeasure::warning(reason, to_utc(at)));
    }
    Ok(measures)
}

/// A player's standing at `now`, by name: the ids the name answers for
/// ([`players::answering_to`]: the player, and players erased under the name's keyed hash
/// `name_key`), then two queries by player id (sanctions that may still matter, report
/// timeouts not yet over). A name moderation never saw has no rows and may do everything.
pub fn standing_of(
    conn: &mut DbConnection,
    name: &str,
    name_key: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<Standing> {
    let ids = super::players::answering_to(conn, name, name_key)?;
    standing_of_players(conn, &ids, now)
}

/// The standing at `now` of the player a name answers for, given the ids it answers for
/// ([`super::players::answering_to`]).
pub fn standing_of_players(
    conn: &mut DbConnection,
    ids: &[PlayerId],
    now: NaiveDateTime,
) -> QueryResult<Standing> {
    if ids.is_empty() {
        return Ok(standing(PlayerId(0), &[], &[], to_utc(now)));
    }
    // Sanctions that ended (by their planned end) before now can no longer block anything;
    // reductions only shorten, lifts only end earlier.
    let sanctions_query = sanctions::table
        .filter(sanctions::player_id.eq_any(ids))
        .filter(sanctions::lifted_at.is_null())
        .filter(sanctions::ends_at.is_null().or(sanctions::ends_at.gt(now)))
        .select((
            sanctions::id,
            sanctions::player_id,
            sanctions::kind,
            sanctions::starts_at,
            sanctions::ends_at,
            sanctions::lifted_at,
            sanctions::reduced_until,
        ));
    let timeouts_query = report_timeouts::table
        .filter(report_timeouts::player_id.eq_any(ids))
        .filter(report_timeouts::ends_at.gt(now))
        .select((
            report_timeouts::player_id,
            report_timeouts::starts_at,
            report_timeouts::ends_at,
            report_timeouts::step,
        ));
    // The hot path of every game server: on the native connection (see `on_backend`).
    let rows: Vec<StandingRow> = on_backend!(conn, c => sanctions_query.load(c))?;
    let timeouts: Vec<(PlayerId, NaiveDateTime, NaiveDateTime, i32)> =
        on_backend!(conn, c => timeouts_query.load(c))?;
    let player = rows
        .first()
        .map(|r| r.1)
        .or_else(|| timeouts.first().map(|t| t.0))
        .unwrap_or(PlayerId(0));
    let sanctions: Vec<Sanction> = rows.into_iter().map(standing_sanction).collect();
    let timeouts: Vec<ReportTimeout> = timeouts
        .into_iter()
        .map(|(_, starts, ends, step)| ReportTimeout {
            starts_at: to_utc(starts),
            until: to_utc(ends),
            level: u32::try_from(step).unwrap_or(1),
        })
        .collect();
    Ok(standing(player, &sanctions, &timeouts, to_utc(now)))
}

/// A sanction's columns as the standing reads them: id, player, kind, starts, ends, lifted,
/// reduced until.
type StandingRow = (
    SanctionId,
    PlayerId,
    SanctionKind,
    NaiveDateTime,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
);

fn standing_sanction(row: StandingRow) -> Sanction {
    let (id, player, kind, starts, ends, lifted, reduced) = row;
    Sanction {
        id,
        player,
        kind,
        // Standing reads only kind and times.
        reason: ReportReason::Other,
        ground: Ground::Other,
        starts_at: to_utc(starts),
        duration: duration_of(starts, ends),
        lifted_at: lifted.map(to_utc),
        reduced_until: reduced.map(to_utc),
    }
}
