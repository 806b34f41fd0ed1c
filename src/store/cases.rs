//! Review cases (`cases`, `case_reports`): one open case per accused player and reason, the
//! report entries filed into it, its stored priority, admin claims and decisions.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::connection::DbConnection;
use super::modlog::{log_action, LogActor, LogRefs};
use super::schema::{
    case_reports, cases, decisions, games, report_accused, report_games, report_timeouts, reports,
    sanctions,
};
use super::to_utc;
use crate::moderation::{
    accuracy_of_counts, case_key, AuditAction, CaseEntry, CaseFacts, CaseId, CaseStatus,
    DecidedReport, DecisionKind, GameNumber, ModerationPolicy, PlayerId, ReportId, ReportOutcome,
    ReportReason, ReportSource, ReportTimeout, Reporter,
};

/// A stored case.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = cases)]
pub struct CaseRow {
    pub id: CaseId,
    pub accused_id: PlayerId,
    pub reason: ReportReason,
    pub status: CaseStatus,
    pub opened_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub priority_base: f64,
    pub entry_count: i32,
    pub claimed_by: Option<PlayerId>,
    pub claimed_until: Option<NaiveDateTime>,
    pub decided_at: Option<NaiveDateTime>,
}

impl CaseRow {
    pub fn is_open(&self) -> bool {
        self.status == CaseStatus::Open
    }
}

pub fn find(conn: &mut DbConnection, id: CaseId) -> QueryResult<Option<CaseRow>> {
    cases::table
        .find(id)
        .select(CaseRow::as_select())
        .first(conn)
        .optional()
}

pub fn open_case_id(
    conn: &mut DbConnection,
    accused_id: PlayerId,
    reason: ReportReason,
) -> QueryResult<Option<CaseId>> {
    cases::table
        .filter(cases::accused_id.eq(accused_id))
        .filter(cases::reason.eq(reason))
        .filter(cases::status.eq(CaseStatus::Open))
        .select(cases::id)
        .first(conn)
        .optional()
}

/// Files `report_id` into the open case of (`accused_id`, `reason`), opening the case if there
/// is none, and returns the case id. Concurrent filers end in one case: the `cases_one_open`
/// unique index refuses a second open case, and the loser (inside a savepoint, so the caller's
/// transaction survives on PostgreSQL) re-reads the winner's. Runs inside the caller's
/// transaction; returns the case and whether the report is new to it (the caller then counts
/// it into the case's tally: `case_tallies`).
pub fn join_open_case(
    conn: &mut DbConnection,
    accused: (PlayerId, &str),
    reason: ReportReason,
    report_id: ReportId,
    now: NaiveDateTime,
    actor: LogActor<'_>,
) -> QueryResult<(CaseId, bool)> {
    let (accused_id, accused_name) = accused;
    let case_id = match open_case_id(conn, accused_id, reason)? {
        Some(id) => id,
        None => {
            let opened = conn.transaction(|conn| {
                insert_returning_id!(
                    conn,
                    cases::table,
                    (
                        cases::accused_id.eq(accused_id),
                        cases::reason.eq(reason),
                        cases::status.eq(CaseStatus::Open),
                        cases::opened_at.eq(now),
                        cases::updated_at.eq(now),
                        cases::priority_base.eq(0.0),
                        cases::entry_count.eq(0),
                    ),
                    cases::id
                )
                .map(CaseId)
            });
            match opened {
                Ok(id) => {
                    log_action(
                        conn,
                        now,
                        actor,
                        &AuditAction::CaseOpened {
                            case: id,
                            accused: accused_id,
                            reason,
                        },
                        LogRefs {
                            subject: Some(accused_name),
                            case_id: Some(id),
                            report_id: Some(report_id),
                            ..LogRefs::default()
                        },
                    )?;
                    id
                }
                Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                    open_case_id(conn, accused_id, reason)?.ok_or(DieselError::NotFound)?
                }
                Err(other) => return Err(other),
            }
        }
    };
    // Lock the case row until commit (PostgreSQL): concurrent filers into one case take turns,
    // so each counts its entry into the tally the previous one left.
    diesel::update(cases::table.find(case_id))
        .set(cases::updated_at.eq(now))
        .execute(conn)?;
    let linked: bool = diesel::select(diesel::dsl::exists(
        case_reports::table.find((case_id, report_id)),
    ))
    .get_result(conn)?;
    if !linked {
        diesel::insert_into(case_reports::table)
            .values((
                case_reports::case_id.eq(case_id),
                case_reports::report_id.eq(report_id),
            ))
            .execute(conn)?;
    }
    Ok((case_id, !linked))
}

/// A game as a policy game number: the site's number, or minus the archive id for a stored
/// game whose number is not numeric (still distinct, which is all the policy compares).
pub(crate) fn game_number(archive_id: i64, site_game_id: &str) -> GameNumber {
    GameNumber(site_game_id.parse().unwrap_or(-archive_id))
}

/// Site numbers of archive games, by archive id.
pub(crate) fn game_numbers(
    conn: &mut DbConnection,
    archive_ids: &[i64],
) -> QueryResult<HashMap<i64, GameNumber>> {
    if archive_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows: Vec<(i64, String)> = games::table
        .filter(games::id.eq_any(archive_ids))
        .select((games::id, games::site_game_id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, site)| (id, game_number(id, &site)))
        .collect())
}

/// A player's accuracy share from their decided reports, counted in SQL.
pub fn reporter_accuracy_of(
    conn: &mut DbConnection,
    reporter_id: PlayerId,
    policy: &ModerationPolicy,
) -> QueryResult<f64> {
    let counts: Vec<(Option<ReportOutcome>, i64)> = reports::table
        .filter(reports::reporter_id.eq(reporter_id))
        .filter(reports::outcome.is_not_null())
        .group_by(reports::outcome)
        .select((reports::outcome, diesel::dsl::count_star()))
        .load(conn)?;
    let count_of = |wanted: ReportOutcome| -> usize {
        counts
            .iter()
            .filter(|(outcome, _)| *outcome == Some(wanted))
            .map(|(_, n)| usize::try_from(*n).unwrap_or(0))
            .sum()
    };
    let upheld = count_of(ReportOutcome::Upheld);
    let unjustified = count_of(ReportOutcome::DismissedUnjustified);
    Ok(accuracy_of_counts(upheld, unjustified, policy).share)
}

/// Earlier warnings and sanctions of a player that were not lifted.
pub fn earlier_measures_count(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<u32> {
    let sanctions: i64 = sanctions::table
        .filter(sanctions::player_id.eq(player_id))
        .filter(sanctions::lifted_at.is_null())
        .count()
        .get_result(conn)?;
    let warnings: i64 = decisions::table
        .inner_join(cases::table)
        .filter(cases::accused_id.eq(player_id))
        .filter(decisions::kind.eq(DecisionKind::Warn))
        .count()
        .get_result(conn)?;
    Ok(u32::try_from(sanctions + warnings).unwrap_or(u32::MAX))
}

/// Everything the policy reads about a case: its entries (with reporter accuracies from their
/// decided reports and the cited games as site numbers) and the accused's earlier measures.
pub fn case_facts(
    conn: &mut DbConnection,
    case: &CaseRow,
    policy: &ModerationPolicy,
) -> QueryResult<CaseFacts> {
    let rows: Vec<FactsRow> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq(case.id))
        .order(reports::id.asc())
        .select((
            reports::id,
            reports::source,
            reports::reporter_id,
            reports::filed_by_admin,
            reports::score,
            reports::game_id,
            reports::filed_at,
        ))
        .load(conn)?;
    let ids: Vec<ReportId> = rows.iter().map(|r| r.0).collect();
    let mut accused: BTreeMap<ReportId, Vec<PlayerId>> = BTreeMap::new();
    for (report, player) in report_accused::table
        .filter(report_accused::report_id.eq_any(&ids))
        .select((report_accused::report_id, report_accused::player_id))
        .load::<(ReportId, PlayerId)>(conn)?
    {
        accused.entry(report).or_default().push(player);
    }
    let mut supporting: BTreeMap<ReportId, Vec<i64>> = BTreeMap::new();
    for (report, game) in report_games::table
        .filter(report_games::report_id.eq_any(&ids))
        .select((report_games::report_id, report_games::game_id))
        .load::<(ReportId, i64)>(conn)?
    {
        supporting.entry(report).or_default().push(game);
    }
    let mut archive_ids: BTreeSet<i64> = rows.iter().filter_map(|r| r.5).collect();
    archive_ids.extend(supporting.values().flatten().copied());
    let numbers = game_numbers(conn, &archive_ids.into_iter().collect::<Vec<_>>())?;
    let mut accuracies = ReporterAccuracies::default();
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let (id, reporter_id, game_id) = (row.0, row.2, row.5);
        entries.push(CaseEntry {
            report: id,
            reporter: reporter_of(&row),
            accused: accused.remove(&id).unwrap_or_default(),
            game: game_id.and_then(|g| numbers.get(&g).copied()),
            supporting_games: supporting
                .remove(&id)
                .unwrap_or_default()
                .iter()
                .filter_map(|g| numbers.get(g).copied())
                .collect(),
            filed_at: to_utc(row.6),
            reporter_accuracy: accuracies.of(conn, reporter_id, policy)?,
        });
    }
    Ok(CaseFacts {
        key: case_key(case.accused_id, case.reason),
        opened_at: to_utc(case.opened_at),
        entries,
        accused_earlier_sanctions: earlier_measures_count(conn, case.accused_id)?,
    })
}

/// A case entry's columns: id, source, reporter, filing admin, score, game, filed at.
pub(crate) type FactsRow = (
    ReportId,
    ReportSource,
    Option<PlayerId>,
    Option<PlayerId>,
    Option<f64>,
    Option<i64>,
    NaiveDateTime,
);

/// Who filed an entry: a player, an admin, or one of the analyses with its score.
pub(crate) fn reporter_of(row: &FactsRow) -> Reporter {
    let (source, reporter_id, filed_by_admin) = (row.1, row.2, row.3);
    let score = row.4.unwrap_or(0.0);
    match (source, reporter_id, filed_by_admin) {
        (_, Some(player), _) => Reporter::Player { player },
        (_, None, Some(admin)) => Reporter::Admin { admin },
        (ReportSource::ConductSignal, None, None) => Reporter::ConductSignal { score },
        (ReportSource::CollusionAnalysis, None, None) => Reporter::CollusionAnalysis { score },
        (ReportSource::FingerprintMatch, None, None) => Reporter::FingerprintMatch { score },
        _ => Reporter::ChatAnalysis { score },
    }
}

/// Reporter accuracies read once per reporter while a case's facts are gathered.
#[derive(Default)]
struct ReporterAccuracies(HashMap<PlayerId, f64>);

impl ReporterAccuracies {
    fn of(
        &mut self,
        conn: &mut DbConnection,
        reporter: Option<PlayerId>,
        policy: &ModerationPolicy,
    ) -> QueryResult<Option<f64>> {
        let Some(player) = reporter else {
            return Ok(None);
        };
        if let Some(share) = self.0.get(&player) {
            return Ok(Some(*share));
        }
        let share = reporter_accuracy_of(conn, player, policy)?;
        self.0.insert(player, share);
        Ok(Some(share))
    }
}

/// Takes the case for a decision by `admin_id`: touches it only while it is open and the admin
/// holds a running claim, and says whether it did. Written first in a decision's transaction,
/// so it locks the case row (PostgreSQL) or the database (SQLite) before anything is read, and
/// checks status and claim in the same statement.
pub fn hold_for_decision(
    conn: &mut DbConnection,
    case_id: CaseId,
    admin_id: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let held = diesel::update(
        cases::table
            .filter(cases::id.eq(case_id))
            .filter(cases::status.eq(CaseStatus::Open))
            .filter(cases::claimed_by.eq(admin_id))
            .filter(cases::claimed_until.gt(now)),
    )
    .set(cases::updated_at.eq(now))
    .execute(conn)?;
    Ok(held > 0)
}

/// Marks a case decided.
pub fn close(conn: &mut DbConnection, case_id: CaseId, now: NaiveDateTime) -> QueryResult<()> {
    diesel::update(cases::table.find(case_id))
        .set((
            cases::status.eq(CaseStatus::Decided),
            cases::decided_at.eq(now),
            cases::updated_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The open cases of a player as the accused.
pub fn open_cases_of(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<Vec<CaseId>> {
    cases::table
        .filter(cases::accused_id.eq(player_id))
        .filter(cases::status.eq(CaseStatus::Open))
        .select(cases::id)
        .load(conn)
}

/// A reporter's decided reports within the timeout window, and their earlier timeouts.
pub fn reporter_history(
    conn: &mut DbConnection,
    reporter_id: PlayerId,
    since: NaiveDateTime,
) -> QueryResult<(Vec<DecidedReport>, Vec<ReportTimeout>)> {
    let decided: Vec<(Option<NaiveDateTime>, Option<ReportOutcome>)> = reports::table
        .filter(reports::reporter_id.eq(reporter_id))
        .filter(reports::decided_at.gt(since))
        .select((reports::decided_at, reports::outcome))
        .load(conn)?;
    let mut history = Vec::with_capacity(decided.len());
    for (at, outcome) in decided {
        if let (Some(at), Some(outcome)) = (at, outcome) {
            history.push(DecidedReport {
                decided_at: to_utc(at),
                outcome,
            });
        }
    }
    let timeouts = report_timeouts::table
        .filter(report_timeouts::player_id.eq(reporter_id))
        .select((
            report_timeouts::starts_at,
            report_timeouts::ends_at,
            report_timeouts::step,
        ))
        .load::<(NaiveDateTime, NaiveDateTime, i32)>(conn)?
        .into_iter()
        .map(|(starts, ends, step)| ReportTimeout {
            starts_at: to_utc(starts),
            until: to_utc(ends),
            level: u32::try_from(step).unwrap_or(1),
        })
        .collect();
    Ok((history, timeouts))
}
