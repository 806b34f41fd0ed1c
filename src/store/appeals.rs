//! Appeals (`appeals`): a player appeals their own sanction once; an admin upholds, reduces
//! or lifts it, and the sanction row changes with the answer so standing follows at once.

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::connection::DbConnection;
use super::modlog::{log_action, ActorKind, LogActor, LogRefs};
use super::sanctions::{self, SanctionRow};
use super::schema::{appeals, players, sanctions as sanctions_table};
use super::{from_utc, to_utc};
use crate::moderation::{
    apply_appeal_decision, may_decide_appeal, validate_appeal, AppealConflict, AppealDecision,
    AppealDecisionProblem, AppealId, AppealPolicy, AppealProblem, AppealRecord, AuditAction,
    ModerationPolicy, PlayerId, SanctionId,
};

/// A stored appeal.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = appeals)]
pub struct AppealRow {
    pub id: i64,
    pub sanction_id: i64,
    pub player_id: i64,
    pub text: String,
    pub filed_at: NaiveDateTime,
    pub status: String,
    pub decided_by: Option<i64>,
    pub decided_at: Option<NaiveDateTime>,
    pub note: Option<String>,
}

pub fn find(conn: &mut DbConnection, id: i64) -> QueryResult<Option<AppealRow>> {
    appeals::table
        .find(id)
        .select(AppealRow::as_select())
        .first(conn)
        .optional()
}

/// Why an appeal was not filed.
#[derive(Debug)]
pub enum FileAppealError {
    /// No such sanction, or not the caller's (other players' sanctions are not revealed).
    NotFound,
    Problems(Vec<AppealProblem>),
    Db(DieselError),
}

impl From<DieselError> for FileAppealError {
    fn from(err: DieselError) -> Self {
        FileAppealError::Db(err)
    }
}

/// Files the player's appeal against their own sanction: once, within the window, with a text
/// of bounded length. The unique index on `sanction_id` settles simultaneous appeals.
pub fn file(
    conn: &mut DbConnection,
    sanction_id: i64,
    player: &str,
    text: &str,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<AppealRow, FileAppealError> {
    let Some(player_id) = super::players::find_id(conn, player)? else {
        return Err(FileAppealError::NotFound);
    };
    let Some(row) = sanctions::find(conn, sanction_id)? else {
        return Err(FileAppealError::NotFound);
    };
    if row.player_id != player_id {
        return Err(FileAppealError::NotFound);
    }
    let earlier: Vec<AppealRecord> = appeals::table
        .filter(appeals::sanction_id.eq(sanction_id))
        .select((appeals::id, appeals::filed_at))
        .load::<(i64, NaiveDateTime)>(conn)?
        .into_iter()
        .map(|(id, filed_at)| AppealRecord {
            id: AppealId(id),
            sanction: SanctionId(sanction_id),
            filed_at: to_utc(filed_at),
        })
        .collect();
    let valid = validate_appeal(
        &row.to_policy()?,
        PlayerId(player_id),
        &earlier,
        text,
        to_utc(now),
        policy,
    )
    .map_err(FileAppealError::Problems)?;
    let inserted = conn.transaction(|conn| {
        let id = insert_returning_id!(
            conn,
            appeals::table,
            (
                appeals::sanction_id.eq(sanction_id),
                appeals::player_id.eq(player_id),
                appeals::text.eq(&valid.text),
                appeals::filed_at.eq(now),
                appeals::status.eq("open"),
            ),
            appeals::id
        )?;
        log_action(
            conn,
            now,
            LogActor {
                kind: ActorKind::Player,
                name: Some(player),
            },
            &AuditAction::AppealFiled {
                appeal: AppealId(id),
                sanction: SanctionId(sanction_id),
                appellant: PlayerId(player_id),
            },
            LogRefs {
                subject: Some(player),
                sanction_id: Some(sanction_id),
                appeal_id: Some(id),
                why: Some(&valid.text),
                ..LogRefs::default()
            },
        )?;
        find(conn, id)?.ok_or(DieselError::NotFound)
    });
    match inserted {
        Ok(row) => Ok(row),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            let earlier = appeals::table
                .filter(appeals::sanction_id.eq(sanction_id))
                .select(appeals::id)
                .first::<i64>(conn)?;
            Err(FileAppealError::Problems(vec![
                AppealProblem::AlreadyAppealed {
                    appeal: AppealId(earlier),
                },
            ]))
        }
        Err(other) => Err(other.into()),
    }
}

/// An admin's answer to an appeal, as the route read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AppealAnswer {
    Uphold,
    /// End the sanction at this time.
    ReduceUntil(DateTime<Utc>),
    /// Make the sanction this many minutes long from its start.
    ReduceToMinutes(u32),
    Lift,
}

/// Why an appeal was not decided.
#[derive(Debug)]
pub enum DecideAppealError {
    NotFound,
    AlreadyDecided {
        status: String,
    },
    /// The admin is the appellant, or imposed the sanction (four eyes).
    Conflict(AppealConflict),
    Refused(AppealDecisionProblem),
    Db(DieselError),
}

impl From<DieselError> for DecideAppealError {
    fn from(err: DieselError) -> Self {
        DecideAppealError::Db(err)
    }
}

/// Decides an open appeal in ONE transaction: the appeal's status, the sanction's
/// `reduced_until` or `lifted_at`, and the log lines.
pub fn decide(
    conn: &mut DbConnection,
    appeal_id: i64,
    admin: (i64, &str),
    answer: AppealAnswer,
    note: Option<&str>,
    policy: &AppealPolicy,
    now: NaiveDateTime,
) -> Result<(AppealRow, SanctionRow), DecideAppealError> {
    let (admin_id, admin_name) = admin;
    conn.transaction(|conn| {
        // Write first, and only while open: of two simultaneous answers exactly one applies.
        let status = match answer {
            AppealAnswer::Uphold => "upheld",
            AppealAnswer::ReduceUntil(_) | AppealAnswer::ReduceToMinutes(_) => "reduced",
            AppealAnswer::Lift => "lifted",
        };
        let updated = diesel::update(
            appeals::table
                .filter(appeals::id.eq(appeal_id))
                .filter(appeals::status.eq("open")),
        )
        .set((
            appeals::status.eq(status),
            appeals::decided_by.eq(admin_id),
            appeals::decided_at.eq(now),
            appeals::note.eq(note),
        ))
        .execute(conn)?;
        let appeal = find(conn, appeal_id)?.ok_or(DecideAppealError::NotFound)?;
        if updated == 0 {
            return Err(DecideAppealError::AlreadyDecided {
                status: appeal.status,
            });
        }
        let row = sanctions::find(conn, appeal.sanction_id)?.ok_or(DieselError::NotFound)?;
        may_decide_appeal(
            PlayerId(admin_id),
            PlayerId(appeal.player_id),
            PlayerId(row.issued_by),
            policy,
        )
        .map_err(DecideAppealError::Conflict)?;
        let sanction = row.to_policy()?;
        let decision = match answer {
            AppealAnswer::Uphold => AppealDecision::Uphold,
            AppealAnswer::ReduceUntil(new_end) => AppealDecision::Reduce { new_end },
            AppealAnswer::ReduceToMinutes(minutes) => AppealDecision::Reduce {
                new_end: sanction.starts_at + TimeDelta::minutes(i64::from(minutes)),
            },
            AppealAnswer::Lift => AppealDecision::Lift,
        };
        let updated_sanction = apply_appeal_decision(&sanction, decision, to_utc(now))
            .map_err(DecideAppealError::Refused)?;
        diesel::update(sanctions_table::table.find(row.id))
            .set((
                sanctions_table::reduced_until.eq(updated_sanction.reduced_until.map(from_utc)),
                sanctions_table::lifted_at.eq(updated_sanction.lifted_at.map(from_utc)),
            ))
            .execute(conn)?;
        let subject: String = players::table
            .find(appeal.player_id)
            .select(players::name)
            .first(conn)?;
        let actor = LogActor {
            kind: ActorKind::Admin,
            name: Some(admin_name),
        };
        let refs = LogRefs {
            subject: Some(&subject),
            case_id: row.case_id,
            sanction_id: Some(row.id),
            appeal_id: Some(appeal_id),
            why: note,
            ..LogRefs::default()
        };
        log_action(
            conn,
            now,
            actor,
            &AuditAction::AppealDecided {
                appeal: AppealId(appeal_id),
                sanction: SanctionId(row.id),
                decision,
            },
            refs,
        )?;
        match decision {
            AppealDecision::Reduce { new_end } => log_action(
                conn,
                now,
                actor,
                &AuditAction::SanctionReduced {
                    sanction: SanctionId(row.id),
                    new_end,
                },
                refs,
            )?,
            AppealDecision::Lift => log_action(
                conn,
                now,
                actor,
                &AuditAction::SanctionLifted {
                    sanction: SanctionId(row.id),
                },
                refs,
            )?,
            AppealDecision::Uphold => {}
        }
        if let Some(kind) = decision.sanction_event() {
            super::webhook_outbox::emit(conn, kind, row.id, now)?;
        }
        let sanction = sanctions::find(conn, row.id)?.ok_or(DieselError::NotFound)?;
        Ok((appeal, sanction))
    })
}

/// An appeal with its sanction and the appellant's name.
#[derive(Debug, Clone, PartialEq)]
pub struct AppealListing {
    pub appeal: AppealRow,
    pub sanction: SanctionRow,
    pub player: String,
}

/// Appeals with this status (any status without), oldest first: at most `limit` after the
/// `(filed_at, id)` position `after`.
pub fn appeals_page(
    conn: &mut DbConnection,
    status: Option<&str>,
    after: Option<(NaiveDateTime, i64)>,
    limit: i64,
) -> QueryResult<Vec<AppealListing>> {
    let mut query = appeals::table
        .inner_join(sanctions_table::table)
        .inner_join(players::table.on(players::id.eq(appeals::player_id)))
        .select((
            AppealRow::as_select(),
            SanctionRow::as_select(),
            players::name,
        ))
        .into_boxed();
    if let Some(status) = status {
        query = query.filter(appeals::status.eq(status.to_string()));
    }
    if let Some((filed_at, id)) = after {
        query = query.filter(
            appeals::filed_at
                .gt(filed_at)
                .or(appeals::filed_at.eq(filed_at).and(appeals::id.gt(id))),
        );
    }
    let rows: Vec<(AppealRow, SanctionRow, String)> = query
        .order((appeals::filed_at.asc(), appeals::id.asc()))
        .limit(limit)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(appeal, sanction, player)| AppealListing {
            appeal,
            sanction,
            player,
        })
        .collect())
}
