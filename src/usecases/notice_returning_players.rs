//! A banned player back on a new account is noticed as the game arrives, in the game's
//! ingest transaction (docs/moderation.md, "Returning players").
//!
//! Steps, per seat of the stored game: read the latest seats that carried each of its
//! fingerprints; when players other than the seat's carried them, read those players' bans;
//! decide with `moderation::returning_player` under `[returning_players]`; for each banned
//! player matched and not yet noticed for that ban, raise an automatic report (reason
//! `other`, source `fingerprint_match`) about the seat's player, with both players' games that
//! carried the fingerprints as evidence, and keep the notice so the account's later games do
//! not raise it again.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::raise_automatic_report;
use crate::moderation::returning_player::{find_returning, FingerprintSeen, ReturningMatch};
use crate::moderation::returning_player_policy::FingerprintKind;
use crate::moderation::ModerationPolicy;
use crate::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use crate::store::{fingerprint_matches, players, to_utc, DbConnection};

/// Most games of each account cited as evidence.
const GAMES_CITED: usize = 10;

/// A seat as the check reads it: its player and the fingerprints it carried.
#[derive(Debug, Clone, Copy)]
pub struct SeatFingerprints<'a> {
    pub player: &'a str,
    pub device: Option<&'a str>,
    pub network: Option<&'a str>,
}

/// Checks every seat of the stored game `game_id`; returns how many reports it raised.
pub fn notice(
    conn: &mut DbConnection,
    game_id: i64,
    seats: &[SeatFingerprints<'_>],
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let rules = &policy.returning_players;
    if !rules.enabled {
        return Ok(0);
    }
    let mut raised = 0;
    for seat in seats {
        let mut seen = Vec::new();
        for (kind, fingerprint) in [
            (FingerprintKind::Device, seat.device),
            (FingerprintKind::Network, seat.network),
        ] {
            if let Some(fingerprint) = fingerprint.filter(|_| rules.counts(kind)) {
                let sightings = fingerprint_matches::latest_sightings(conn, kind, fingerprint)?;
                seen.push(FingerprintSeen { kind, sightings });
            }
        }
        let mut others: Vec<&str> = seen
            .iter()
            .flat_map(|f| f.sightings.iter().map(|s| s.player.as_str()))
            .filter(|p| *p != seat.player)
            .collect();
        if others.is_empty() {
            continue;
        }
        others.sort_unstable();
        others.dedup();
        let bans = fingerprint_matches::bans_of(conn, &others)?;
        for found in find_returning(seat.player, &seen, &bans, to_utc(now), rules) {
            if raise_once(conn, game_id, &found, policy, now)? {
                raised += 1;
            }
        }
    }
    Ok(raised)
}

/// Raises the report for `found` unless its account was noticed for that ban before.
fn raise_once(
    conn: &mut DbConnection,
    game_id: i64,
    found: &ReturningMatch,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let account = conn.transaction(|conn| players::id_or_create(conn, &found.account, now))?;
    if fingerprint_matches::noticed(conn, account, found.sanction)? {
        return Ok(false);
    }
    let latest =
        |games: &[i64]| -> Vec<i64> { games.iter().rev().take(GAMES_CITED).copied().collect() };
    let mut cited = latest(&found.account_games);
    cited.extend(latest(&found.banned_games));
    let summary = found.summary();
    let report = raise_automatic_report::raise(
        conn,
        &NewAutomaticReport {
            source: AutomaticSource::FingerprintMatch,
            player: &found.account,
            also_accused: &[],
            game_id,
            reason: "other",
            rule: "returning_player",
            score: found.score(),
            summary: &summary,
            supporting_games: &cited,
            created_at: now,
        },
        policy,
    )?;
    fingerprint_matches::record_notice(conn, account, found.sanction, report, now)?;
    Ok(true)
}
