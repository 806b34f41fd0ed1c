//! An admin opens a case from what they saw themselves: an entry (`reports` with the source
//! `admin`) checked against the archive like a player's report (the accused must have played
//! the cited games; without games, some game at all), then in one transaction the entry, its
//! case, the case's priority and the log lines. It joins the accused's open case of that
//! reason if there is one, and is decided like any other. No standing, rate limit or merging
//! applies: each entry is the admin's own evidence.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::check_filing::{check_filing, ArchiveFacts, NamedFiling, Parties};
use super::file_report::FileError;
use crate::moderation::{
    AuditAction, CaseId, ModerationPolicy, ReportId, ReportReason, Reporter, ValidReport,
};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::reports::{self, FiledBy, NewEntry};
use crate::store::{cases, DbConnection};

/// What an admin files: the accused, the reason, the games (site numbers, the first as the
/// main game) and the note that says what they saw.
#[derive(Debug, Clone)]
pub struct AdminFiling {
    pub admin: String,
    pub accused: String,
    pub reason: ReportReason,
    pub games: Vec<i64>,
    /// Already validated as a note (trimmed, bounded).
    pub note: String,
}

/// The stored entry and the case it joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdminFiled {
    pub report_id: ReportId,
    pub case_id: CaseId,
    /// Whether the entry opened the case (false: it joined the accused's open case).
    pub opened: bool,
}

/// Files an admin's entry.
pub fn open_case(
    conn: &mut DbConnection,
    filing: &AdminFiling,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<AdminFiled, FileError> {
    let archive = ArchiveFacts {
        cited: reports::games_by_number(conn, &filing.games)?,
        // Without games nothing else vouches for the name.
        seated: match filing.games.is_empty() {
            true => reports::seated_players(conn, std::slice::from_ref(&filing.accused))?,
            false => Vec::new(),
        },
    };
    conn.transaction(|conn| {
        let accused = [filing.accused.clone()];
        let parties = Parties::resolve(conn, &filing.admin, &accused, false, now)?;
        let valid = check(filing, &parties, &archive, policy)?;
        Ok(store_entry(
            conn, filing, &parties, &archive, &valid, policy, now,
        )?)
    })
}

/// The entry checked as a report: the note is its message ("other" needs one; its length is
/// bounded too).
fn check(
    filing: &AdminFiling,
    parties: &Parties,
    archive: &ArchiveFacts,
    policy: &ModerationPolicy,
) -> Result<ValidReport, FileError> {
    let named = NamedFiling {
        reporter: Reporter::Admin {
            admin: parties.filer.0,
        },
        accused: std::slice::from_ref(&filing.accused),
        reason: filing.reason,
        message: Some(&filing.note),
        game: filing.games.first().copied(),
        supporting_games: filing.games.get(1..).unwrap_or_default(),
    };
    check_filing(&named, parties, archive, policy).map_err(|problems| FileError::Invalid {
        problems,
        names: parties.names(),
    })
}

/// The admin's entry stored and linked, its log line, and the accused's case joined.
fn store_entry(
    conn: &mut DbConnection,
    filing: &AdminFiling,
    parties: &Parties,
    archive: &ArchiveFacts,
    valid: &ValidReport,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<AdminFiled> {
    let accused_id = parties
        .accused
        .first()
        .map(|(id, _)| *id)
        // A valid filing names its accused.
        .ok_or(diesel::result::Error::NotFound)?;
    let opened = cases::open_case_id(conn, accused_id, valid.reason)?.is_none();
    let report_id = insert_entry(conn, filing, parties, archive, valid, now)?;
    let actor = LogActor {
        kind: LogActorKind::Admin,
        name: Some(&filing.admin),
    };
    let action = AuditAction::AdminEntry {
        report: report_id,
        admin: parties.filer.0,
        accused: accused_id,
        reason: valid.reason,
        games: valid
            .game
            .iter()
            .chain(&valid.supporting_games)
            .copied()
            .collect(),
    };
    let refs = LogRefs {
        subject: Some(&filing.accused),
        report_id: Some(report_id),
        why: Some(&filing.note),
        ..LogRefs::default()
    };
    log_action(conn, now, actor, &action, refs)?;
    let joined = reports::join_cases(
        conn,
        report_id,
        valid.reason,
        &parties.accused,
        policy,
        now,
        actor,
    )?;
    let case_id = joined
        .first()
        .copied()
        .ok_or(diesel::result::Error::NotFound)?;
    Ok(AdminFiled {
        report_id,
        case_id,
        opened,
    })
}

/// The entry's report row, linked to its accused and supporting games.
fn insert_entry(
    conn: &mut DbConnection,
    filing: &AdminFiling,
    parties: &Parties,
    archive: &ArchiveFacts,
    valid: &ValidReport,
    now: NaiveDateTime,
) -> QueryResult<ReportId> {
    let entry = NewEntry {
        filed_by: FiledBy::Admin(parties.filer.0),
        reason: valid.reason,
        message: Some(filing.note.as_str()),
        game_id: valid.game.and_then(|g| archive.archive_id(g)),
        filed_at: now,
    };
    let report_id = reports::insert_entry(conn, &entry)?;
    let supporting: Vec<i64> = valid
        .supporting_games
        .iter()
        .filter_map(|g| archive.archive_id(*g))
        .collect();
    reports::link(conn, report_id, &parties.accused, &supporting)?;
    Ok(report_id)
}
