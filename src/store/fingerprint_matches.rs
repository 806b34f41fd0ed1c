//! What noticing a returning player reads and keeps: the latest seats that carried a
//! fingerprint (`game_seats`, by the partial indexes on each fingerprint), the bans of the
//! players seen, and which account was already noticed for which ban
//! (`fingerprint_notices`). Rows and queries only; the use case is
//! `usecases::notice_returning_players`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{fingerprint_notices, game_seats, players, sanctions};
use crate::moderation::returning_player::{PlayerBan, Sighting};
use crate::moderation::returning_player_policy::FingerprintKind;
use crate::moderation::{PlayerId, SanctionId, SanctionKind};

/// Most seats read per fingerprint: enough to tell a household from a crowd, bounded so a
/// carrier's shared address costs the same as a home's.
pub const LATEST_SEATS: i64 = 500;

/// The latest seats (newest game first) that carried this fingerprint.
pub fn latest_sightings(
    conn: &mut DbConnection,
    kind: FingerprintKind,
    fingerprint: &str,
) -> QueryResult<Vec<Sighting>> {
    let rows: Vec<(String, i64)> = match kind {
        FingerprintKind::Device => game_seats::table
            .filter(game_seats::device_fp.eq(fingerprint))
            .select((game_seats::player, game_seats::game_id))
            .order(game_seats::game_id.desc())
            .limit(LATEST_SEATS)
            .load(conn)?,
        FingerprintKind::Network => game_seats::table
            .filter(game_seats::network_fp.eq(fingerprint))
            .select((game_seats::player, game_seats::game_id))
            .order(game_seats::game_id.desc())
            .limit(LATEST_SEATS)
            .load(conn)?,
    };
    Ok(rows
        .into_iter()
        .map(|(player, game_id)| Sighting { player, game_id })
        .collect())
}

/// Every chat, play or club ban of these players, lifted or not (the policy decides which
/// count).
pub fn bans_of(conn: &mut DbConnection, names: &[&str]) -> QueryResult<Vec<PlayerBan>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(SanctionRow, String)> = sanctions::table
        .inner_join(players::table.on(players::id.eq(sanctions::player_id)))
        .filter(players::name.eq_any(names))
        .filter(sanctions::kind.eq_any([
            SanctionKind::ChatBan,
            SanctionKind::PlayBan,
            SanctionKind::ClubBan,
        ]))
        .select((SanctionRow::as_select(), players::name))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(row, player)| PlayerBan {
            player,
            sanction: row.to_policy(),
        })
        .collect())
}

/// Whether `account` was already noticed for this ban.
pub fn noticed(
    conn: &mut DbConnection,
    account: PlayerId,
    sanction: SanctionId,
) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        fingerprint_notices::table
            .filter(fingerprint_notices::account_id.eq(account))
            .filter(fingerprint_notices::sanction_id.eq(sanction)),
    ))
    .get_result(conn)
}

/// Keeps that `account` was noticed for this ban, with the automatic report it raised.
pub fn record_notice(
    conn: &mut DbConnection,
    account: PlayerId,
    sanction: SanctionId,
    automatic_report_id: i64,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(fingerprint_notices::table)
        .values((
            fingerprint_notices::account_id.eq(account),
            fingerprint_notices::sanction_id.eq(sanction),
            fingerprint_notices::automatic_report_id.eq(automatic_report_id),
            fingerprint_notices::noticed_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}
