//! An admin's own entry about a player (`reports` with the source `admin`): what an admin saw
//! themselves opens a case, or joins the accused's open case of that reason, and is decided
//! like any other (claim, the several-games rule, the ladder).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::cases;
use super::connection::DbConnection;
use super::modlog::{log_action, ActorKind, LogActor, LogRefs};
use super::reports::{
    check_filing, create_players, join_cases, link, CheckedFiling, FileError, Filing,
};
use super::schema::reports;
use super::{enum_name, players};
use crate::moderation::{AuditAction, ModerationPolicy, PlayerId, ReportId, Reporter};

/// What an admin files: the accused, the reason, the games (site numbers, the first as the
/// main game) and the note that says what they saw.
#[derive(Debug, Clone)]
pub struct AdminFiling {
    pub admin: String,
    pub accused: String,
    pub reason: crate::moderation::ReportReason,
    pub games: Vec<i64>,
    /// Already validated as a note (trimmed, bounded).
    pub note: String,
}

/// The stored entry and the case it joined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdminFiled {
    pub report_id: i64,
    pub case_id: i64,
    /// Whether the entry opened the case (false: it joined the accused's open case).
    pub opened: bool,
}

/// Files an admin's entry: checked against the archive like a player's report (the accused
/// must have played the cited games; without games, some game at all), then in one
/// transaction the entry, its case, the case's priority and the log lines. No standing, rate
/// limit or merging applies: each entry is the admin's own evidence.
pub fn file(
    conn: &mut DbConnection,
    filing: &AdminFiling,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<AdminFiled, FileError> {
    let as_report = Filing {
        reporter: filing.admin.clone(),
        reporter_key: None,
        accused: vec![filing.accused.clone()],
        reason: filing.reason,
        // The note is the entry's message ("other" needs one; its length is bounded too).
        message: Some(filing.note.clone()),
        game: filing.games.first().copied(),
        supporting_games: filing.games.iter().skip(1).copied().collect(),
    };
    let checked = check_filing(conn, &as_report, |admin| Reporter::Admin { admin }, policy)?;
    Ok(conn.transaction(|conn| store_entry(conn, filing, &checked, policy, now))?)
}

fn store_entry(
    conn: &mut DbConnection,
    filing: &AdminFiling,
    checked: &CheckedFiling,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<AdminFiled> {
    create_players(conn, &[&filing.admin, &filing.accused], now)?;
    let admin_id = players::id_or_create(conn, &filing.admin, now)?;
    let accused_id = players::id_or_create(conn, &filing.accused, now)?;
    let valid = &checked.valid;
    let reason_name = enum_name(&valid.reason);
    let opened = cases::open_case_id(conn, accused_id, &reason_name)?.is_none();
    let report_id = insert_returning_id!(
        conn,
        reports::table,
        (
            reports::source.eq("admin"),
            reports::filed_by_admin.eq(Some(admin_id)),
            reports::reason.eq(&reason_name),
            reports::message.eq(Some(filing.note.as_str())),
            reports::game_id.eq(valid.game.and_then(|g| checked.archive_id(g))),
            reports::filed_at.eq(now),
            reports::updated_at.eq(now),
        ),
        reports::id
    )?;
    let supporting: Vec<i64> = valid
        .supporting_games
        .iter()
        .filter_map(|g| checked.archive_id(*g))
        .collect();
    let accused = [(accused_id, filing.accused.clone())];
    link(conn, report_id, &accused, &supporting)?;
    let actor = LogActor {
        kind: ActorKind::Admin,
        name: Some(&filing.admin),
    };
    log_action(
        conn,
        now,
        actor,
        &AuditAction::AdminEntry {
            report: ReportId(report_id),
            admin: PlayerId(admin_id),
            accused: PlayerId(accused_id),
            reason: valid.reason,
            games: valid
                .game
                .iter()
                .chain(&valid.supporting_games)
                .copied()
                .collect(),
        },
        LogRefs {
            subject: Some(&filing.accused),
            report_id: Some(report_id),
            why: Some(&filing.note),
            ..LogRefs::default()
        },
    )?;
    let joined = join_cases(conn, report_id, valid.reason, &accused, policy, now, actor)?;
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
