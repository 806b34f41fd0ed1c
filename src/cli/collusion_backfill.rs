//! `arbiter collusion backfill`: the collusion statistics of stored FFA and Solo games that
//! have none (games stored before `[collusion] enabled`, or while it was off), in played
//! order.
//!
//! Each game goes through the same step as the ingest
//! (`usecases::judge_collusion::record_and_judge`), so the baselines, pair records and automatic
//! reports end as if the games had arrived with the statistics on. Games that already have them are
//! skipped, so the command can be stopped and run again, and runs beside a serving instance.

use std::collections::HashSet;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use diesel::prelude::*;

use crate::collusion::{interactions, CollusionPolicy};
use crate::config::Settings;
use crate::moderation::ModerationPolicy;
use crate::rules::replay::replay;
use crate::store::played_order::games_in_played_order;
use crate::store::schema::game_pair_play;
use crate::store::{self, DbConnection};
use crate::usecases::judge_collusion;

#[derive(Debug, Args)]
pub struct BackfillArgs {
    /// Games per transaction.
    #[arg(long, default_value_t = 500)]
    pub batch: usize,
}

/// What a backfill did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct BackfillReport {
    /// FFA and Solo games given their statistics.
    pub recorded: u64,
    /// Games that already had them.
    pub skipped: u64,
    /// Games the statistics do not apply to (Teams and other partnered rules), or with a
    /// player seated twice.
    pub not_applicable: u64,
    /// Automatic reports filed.
    pub reports: u64,
    /// (game id, reason) of stored games that no longer replay.
    pub failed: Vec<(i64, String)>,
}

pub fn run(settings: Settings, args: &BackfillArgs) -> anyhow::Result<()> {
    if !settings.collusion.enabled {
        anyhow::bail!("[collusion] enabled is false: nothing would be kept");
    }
    let policy = settings.collusion.policy();
    let moderation = settings
        .moderation
        .load_policy()
        .map_err(|e| anyhow::anyhow!(e))?;
    let mut conn = super::connection::migrated_connection(&settings)?;
    let started = Instant::now();
    let report = backfill(&mut conn, &policy, &moderation, args.batch, |done| {
        eprint!("\r{done} games")
    })?;
    eprintln!();
    let seconds = started.elapsed().as_secs_f64();
    for (id, reason) in &report.failed {
        println!("game {id} not replayed: {reason}");
    }
    println!(
        "recorded {} games ({} already recorded, {} not FFA or Solo, {} failed), {} automatic reports, in {seconds:.1} s",
        report.recorded,
        report.skipped,
        report.not_applicable,
        report.failed.len(),
        report.reports
    );
    Ok(())
}

/// Records the statistics of every stored game without them, `batch` games per transaction;
/// `progress` gets the number of games looked at after each batch.
pub fn backfill(
    conn: &mut DbConnection,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    batch: usize,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<BackfillReport> {
    let limit = i64::try_from(batch.max(1)).unwrap_or(i64::MAX);
    let mut report = BackfillReport::default();
    let mut after = None;
    let mut looked_at = 0u64;
    loop {
        let page = games_in_played_order(conn, after, limit).context("reading stored games")?;
        let Some(last) = page.last() else {
            break;
        };
        after = Some((last.played_at, last.id));
        looked_at += page.len() as u64;
        let now = store::now();
        conn.transaction(|conn| -> QueryResult<()> {
            let ids: Vec<i64> = page.iter().map(|g| g.id).collect();
            let done: HashSet<i64> = game_pair_play::table
                .filter(game_pair_play::game_id.eq_any(&ids))
                .select(game_pair_play::game_id)
                .distinct()
                .load::<i64>(conn)?
                .into_iter()
                .collect();
            for game in &page {
                if done.contains(&game.id) {
                    report.skipped += 1;
                    continue;
                }
                let replayed = match replay(&game.pgn4) {
                    Ok(r) => r,
                    Err(e) => {
                        report.failed.push((game.id, e.to_string()));
                        continue;
                    }
                };
                let mut names = [""; 4];
                for (seat, player, _, _) in &game.seats {
                    if let Some(slot) = usize::try_from(*seat).ok().and_then(|i| names.get_mut(i)) {
                        *slot = player.as_str();
                    }
                }
                let mut distinct = names.to_vec();
                distinct.sort_unstable();
                distinct.dedup();
                let found = interactions(&replayed);
                let (Some(found), 4, false) = (found, distinct.len(), names.contains(&"")) else {
                    report.not_applicable += 1;
                    continue;
                };
                let raised = judge_collusion::record_and_judge(
                    conn, game.id, names, &found, policy, moderation, now,
                )?;
                report.recorded += 1;
                report.reports += raised.len() as u64;
            }
            Ok(())
        })
        .context("writing a batch of collusion statistics")?;
        progress(looked_at);
    }
    Ok(report)
}
