//! `arbiter import PATH...`: bulk import of PGN4 files straight into the store.
//!
//! A file holds one game, or several (older exports: one game per line), each imported on its
//! own. Files are read in batches; each batch is replayed on several threads while the previous
//! batch is written in one transaction. Re-running is safe: games already stored are counted
//! as duplicates (or rejected when their content differs).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::archive::AbortPreset;
use crate::archive::{prepare_with, replay_error, ChatReview, PreparedGame, Submission};
use crate::collusion::CollusionPolicy;
use crate::conduct::ConductPolicy;
use crate::config::Settings;
use crate::rules::pgn4;
use crate::rules::replay::ReplayError;
use crate::store::{self, DbConnection};
use crate::usecases::import_games;
use crate::usecases::ingest_game::StoreOutcome;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// PGN4 files, or directories searched recursively for `*.pgn4`.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Games per transaction.
    #[arg(long, default_value_t = 1000)]
    pub batch: usize,
    /// Replay threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// One source: a label for messages (the file name) and the PGN4 text, or why it could not be
/// read.
pub type Source = (String, Result<String, String>);

/// What an import did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportReport {
    pub imported: u64,
    pub duplicates: u64,
    /// (source, reason)
    pub rejected: Vec<(String, String)>,
}

impl ImportReport {
    pub fn total(&self) -> u64 {
        self.imported + self.duplicates + self.rejected.len() as u64
    }
}

pub fn run(settings: Settings, args: ImportArgs) -> anyhow::Result<()> {
    let files = collect_files(&args.paths)?;
    let mut conn = super::connection::migrated_connection(&settings)?;
    let progress = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(files.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} games ({per_sec}, eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let sources = files.iter().flat_map(|path| {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"));
        games_of(path.display().to_string(), text)
    });
    let started = std::time::Instant::now();
    // The admins' word list in force applies to imported chat as to games posted live.
    let (_, word_list) = crate::store::word_list::in_force(&mut conn)?;
    let analyzer = if word_list.is_empty() {
        crate::chat::Analyzer::shared()?
    } else {
        Arc::new(crate::chat::Analyzer::with_word_list(&word_list)?)
    };
    let policy = settings
        .moderation
        .load_policy()
        .map_err(|e| anyhow::anyhow!(e))?;
    let review = ChatReview {
        analyzer: &analyzer,
        settings: &settings.chat,
        policy: &policy,
    };
    let conduct = settings
        .conduct
        .enabled
        .then(|| Arc::new(ConductPolicy::default()));
    let collusion = settings
        .collusion
        .enabled
        .then(|| Arc::new(settings.collusion.policy()));
    let report = import_sources_with(
        &mut conn,
        sources,
        settings.archive.abort_rule,
        ImportChecks {
            review: Some(&review),
            conduct: conduct.as_ref(),
            collusion: collusion.as_ref(),
        },
        args.batch,
        args.threads,
        |n| progress.inc(n),
    )?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if report.imported > 0 {
        crate::store::refresh_planner_statistics(&mut conn)
            .context("refreshing the planner's statistics after the import")?;
    }
    // The summary is a diagnostic, like the progress bar: standard error.
    for (source, reason) in &report.rejected {
        eprintln!("rejected {source}: {reason}");
    }
    eprintln!(
        "imported {}, duplicates {}, rejected {} ({} files in {seconds:.1} s, {:.0} games/s)",
        report.imported,
        report.duplicates,
        report.rejected.len(),
        report.total(),
        report.total() as f64 / seconds.max(1e-9)
    );
    if !report.rejected.is_empty() {
        bail!(
            "{} of {} files were rejected (listed above)",
            report.rejected.len(),
            report.total()
        );
    }
    Ok(())
}

/// The games of one file: the file itself, or each game of a file holding several (older
/// exports wrote one game per line), labelled with the line it starts on. A syntax error
/// refuses the whole file, at its line and column, with the sentence the ingest gives.
pub fn games_of(label: String, text: Result<String, String>) -> Vec<Source> {
    let text = match text {
        Ok(text) => text,
        unread => return vec![(label, unread)],
    };
    match pgn4::split_games(&text) {
        Ok(games) if games.len() > 1 => games
            .into_iter()
            .map(|(line, game)| {
                (
                    format!("{label} (game at line {line})"),
                    Ok(game.to_string()),
                )
            })
            .collect(),
        Ok(_) => vec![(label, Ok(text))],
        Err(e) => vec![(label, Err(replay_error(ReplayError::Parse(e)).message))],
    }
}

/// Every `*.pgn4` file under the paths (files named directly are taken whatever their name),
/// in a stable order, each once however the paths overlap.
pub fn collect_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    super::pgn4_paths::pgn4_files(paths)
}

type Prepared = (String, Result<PreparedGame, String>);

/// Imports the sources in batches of `batch` games: replay on `threads` threads (0 = one per
/// core), each batch written in one transaction while the next is replayed. `progress` gets the
/// number of games finished after each batch.
pub fn import_sources(
    conn: &mut DbConnection,
    sources: impl Iterator<Item = Source>,
    preset: AbortPreset,
    batch: usize,
    threads: usize,
    progress: impl FnMut(u64),
) -> anyhow::Result<ImportReport> {
    import_sources_with(
        conn,
        sources,
        preset,
        ImportChecks::default(),
        batch,
        threads,
        progress,
    )
}

/// What an import analyses besides storing the games; each is written in the batch's
/// transaction.
#[derive(Clone, Copy, Default)]
pub struct ImportChecks<'a> {
    /// Analyse each game's chat (flags and automatic reports).
    pub review: Option<&'a ChatReview<'a>>,
    /// Record the seats' conduct outcomes and player records.
    pub conduct: Option<&'a Arc<ConductPolicy>>,
    /// Keep the collusion statistics and raise their reports.
    pub collusion: Option<&'a Arc<CollusionPolicy>>,
}

/// As [`import_sources`], with `checks`.
pub fn import_sources_with(
    conn: &mut DbConnection,
    sources: impl Iterator<Item = Source>,
    preset: AbortPreset,
    checks: ImportChecks<'_>,
    batch: usize,
    threads: usize,
    mut progress: impl FnMut(u64),
) -> anyhow::Result<ImportReport> {
    let batch = batch.max(1);
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let mut report = ImportReport::default();
    let mut sources = sources.peekable();
    let mut pending: Vec<Prepared> = Vec::new();
    // Without a chat review no automatic report is raised; the built-in policy is never read.
    let default_policy = crate::moderation::ModerationPolicy::default();
    let policy = checks.review.map_or(&default_policy, |r| r.policy);
    loop {
        let chunk: Vec<Source> = sources.by_ref().take(batch).collect();
        if chunk.is_empty() && pending.is_empty() {
            break;
        }
        let to_write = std::mem::take(&mut pending);
        let (prepared, written) = std::thread::scope(|scope| {
            let replaying = scope.spawn(|| prepare_parallel(chunk, preset, checks, threads));
            let written = write_batch(conn, to_write, policy);
            (replaying.join(), written)
        });
        let finished = written.context("writing a batch of games")?;
        progress(finished.total());
        merge(&mut report, finished);
        pending = prepared.map_err(|_| anyhow::anyhow!("a replay thread panicked"))?;
    }
    Ok(report)
}

fn merge(into: &mut ImportReport, part: ImportReport) {
    into.imported += part.imported;
    into.duplicates += part.duplicates;
    into.rejected.extend(part.rejected);
}

fn prepare_parallel(
    chunk: Vec<Source>,
    preset: AbortPreset,
    checks: ImportChecks<'_>,
    threads: usize,
) -> Vec<Prepared> {
    if chunk.is_empty() {
        return Vec::new();
    }
    let per_thread = chunk.len().div_ceil(threads.max(1));
    let mut parts: Vec<Vec<Source>> = Vec::new();
    let mut chunk = chunk.into_iter().peekable();
    while chunk.peek().is_some() {
        parts.push(chunk.by_ref().take(per_thread).collect());
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| {
                scope.spawn(move || {
                    part.into_iter()
                        .map(|(label, text)| {
                            let prepared = text.and_then(|text| {
                                prepare_with(
                                    Submission::from_pgn4(text),
                                    preset,
                                    checks.review,
                                    checks.conduct,
                                    checks.collusion,
                                )
                                .map_err(|e| e.message)
                            });
                            (label, prepared)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join().unwrap_or_else(|_| {
                    vec![(
                        "(batch)".to_string(),
                        Err("replay thread panicked".to_string()),
                    )]
                })
            })
            .collect()
    })
}

fn write_batch(
    conn: &mut DbConnection,
    batch: Vec<Prepared>,
    policy: &crate::moderation::ModerationPolicy,
) -> anyhow::Result<ImportReport> {
    let mut report = ImportReport::default();
    let mut labels = Vec::new();
    let mut games_ok = Vec::new();
    for (label, prepared) in batch {
        match prepared {
            Ok(game) => {
                labels.push(label);
                games_ok.push(game);
            }
            Err(reason) => report.rejected.push((label, reason)),
        }
    }
    if games_ok.is_empty() {
        return Ok(report);
    }
    let outcomes = import_games::import_batch(conn, &games_ok, policy, store::now())?;
    for ((label, game), outcome) in labels.into_iter().zip(&games_ok).zip(outcomes) {
        match outcome {
            StoreOutcome::Created(_) => report.imported += 1,
            StoreOutcome::Duplicate(_) => report.duplicates += 1,
            StoreOutcome::Conflict(id) => report.rejected.push((
                label,
                format!(
                    "game {} is already stored (id {id}) with different content",
                    game.game.site_game_id
                ),
            )),
        }
    }
    Ok(report)
}
