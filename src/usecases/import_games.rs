//! Import games: the bulk import's batches (`arbiter import`), each stored in one transaction
//! with what its games raise, as [`super::ingest_game`] stores one. Games already stored, or
//! repeated within the batch, come back as duplicates or conflicts. Conduct is applied in the
//! batch's transaction, each player's record read and written once per batch, rather than
//! queued.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::ingest_game::{store_new_game, ConductStep, StoreOutcome};
use super::raise_automatic_report;
use crate::archive::PreparedGame;
use crate::moderation::ModerationPolicy;
use crate::store::conduct::ConductWriter;
use crate::store::{games, DbConnection};

/// Stores many games in one transaction (the bulk import), one outcome per game in order.
pub fn import_batch(
    conn: &mut DbConnection,
    batch: &[PreparedGame],
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Vec<StoreOutcome>> {
    conn.transaction(|conn| {
        // One look-up for the whole batch, then the batch's own repeats as they are written.
        let numbers: Vec<&str> = batch.iter().map(|g| g.game.site_game_id.as_str()).collect();
        let mut known = games::find_by_site_ids(conn, &numbers)?;
        // Every player of the batch's new games, held once for the whole batch.
        let mut conduct = conduct_writer(batch);
        if let Some(writer) = conduct.as_mut() {
            let players = batch
                .iter()
                .filter(|g| !known.contains_key(&g.game.site_game_id))
                .flat_map(|g| g.seats.iter().map(|s| s.player.as_str()));
            writer.hold(conn, players, now)?;
        }
        let out = store_each(conn, batch, &mut known, conduct.as_mut(), policy, now)?;
        if let Some(writer) = conduct {
            let raised = writer.finish(conn, now)?;
            raise_automatic_report::raise_conduct_reports(conn, raised, policy, now)?;
        }
        Ok(out)
    })
}

/// The conduct writer for games prepared with conduct tracking on (the ingest settings are
/// the same for every game of a batch).
fn conduct_writer(games: &[PreparedGame]) -> Option<ConductWriter<'_>> {
    let outcomes = games.iter().find_map(|g| g.conduct.as_ref())?;
    Some(ConductWriter::new(&outcomes.policy, true))
}

/// Stores the batch's new games in order; a number already stored (`known`, by number: id
/// and content hash) or written earlier in the batch is a duplicate or a conflict.
fn store_each(
    conn: &mut DbConnection,
    batch: &[PreparedGame],
    known: &mut HashMap<String, (i64, String)>,
    mut conduct: Option<&mut ConductWriter<'_>>,
    policy: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Vec<StoreOutcome>> {
    let mut out = Vec::with_capacity(batch.len());
    for game in batch {
        let outcome = match known.get(&game.game.site_game_id) {
            Some(existing) => StoreOutcome::repeated(existing.clone(), &game.game.content_hash),
            None => {
                let step = match conduct.as_deref_mut() {
                    Some(writer) => ConductStep::Apply(writer),
                    None => ConductStep::Queue,
                };
                let id = store_new_game(conn, game, policy, step, now)?;
                known.insert(
                    game.game.site_game_id.clone(),
                    (id, game.game.content_hash.clone()),
                );
                StoreOutcome::Created(id)
            }
        };
        out.push(outcome);
    }
    Ok(out)
}
