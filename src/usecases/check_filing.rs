//! A step shared by filing a report and opening a case: the parties' player rows made sure of
//! and their ids resolved, then the filing checked against the reporting rules and the cited
//! games (docs/moderation.md, "Reports and cases").

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::{Connection, QueryResult};

use crate::moderation::{
    validate_report, CitedGame, GameNumber, ModerationPolicy, NewReport, PlayerId, ReportContext,
    ReportProblem, ReportReason, Reporter, ValidReport,
};
use crate::store::reports::CitedGameRow;
use crate::store::{players, DbConnection};

/// The filer and the accused (in the order named, without repeats), with their player ids.
#[derive(Debug, Clone)]
pub struct Parties {
    pub filer: (PlayerId, String),
    pub accused: Vec<(PlayerId, String)>,
}

impl Parties {
    /// Makes sure every party has a player row, in name order; locks the filer's row first
    /// when `lock_filer` (a player's filings run one at a time: see [`players::lock`]).
    pub fn resolve(
        conn: &mut DbConnection,
        filer: &str,
        accused: &[String],
        lock_filer: bool,
        now: NaiveDateTime,
    ) -> QueryResult<Parties> {
        let accused_names = distinct(accused);
        let mut names: Vec<&str> = accused_names.iter().map(String::as_str).collect();
        names.push(filer);
        players::create_all(conn, &names, now)?;
        let filer_id = if lock_filer {
            players::lock(conn, filer, now)?
        } else {
            players::id_or_create(conn, filer, now)?
        };
        let mut accused = Vec::with_capacity(accused_names.len());
        for name in accused_names {
            let id = conn.transaction(|conn| players::id_or_create(conn, &name, now))?;
            accused.push((id, name));
        }
        Ok(Parties {
            filer: (filer_id, filer.to_string()),
            accused,
        })
    }

    /// The id of a party by name.
    fn id(&self, name: &str) -> Option<PlayerId> {
        std::iter::once(&self.filer)
            .chain(&self.accused)
            .find(|(_, n)| n == name)
            .map(|(id, _)| *id)
    }

    /// Every party's name by id, to name them in refusals.
    pub fn names(&self) -> HashMap<PlayerId, String> {
        std::iter::once(&self.filer)
            .chain(&self.accused)
            .map(|(id, name)| (*id, name.clone()))
            .collect()
    }
}

/// The names in the order given, without repeats.
fn distinct(names: &[String]) -> Vec<String> {
    names.iter().fold(Vec::new(), |mut distinct, name| {
        if !distinct.contains(name) {
            distinct.push(name.clone());
        }
        distinct
    })
}

/// A filing as the filer named it.
#[derive(Debug, Clone, Copy)]
pub struct NamedFiling<'a> {
    pub reporter: Reporter,
    /// As named, repeats included (a repeat is a problem to name).
    pub accused: &'a [String],
    pub reason: ReportReason,
    pub message: Option<&'a str>,
    pub game: Option<i64>,
    pub supporting_games: &'a [i64],
}

/// What the archive knows of a filing, read before its transaction (the archive never
/// changes under a game number).
#[derive(Debug, Clone, Default)]
pub struct ArchiveFacts {
    pub cited: Vec<CitedGameRow>,
    /// The accused seated in some stored game; read only for a filing without a game.
    pub seated: Vec<String>,
}

impl ArchiveFacts {
    /// The archive id of a cited game.
    pub fn archive_id(&self, number: GameNumber) -> Option<i64> {
        self.cited
            .iter()
            .find(|g| g.number == number.0)
            .map(|g| g.archive_id)
    }
}

/// The filing checked against the reporting rules and the archive, or every problem found.
pub fn check_filing(
    filing: &NamedFiling<'_>,
    parties: &Parties,
    archive: &ArchiveFacts,
    policy: &ModerationPolicy,
) -> Result<ValidReport, Vec<ReportProblem>> {
    let ids_of = |names: &[String]| -> Vec<PlayerId> {
        names.iter().filter_map(|n| parties.id(n)).collect()
    };
    let context = ReportContext {
        games: archive
            .cited
            .iter()
            .map(|g| CitedGame {
                number: GameNumber(g.number),
                variant: g.variant,
                players: ids_of(&g.players),
            })
            .collect(),
        known_players: ids_of(&archive.seated),
    };
    let report = NewReport {
        reporter: filing.reporter,
        accused: filing
            .accused
            .iter()
            .filter_map(|n| parties.id(n))
            .collect(),
        reason: filing.reason,
        message: filing.message.map(str::to_string),
        game: filing.game.map(GameNumber),
        supporting_games: filing
            .supporting_games
            .iter()
            .copied()
            .map(GameNumber)
            .collect(),
    };
    validate_report(&report, &context, policy)
}
