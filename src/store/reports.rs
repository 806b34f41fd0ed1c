//! Reports (`reports`, `report_accused`, `report_games`): players' filings and automatic
//! reports joining the review queue, each an entry of one open case per accused.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::cases;
use super::connection::DbConnection;
use super::modlog::ActorKind;
use super::modlog::{log_action, LogActor, LogRefs};
use super::schema::{game_seats, games, modlog, players, report_accused, report_games, reports};
use super::{enum_name, parse_enum, to_utc};
use crate::moderation::{
    check_rate, merge_decision, validate_report, AuditAction, GameFacts, GameNumber, MergeOutcome,
    ModerationPolicy, NewReport, PlayerId, ReportContext, ReportEntry, ReportId, ReportProblem,
    ReportReason, Reporter, RetryAfter, ValidReport, Variant,
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
pub struct CitedGame {
    pub archive_id: i64,
    pub number: i64,
    pub variant: Variant,
    pub players: Vec<String>,
}

/// The stored games among these site numbers, with their seated players.
pub fn games_by_number(conn: &mut DbConnection, numbers: &[i64]) -> QueryResult<Vec<CitedGame>> {
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
            Some(CitedGame {
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

/// A player's filing as received.
#[derive(Debug, Clone)]
pub struct Filing {
    pub reporter: String,
    /// The reporter's erased-name key (`PrivacySettings::erased_name_key`): a report timeout
    /// given before an erasure still applies.
    pub reporter_key: Option<String>,
    pub accused: Vec<String>,
    pub reason: ReportReason,
    pub message: Option<String>,
    /// Site game numbers.
    pub game: Option<i64>,
    pub supporting_games: Vec<i64>,
}

/// Why a filing was refused.
#[derive(Debug)]
pub enum FileError {
    /// The report breaks the reporting rules; `names` resolves the problems' player ids.
    Invalid {
        problems: Vec<ReportProblem>,
        names: HashMap<PlayerId, String>,
    },
    /// A report timeout (or club ban) runs; `until` is `None` when permanent.
    MayNotReport {
        until: Option<DateTime<Utc>>,
        club_banned: bool,
    },
    RateLimited(RetryAfter),
    Db(DieselError),
}

impl From<DieselError> for FileError {
    fn from(err: DieselError) -> Self {
        FileError::Db(err)
    }
}

/// A stored filing: the report and whether it merged into an earlier one.
#[derive(Debug, Clone, PartialEq)]
pub struct Filed {
    pub report_id: i64,
    pub merged: bool,
    pub message_truncated: bool,
}

/// Names as policy ids for validation only: each distinct name gets its own number.
struct Interned {
    ids: HashMap<String, PlayerId>,
}

impl Interned {
    fn id(&mut self, name: &str) -> PlayerId {
        let next = PlayerId(i64::try_from(self.ids.len()).unwrap_or(i64::MAX) + 1);
        *self.ids.entry(name.to_string()).or_insert(next)
    }

    fn names(&self) -> HashMap<PlayerId, String> {
        self.ids.iter().map(|(n, id)| (*id, n.clone())).collect()
    }
}

/// A filing checked against the reporting rules and the archive.
pub(super) struct CheckedFiling {
    pub valid: ValidReport,
    pub cited: Vec<CitedGame>,
}

impl CheckedFiling {
    /// The archive id of a cited game.
    pub fn archive_id(&self, number: GameNumber) -> Option<i64> {
        self.cited
            .iter()
            .find(|g| g.number == number.0)
            .map(|g| g.archive_id)
    }
}

/// Checks a filing against the reporting rules and the cited games, `filer` making the
/// reporter from the filer's validation id. Reads only the archive, which never changes under
/// a game number, so it runs before the write transaction.
pub(super) fn check_filing(
    conn: &mut DbConnection,
    filing: &Filing,
    filer: fn(PlayerId) -> Reporter,
    policy: &ModerationPolicy,
) -> Result<CheckedFiling, FileError> {
    let numbers: Vec<i64> = filing
        .game
        .iter()
        .chain(filing.supporting_games.iter())
        .copied()
        .collect();
    let cited = games_by_number(conn, &numbers)?;
    let mut interned = Interned {
        ids: HashMap::new(),
    };
    let reporter = interned.id(&filing.reporter);
    let accused: Vec<PlayerId> = filing.accused.iter().map(|n| interned.id(n)).collect();
    // Only a report without a game needs them (the game's seats vouch otherwise).
    let known = if filing.game.is_none() {
        seated_players(conn, &filing.accused)?
    } else {
        Vec::new()
    };
    let context = ReportContext {
        games: cited
            .iter()
            .map(|g| GameFacts {
                number: GameNumber(g.number),
                variant: g.variant,
                players: g.players.iter().map(|p| interned.id(p)).collect(),
            })
            .collect(),
        known_players: known.iter().map(|p| interned.id(p)).collect(),
    };
    let new = NewReport {
        reporter: filer(reporter),
        accused,
        reason: filing.reason,
        message: filing.message.clone(),
        game: filing.game.map(GameNumber),
        supporting_games: filing
            .supporting_games
            .iter()
            .copied()
            .map(GameNumber)
            .collect(),
    };
    let valid = validate_report(&new, &context, policy).map_err(|problems| FileError::Invalid {
        problems,
        names: interned.names(),
    })?;
    Ok(CheckedFiling { valid, cited })
}

/// The accused names in the order given, without repeats.
pub(super) fn distinct_names(names: &[String]) -> Vec<String> {
    names.iter().fold(Vec::new(), |mut distinct, name| {
        if !distinct.contains(name) {
            distinct.push(name.clone());
        }
        distinct
    })
}

/// Creates the player rows a filing needs, in name order: the order in which the conduct
/// applier creates them too, so the two cannot deadlock.
pub(super) fn create_players(
    conn: &mut DbConnection,
    names: &[&str],
    now: NaiveDateTime,
) -> QueryResult<()> {
    let mut names = names.to_vec();
    names.sort_unstable();
    names.dedup();
    for name in names {
        on_backend!(conn, c => diesel::insert_into(players::table)
            .values((players::name.eq(name), players::created_at.eq(now)))
            .on_conflict_do_nothing()
            .execute(c))?;
    }
    Ok(())
}

/// Files a player's report: validation against the archive, then in ONE transaction the
/// reporter's standing and rate limit, merging into their earlier report about the same game
/// and reason, the case of each accused, the cases' priorities and the log line.
pub fn file(
    conn: &mut DbConnection,
    filing: &Filing,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<Filed, FileError> {
    let checked = check_filing(conn, filing, |player| Reporter::Player { player }, policy)?;
    let valid = &checked.valid;
    let archive_id = |number: GameNumber| checked.archive_id(number);
    let accused_names = distinct_names(&filing.accused);
    conn.transaction(|conn| {
        // Every player row this filing needs exists first.
        let mut names: Vec<&str> = accused_names.iter().map(String::as_str).collect();
        names.push(&filing.reporter);
        create_players(conn, &names, now)?;
        let reporter_id = lock_player(conn, &filing.reporter, now)?;
        let standing = super::sanctions::standing_of(
            conn,
            &filing.reporter,
            filing.reporter_key.as_deref(),
            now,
        )?;
        if !standing.may_report {
            return Err(FileError::MayNotReport {
                until: standing.report_until,
                club_banned: standing.club_banned,
            });
        }
        check_rate(
            &recent_filings(conn, reporter_id, now)?,
            to_utc(now),
            policy,
        )
        .map_err(FileError::RateLimited)?;

        let mut accused = Vec::with_capacity(accused_names.len());
        for name in &accused_names {
            let id = conn.transaction(|conn| super::players::id_or_create(conn, name, now))?;
            accused.push((id, name.clone()));
        }
        let valid = ValidReport {
            reporter: Reporter::Player {
                player: PlayerId(reporter_id),
            },
            accused: accused.iter().map(|(id, _)| PlayerId(*id)).collect(),
            ..valid.clone()
        };
        let game_id = valid.game.and_then(archive_id);
        let existing = open_entries(conn, reporter_id, valid.reason, game_id, valid.game)?;
        let actor = LogActor {
            kind: ActorKind::Player,
            name: Some(&filing.reporter),
        };
        match merge_decision(&existing, &valid, policy) {
            MergeOutcome::NewEntry => {
                let report_id = insert_returning_id!(
                    conn,
                    reports::table,
                    (
                        reports::source.eq("player"),
                        reports::reporter_id.eq(Some(reporter_id)),
                        reports::reason.eq(enum_name(&valid.reason)),
                        reports::message.eq(valid.message.as_deref()),
                        reports::game_id.eq(game_id),
                        reports::filed_at.eq(now),
                        reports::updated_at.eq(now),
                    ),
                    reports::id
                )?;
                let supporting: Vec<i64> = valid
                    .supporting_games
                    .iter()
                    .filter_map(|g| archive_id(*g))
                    .collect();
                link(conn, report_id, &accused, &supporting)?;
                log_action(
                    conn,
                    now,
                    actor,
                    &AuditAction::ReportFiled {
                        report: ReportId(report_id),
                        reporter: PlayerId(reporter_id),
                        accused: valid.accused.clone(),
                        reason: valid.reason,
                        game: valid.game,
                    },
                    LogRefs {
                        subject: accused.first().map(|(_, n)| n.as_str()),
                        report_id: Some(report_id),
                        why: valid.message.as_deref(),
                        ..LogRefs::default()
                    },
                )?;
                join_cases(conn, report_id, valid.reason, &accused, policy, now, actor)?;
                Ok(Filed {
                    report_id,
                    merged: false,
                    message_truncated: false,
                })
            }
            MergeOutcome::MergeInto {
                entry,
                supporting_games,
                message,
                message_truncated,
                added_accused,
                ..
            } => {
                let report_id = entry.0;
                let before = existing
                    .iter()
                    .find(|e| e.id == entry)
                    .map(|e| e.supporting_games.clone())
                    .unwrap_or_default();
                let added_games: Vec<GameNumber> = supporting_games
                    .iter()
                    .filter(|g| !before.contains(g))
                    .copied()
                    .collect();
                diesel::update(reports::table.find(report_id))
                    .set((
                        reports::message.eq(message.as_deref()),
                        reports::updated_at.eq(now),
                    ))
                    .execute(conn)?;
                let new_accused: Vec<(i64, String)> = accused
                    .iter()
                    .filter(|(id, _)| added_accused.contains(&PlayerId(*id)))
                    .cloned()
                    .collect();
                let new_games: Vec<i64> =
                    added_games.iter().filter_map(|g| archive_id(*g)).collect();
                link(conn, report_id, &new_accused, &new_games)?;
                log_action(
                    conn,
                    now,
                    actor,
                    &AuditAction::ReportMerged {
                        report: entry,
                        added_games,
                        added_accused,
                    },
                    LogRefs {
                        subject: accused.first().map(|(_, n)| n.as_str()),
                        report_id: Some(report_id),
                        why: valid.message.as_deref(),
                        ..LogRefs::default()
                    },
                )?;
                // Every case of the entry: new cases for added players, new evidence for all.
                let all_accused: Vec<(i64, String)> = accused_of(conn, report_id)?;
                join_cases(
                    conn,
                    report_id,
                    valid.reason,
                    &all_accused,
                    policy,
                    now,
                    actor,
                )?;
                Ok(Filed {
                    report_id,
                    merged: true,
                    message_truncated,
                })
            }
        }
    })
}

/// The reporter's row, created if needed and locked for this transaction. The first statement
/// writes, so SQLite takes its write lock before anything is read (a read-then-write
/// transaction could not upgrade while another writer commits); PostgreSQL locks the row, so
/// one reporter's filings run one at a time (rate limit and merging read then write).
fn lock_player(conn: &mut DbConnection, name: &str, now: NaiveDateTime) -> QueryResult<i64> {
    on_backend!(conn, c => diesel::insert_into(players::table)
        .values((players::name.eq(name), players::created_at.eq(now)))
        .on_conflict_do_nothing()
        .execute(c))?;
    diesel::update(players::table.filter(players::name.eq(name)))
        .set(players::created_at.eq(players::created_at))
        .execute(conn)?;
    players::table
        .filter(players::name.eq(name))
        .select(players::id)
        .first(conn)
}

/// Times of the reporter's filings (new and merged) in the last day, from the moderation log.
fn recent_filings(
    conn: &mut DbConnection,
    reporter_id: i64,
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
fn open_entries(
    conn: &mut DbConnection,
    reporter_id: i64,
    reason: ReportReason,
    game_id: Option<i64>,
    game: Option<GameNumber>,
) -> QueryResult<Vec<ReportEntry>> {
    let mut query = reports::table
        .filter(reports::reporter_id.eq(reporter_id))
        .filter(reports::reason.eq(enum_name(&reason)))
        .filter(reports::outcome.is_null())
        .select((reports::id, reports::message, reports::filed_at))
        .into_boxed();
    query = match game_id {
        Some(id) => query.filter(reports::game_id.eq(id)),
        None => query.filter(reports::game_id.is_null()),
    };
    let rows: Vec<(i64, Option<String>, NaiveDateTime)> = query.load(conn)?;
    let mut entries = Vec::with_capacity(rows.len());
    for (id, message, filed_at) in rows {
        let accused = accused_of(conn, id)?
            .into_iter()
            .map(|(p, _)| PlayerId(p))
            .collect();
        let supporting = report_games::table
            .inner_join(games::table)
            .filter(report_games::report_id.eq(id))
            .select((games::id, games::site_game_id))
            .load::<(i64, String)>(conn)?
            .into_iter()
            .map(|(id, site)| cases::game_number(id, &site))
            .collect();
        entries.push(ReportEntry {
            id: ReportId(id),
            reporter: Reporter::Player {
                player: PlayerId(reporter_id),
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

fn accused_of(conn: &mut DbConnection, report_id: i64) -> QueryResult<Vec<(i64, String)>> {
    report_accused::table
        .inner_join(players::table)
        .filter(report_accused::report_id.eq(report_id))
        .order(players::id.asc())
        .select((players::id, players::name))
        .load(conn)
}

/// Links a report to accused players and supporting games (archive ids).
pub fn link(
    conn: &mut DbConnection,
    report_id: i64,
    accused: &[(i64, String)],
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

/// Files the report into each accused player's open case and refreshes those cases.
pub fn join_cases(
    conn: &mut DbConnection,
    report_id: i64,
    reason: ReportReason,
    accused: &[(i64, String)],
    policy: &ModerationPolicy,
    now: NaiveDateTime,
    actor: LogActor<'_>,
) -> QueryResult<Vec<i64>> {
    let mut joined = Vec::with_capacity(accused.len());
    for (player, name) in accused {
        let case = cases::join_open_case(conn, (*player, name), reason, report_id, now, actor)?;
        cases::refresh_priority(conn, case, policy, now)?;
        joined.push(case);
    }
    Ok(joined)
}

/// One of a player's own reports, as they may see it.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnReport {
    pub id: i64,
    pub reason: ReportReason,
    pub accused: Vec<String>,
    pub game: Option<i64>,
    pub supporting_games: Vec<i64>,
    pub message: Option<String>,
    pub filed_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub outcome: Option<String>,
    pub decided_at: Option<NaiveDateTime>,
}

type OwnRow = (
    i64,
    String,
    Option<i64>,
    Option<String>,
    NaiveDateTime,
    NaiveDateTime,
    Option<String>,
    Option<NaiveDateTime>,
);

/// A page of the reporter's own reports, newest first, ids below `before_id`.
pub fn own_page(
    conn: &mut DbConnection,
    reporter: &str,
    before_id: Option<i64>,
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
        ))
        .into_boxed();
    if let Some(before) = before_id {
        query = query.filter(reports::id.lt(before));
    }
    let rows: Vec<OwnRow> = query.order(reports::id.desc()).limit(limit).load(conn)?;
    own_reports(conn, rows)
}

/// One report of the reporter, by id.
pub fn own_report(conn: &mut DbConnection, report_id: i64) -> QueryResult<Option<OwnReport>> {
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
        ))
        .load(conn)?;
    Ok(own_reports(conn, rows)?.into_iter().next())
}

fn own_reports(conn: &mut DbConnection, rows: Vec<OwnRow>) -> QueryResult<Vec<OwnReport>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let mut accused: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    for (report, name) in report_accused::table
        .inner_join(players::table)
        .filter(report_accused::report_id.eq_any(&ids))
        .order(players::id.asc())
        .select((report_accused::report_id, players::name))
        .load::<(i64, String)>(conn)?
    {
        accused.entry(report).or_default().push(name);
    }
    let mut supporting: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (report, id, site) in report_games::table
        .inner_join(games::table)
        .filter(report_games::report_id.eq_any(&ids))
        .order(games::id.asc())
        .select((report_games::report_id, games::id, games::site_game_id))
        .load::<(i64, i64, String)>(conn)?
    {
        supporting
            .entry(report)
            .or_default()
            .push(cases::game_number(id, &site).0);
    }
    let main: Vec<i64> = rows.iter().filter_map(|r| r.2).collect();
    let numbers = cases::game_numbers(conn, &main)?;
    rows.into_iter()
        .map(
            |(id, reason, game, message, filed_at, updated_at, outcome, decided_at)| {
                Ok(OwnReport {
                    id,
                    reason: parse_enum(&reason)?,
                    accused: accused.remove(&id).unwrap_or_default(),
                    game: game.and_then(|g| numbers.get(&g)).map(|n| n.0),
                    supporting_games: supporting.remove(&id).unwrap_or_default(),
                    message,
                    filed_at,
                    updated_at,
                    outcome,
                    decided_at,
                })
            },
        )
        .collect()
}
