//! Ingest a game: a finished game arrives (over HTTP here; the bulk import's batches are
//! [`super::import_games`]) and is stored in one transaction with what it raises: its rows,
//! its chat flags and the chat reports they raise, the rolling chat window's reports, its
//! conduct (queued for the applier), its collusion statistics and findings, and the reports
//! of seats that carried a banned player's fingerprints.
//!
//! A game is identified by the site's game number (`games.site_game_id`, unique) and its
//! content hash. Writing the same content again finds the stored game; different content under
//! the same number is a conflict. A concurrent duplicate that loses the race on the unique key
//! re-reads and is answered the same way.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::notice_returning_players::{self, SeatFingerprints};
use super::{judge_chat_window, judge_collusion, raise_automatic_report};
use crate::archive::PreparedGame;
use crate::conduct::SeatOutcome;
use crate::moderation::ModerationPolicy;
use crate::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use crate::store::conduct::{self, ConductWriter, SeatToRecord};
use crate::store::{chat_flags, games, DbConnection};

/// What storing a game did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreOutcome {
    Created(i64),
    /// The same content was already stored under this number.
    Duplicate(i64),
    /// Different content is stored under this number.
    Conflict(i64),
}

impl StoreOutcome {
    pub fn id(self) -> i64 {
        match self {
            StoreOutcome::Created(id)
            | StoreOutcome::Duplicate(id)
            | StoreOutcome::Conflict(id) => id,
        }
    }

    /// A game number already stored (id, content hash), asked again with content `hash`.
    pub(super) fn repeated(existing: (i64, String), hash: &str) -> StoreOutcome {
        if existing.1 == hash {
            StoreOutcome::Duplicate(existing.0)
        } else {
            StoreOutcome::Conflict(existing.0)
        }
    }
}

/// Stores one game in one transaction (idempotent on the game number and content hash).
pub fn ingest(
    conn: &mut DbConnection,
    game: &PreparedGame,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<StoreOutcome> {
    let site = game.game.site_game_id.as_str();
    let hash = game.game.content_hash.as_str();
    // Straight to the insert: the unique game number decides, and a duplicate (sequential or
    // concurrent) re-reads the stored game. The transaction writes first, so a SQLite writer
    // waits for the lock (busy timeout) instead of failing to upgrade a read.
    let stored = conn.transaction(|conn| {
        // Conduct is queued, not applied: the applier updates the players' records in
        // batches (`usecases::apply_conduct`).
        store_new_game(conn, game, policy, ConductStep::Queue, now)
    });
    match stored {
        Ok(id) => Ok(StoreOutcome::Created(id)),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info)) => {
            match games::find_by_site_id(conn, site)? {
                Some(existing) => Ok(StoreOutcome::repeated(existing, hash)),
                None => Err(DieselError::DatabaseError(
                    DatabaseErrorKind::UniqueViolation,
                    info,
                )),
            }
        }
        Err(other) => Err(other),
    }
}

/// What storing a game does with its conduct outcomes (when it was prepared with them).
pub(super) enum ConductStep<'w, 'p> {
    /// Queue them for the conduct applier (one game over HTTP).
    Queue,
    /// Apply them in this transaction (the bulk import's batches).
    Apply(&'w mut ConductWriter<'p>),
}

/// Stores a new game with what it raises, in the caller's transaction; returns its id.
pub(super) fn store_new_game(
    conn: &mut DbConnection,
    prepared: &PreparedGame,
    policy: &ModerationPolicy,
    conduct_step: ConductStep<'_, '_>,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let played_at = prepared.game.played_at.unwrap_or(now);
    let id = games::insert_rows(conn, prepared, played_at, now)?;
    raise_chat_reports(conn, id, prepared, policy, now)?;
    record_conduct(conn, id, played_at, prepared, conduct_step, now)?;
    judge_collusion(conn, id, prepared, policy, now)?;
    let seats: Vec<SeatFingerprints<'_>> = prepared
        .seats
        .iter()
        .map(|s| SeatFingerprints {
            player: &s.player,
            device: s.device_fp.as_deref(),
            network: s.network_fp.as_deref(),
        })
        .collect();
    notice_returning_players::notice(conn, id, &seats, policy, now)?;
    // Last: the players' and pairs' archive totals are rows every game of those players
    // updates, so on PostgreSQL their locks are held only from here to the commit (issue #41).
    games::count_in_aggregates(conn, id, prepared, played_at)?;
    Ok(id)
}

/// The game's chat flags (after its chat lines: the flags reference them), the automatic
/// reports the chat analysis raised, and the rolling window's.
fn raise_chat_reports(
    conn: &mut DbConnection,
    game_id: i64,
    prepared: &PreparedGame,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    chat_flags::insert(conn, game_id, &prepared.flags)?;
    for report in &prepared.reports {
        raise_automatic_report::raise(
            conn,
            &NewAutomaticReport {
                source: AutomaticSource::ChatAnalysis,
                player: &report.player,
                also_accused: &[],
                game_id,
                reason: report.reason,
                rule: report.rule,
                score: report.score,
                summary: &report.summary,
                supporting_games: &[],
                created_at: now,
            },
            policy,
        )?;
    }
    if let Some(check) = &prepared.window {
        judge_chat_window::judge(conn, game_id, check, policy, now)?;
    }
    Ok(())
}

/// Queues or applies the seats' conduct outcomes (when the game was prepared with them).
fn record_conduct(
    conn: &mut DbConnection,
    game_id: i64,
    played_at: NaiveDateTime,
    prepared: &PreparedGame,
    conduct_step: ConductStep<'_, '_>,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let Some(outcomes) = prepared.conduct.as_ref() else {
        return Ok(());
    };
    let seats: Vec<SeatToRecord<'_>> = prepared
        .seats
        .iter()
        .map(|s| SeatToRecord {
            player: &s.player,
            outcome: &outcomes.outcomes[s.seat.index() as usize],
        })
        .collect();
    match conduct_step {
        ConductStep::Queue => {
            let listed: Vec<(&str, &SeatOutcome)> =
                seats.iter().map(|s| (s.player, s.outcome)).collect();
            let encoded = crate::conduct::stored::encode_seats(&listed);
            conduct::enqueue(conn, game_id, played_at, &encoded)
        }
        ConductStep::Apply(writer) => writer.record_game(conn, game_id, played_at, &seats, now),
    }
}

/// Records the game's collusion statistics and judges its pairs (when it was prepared with
/// them and has four seated players).
fn judge_collusion(
    conn: &mut DbConnection,
    game_id: i64,
    prepared: &PreparedGame,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let Some(facts) = &prepared.collusion else {
        return Ok(());
    };
    let seated = |i: usize| {
        prepared
            .seats
            .iter()
            .find(|s| s.seat.index() as usize == i)
            .map(|s| s.player.as_str())
    };
    if let [Some(red), Some(blue), Some(yellow), Some(green)] = [0, 1, 2, 3].map(seated) {
        judge_collusion::record_and_judge(
            conn,
            game_id,
            [red, blue, yellow, green],
            &facts.interactions,
            &facts.policy,
            policy,
            now,
        )?;
    }
    Ok(())
}
