//! `arbiter simulate` and `arbiter collusion scan`: collusion detection measured on seeded
//! simulated play, and run on real exported games.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};

use super::pgn4_paths::pgn4_files;
use crate::archive::submission::{SeatColour, SeatInput, Submission};
use crate::collusion::evaluation::{evaluate, Evaluation, JudgedPair, BINS};
use crate::collusion::{
    classify, interactions, link, rings, CollusionPolicy, Finding, Ledger, SeatTrace,
};
use crate::rules::replay::replay;
use crate::simulation::{plan, CollusionKind, Plan, SimulatedGame, SimulationConfig};

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Seed: the same seed and options give the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Honest players in the population.
    #[arg(long, default_value_t = 300)]
    pub players: usize,
    /// Games at random tables, besides the ones colluders arrange.
    #[arg(long, default_value_t = 20_000)]
    pub games: usize,
    /// Pairs who never capture or check each other.
    #[arg(long, default_value_t = 40)]
    pub sparing: usize,
    /// Pairs who spare each other and leave pieces hanging to each other.
    #[arg(long, default_value_t = 40)]
    pub feeding: usize,
    /// Players who also play a second account at the same tables.
    #[arg(long, default_value_t = 40)]
    pub self_partnering: usize,
    /// Rings of three players who all spare one another (their pairs count as sparing).
    #[arg(long, default_value_t = 12)]
    pub rings: usize,
    /// Games each colluding pair arranges together, assigned in turn.
    #[arg(long, value_delimiter = ',', default_value = "5,10,20,40")]
    pub arranged: Vec<u32>,
    /// Cap on a game's length in rounds.
    #[arg(long, default_value_t = 120)]
    pub max_rounds: u32,
    /// Worker threads (the games are the same whatever the count).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Also write the games as `POST /api/v1/games` bodies (`games.jsonl`) and the colluding
    /// pairs (`colluding.tsv`) into this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum CollusionCommand {
    /// Score every pair of players in PGN4 files (FFA and Solo games) and list the findings.
    Scan(ScanArgs),
    /// Give the stored FFA and Solo games without collusion statistics theirs (games stored
    /// before `[collusion] enabled`), in played order, raising reports as the ingest would.
    Backfill(super::collusion_backfill::BackfillArgs),
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// PGN4 files, or directories searched recursively for `*.pgn4`.
    #[arg(required = true, value_name = "FILE")]
    pub paths: Vec<PathBuf>,
    /// Also list this many top-scoring pairs that are not findings.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
}

/// The per-game seat records the account link reads, per pair in name order.
type SharedSeats = HashMap<(String, String), Vec<(SeatTrace, SeatTrace)>>;

pub fn simulate(args: &SimulateArgs) -> anyhow::Result<()> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let config = SimulationConfig {
        seed: args.seed,
        players: args.players,
        games: args.games,
        sparing_pairs: args.sparing,
        feeding_pairs: args.feeding,
        self_partnering: args.self_partnering,
        rings: args.rings,
        arranged_games: args.arranged.clone(),
        max_rounds: args.max_rounds,
    };
    let started = Instant::now();
    let planned = plan(&config);
    let games = play_all(&planned, args.threads);
    let played_in = started.elapsed();
    if let Some(dir) = &args.out {
        write_games(dir, &games, planned.colluding())?;
    }
    let started = Instant::now();
    let policy = CollusionPolicy::default();
    let (ledger, first_found) = score_as_the_service_does(&games, &policy)?;
    let (judged, flagged, wrong) = judge(&planned, &ledger, &first_found, &policy);
    let scored_in = started.elapsed();
    let evaluation = evaluate(&judged, &["sparing", "feeding", "self_partnering"]);
    println!(
        "{} games, {} players, {} colluding pairs (seed {}); played in {:.1} s, replayed and \
         scored in {:.1} s",
        games.len(),
        ledger.player_count(),
        planned.colluding().len(),
        args.seed,
        played_in.as_secs_f64(),
        scored_in.as_secs_f64(),
    );
    print!("{}", table(&evaluation, &policy));
    println!("{}", ring_line(&planned.rings(), &flagged));
    for line in wrong {
        println!("false positive: {line}");
    }
    Ok(())
}

/// Each pair, and the first finding about it with the line describing it then.
type FirstFound = HashMap<(String, String), (Finding, String)>;

/// Replays the games in order and, as the service does, judges each of a game's pairs after
/// the game: a pair counts as found the first time it is a finding.
fn score_as_the_service_does(
    games: &[SimulatedGame],
    policy: &CollusionPolicy,
) -> anyhow::Result<(Ledger, FirstFound)> {
    let mut ledger = Ledger::new();
    let mut seats = SharedSeats::new();
    let mut first_found = FirstFound::new();
    let lower = policy.threshold.min(policy.shared_fingerprint_threshold);
    for game in games {
        let replayed = replay(&game.pgn4)
            .map_err(|e| anyhow::anyhow!("simulated game {}: {e}", game.site_game_id))?;
        let Some(found) = interactions(&replayed) else {
            continue;
        };
        let names: [&str; 4] = std::array::from_fn(|s| game.seats[s].player.as_str());
        ledger.add_game(names, &found);
        record_seats(&mut seats, names, |s| trace_of(game, s));
        for key in Ledger::pairs_at(names) {
            if first_found.contains_key(&key) {
                continue;
            }
            let Some(score) = ledger.score(&key, policy) else {
                continue;
            };
            if !score.reaches(lower, policy) {
                continue;
            }
            let link = link(seats.get(&key).map_or(&[][..], Vec::as_slice));
            if let Some(finding) = classify(&score, &link, policy) {
                let line = describe(&key, &score, &link);
                first_found.insert(key, (finding, line));
            }
        }
    }
    Ok((ledger, first_found))
}

/// Every pair against the plan's truth: the judged pairs, the pairs flagged, and the lines
/// of the false positives.
fn judge(
    planned: &Plan,
    ledger: &Ledger,
    first_found: &FirstFound,
    policy: &CollusionPolicy,
) -> (Vec<JudgedPair>, Vec<(String, String)>, Vec<String>) {
    let truth: HashMap<(String, String), CollusionKind> = planned
        .colluding()
        .iter()
        .map(|p| (ordered(&p.first, &p.second), p.kind))
        .collect();
    let mut wrong = Vec::new();
    let mut flagged = Vec::new();
    let judged: Vec<JudgedPair> = ledger
        .score_all(policy)
        .into_iter()
        .map(|(key, score)| {
            let label = truth.get(&key).map(|k| k.as_str());
            let first = first_found.get(&key);
            let finding = first.map(|(f, _)| *f);
            if let (None, Some((_, line))) = (label, first) {
                wrong.push(line.clone());
            }
            if finding.is_some() {
                flagged.push(key.clone());
            }
            JudgedPair {
                label,
                games: score.games,
                finding,
                score: score.score,
            }
        })
        .collect();
    (judged, flagged, wrong)
}

/// One line about a pair: games, score, pattern and the strongest driver.
fn describe(
    key: &(String, String),
    score: &crate::collusion::PairScore,
    link: &crate::collusion::AccountLink,
) -> String {
    let driver = score.drivers.first().map_or(String::new(), |d| {
        format!(
            ", strongest: {} {} {} of {} ({:.1} expected)",
            d.direction.as_str(),
            d.channel.as_str(),
            d.observed,
            d.trials,
            d.expected
        )
    });
    format!(
        "{} / {}: {} games, score {:.2} ({} {}){}{}",
        key.0,
        key.1,
        score.games,
        score.score,
        score.pattern.as_str(),
        score.direction.as_str(),
        driver,
        if link.shares_fingerprint() {
            ", shared fingerprint"
        } else {
            ""
        }
    )
}

/// How many simulated rings the flagged pairs join into one group holding all three members,
/// and how many groups of three or more hold no ring.
fn ring_line(truth: &[[String; 3]], flagged: &[(String, String)]) -> String {
    let found = rings(flagged, 3);
    let whole = truth
        .iter()
        .filter(|ring| {
            found
                .iter()
                .any(|f| ring.iter().all(|m| f.members.contains(m)))
        })
        .count();
    let spurious = found
        .iter()
        .filter(|f| {
            !truth
                .iter()
                .any(|ring| ring.iter().all(|m| f.members.contains(m)))
        })
        .count();
    format!(
        "rings: {whole} of {} found as one group of three or more; {spurious} other groups",
        truth.len()
    )
}

/// Plays every game of the plan on `threads` threads, in plan order.
fn play_all(planned: &crate::simulation::Plan, threads: usize) -> Vec<SimulatedGame> {
    let count = planned.len();
    let mut slots: Vec<Option<SimulatedGame>> = (0..count).map(|_| None).collect();
    let chunk = count.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (part, out) in slots.chunks_mut(chunk).enumerate() {
            scope.spawn(move || {
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = Some(planned.play(part * chunk + i));
                }
            });
        }
    });
    let mut games: Vec<SimulatedGame> = slots.into_iter().flatten().collect();
    crate::simulation::rate(&mut games);
    games
}

fn trace_of(game: &SimulatedGame, seat: usize) -> SeatTrace {
    let s = &game.seats[seat];
    SeatTrace {
        device_fp: Some(s.device_fp.clone()),
        network_fp: Some(s.network_fp.clone()),
        rating_before: Some(s.rating_before),
        rating_after: Some(s.rating_after),
    }
}

fn ordered(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

fn record_seats(seats: &mut SharedSeats, names: [&str; 4], trace: impl Fn(usize) -> SeatTrace) {
    for a in 0..4 {
        for b in a + 1..4 {
            if names[a] == names[b] {
                continue;
            }
            let (first, second) = if names[a] < names[b] { (a, b) } else { (b, a) };
            seats
                .entry(ordered(names[a], names[b]))
                .or_default()
                .push((trace(first), trace(second)));
        }
    }
}

fn table(e: &Evaluation, policy: &CollusionPolicy) -> String {
    let mut out = String::new();
    let label = |(lo, hi): (u64, u64)| {
        if hi == u64::MAX {
            format!("{lo}+")
        } else {
            format!("{lo}-{hi}")
        }
    };
    out.push_str(&format!(
        "\nfound as the games arrive (each pair judged after every shared game, as the service \
         does), at threshold {:.1} (self-partnering {:.1} with a shared fingerprint), by shared \
         games at the end\n{:<18}",
        policy.threshold, policy.shared_fingerprint_threshold, "kind"
    ));
    for bin in BINS {
        out.push_str(&format!("{:>16}", label(bin)));
    }
    out.push('\n');
    let cell = |c: &crate::collusion::evaluation::TableCell| match c.rate() {
        Some(rate) => format!("{:.3} ({}/{})", rate, c.found, c.pairs),
        None => "-".to_string(),
    };
    for (kind, cells) in &e.kinds {
        out.push_str(&format!("{kind:<18}"));
        for c in cells {
            out.push_str(&format!("{:>16}", cell(c)));
        }
        out.push('\n');
    }
    out.push_str(&format!("{:<18}", "honest (FPR)"));
    for c in &e.honest {
        out.push_str(&format!("{:>16}", cell(c)));
    }
    out.push('\n');
    let total = &e.honest_total;
    out.push_str(&format!(
        "false positives: {} of {} honest pairs with {}+ shared games (FPR {:.5}); the \
         honest pairs' 99.9th percentile score is {}\n",
        total.found,
        total.pairs,
        BINS[0].0,
        total.rate().unwrap_or(0.0),
        e.honest_score_999
            .map_or("-".to_string(), |s| format!("{s:.2}")),
    ));
    out
}

fn write_games(
    dir: &std::path::Path,
    games: &[SimulatedGame],
    colluding: &[crate::simulation::ColludingPair],
) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("games.jsonl");
    let file =
        std::fs::File::create(&path).with_context(|| format!("creating {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    for game in games {
        serde_json::to_writer(&mut out, &submission(game))?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    let mut truth = String::from("first\tsecond\tkind\tarranged_games\n");
    for pair in colluding {
        truth.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            pair.first,
            pair.second,
            pair.kind.as_str(),
            pair.arranged_games
        ));
    }
    let path = dir.join("colluding.tsv");
    std::fs::write(&path, truth).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// A simulated game as a game server would post it.
pub fn submission(game: &SimulatedGame) -> Submission {
    Submission {
        pgn4: game.pgn4.clone(),
        site_game_id: Some(game.site_game_id.to_string()),
        seats: game
            .seats
            .iter()
            .zip(SeatColour::ALL)
            .map(|(s, seat)| SeatInput {
                seat,
                player: s.player.clone(),
                rating_before: Some(s.rating_before),
                rating_after: Some(s.rating_after),
                device_fp: Some(s.device_fp.clone()),
                network_fp: Some(s.network_fp.clone()),
            })
            .collect(),
        started_at: Some(game.started_at.and_utc()),
        ended_at: Some(game.ended_at.and_utc()),
        chat: Vec::new(),
        events: Vec::new(),
    }
}

/// Scores every pair in real PGN4 files and prints the findings and the top scores.
pub fn scan(args: &ScanArgs) -> anyhow::Result<()> {
    let files = pgn4_files(&args.paths)?;
    let mut ledger = Ledger::new();
    let mut seats = SharedSeats::new();
    let mut counted = 0usize;
    for file in &files {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let replayed = replay(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
        let Some(found) = interactions(&replayed) else {
            continue;
        };
        let names: [String; 4] = std::array::from_fn(|s| {
            let colour = crate::rules::geometry::Seat::from_index(s).name();
            replayed.pgn.tag(colour).unwrap_or("").trim().to_string()
        });
        if names.iter().any(String::is_empty) {
            continue;
        }
        let names: [&str; 4] = std::array::from_fn(|s| names[s].as_str());
        ledger.add_game(names, &found);
        record_seats(&mut seats, names, |_| SeatTrace::default());
        counted += 1;
    }
    let policy = CollusionPolicy::default();
    let mut scored = ledger.score_all(&policy);
    scored.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
    let pairs_met = ledger.pairs().count();
    println!(
        "{counted} FFA/Solo games, {pairs_met} pairs, {} with {}+ shared games",
        scored.len(),
        policy.min_games
    );
    let mut findings = 0;
    for (i, ((a, b), score)) in scored.iter().enumerate() {
        let link = link(
            seats
                .get(&(a.clone(), b.clone()))
                .map_or(&[][..], Vec::as_slice),
        );
        let finding = classify(score, &link, &policy);
        if finding.is_none() && i >= args.top {
            continue;
        }
        findings += usize::from(finding.is_some());
        println!(
            "{a} / {b}: {} games, score {:.2} ({} {}), {}",
            score.games,
            score.score,
            score.pattern.as_str(),
            score.direction.as_str(),
            finding.map_or("no finding", |f| f.reason()),
        );
    }
    println!("{findings} findings");
    Ok(())
}
