//! `arbiter retention [--dry-run]`: one pass of the retention rule now, batch by batch as the
//! background job does, or (dry) what it would purge, without changing anything.

use anyhow::Context;
use clap::Args;
use diesel::Connection;

use crate::config::Settings;
use crate::moderation::retention::PersonalData;
use crate::store::{self, retention, DbConnection};

#[derive(Debug, Args)]
pub struct RetentionArgs {
    /// Count what is due and held, purge nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn run(settings: Settings, args: &RetentionArgs) -> anyhow::Result<()> {
    let mut conn = super::connection::migrated_connection(&settings)?;
    let totals = pass(&mut conn, &settings, args.dry_run)?;
    let verb = if args.dry_run {
        "would purge"
    } else {
        "purged"
    };
    let [chat, connections] = totals;
    println!(
        "chat text (kept {} days): {verb} {} lines of {} games; {} games held by cases",
        settings.retention.chat_days, chat.chat_lines, chat.games, chat.held
    );
    println!(
        "connection data (kept {} days): {verb} {} events and {} fingerprinted seats of {} \
         games; {} games held by cases",
        settings.retention.connection_days,
        connections.events,
        connections.fingerprinted_seats,
        connections.games,
        connections.held
    );
    Ok(())
}

/// One pass over both kinds, each batch its own transaction (a dry run's are rolled back
/// with nothing written, so they read one consistent state each).
pub fn pass(
    conn: &mut DbConnection,
    settings: &Settings,
    dry_run: bool,
) -> anyhow::Result<[retention::Purged; 2]> {
    let mut totals = [retention::Purged::default(); 2];
    let now = store::now();
    for (i, kind) in PersonalData::ALL.into_iter().enumerate() {
        let mut after = None;
        loop {
            let (done, next) = conn
                .transaction(|conn| {
                    retention::purge_batch(conn, &settings.retention, kind, after, now, dry_run)
                })
                .with_context(|| format!("purging {}", kind.as_str()))?;
            totals[i].add(&done);
            match next {
                Some(cursor) => after = Some(cursor),
                None => break,
            }
        }
    }
    Ok(totals)
}
