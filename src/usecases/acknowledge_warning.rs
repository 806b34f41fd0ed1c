//! A player acknowledges a warning with their own token: the first acknowledgement is stored
//! and logged, later ones change nothing; nobody acknowledges another player's warning
//! (docs/moderation.md, "Warnings").

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use crate::moderation::{AuditAction, Warning, WarningId};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::{warnings, DbConnection};

/// Why an acknowledgement was refused.
#[derive(Debug)]
pub enum AcknowledgeError {
    NotFound,
    /// The warning is another player's.
    NotYours,
    Db(DieselError),
}

impl From<DieselError> for AcknowledgeError {
    fn from(err: DieselError) -> Self {
        AcknowledgeError::Db(err)
    }
}

/// `player` acknowledges warning `id`; returns the warning as it now stands.
pub fn acknowledge_warning(
    conn: &mut DbConnection,
    id: WarningId,
    player: &str,
    now: NaiveDateTime,
) -> Result<Warning, AcknowledgeError> {
    conn.transaction(|conn| {
        let warning = warnings::find(conn, id)?.ok_or(AcknowledgeError::NotFound)?;
        if warning.player != player {
            return Err(AcknowledgeError::NotYours);
        }
        if !warnings::acknowledge(conn, id, now)? {
            return Ok(warning);
        }
        let actor = LogActor {
            kind: LogActorKind::Player,
            name: Some(player),
        };
        let action = AuditAction::WarningAcknowledged {
            warning: id,
            case: warning.case,
        };
        let refs = LogRefs {
            subject: Some(player),
            case_id: Some(warning.case),
            ..LogRefs::default()
        };
        log_action(conn, now, actor, &action, refs)?;
        warnings::find(conn, id)?.ok_or(AcknowledgeError::NotFound)
    })
}
