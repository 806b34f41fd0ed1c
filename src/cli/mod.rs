//! The `arbiter` command line. Each subcommand is a variant of `Command` with its own
//! function below; add new ones (replay, perft, import, ...) the same way.

pub mod backup;
pub mod collusion;
pub mod collusion_backfill;
pub mod conduct;
mod connection;
pub mod import;
pub mod logging;
mod pgn4_paths;
mod pipe;
pub mod retention;
mod rules;
pub mod train_scorer;

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand};

use crate::api::auth::player;
use crate::api::auth::tokens::{self, TokenRole};
use crate::config::{Settings, CONFIG_FILE_ENV};
use crate::store::{self, api_tokens, migrations};
use connection::{migrated_connection, open_connection};

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Moderation service for online four-player chess"
)]
pub struct Cli {
    /// Configuration file layered over the built-in defaults.
    #[arg(long, global = true, env = CONFIG_FILE_ENV, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (applies pending migrations first).
    Serve,
    /// Apply pending database migrations.
    Migrate(MigrateArgs),
    /// Manage API tokens for game servers and admins.
    #[command(subcommand)]
    Token(TokenCommand),
    /// Print the effective configuration (secrets redacted).
    Config,
    /// Import PGN4 files (or directories of them, recursively) into the game archive.
    Import(import::ImportArgs),
    /// Conduct tracking: rebuild every outcome and player record from the archive.
    #[command(subcommand)]
    Conduct(conduct::ConductCommand),
    /// Replay PGN4 games and compare the computed result with the tags (non-zero exit on any
    /// mismatch or illegal move).
    Replay(rules::ReplayArgs),
    /// Count move-tree leaves from a position (move generator check and speed).
    Perft(rules::PerftArgs),
    /// Score the chat analyser on labelled files (CONDA CSV, FFA probe TSV or
    /// `label<TAB>text`): precision, recall and F1 per category.
    ChatEval(ChatEvalArgs),
    /// Play seeded FFA games between bots with colluding pairs and print how many pairs
    /// collusion detection finds, by kind and shared games (no database).
    Simulate(collusion::SimulateArgs),
    /// Collusion statistics of PGN4 files (no database).
    #[command(subcommand)]
    Collusion(collusion::CollusionCommand),
    /// Copy the SQLite database into a new file while the service runs, and check the copy.
    Backup(backup::BackupArgs),
    /// Put a backup in place of the SQLite database (with the service stopped).
    Restore(backup::RestoreArgs),
    /// Purge the chat text and connection data whose retention period has passed, now
    /// (`--dry-run`: say what would be purged and held).
    Retention(retention::RetentionArgs),
    /// Train the learned chat scorer from labelled corpus files and write its weights and
    /// training report (`training/chat_scorer/README.md`).
    TrainScorer(train_scorer::TrainScorerArgs),
}

#[derive(Debug, Args)]
pub struct ChatEvalArgs {
    /// Labelled files; the format is recognised from the first line.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Learned-scorer weights to use instead of the shipped ones (a model just trained by
    /// `train-scorer`, before it replaces `models/chat_scorer/weights.bin`).
    #[arg(long, value_name = "FILE")]
    pub scorer_weights: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Revert every migration instead (destroys all data).
    #[arg(long)]
    pub revert_all: bool,
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a token and print it once on standard output.
    Create {
        #[arg(long, value_enum)]
        role: TokenRole,
        #[arg(long)]
        name: String,
    },
    /// List tokens (never the tokens themselves).
    List,
    /// Revoke a token by id.
    Revoke { id: i64 },
    /// Sign a player token with `auth.player_token_secret`, as the game site does, to try
    /// the player routes (in production the site signs its players' tokens itself).
    SignPlayer {
        /// The player's name on the game site (the token's `sub`).
        name: String,
        /// Minutes until the token expires (at most `auth.max_token_lifetime_secs`).
        #[arg(long, default_value_t = 15)]
        minutes: i64,
    },
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    if !matches!(cli.command, Command::Serve) {
        pipe::end_quietly_on_closed_pipe();
    }
    // The rules, chat and collusion tools need neither configuration nor a database.
    match &cli.command {
        Command::Replay(args) => return rules::replay_files(args),
        Command::Perft(args) => return rules::run_perft(args),
        Command::ChatEval(args) => return chat_eval(args),
        Command::TrainScorer(args) => return train_scorer::run(args),
        Command::Simulate(args) => return collusion::simulate(args),
        Command::Collusion(collusion::CollusionCommand::Scan(args)) => {
            return collusion::scan(args)
        }
        _ => {}
    }
    let settings = Settings::load(cli.config.as_deref())?;
    match cli.command {
        Command::Serve => serve(settings),
        Command::Migrate(args) => migrate(settings, &args),
        Command::Token(command) => token(settings, command),
        Command::Import(args) => import::run(settings, args),
        Command::Conduct(command) => conduct::run(settings, command),
        Command::Collusion(collusion::CollusionCommand::Backfill(args)) => {
            collusion_backfill::run(settings, &args)
        }
        Command::Backup(args) => backup::run_backup(&settings, &args),
        Command::Restore(args) => backup::run_restore(&settings, &args),
        Command::Retention(args) => retention::run(settings, &args),
        Command::Config => {
            print!("{}", settings.to_redacted_toml());
            Ok(())
        }
        Command::Replay(_)
        | Command::Perft(_)
        | Command::ChatEval(_)
        | Command::TrainScorer(_)
        | Command::Simulate(_)
        | Command::Collusion(collusion::CollusionCommand::Scan(_)) => {
            unreachable!("handled above")
        }
    }
}

fn chat_eval(args: &ChatEvalArgs) -> anyhow::Result<()> {
    use crate::chat::{eval, Analyzer, LineContext};
    let mut analyzer = Analyzer::embedded().context("building the chat analyser")?;
    if let Some(path) = &args.scorer_weights {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let model = crate::chat::scorer::Model::parse(bytes.into())
            .with_context(|| format!("{}", path.display()))?;
        analyzer = analyzer.with_scorer(model);
    }
    // Read and recognise every file first: a bad one fails the run before any scoring.
    let mut sets = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let rows =
            eval::parse_any(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if rows.is_empty() {
            bail!("{}: no labelled lines", path.display());
        }
        sets.push((path, rows));
    }
    // FFA rules in force: the probes are lines of FFA games in progress.
    let context = LineContext::ffa_in_progress();
    for (path, rows) in sets {
        println!("== {}", path.display());
        print!("{}", eval::evaluate(&analyzer, &context, &rows));
    }
    Ok(())
}

fn serve(settings: Settings) -> anyhow::Result<()> {
    logging::init(&settings.log)?;
    actix_web::rt::System::new().block_on(crate::api::server::serve(settings))
}

fn migrate(settings: Settings, args: &MigrateArgs) -> anyhow::Result<()> {
    let mut conn = open_connection(&settings)?;
    let (verb, versions) = if args.revert_all {
        ("reverted", migrations::revert_all(&mut conn))
    } else {
        ("applied", migrations::run_pending(&mut conn))
    };
    let versions = versions.map_err(|e| anyhow::anyhow!("migrations: {e}"))?;
    if versions.is_empty() {
        println!("nothing to do: database is up to date");
    }
    for version in versions {
        println!("{verb} {version}");
    }
    Ok(())
}

fn sign_player(settings: &Settings, name: &str, minutes: i64) -> anyhow::Result<()> {
    let secret = &settings.auth.player_token_secret;
    if secret.is_empty() {
        bail!(
            "auth.player_token_secret is empty: set it in a config file or with \
             ARBITER_AUTH__PLAYER_TOKEN_SECRET, as the server has it"
        );
    }
    // The server refuses a token that lives longer than its configured maximum.
    let most_minutes = (settings.auth.max_token_lifetime_secs / 60).max(1) as i64;
    if !(1..=most_minutes).contains(&minutes) {
        bail!(
            "--minutes must be 1 to {most_minutes} (auth.max_token_lifetime_secs), not {minutes}"
        );
    }
    if let Some(problem) = crate::archive::name_problem(name.trim()) {
        bail!(
            "the player name must be 1 to {} characters without control, format or invisible \
             characters: it {problem}",
            crate::archive::MAX_NAME_CHARS
        );
    }
    let now = chrono::Utc::now().timestamp();
    let claims = player::PlayerClaims {
        sub: name.to_string(),
        exp: now + minutes * 60,
        iat: Some(now),
        nbf: None,
        locale: None,
    };
    println!("{}", player::sign(secret, &claims)?);
    Ok(())
}

fn token(settings: Settings, command: TokenCommand) -> anyhow::Result<()> {
    // A player token is signed with the shared secret alone: no database involved.
    if let TokenCommand::SignPlayer { name, minutes } = &command {
        return sign_player(&settings, name, *minutes);
    }
    let mut conn = migrated_connection(&settings)?;
    match command {
        TokenCommand::SignPlayer { .. } => {}
        TokenCommand::Create { role, name } => {
            let (row, token) = tokens::issue(&mut conn, role, &name)?;
            eprintln!(
                "created {} token {} ({:?}); it is shown only now:",
                role.as_str(),
                row.id,
                row.name
            );
            println!("{token}");
        }
        TokenCommand::List => {
            println!(
                "{:>6}  {:<6}  {:<20}  {:<20}  {:<20}  name",
                "id", "role", "created", "last used", "revoked"
            );
            let mut after = None;
            loop {
                let page = api_tokens::list_page(&mut conn, after, 500)?;
                let Some(last) = page.last() else { break };
                after = Some(last.id);
                for row in &page {
                    let when = |t: Option<chrono::NaiveDateTime>| {
                        t.map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
                            .unwrap_or_else(|| "-".to_string())
                    };
                    println!(
                        "{:>6}  {:<6}  {:<20}  {:<20}  {:<20}  {}",
                        row.id,
                        row.role,
                        when(Some(row.created_at)),
                        when(row.last_used_at),
                        when(row.revoked_at),
                        row.name
                    );
                }
            }
        }
        TokenCommand::Revoke { id } => match api_tokens::revoke(&mut conn, id, store::now())? {
            Some(row) => println!("revoked token {} ({:?})", row.id, row.name),
            None => bail!("no token has id {id}"),
        },
    }
    Ok(())
}
