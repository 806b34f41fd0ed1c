//! A player files a report: checked against the reporting rules and the archive, then in ONE
//! transaction the reporter's standing and rate limit, merging into their earlier report about
//! the same game and reason, the case of each accused, the cases' priorities and the log line
//! (docs/moderation.md, "Reports and cases").

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::check_filing::{check_filing, ArchiveFacts, NamedFiling, Parties};
use crate::moderation::{
    check_rate, merge_decision, AuditAction, GameNumber, MergeOutcome, ModerationPolicy, PlayerId,
    ReportEntry, ReportId, ReportProblem, ReportReason, Reporter, RetryAfter, ValidReport,
};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::reports::{self, FiledBy, NewEntry};
use crate::store::{sanctions, to_utc, DbConnection};

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

impl Filing {
    /// Every game the filing cites: the main one first.
    pub fn cited_numbers(&self) -> Vec<i64> {
        self.game
            .iter()
            .chain(&self.supporting_games)
            .copied()
            .collect()
    }
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
    pub report_id: ReportId,
    pub merged: bool,
    pub message_truncated: bool,
}

/// Files a player's report.
pub fn file_report(
    conn: &mut DbConnection,
    filing: &Filing,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<Filed, FileError> {
    let archive = archive_facts(conn, &filing.cited_numbers(), filing)?;
    conn.transaction(|conn| {
        let parties = Parties::resolve(conn, &filing.reporter, &filing.accused, true, now)?;
        let valid = check(filing, &parties, &archive, policy)?;
        may_report(conn, filing, now)?;
        let reporter_id = parties.filer.0;
        let recent = reports::recent_filings(conn, reporter_id, now)?;
        check_rate(&recent, to_utc(now), policy).map_err(FileError::RateLimited)?;
        let game_id = valid.game.and_then(|g| archive.archive_id(g));
        let existing = reports::open_entries(conn, reporter_id, valid.reason, game_id, valid.game)?;
        let checked = CheckedReport {
            filing,
            parties: &parties,
            archive: &archive,
            valid: &valid,
            now,
        };
        match merge_decision(&existing, &valid, policy) {
            MergeOutcome::NewEntry => checked.store_new_entry(conn, game_id, policy),
            MergeOutcome::MergeInto {
                entry,
                supporting_games,
                message,
                message_truncated,
                added_accused,
                ..
            } => {
                let merge = Merge {
                    entry,
                    supporting_games,
                    message,
                    message_truncated,
                    added_accused,
                };
                checked.merge_into_entry(conn, &existing, merge, policy)
            }
        }
    })
}

/// The cited games and, for a filing without a game, which accused the archive knows.
fn archive_facts(
    conn: &mut DbConnection,
    numbers: &[i64],
    filing: &Filing,
) -> QueryResult<ArchiveFacts> {
    Ok(ArchiveFacts {
        cited: reports::games_by_number(conn, numbers)?,
        // Only a report without a game needs them (the game's seats vouch otherwise).
        seated: match filing.game {
            None => reports::seated_players(conn, &filing.accused)?,
            Some(_) => Vec::new(),
        },
    })
}

/// The filing checked against the reporting rules, with the parties' real ids.
fn check(
    filing: &Filing,
    parties: &Parties,
    archive: &ArchiveFacts,
    policy: &ModerationPolicy,
) -> Result<ValidReport, FileError> {
    let named = NamedFiling {
        reporter: Reporter::Player {
            player: parties.filer.0,
        },
        accused: &filing.accused,
        reason: filing.reason,
        message: filing.message.as_deref(),
        game: filing.game,
        supporting_games: &filing.supporting_games,
    };
    check_filing(&named, parties, archive, policy).map_err(|problems| FileError::Invalid {
        problems,
        names: parties.names(),
    })
}

/// Refuses the filing while a report timeout or a club ban runs.
fn may_report(
    conn: &mut DbConnection,
    filing: &Filing,
    now: NaiveDateTime,
) -> Result<(), FileError> {
    let standing =
        sanctions::standing_of(conn, &filing.reporter, filing.reporter_key.as_deref(), now)?;
    if standing.may_report {
        return Ok(());
    }
    Err(FileError::MayNotReport {
        until: standing.report_until,
        club_banned: standing.club_banned,
    })
}

/// What merging into an earlier entry changes (the policy's `MergeOutcome::MergeInto`).
struct Merge {
    entry: ReportId,
    /// The entry's supporting games after the merge.
    supporting_games: Vec<GameNumber>,
    message: Option<String>,
    message_truncated: bool,
    added_accused: Vec<PlayerId>,
}

/// A checked filing on its way into the queue.
struct CheckedReport<'a> {
    filing: &'a Filing,
    parties: &'a Parties,
    archive: &'a ArchiveFacts,
    valid: &'a ValidReport,
    now: NaiveDateTime,
}

impl CheckedReport<'_> {
    fn actor(&self) -> LogActor<'_> {
        LogActor {
            kind: LogActorKind::Player,
            name: Some(&self.filing.reporter),
        }
    }

    fn archive_ids(&self, games: &[GameNumber]) -> Vec<i64> {
        games
            .iter()
            .filter_map(|g| self.archive.archive_id(*g))
            .collect()
    }

    fn first_accused(&self) -> Option<&str> {
        self.parties.accused.first().map(|(_, n)| n.as_str())
    }

    /// A new entry: the report, its accused and games, the log line, the cases joined.
    fn store_new_entry(
        &self,
        conn: &mut DbConnection,
        game_id: Option<i64>,
        policy: &ModerationPolicy,
    ) -> Result<Filed, FileError> {
        let (valid, now) = (self.valid, self.now);
        let reporter_id = self.parties.filer.0;
        let entry = NewEntry {
            filed_by: FiledBy::Player(reporter_id),
            reason: valid.reason,
            message: valid.message.as_deref(),
            game_id,
            filed_at: now,
        };
        let report_id = reports::insert_entry(conn, &entry)?;
        let supporting = self.archive_ids(&valid.supporting_games);
        reports::link(conn, report_id, &self.parties.accused, &supporting)?;
        let action = AuditAction::ReportFiled {
            report: report_id,
            reporter: reporter_id,
            accused: valid.accused.clone(),
            reason: valid.reason,
            game: valid.game,
        };
        let refs = LogRefs {
            subject: self.first_accused(),
            report_id: Some(report_id),
            why: valid.message.as_deref(),
            ..LogRefs::default()
        };
        log_action(conn, now, self.actor(), &action, refs)?;
        let accused = &self.parties.accused;
        reports::join_cases(
            conn,
            report_id,
            valid.reason,
            accused,
            policy,
            now,
            self.actor(),
        )?;
        Ok(Filed {
            report_id,
            merged: false,
            message_truncated: false,
        })
    }

    /// A merge into the reporter's earlier entry: its message and links grow, the log line,
    /// every case of the entry joined again (new cases for added players, new evidence for all).
    fn merge_into_entry(
        &self,
        conn: &mut DbConnection,
        existing: &[ReportEntry],
        merge: Merge,
        policy: &ModerationPolicy,
    ) -> Result<Filed, FileError> {
        let (valid, now) = (self.valid, self.now);
        let report_id = merge.entry;
        let before = existing
            .iter()
            .find(|e| e.id == report_id)
            .map(|e| e.supporting_games.clone())
            .unwrap_or_default();
        let added_games: Vec<GameNumber> = merge
            .supporting_games
            .iter()
            .filter(|g| !before.contains(g))
            .copied()
            .collect();
        reports::update_message(conn, report_id, merge.message.as_deref(), now)?;
        self.link_added(conn, report_id, &merge.added_accused, &added_games)?;
        let action = AuditAction::ReportMerged {
            report: report_id,
            added_games,
            added_accused: merge.added_accused,
        };
        let refs = LogRefs {
            subject: self.first_accused(),
            report_id: Some(report_id),
            why: valid.message.as_deref(),
            ..LogRefs::default()
        };
        log_action(conn, now, self.actor(), &action, refs)?;
        let all_accused = reports::accused_of(conn, report_id)?;
        let actor = self.actor();
        reports::join_cases(
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
            message_truncated: merge.message_truncated,
        })
    }

    /// Links the entry to the players and games the merge adds.
    fn link_added(
        &self,
        conn: &mut DbConnection,
        report_id: ReportId,
        added_accused: &[PlayerId],
        added_games: &[GameNumber],
    ) -> QueryResult<()> {
        let new_accused: Vec<(PlayerId, String)> = self
            .parties
            .accused
            .iter()
            .filter(|(id, _)| added_accused.contains(id))
            .cloned()
            .collect();
        reports::link(
            conn,
            report_id,
            &new_accused,
            &self.archive_ids(added_games),
        )
    }
}
