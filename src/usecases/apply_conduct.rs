//! Apply conduct: the applier's one transaction takes a batch of queued games off the queue,
//! applies them to their players' records, files the habit reports they raise, commits. A
//! batch that fails rolls back whole, so its games stay queued for the next try.

use chrono::NaiveDateTime;
use diesel::{Connection, QueryResult};

use super::raise_automatic_report;
use crate::conduct::{self, ConductPolicy, SeatOutcome};
use crate::moderation::ModerationPolicy;
use crate::store::conduct::outcomes;
use crate::store::conduct::queue::{self, QueuedGame};
use crate::store::conduct::{ConductWriter, SeatToRecord};
use crate::store::DbConnection;

/// What one [`apply_pending`] call did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AppliedBatch {
    /// Queued games applied to their players' records.
    pub applied: usize,
    /// Queued games whose outcomes were already recorded (by a rebuild): dropped from the
    /// queue without applying them twice.
    pub already_recorded: usize,
    /// (game id, reason) of queued rows that could not be read: dropped from the queue (the
    /// game stays in the archive, and `arbiter conduct rebuild` recomputes it).
    pub unreadable: Vec<(i64, String)>,
}

impl AppliedBatch {
    /// Queued games taken off the queue: a batch of `batch` means there may be more.
    pub fn taken(&self) -> usize {
        self.applied + self.already_recorded + self.unreadable.len()
    }
}

/// A queued game with its seats read back.
type GameToApply = (QueuedGame, Vec<(String, SeatOutcome)>);

/// Takes up to `batch` queued games off the queue, oldest first, and applies them in one
/// transaction: their outcome rows, their players' records (each read and written once for
/// the batch) and the automatic reports their signals raise commit together with the games'
/// removal from the queue.
pub fn apply_pending(
    conn: &mut DbConnection,
    policy: &ConductPolicy,
    moderation: &ModerationPolicy,
    batch: i64,
    now: NaiveDateTime,
) -> QueryResult<AppliedBatch> {
    conn.transaction(|conn| {
        let taken = queue::take(conn, batch.max(1))?;
        let (games, mut done) = split_taken(conn, taken)?;
        let mut writer = ConductWriter::new(policy, true);
        let players = games
            .iter()
            .flat_map(|(_, seats)| seats.iter().map(|(p, _)| p.as_str()));
        writer.hold(conn, players, now)?;
        for (game, seats) in &games {
            let seats: Vec<SeatToRecord<'_>> = seats
                .iter()
                .map(|(player, outcome)| SeatToRecord { player, outcome })
                .collect();
            writer.record_game(conn, game.game_id, game.played_at, &seats, now)?;
        }
        let raised = writer.finish(conn, now)?;
        raise_automatic_report::raise_conduct_reports(conn, raised, moderation, now)?;
        done.applied = games.len();
        Ok(done)
    })
}

/// The taken games to apply, and the batch so far: those already recorded and those
/// unreadable counted, not applied.
fn split_taken(
    conn: &mut DbConnection,
    taken: Vec<QueuedGame>,
) -> QueryResult<(Vec<GameToApply>, AppliedBatch)> {
    let ids: Vec<i64> = taken.iter().map(|g| g.game_id).collect();
    let recorded = outcomes::recorded_among(conn, &ids)?;
    let mut done = AppliedBatch::default();
    let mut games: Vec<GameToApply> = Vec::new();
    for game in taken {
        if recorded.contains(&game.game_id) {
            done.already_recorded += 1;
            continue;
        }
        match conduct::stored::decode_seats(&game.seats) {
            Ok(seats) => games.push((game, seats)),
            Err(e) => done.unreadable.push((game.game_id, e.to_string())),
        }
    }
    Ok((games, done))
}
