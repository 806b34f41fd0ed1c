//! File an appeal: a player appeals their own sanction, once, within the window, with a text
//! of bounded length; logged in the same transaction.

use chrono::NaiveDateTime;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::{Connection, QueryResult};

use crate::moderation::{
    validate_appeal, AppealId, AppealProblem, AuditAction, ModerationPolicy, PlayerId, Sanction,
    SanctionId, SanctionKind,
};
use crate::store::appeals::{self, AppealRow};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::sanctions::{self, SanctionRow};
use crate::store::{players, separations, to_utc, DbConnection};

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
    sanction_id: SanctionId,
    player: &str,
    text: &str,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> Result<AppealRow, FileAppealError> {
    let (player_id, row) = own_sanction(conn, sanction_id, player)?;
    let earlier = appeals::of_sanction(conn, sanction_id)?;
    let valid = validate_appeal(
        &as_appellants(row.to_policy(), player_id),
        player_id,
        &earlier,
        text,
        to_utc(now),
        policy,
    )
    .map_err(FileAppealError::Problems)?;
    let inserted = conn.transaction(|conn| {
        let id = appeals::insert(conn, sanction_id, player_id, &valid.text, now)?;
        log_filed(conn, (player_id, player), sanction_id, id, &valid.text, now)?;
        appeals::find(conn, id)?.ok_or(DieselError::NotFound)
    });
    match inserted {
        Ok(row) => Ok(row),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            let earlier = appeals::id_of_sanction(conn, sanction_id)?;
            Err(FileAppealError::Problems(vec![
                AppealProblem::AlreadyAppealed { appeal: earlier },
            ]))
        }
        Err(other) => Err(other.into()),
    }
}

/// The sanction as the appellant's own: a separation binds each member alike, so any member
/// may appeal it (once, for all of them), and only members reach this point.
fn as_appellants(sanction: Sanction, appellant: PlayerId) -> Sanction {
    if sanction.kind == SanctionKind::Separation {
        Sanction {
            player: appellant,
            ..sanction
        }
    } else {
        sanction
    }
}

/// The player's id and their sanction, or a separation they are a member of; `NotFound` for
/// an unknown player or another player's sanction.
fn own_sanction(
    conn: &mut DbConnection,
    sanction_id: SanctionId,
    player: &str,
) -> Result<(PlayerId, SanctionRow), FileAppealError> {
    let Some(player_id) = players::find_id(conn, player)? else {
        return Err(FileAppealError::NotFound);
    };
    let Some(row) = sanctions::find(conn, sanction_id)? else {
        return Err(FileAppealError::NotFound);
    };
    let member = row.kind == SanctionKind::Separation
        && separations::is_member(conn, sanction_id, player_id)?;
    if row.player_id != player_id && !member {
        return Err(FileAppealError::NotFound);
    }
    Ok((player_id, row))
}

/// Logs the appeal as `appeal_filed`, by the player, with its text.
fn log_filed(
    conn: &mut DbConnection,
    (player_id, player): (PlayerId, &str),
    sanction_id: SanctionId,
    appeal_id: AppealId,
    text: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    log_action(
        conn,
        now,
        LogActor {
            kind: LogActorKind::Player,
            name: Some(player),
        },
        &AuditAction::AppealFiled {
            appeal: appeal_id,
            sanction: sanction_id,
            appellant: player_id,
        },
        LogRefs {
            subject: Some(player),
            sanction_id: Some(sanction_id),
            appeal_id: Some(appeal_id),
            why: Some(text),
            ..LogRefs::default()
        },
    )
}
