//! Moderation rows written straight into the tables, the way the reporting and decision code
//! writes them (see the table comments in the moderation migration), for the admin reads.

use std::cell::Cell;

use arbiter::moderation::CaseId;
use arbiter::store::modlog::{self, LogActorKind, NewModlogEntry};
use arbiter::store::schema::{
    appeals, case_reports, cases, decisions, report_accused, report_games, reports, sanctions,
};
use arbiter::store::{players, DbConnection, DbPool, PooledConnection};
use chrono::{NaiveDateTime, TimeDelta, Utc};
use diesel::prelude::*;

use crate::support::TestApp;

/// A UTC time `minutes` from now (negative: in the past), at microsecond precision.
pub fn minutes_from_now(minutes: i64) -> NaiveDateTime {
    arbiter::store::now() + TimeDelta::minutes(minutes)
}

pub fn hours_ago(hours: f64) -> NaiveDateTime {
    arbiter::store::now() - TimeDelta::seconds((hours * 3600.0) as i64)
}

/// A report to store.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    /// `player`, `chat_analysis` or `conduct_signal`.
    pub source: &'a str,
    pub reporter: Option<i64>,
    pub automatic_report_id: Option<i64>,
    pub reason: &'a str,
    pub message: Option<&'a str>,
    pub game_id: Option<i64>,
    pub further_games: Vec<i64>,
    pub accused: Vec<i64>,
    pub score: Option<f64>,
    pub filed_at: NaiveDateTime,
    pub outcome: Option<&'a str>,
}

impl Default for Report<'_> {
    fn default() -> Self {
        Report {
            source: "player",
            reporter: None,
            automatic_report_id: None,
            reason: "offensive_chat",
            message: None,
            game_id: None,
            further_games: Vec::new(),
            accused: Vec::new(),
            score: None,
            filed_at: minutes_from_now(-60),
            outcome: None,
        }
    }
}

/// A case to store.
#[derive(Debug, Clone)]
pub struct Case<'a> {
    pub accused: i64,
    pub reason: &'a str,
    pub status: &'a str,
    pub opened_at: NaiveDateTime,
    pub priority_base: f64,
    pub reports: Vec<i64>,
    pub claimed_by: Option<i64>,
    pub claimed_until: Option<NaiveDateTime>,
}

impl Default for Case<'_> {
    fn default() -> Self {
        Case {
            accused: 0,
            reason: "offensive_chat",
            status: "open",
            opened_at: minutes_from_now(-60),
            priority_base: 30.0,
            reports: Vec::new(),
            claimed_by: None,
            claimed_until: None,
        }
    }
}

/// Writes moderation rows with ids it hands out itself.
pub struct Fixtures {
    pool: DbPool,
    next: Cell<i64>,
}

impl Fixtures {
    pub fn new(app: &TestApp) -> Fixtures {
        Fixtures {
            pool: app.state.pool.clone(),
            next: Cell::new(1000),
        }
    }

    fn id(&self) -> i64 {
        let id = self.next.get();
        self.next.set(id + 1);
        id
    }

    pub fn conn(&self) -> PooledConnection {
        self.pool.get().expect("connection")
    }

    pub fn player(&self, name: &str) -> i64 {
        players::id_or_create(&mut self.conn(), name, arbiter::store::now())
            .expect("player")
            .0
    }

    pub fn report(&self, report: Report<'_>) -> i64 {
        let id = self.id();
        let mut pooled = self.conn();
        let conn: &mut DbConnection = &mut pooled;
        conn.transaction(|conn| {
            diesel::insert_into(reports::table)
                .values((
                    reports::id.eq(id),
                    reports::source.eq(report.source),
                    reports::reporter_id.eq(report.reporter),
                    reports::automatic_report_id.eq(report.automatic_report_id),
                    reports::reason.eq(report.reason),
                    reports::message.eq(report.message),
                    reports::game_id.eq(report.game_id),
                    reports::score.eq(report.score),
                    reports::filed_at.eq(report.filed_at),
                    reports::updated_at.eq(report.filed_at),
                    reports::outcome.eq(report.outcome),
                    reports::decided_at.eq(report.outcome.map(|_| report.filed_at)),
                ))
                .execute(conn)?;
            for player in &report.accused {
                diesel::insert_into(report_accused::table)
                    .values((
                        report_accused::report_id.eq(id),
                        report_accused::player_id.eq(player),
                    ))
                    .execute(conn)?;
            }
            for game in &report.further_games {
                diesel::insert_into(report_games::table)
                    .values((
                        report_games::report_id.eq(id),
                        report_games::game_id.eq(game),
                    ))
                    .execute(conn)?;
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("report");
        id
    }

    pub fn case(&self, case: Case<'_>) -> i64 {
        let id = self.id();
        let mut pooled = self.conn();
        let conn: &mut DbConnection = &mut pooled;
        conn.transaction(|conn| insert_case(conn, id, &case))
            .expect("case");
        id
    }

    /// Many cases in one transaction (ids in order).
    pub fn cases(&self, many: &[Case<'_>]) -> Vec<i64> {
        let ids: Vec<i64> = many.iter().map(|_| self.id()).collect();
        let mut pooled = self.conn();
        let conn: &mut DbConnection = &mut pooled;
        conn.transaction(|conn| {
            for (id, case) in ids.iter().zip(many) {
                insert_case(conn, *id, case)?;
            }
            Ok::<_, diesel::result::Error>(())
        })
        .expect("cases");
        ids
    }

    /// A decision closing `case` (the case row is expected to be `decided` already).
    pub fn decision(&self, case: i64, admin: i64, kind: &str, sanction: Option<i64>) -> i64 {
        let id = self.id();
        diesel::insert_into(decisions::table)
            .values((
                decisions::id.eq(id),
                decisions::case_id.eq(case),
                decisions::admin_id.eq(admin),
                decisions::kind.eq(kind),
                decisions::note.eq(Some("decided in fixture")),
                decisions::sanction_id.eq(sanction),
                decisions::decided_at.eq(minutes_from_now(-30)),
            ))
            .execute(&mut *self.conn())
            .expect("decision");
        id
    }

    pub fn sanction(
        &self,
        player: i64,
        case: Option<i64>,
        kind: &str,
        starts_at: NaiveDateTime,
        ends_at: Option<NaiveDateTime>,
        issued_by: i64,
    ) -> i64 {
        let id = self.id();
        diesel::insert_into(sanctions::table)
            .values((
                sanctions::id.eq(id),
                sanctions::player_id.eq(player),
                sanctions::case_id.eq(case),
                sanctions::kind.eq(kind),
                sanctions::reason.eq("offensive_chat"),
                sanctions::ground.eq("abusive_language_habit"),
                sanctions::starts_at.eq(starts_at),
                sanctions::ends_at.eq(ends_at),
                sanctions::issued_by.eq(issued_by),
                sanctions::note.eq("insults in several games"),
            ))
            .execute(&mut *self.conn())
            .expect("sanction");
        id
    }

    pub fn appeal(
        &self,
        sanction: i64,
        player: i64,
        text: &str,
        filed_at: NaiveDateTime,
        status: &str,
    ) -> i64 {
        let id = self.id();
        diesel::insert_into(appeals::table)
            .values((
                appeals::id.eq(id),
                appeals::sanction_id.eq(sanction),
                appeals::player_id.eq(player),
                appeals::text.eq(text),
                appeals::filed_at.eq(filed_at),
                appeals::status.eq(status),
            ))
            .execute(&mut *self.conn())
            .expect("appeal");
        id
    }

    /// One log line through the store's own append.
    #[allow(clippy::too_many_arguments)]
    pub fn log(
        &self,
        at: NaiveDateTime,
        actor_kind: LogActorKind,
        actor: Option<&str>,
        kind: &str,
        subject: Option<&str>,
        case_id: Option<i64>,
        why: Option<&str>,
    ) {
        modlog::append(
            &mut self.conn(),
            &NewModlogEntry {
                at,
                actor_kind,
                actor,
                kind,
                subject,
                case_id: case_id.map(CaseId),
                report_id: None,
                sanction_id: None,
                appeal_id: None,
                why,
                details: serde_json::json!({ "action": kind, "case": case_id }),
            },
        )
        .expect("log line");
    }
}

fn insert_case(conn: &mut DbConnection, id: i64, case: &Case<'_>) -> QueryResult<()> {
    diesel::insert_into(cases::table)
        .values((
            cases::id.eq(id),
            cases::accused_id.eq(case.accused),
            cases::reason.eq(case.reason),
            cases::status.eq(case.status),
            cases::opened_at.eq(case.opened_at),
            cases::updated_at.eq(case.opened_at),
            cases::priority_base.eq(case.priority_base),
            cases::entry_count.eq(case.reports.len() as i32),
            cases::claimed_by.eq(case.claimed_by),
            cases::claimed_until.eq(case.claimed_until),
            cases::decided_at.eq((case.status == "decided").then(|| Utc::now().naive_utc())),
        ))
        .execute(conn)?;
    for report in &case.reports {
        diesel::insert_into(case_reports::table)
            .values((
                case_reports::case_id.eq(id),
                case_reports::report_id.eq(report),
            ))
            .execute(conn)?;
    }
    Ok(())
}
