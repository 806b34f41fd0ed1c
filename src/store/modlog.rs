//! The moderation log (`modlog`): append-only, one row per admin, player or automatic action.
//! The table refuses updates and deletes (triggers on both backends); this module only appends
//! and reads. Appends run inside the transaction of the action they record, so an action and
//! its log line are written together or not at all.
//!
//! People are stored as `players.id` (`actor_id`, `subject_id`) and named at read time, so an
//! erasure renames one `players` row instead of editing log lines.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::connection::DbConnection;
use super::players;
use super::schema::{modlog, players as players_table};
use crate::moderation::{AppealId, AuditAction, CaseId, PlayerId, ReportId, SanctionId};

/// Who acted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogActorKind {
    Player,
    Admin,
    /// The service itself (automatic reports, report timeouts).
    System,
}

impl LogActorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LogActorKind::Player => "player",
            LogActorKind::Admin => "admin",
            LogActorKind::System => "system",
        }
    }
}

/// A log line to append.
#[derive(Debug, Clone, PartialEq)]
pub struct NewModlogEntry<'a> {
    pub at: NaiveDateTime,
    pub actor_kind: LogActorKind,
    /// The acting player's or admin's name; `None` for the system.
    pub actor: Option<&'a str>,
    /// What happened: `crate::moderation::AuditAction::kind()`.
    pub kind: &'a str,
    /// The player the action is about, by name.
    pub subject: Option<&'a str>,
    pub case_id: Option<CaseId>,
    pub report_id: Option<ReportId>,
    pub sanction_id: Option<SanctionId>,
    pub appeal_id: Option<AppealId>,
    /// Why: the decision note, the report message, the rule that fired.
    pub why: Option<&'a str>,
    /// The whole action as JSON (the serialised `AuditAction`).
    pub details: serde_json::Value,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = modlog)]
struct ModlogInsert<'a> {
    at: NaiveDateTime,
    actor_kind: &'a str,
    actor_id: Option<PlayerId>,
    kind: &'a str,
    subject_id: Option<PlayerId>,
    case_id: Option<CaseId>,
    report_id: Option<ReportId>,
    sanction_id: Option<SanctionId>,
    appeal_id: Option<AppealId>,
    why: Option<&'a str>,
    details: String,
}

/// A stored log line, as read: people by their current names.
#[derive(Debug, Clone, PartialEq)]
pub struct ModlogRow {
    pub id: i64,
    pub at: NaiveDateTime,
    pub actor_kind: String,
    pub actor: Option<String>,
    pub kind: String,
    pub subject: Option<String>,
    pub case_id: Option<CaseId>,
    pub report_id: Option<ReportId>,
    pub sanction_id: Option<SanctionId>,
    pub appeal_id: Option<AppealId>,
    pub why: Option<String>,
    pub details: String,
}

/// A log line as stored: people by id.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = modlog)]
struct StoredLine {
    id: i64,
    at: NaiveDateTime,
    actor_kind: String,
    actor_id: Option<PlayerId>,
    kind: String,
    subject_id: Option<PlayerId>,
    case_id: Option<CaseId>,
    report_id: Option<ReportId>,
    sanction_id: Option<SanctionId>,
    appeal_id: Option<AppealId>,
    why: Option<String>,
    details: String,
}

/// The `players` id of a name in the log, creating the row on first need.
fn person_id(
    conn: &mut DbConnection,
    name: Option<&str>,
    at: NaiveDateTime,
) -> QueryResult<Option<PlayerId>> {
    name.map(|name| players::id_or_create(conn, name, at))
        .transpose()
}

/// Appends one line. Runs inside the caller's transaction.
pub fn append(conn: &mut DbConnection, entry: &NewModlogEntry<'_>) -> QueryResult<()> {
    diesel::insert_into(modlog::table)
        .values(ModlogInsert {
            at: entry.at,
            actor_kind: entry.actor_kind.as_str(),
            actor_id: person_id(conn, entry.actor, entry.at)?,
            kind: entry.kind,
            subject_id: person_id(conn, entry.subject, entry.at)?,
            case_id: entry.case_id,
            report_id: entry.report_id,
            sanction_id: entry.sanction_id,
            appeal_id: entry.appeal_id,
            why: entry.why,
            details: entry.details.to_string(),
        })
        .execute(conn)?;
    Ok(())
}

/// What a log read may narrow by; every field is optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModlogFilter {
    /// The player the action is about, by name.
    pub subject: Option<String>,
    /// The acting player or admin, by name.
    pub actor: Option<String>,
    pub kind: Option<String>,
    /// `at >= since`.
    pub since: Option<NaiveDateTime>,
    /// `at < until`.
    pub until: Option<NaiveDateTime>,
    pub case_id: Option<CaseId>,
}

/// One page of the log, newest first: at most `limit` lines with id below `before_id`.
pub fn page(
    conn: &mut DbConnection,
    filter: &ModlogFilter,
    before_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<ModlogRow>> {
    let mut query = modlog::table.select(StoredLine::as_select()).into_boxed();
    if let Some(before) = before_id {
        query = query.filter(modlog::id.lt(before));
    }
    if let Some(subject) = &filter.subject {
        query = query.filter(
            modlog::subject_id.eq_any(
                players_table::table
                    .filter(players_table::name.eq(subject.clone()))
                    .select(players_table::id.nullable()),
            ),
        );
    }
    if let Some(actor) = &filter.actor {
        query = query.filter(
            modlog::actor_id.eq_any(
                players_table::table
                    .filter(players_table::name.eq(actor.clone()))
                    .select(players_table::id.nullable()),
            ),
        );
    }
    if let Some(kind) = &filter.kind {
        query = query.filter(modlog::kind.eq(kind.clone()));
    }
    if let Some(since) = filter.since {
        query = query.filter(modlog::at.ge(since));
    }
    if let Some(until) = filter.until {
        query = query.filter(modlog::at.lt(until));
    }
    if let Some(case_id) = filter.case_id {
        query = query.filter(modlog::case_id.eq(case_id));
    }
    let lines: Vec<StoredLine> = query.order(modlog::id.desc()).limit(limit).load(conn)?;
    named(conn, lines)
}

/// Lines with their people named (one read of `players` for the whole page).
fn named(conn: &mut DbConnection, lines: Vec<StoredLine>) -> QueryResult<Vec<ModlogRow>> {
    let mut ids: Vec<PlayerId> = lines
        .iter()
        .flat_map(|l| [l.actor_id, l.subject_id])
        .flatten()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let names = players::names(conn, &ids)?;
    let name = |id: Option<PlayerId>| id.and_then(|id| names.get(&id).cloned());
    Ok(lines
        .into_iter()
        .map(|l| ModlogRow {
            id: l.id,
            at: l.at,
            actor_kind: l.actor_kind,
            actor: name(l.actor_id),
            kind: l.kind,
            subject: name(l.subject_id),
            case_id: l.case_id,
            report_id: l.report_id,
            sanction_id: l.sanction_id,
            appeal_id: l.appeal_id,
            why: l.why,
            details: l.details,
        })
        .collect())
}

/// Who acted, for the moderation log.
#[derive(Debug, Clone, Copy)]
pub struct LogActor<'a> {
    pub kind: LogActorKind,
    pub name: Option<&'a str>,
}

impl LogActor<'static> {
    pub const SYSTEM: LogActor<'static> = LogActor {
        kind: LogActorKind::System,
        name: None,
    };
}

/// What a log line refers to besides its action.
#[derive(Debug, Clone, Copy, Default)]
pub struct LogRefs<'a> {
    pub subject: Option<&'a str>,
    pub case_id: Option<CaseId>,
    pub report_id: Option<ReportId>,
    pub sanction_id: Option<SanctionId>,
    pub appeal_id: Option<AppealId>,
    pub why: Option<&'a str>,
}

/// Appends an admin's `action` with why they took it, nothing else referred to.
pub fn log_admin_action(
    conn: &mut DbConnection,
    at: NaiveDateTime,
    admin: &str,
    action: &AuditAction,
    why: &str,
) -> QueryResult<()> {
    let actor = LogActor {
        kind: LogActorKind::Admin,
        name: Some(admin),
    };
    let refs = LogRefs {
        why: Some(why),
        ..LogRefs::default()
    };
    log_action(conn, at, actor, action, refs)
}

/// Appends `action` to the moderation log (kind = `AuditAction::kind()`, details = its JSON).
pub fn log_action(
    conn: &mut DbConnection,
    at: NaiveDateTime,
    actor: LogActor<'_>,
    action: &AuditAction,
    refs: LogRefs<'_>,
) -> QueryResult<()> {
    let details =
        serde_json::to_value(action).map_err(|e| DieselError::SerializationError(Box::new(e)))?;
    append(
        conn,
        &NewModlogEntry {
            at,
            actor_kind: actor.kind,
            actor: actor.name,
            kind: action.kind(),
            subject: refs.subject,
            case_id: refs.case_id,
            report_id: refs.report_id,
            sanction_id: refs.sanction_id,
            appeal_id: refs.appeal_id,
            why: refs.why,
            details,
        },
    )
}
