//! `arbiter conduct rebuild`: recomputes every conduct outcome and player record from the
//! archive, in played order, after a change of the conduct thresholds or the abort rule.
//!
//! It runs the same code as the ingest (`archive::conduct_outcomes` on the stored game, then
//! `store::conduct::record_game`), so its result equals what incremental ingest produces.
//! Automatic reports are not raised again: the reports already filed stay in the queue, and
//! signals under new thresholds are judged at each player's next game.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use diesel::prelude::*;

use crate::archive::AbortPreset;
use crate::archive::{conduct_outcomes, ConductInput, EventKind, SeatColour};
use crate::conduct::{ConductPolicy, SeatOutcome};
use crate::config::Settings;
use crate::rules::replay::replay;
use crate::store::conduct::{self, ConductWriter, SeatToRecord};
use crate::store::played_order::{games_in_played_order, StoredGame};
use crate::store::schema::conduct_outcomes as outcomes_table;
use crate::store::{self, DbConnection};

#[derive(Debug, Subcommand)]
pub enum ConductCommand {
    /// Recompute every outcome and player record from the archive, in played order.
    Rebuild(RebuildArgs),
}

#[derive(Debug, Args)]
pub struct RebuildArgs {
    /// Games per transaction.
    #[arg(long, default_value_t = 1000)]
    pub batch: usize,
}

/// What a rebuild did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RebuildReport {
    pub games: u64,
    pub outcomes: u64,
    pub players: u64,
    /// Games recorded by a concurrent ingest while the rebuild ran (left as they are).
    pub skipped: u64,
    /// (game id, reason) of stored games that no longer replay.
    pub failed: Vec<(i64, String)>,
}

pub fn run(settings: Settings, command: ConductCommand) -> anyhow::Result<()> {
    match command {
        ConductCommand::Rebuild(args) => {
            let mut conn = super::connection::migrated_connection(&settings)?;
            let started = Instant::now();
            let report = rebuild(
                &mut conn,
                settings.archive.abort_rule,
                &ConductPolicy::default(),
                args.batch,
                |done| eprint!("\r{done} games"),
            )?;
            eprintln!();
            let seconds = started.elapsed().as_secs_f64();
            for (id, reason) in &report.failed {
                println!("game {id} not replayed: {reason}");
            }
            println!(
                "rebuilt {} games, {} outcomes, {} players ({} skipped, {} failed) in {seconds:.1} s, {:.0} games/s",
                report.games,
                report.outcomes,
                report.players,
                report.skipped,
                report.failed.len(),
                report.games as f64 / seconds.max(1e-9)
            );
            Ok(())
        }
    }
}

/// Deletes every outcome and record, then records every archived game again in played order,
/// `batch` games per transaction. `progress` gets the number of games done after each batch.
pub fn rebuild(
    conn: &mut DbConnection,
    preset: AbortPreset,
    policy: &ConductPolicy,
    batch: usize,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<RebuildReport> {
    let batch = i64::try_from(batch.max(1)).unwrap_or(i64::MAX);
    conn.transaction(conduct::clear)
        .context("clearing the conduct tables")?;
    let mut report = RebuildReport::default();
    let mut after = None;
    loop {
        let page = games_in_played_order(conn, after, batch).context("reading archived games")?;
        let Some(last) = page.last() else {
            break;
        };
        after = Some((last.played_at, last.id));
        let computed: Vec<(&StoredGame, Result<[SeatOutcome; 4], String>)> = page
            .iter()
            .map(|g| (g, outcomes_of(g, policy, preset)))
            .collect();
        let now = store::now();
        conn.transaction(|conn| -> QueryResult<()> {
            let mut writer = ConductWriter::new(policy, false);
            let ids: Vec<i64> = page.iter().map(|g| g.id).collect();
            // Games still queued for the applier are recomputed here instead; first, so a
            // game an applier holds is waited for and then found recorded below.
            conduct::take_off_queue(conn, &ids)?;
            let done: HashSet<i64> = outcomes_table::table
                .filter(outcomes_table::game_id.eq_any(&ids))
                .select(outcomes_table::game_id)
                .distinct()
                .load::<i64>(conn)?
                .into_iter()
                .collect();
            let players = page
                .iter()
                .filter(|g| !done.contains(&g.id))
                .flat_map(|g| g.seats.iter().map(|(_, player, _, _)| player.as_str()));
            writer.hold(conn, players, now)?;
            for (game, outcomes) in &computed {
                if done.contains(&game.id) {
                    report.skipped += 1;
                    continue;
                }
                let outcomes = match outcomes {
                    Ok(o) => o,
                    Err(reason) => {
                        report.failed.push((game.id, reason.clone()));
                        continue;
                    }
                };
                let seats: Vec<SeatToRecord<'_>> = game
                    .seats
                    .iter()
                    .filter_map(|(seat, player, _, _)| {
                        let i = usize::try_from(*seat).ok().filter(|&i| i < 4)?;
                        Some(SeatToRecord {
                            player,
                            outcome: &outcomes[i],
                        })
                    })
                    .collect();
                writer.record_game(conn, game.id, game.played_at, &seats, now)?;
                report.games += 1;
                report.outcomes += seats.len() as u64;
            }
            // A writer made without reports hands back none.
            writer.finish(conn, now).map(|_none| ())
        })
        .context("writing a batch of conduct records")?;
        progress(report.games + report.skipped + report.failed.len() as u64);
    }
    report.players = conduct::record_count(conn)?;
    Ok(report)
}

/// The seats' outcomes of a stored game, exactly as the ingest computed them.
fn outcomes_of(
    game: &StoredGame,
    policy: &ConductPolicy,
    preset: AbortPreset,
) -> Result<[SeatOutcome; 4], String> {
    let replayed = replay(&game.pgn4).map_err(|e| e.to_string())?;
    let mut ratings = [(None, None); 4];
    for (seat, _, before, after) in &game.seats {
        if let Some(slot) = usize::try_from(*seat).ok().and_then(|i| ratings.get_mut(i)) {
            *slot = (*before, *after);
        }
    }
    let events = game
        .events
        .iter()
        .filter_map(|e| {
            Some((
                EventKind::parse(&e.kind)?,
                SeatColour::from_index(e.seat)?,
                e.ply,
                e.at,
            ))
        })
        .collect();
    let input = ConductInput {
        variant: &game.variant,
        time_control: &game.time_control,
        start_setup: &game.start_setup,
        ratings,
        events,
    };
    Ok(conduct_outcomes(&replayed, &input, policy, preset))
}
