//! Erase a player, in one transaction: their chat lines and fingerprints deleted, their name
//! replaced by the pseudonym `erased-<players.id>` everywhere it is stored, the name's keyed
//! hash kept so their sanctions still answer the standing check; logged as `player_erased`.
//! The key's check value is recorded with the first erasure, and every later one must be
//! made under the same key (`check_erasure_key`).

use chrono::NaiveDateTime;
use diesel::result::Error as DieselError;
use diesel::{Connection, QueryResult};

use crate::moderation::erasure::{pseudonym, replace_name};
use crate::moderation::{AuditAction, PlayerId};
use crate::store::erasure::{self, Rename, CHUNK};
use crate::store::key_checks::{self, CheckedKey};
use crate::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use crate::store::{players, DbConnection};

/// An erasure to carry out; the request is already validated.
#[derive(Debug, Clone)]
pub struct ErasureRequest<'a> {
    pub name: &'a str,
    /// `PrivacySettings::erased_name_key` of the name.
    pub name_key: &'a str,
    /// `PrivacySettings::erasure_key_check`: the check value of the key `name_key` is under.
    pub key_check: &'a str,
    pub admin: &'a str,
    pub why: &'a str,
}

/// What an erasure changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Erased {
    pub player_id: PlayerId,
    pub pseudonym: String,
    pub games: u64,
    pub chat_lines_deleted: u64,
    /// Rows whose free text, PGN4 tags or encoded seats named the player.
    pub texts_rewritten: u64,
}

#[derive(Debug)]
pub enum EraseError {
    /// No player of that name: not in moderation, not in the archive.
    UnknownPlayer,
    /// Earlier erasures were made under another key: this one's hash would not be found by
    /// an instance running with theirs, nor theirs by this one.
    KeyMismatch,
    Db(DieselError),
}

impl From<DieselError> for EraseError {
    fn from(err: DieselError) -> Self {
        EraseError::Db(err)
    }
}

/// Erases `request.name`; one transaction, logged as `player_erased`.
pub fn erase(
    conn: &mut DbConnection,
    request: &ErasureRequest<'_>,
    now: NaiveDateTime,
) -> Result<Erased, EraseError> {
    conn.transaction(|conn| {
        // First, and a write: one key's value is recorded, and two racing erasures under
        // different keys cannot both pass.
        let recorded = key_checks::record_first(conn, CheckedKey::Erasure, request.key_check, now)?;
        if recorded != request.key_check {
            return Err(EraseError::KeyMismatch);
        }
        let name = request.name;
        let known = players::find_id(conn, name)?.is_some() || erasure::archived(conn, name)?;
        if !known {
            return Err(EraseError::UnknownPlayer);
        }
        let player_id = players::id_or_create(conn, name, now)?;
        let pseudonym = pseudonym(player_id);
        let renamed = rename_everywhere(conn, name, &pseudonym, now)?;
        // An admin erasing their own name acts, and is logged, under the pseudonym.
        let (admin_id, admin_name) = if request.admin == name {
            (player_id, pseudonym.as_str())
        } else {
            (
                players::id_or_create(conn, request.admin, now)?,
                request.admin,
            )
        };
        erasure::rename_player(conn, player_id, &pseudonym)?;
        erasure::keep_name_key(conn, request.name_key, player_id, now)?;
        let erased = Erased {
            player_id,
            pseudonym: pseudonym.clone(),
            games: renamed.games,
            chat_lines_deleted: renamed.chat_lines_deleted,
            texts_rewritten: renamed.texts_rewritten,
        };
        log_erased(conn, request, &erased, (admin_id, admin_name), now)?;
        Ok(erased)
    })
}

/// What renaming the name everywhere changed.
struct Renamed {
    games: u64,
    chat_lines_deleted: u64,
    texts_rewritten: u64,
}

/// Deletes the name's chat lines and fingerprints and replaces the name by the pseudonym in
/// every table but `players`.
fn rename_everywhere(
    conn: &mut DbConnection,
    name: &str,
    pseudonym: &str,
    now: NaiveDateTime,
) -> QueryResult<Renamed> {
    let rename = Rename { name, pseudonym };
    let mut texts_rewritten = 0;
    let game_ids = erasure::game_ids(conn, name)?;
    let chat_lines_deleted = erasure::delete_chat_lines(conn, name)?;
    erasure::anonymise_seats(conn, name, pseudonym)?;
    for chunk in game_ids.chunks(CHUNK) {
        texts_rewritten += rename.games(conn, chunk)?;
        texts_rewritten += rename.conduct_seats(conn, chunk)?;
    }
    rename.keys(conn, now)?;
    rename.pairs(conn, &game_ids)?;
    texts_rewritten += rename.free_text(conn)?;
    Ok(Renamed {
        games: game_ids.len() as u64,
        chat_lines_deleted: chat_lines_deleted as u64,
        texts_rewritten,
    })
}

/// Logs the erasure under the pseudonym, with the name in `why` replaced too.
fn log_erased(
    conn: &mut DbConnection,
    request: &ErasureRequest<'_>,
    erased: &Erased,
    (admin_id, admin_name): (PlayerId, &str),
    now: NaiveDateTime,
) -> QueryResult<()> {
    let why = replace_name(request.why, request.name, &erased.pseudonym);
    log_action(
        conn,
        now,
        LogActor {
            kind: LogActorKind::Admin,
            name: Some(admin_name),
        },
        &AuditAction::PlayerErased {
            player: erased.player_id,
            admin: admin_id,
            games: erased.games,
            chat_lines_deleted: erased.chat_lines_deleted,
            texts_rewritten: erased.texts_rewritten,
        },
        LogRefs {
            subject: Some(&erased.pseudonym),
            why: Some(why.as_deref().unwrap_or(request.why)),
            ..LogRefs::default()
        },
    )
}
