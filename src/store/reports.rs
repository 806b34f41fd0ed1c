//! Reports (`reports`, `report_accused`, `report_games`): players' filings and automatic
//! reports joining the review queue, each an entry of one open case per accused.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use diesel::prelude::*;

use super::case_tallies;
use super::cases;
use super::connection::DbConnection;
use super::modlog::LogActor;
use super::schema::{
    case_reports, game_seats, games, modlog, players, report_accused, report_games, reports,
};
use super::to_utc;
use crate::moderation::{
    CaseId, GameNumber, MeasureTaken, ModerationPolicy, PlayerId, ReportEntry, ReportId,
    ReportOutcome, ReportReason, ReportSource, Reporter, Variant,
};

/// The policy's variant of a stored game (`games.variant`: `Teams`, `FFA`, `Solo`, ...).
pub fn variant_of(stored: &str) -> Variant {
    let lower = stored.to_ascii_lowercase();
    if lower == "teams" {
        Variant::Teams
    } else if lower.contains("solo") {
        Variant::Solo
    } else if lower == "ffa" || lower.contains("free") {
        Variant::Ffa
    } else {
        Variant::Other
    }
}

/// A cited game as stored: archive id, site number, variant, seated players.
#[derive(Debug, Clone, PartialEq)]
pub struct CitedGameRow {
    pub archive_id: i64,
    pub number: i64,
    pub variant: Variant,
    pub players: Vec<String>,
}

/// The stored games among these site numbers, with their seated players.
pub fn games_by_number(conn: &mut DbConnection, numbers: &[i64]) -> QueryResult<Vec<CitedGameRow>> {
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    let sites: Vec<String> = numbers.iter().map(i64::to_string).collect();
    let rows: Vec<(i64, String, String)> = games::table
        .filter(games::site_game_id.eq_any(&sites))
        .select((games::id, games::site_game_id, games::variant))
        .load(conn)?;
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let mut seated: HashMap<i64, Vec<String>> = HashMap::new();
    for (game, player) in game_seats::table
        .filter(game_seats::game_id.eq_any(&ids))
        .select((game_seats::game_id, game_seats::player))
        .load::<(i64, String)>(conn)?
    {
        seated.entry(game).or_default().push(player);
    }
    Ok(rows
        .into_iter()
        .filter_map(|(id, site, variant)| {
            Some(CitedGameRow {
                archive_id: id,
                number: site.parse().ok()?,
                variant: variant_of(&variant),
                players: seated.remove(&id).unwrap_or_default(),
            })
        })
        .collect())
}

/// Which of these names have a seat in a stored game. Names match exactly, as everywhere in
/// the archive (`game_seats.player` as the game server sent it, trimmed).
pub fn seated_players(conn: &mut DbConnection, names: &[String]) -> QueryResult<Vec<String>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    game_seats::table
        .filter(game_seats::player.eq_any(names))
        .select(game_seats::player)
        .distinct()
        .load(conn)
}

/// Times of the reporter's filings (new and merged) in the last day, from the moderation log.
pub fn recent_filings(
    conn: &mut DbConnection,
    reporter_id: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<Vec<DateTime<Utc>>> {
    let since = now - TimeDelta::hours(24);
    Ok(modlog::table
        .filter(modlog::actor_id.eq(reporter_id))
        .filter(modlog::actor_kind.eq("player"))
        .filter(modlog::kind.eq_any(["report_filed", "report_merged"]))
        .filter(modlog::at.gt(since))
        .select(modlog::at)
        .load::<NaiveDateTime>(conn)?
        .into_iter()
        .map(to_utc)
        .collect())
}

/// The reporter's undecided reports about this game (or without a game) and reason.
pub fn open_entries(
    conn: &mut DbConnection,
    reporter_id: PlayerId,
    reason: ReportReason,
    game_id: Option<i64>,
    game: Option<GameNumber>,
) -> QueryResult<Vec<ReportEntry>> {
    let mut query = reports::table
        .filter(reports::reporter_id.eq(reporter_id))
        .filter(reports::reason.eq(reason))
        .filter(reports::outcome.is_null())
        .select((reports::id, reports::message, reports::filed_at))
        .into_boxed();
    query = match game_id {
        Some(id) => query.filter(reports::game_id.eq(id)),
        None => query.filter(reports::game_id.is_null()),
    };
    let rows: Vec<(ReportId, Option<String>, NaiveDateTime)> = query.load(conn)?;
    let mut entries = Vec::with_capacity(rows.len());
    for (id, message, filed_at) in rows {
        let accused = accused_of(conn, id)?.into_iter().map(|(p, _)| p).collect();
        let supporting = report_games::table
            .inner_join(games::table)
            .filter(report_games::report_id.eq(id))
            .select((games::id, games::site_game_id))
            .load::<(i64, String)>(conn)?
            .into_iter()
            .map(|(id, site)| cases::game_number(id, &site))
            .collect();
        entries.push(ReportEntry {
            id,
            reporter: Reporter::Player {
                player: reporter_id,
            },
            accused,
            reason,
            message,
            game,
            supporting_games: supporting,
            filed_at: to_utc(filed_at),
            decided: false,
        });
    }
    Ok(entries)
}

/// The accused of a report, by player id.
pub fn accused_of(
    conn: &mut DbConnection,
    report_id: ReportId,
) -> QueryResult<Vec<(PlayerId, String)>> {
    report_accused::table
        .inner_join(players::table)
        .filter(report_accused::report_id.eq(report_id))
        .order(players::id.asc())
        .select((players::id, players::name))
        .load(conn)
}

/// Who filed a report entry, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FiledBy {
    Player(PlayerId),
    Admin(PlayerId),
}

/// A filed report entry to store.
#[derive(Debug, Clone, Copy)]
pub struct NewEntry<'a> {
    pub filed_by: FiledBy,
    pub reason: ReportReason,
    pub message: Option<&'a str>,
    /// The main game's archive id.
    pub game_id: Option<i64>,
    pub filed_at: NaiveDateTime,
}

/// Stores a filed entry; returns its id.
pub fn insert_entry(conn: &mut DbConnection, new: &NewEntry<'_>) -> QueryResult<ReportId> {
    let (source, reporter_id, admin_id) = match new.filed_by {
        FiledBy::Player(id) => (ReportSource::Player, Some(id), None),
        FiledBy::Admin(id) => (ReportSource::Admin, None, Some(id)),
    };
    insert_returning_id!(
        conn,
        reports::table,
        (
            reports::source.eq(source),
            reports::reporter_id.eq(reporter_id),
            reports::filed_by_admin.eq(admin_id),
            reports::reason.eq(new.reason),
            reports::message.eq(new.message),
            reports::game_id.eq(new.game_id),
            reports::filed_at.eq(new.filed_at),
            reports::updated_at.eq(new.filed_at),
        ),
        reports::id
    )
    .map(ReportId)
}

/// Replaces an entry's message after a merge.
pub fn update_message(
    conn: &mut DbConnection,
    report_id: ReportId,
    message: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(reports::table.find(report_id))
        .set((reports::message.eq(message), reports::updated_at.eq(now)))
        .execute(conn)?;
    Ok(())
}

/// Links a report to accused players and supporting games (archive ids).
pub fn link(
    conn: &mut DbConnection,
    report_id: ReportId,
    accused: &[(PlayerId, String)],
    games: &[i64],
) -> QueryResult<()> {
    for (player, _) in accused {
        diesel::insert_into(report_accused::table)
            .values((
                report_accused::report_id.eq(report_id),
                report_accused::player_id.eq(player),
            ))
            .execute(conn)?;
    }
    for game in games {
        diesel::insert_into(report_games::table)
            .values((
                report_games::report_id.eq(report_id),
                report_games::game_id.eq(game),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Files the report into each accused player's open case and re-ranks those cases: a report
/// new to a case is counted into its tally, one filed again (a merge) re-counts the case's
/// reporters and the accused's history.
pub fn join_cases(
    conn: &mut DbConnection,
    report_id: ReportId,
    reason: ReportReason,
    accused: &[(PlayerId, String)],
    policy: &ModerationPolicy,
    now: NaiveDateTime,
    actor: LogActor<'_>,
) -> QueryResult<Vec<CaseId>> {
    // Cases are locked in accused-id order, so two reports naming the same players in another
    // order cannot wait for each other on PostgreSQL; the answer keeps the order given.
    let mut order: Vec<usize> = (0..accused.len()).collect();
    order.sort_by_key(|i| accused[*i].0);
    let mut joined = vec![CaseId(0); accused.len()];
    for i in order {
        let (player, name) = &accused[i];
        let (case, new_to_case) =
            cases::join_open_case(conn, (*player, name), reason, report_id, now, actor)?;
        if new_to_case {
            case_tallies::count_entry(conn, case, report_id, policy, now)?;
        } else {
            case_tallies::recount(conn, case, policy, now)?;
        }
        joined[i] = case;
    }
    Ok(joined)
}

/// A report entry of a case with its current outcome and decision time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntryOutcome {
    pub report_id: ReportId,
    pub outcome: Option<ReportOutcome>,
    pub decided_at: Option<NaiveDateTime>,
}

/// Every report entry of a case, with its outcome so far.
pub fn entry_outcomes(conn: &mut DbConnection, case_id: CaseId) -> QueryResult<Vec<EntryOutcome>> {
    let rows: Vec<(ReportId, Option<ReportOutcome>, Option<NaiveDateTime>)> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq(case_id))
        .select((reports::id, reports::outcome, reports::decided_at))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(report_id, outcome, decided_at)| EntryOutcome {
            report_id,
            outcome,
            decided_at,
        })
        .collect())
}

/// Records a report's outcome, when it was decided and the decision that settled it (whose
/// note and measure its reporter is told).
pub fn set_outcome(
    conn: &mut DbConnection,
    report_id: ReportId,
    outcome: ReportOutcome,
    decided_at: NaiveDateTime,
    decision_id: i64,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(reports::table.find(report_id))
        .set((
            reports::outcome.eq(outcome),
            reports::decided_at.eq(decided_at),
            reports::decision_id.eq(decision_id),
            reports::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// A report a player filed, with its reporter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportReporter {
    pub report_id: ReportId,
    pub player_id: PlayerId,
    pub name: String,
}

/// The reporter of each of `ids` that a player filed, in id order.
pub fn reporters_of(conn: &mut DbConnection, ids: &[ReportId]) -> QueryResult<Vec<ReportReporter>> {
    let rows: Vec<(ReportId, PlayerId, String)> = reports::table
        .inner_join(players::table.on(players::id.nullable().eq(reports::reporter_id)))
        .filter(reports::id.eq_any(ids))
        .order(reports::id.asc())
        .select((reports::id, players::id, players::name))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(report_id, player_id, name)| ReportReporter {
            report_id,
            player_id,
            name,
        })
        .collect())
}

/// Stores what the report's reporter was told, in their language.
pub fn set_reporter_note(
    conn: &mut DbConnection,
    report_id: ReportId,
    note: Option<&str>,
) -> QueryResult<()> {
    diesel::update(reports::table.find(report_id))
        .set(reports::reporter_note.eq(note))
        .execute(conn)?;
    Ok(())
}

/// One of a player's own reports, as they may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnReport {
    pub id: ReportId,
    pub reason: ReportReason,
    pub accused: Vec<String>,
    pub game: Option<i64>,
    pub supporting_games: Vec<i64>,
    pub message: Option<String>,
    pub filed_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub outcome: Option<ReportOutcome>,
    pub decided_at: Option<NaiveDateTime>,
    /// The measure the deciding decision took; `None` while open or without one.
    pub measure: Option<MeasureTaken>,
    /// What the reporter was told, in their language.
    pub reporter_note: Option<String>,
}

type OwnRow = (
    ReportId,
    ReportReason,
    Option<i64>,
    Option<String>,
    NaiveDateTime,
    NaiveDateTime,
    Option<ReportOutcome>,
    Option<NaiveDateTime>,
    Option<i64>,
    Option<String>,
);

/// A page of the reporter's own reports, newest first, ids below `before_id`.
pub fn own_page(
    conn: &mut DbConnection,
    reporter: &str,
    before_id: Option<ReportId>,
    limit: i64,
) -> QueryResult<Vec<OwnReport>> {
    let Some(reporter_id) = super::players::find_id(conn, reporter)? else {
        return Ok(Vec::new());
    };
    let mut query = reports::table
        .filter(reports::reporter_id.eq(reporter_id))
        .select((
            reports::id,
            reports::reason,
            reports::game_id,
            reports::message,
            reports::filed_at,
            reports::updated_at,
            reports::outcome,
            reports::decided_at,
            reports::decision_id,
            reports::reporter_note,
        ))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(reports::id.lt(before));
    }
    let rows: Vec<OwnRow> = query.order(reports::id.desc()).limit(limit).load(conn)?;
    own_reports(conn, rows)
}

/// One report of the reporter, by id.
pub fn own_report(conn: &mut DbConnection, report_id: ReportId) -> QueryResult<Option<OwnReport>> {
    let rows: Vec<OwnRow> = reports::table
        .filter(reports::id.eq(report_id))
        .select((
            reports::id,
            reports::reason,
            reports::game_id,
            reports::message,
            reports::filed_at,
            reports::updated_at,
            reports::outcome,
            reports::decided_at,
            reports::decision_id,
            reports::reporter_note,
        ))
        .load(conn)?;
    Ok(own_reports(conn, rows)?.into_iter().next())
}

fn own_reports(conn: &mut DbConnection, rows: Vec<OwnRow>) -> QueryResult<Vec<OwnReport>> {
    let ids: Vec<ReportId> = rows.iter().map(|r| r.0).collect();
    let mut accused: BTreeMap<ReportId, Vec<String>> = BTreeMap::new();
    for (report, name) in report_accused::table
        .inner_join(players::table)
        .filter(report_accused::report_id.eq_any(&ids))
        .order(players::id.asc())
        .select((report_accused::report_id, players::name))
        .load::<(ReportId, String)>(conn)?
    {
        accused.entry(report).or_default().push(name);
    }
    let mut supporting: BTreeMap<ReportId, Vec<i64>> = BTreeMap::new();
    for (report, id, site) in report_games::table
        .inner_join(games::table)
        .filter(report_games::report_id.eq_any(&ids))
        .order(games::id.asc())
        .select((report_games::report_id, games::id, games::site_game_id))
        .load::<(ReportId, i64, String)>(conn)?
    {
        supporting
            .entry(report)
            .or_default()
            .push(cases::game_number(id, &site).0);
    }
    let main: Vec<i64> = rows.iter().filter_map(|r| r.2).collect();
    let numbers = cases::game_numbers(conn, &main)?;
    let deciding: Vec<i64> = rows.iter().filter_map(|r| r.8).collect();
    let mut measures = super::decisions::measures(conn, &deciding)?;
    Ok(rows
        .into_iter()
        .map(
            |(
                id,
                reason,
                game,
                message,
                filed_at,
                updated_at,
                outcome,
                decided_at,
                decision,
                reporter_note,
            )| {
                OwnReport {
                    id,
                    reason,
                    accused: accused.remove(&id).unwrap_or_default(),
                    game: game.and_then(|g| numbers.get(&g)).map(|n| n.0),
                    supporting_games: supporting.remove(&id).unwrap_or_default(),
                    message,
                    filed_at,
                    updated_at,
                    outcome,
                    decided_at,
                    measure: decision.and_then(|d| measures.remove(&d)).flatten(),
                    reporter_note,
                }
            },
        )
        .collect())
}
