//! Collusion detection costs, on simulated FFA games (`arbiter simulate`'s players and bots).
//!
//! 1. At ingest: games stored one per transaction through the store function HTTP ingest
//!    calls, into fresh SQLite files with the collusion statistics off and on (the same games,
//!    after the same untimed warm-up); prints the write time per game (mean, p50, p99), the
//!    difference, and the extra preparing time (the statistics from the replay) per game. Then
//!    a frequent pair: the same two players in every game, the write time per game after
//!    `--pair-games` shared games, to show a pair's long history costs nothing per game.
//! 2. A full recompute over `--recompute` games (1,000,000): every game replayed and its
//!    statistics taken on all cores, every player's baseline and every pair's record summed,
//!    every pair with enough shared games scored. The games are the simulated ones replayed
//!    again and again, seated at random tables of `--players` (1,000) players.
//!
//!   cargo bench --bench collusion
//!   cargo bench --bench collusion -- --warm-up 4000 --timed 1000 --pair-games 2000 --recompute 1000000

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::archive::{prepare_with, AbortPreset, PreparedGame};
use arbiter::cli::collusion::submission;
use arbiter::collusion::{interactions, CollusionPolicy, GameInteractions, Ledger};
use arbiter::config::Settings;
use arbiter::moderation::ModerationPolicy;
use arbiter::rules::replay::replay;
use arbiter::simulation::{plan, rate, SimulatedGame, SimulationConfig};
use arbiter::store::{self, migrations, DbConnection};
use arbiter::usecases::{import_games, ingest_game};

struct Options {
    warm_up: usize,
    timed: usize,
    pair_games: usize,
    recompute: usize,
    players: usize,
}

fn options() -> Options {
    let mut o = Options {
        warm_up: 4_000,
        timed: 1_000,
        pair_games: 2_000,
        recompute: 1_000_000,
        players: 1_000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).and_then(|v| v.parse::<usize>().ok());
        let slot = match args[i].as_str() {
            "--warm-up" => &mut o.warm_up,
            "--timed" => &mut o.timed,
            "--pair-games" => &mut o.pair_games,
            "--recompute" => &mut o.recompute,
            "--players" => &mut o.players,
            // `cargo bench` passes --bench.
            _ => {
                i += 1;
                continue;
            }
        };
        *slot = value().unwrap_or_else(|| {
            eprintln!("{} needs a number", args[i]);
            std::process::exit(2)
        });
        i += 2;
    }
    o
}

/// Simulated games of 300 players, no colluders, played on all cores in plan order.
fn simulated(count: usize, seed: u64) -> Vec<SimulatedGame> {
    let config = SimulationConfig {
        seed,
        players: 300,
        games: count,
        sparing_pairs: 0,
        feeding_pairs: 0,
        self_partnering: 0,
        rings: 0,
        arranged_games: vec![5],
        max_rounds: 120,
    };
    let planned = plan(&config);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut slots: Vec<Option<SimulatedGame>> = (0..planned.len()).map(|_| None).collect();
    let chunk = planned.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (part, out) in slots.chunks_mut(chunk).enumerate() {
            let planned = &planned;
            scope.spawn(move || {
                for (j, slot) in out.iter_mut().enumerate() {
                    *slot = Some(planned.play(part * chunk + j));
                }
            });
        }
    });
    let mut games: Vec<SimulatedGame> = slots.into_iter().map(Option::unwrap).collect();
    rate(&mut games);
    games
}

fn fresh_store(dir: &std::path::Path, name: &str) -> store::DbPool {
    let mut settings = Settings::defaults().unwrap();
    settings.database.url = format!("sqlite://{}", dir.join(name).display());
    settings.database.pool_size = 1;
    let pool = store::connect(&settings.database).unwrap();
    migrations::run_pending(&mut pool.get().unwrap()).unwrap();
    pool
}

fn prepared(game: &SimulatedGame, collusion: Option<&Arc<CollusionPolicy>>) -> PreparedGame {
    prepare_with(
        submission(game),
        AbortPreset::Seed001,
        None,
        None,
        collusion,
    )
    .unwrap()
}

/// Stores each game in its own transaction; returns the time each took.
fn store_each(conn: &mut DbConnection, games: &[PreparedGame]) -> Vec<Duration> {
    let policy = ModerationPolicy::default();
    let now = chrono::Utc::now().naive_utc();
    games
        .iter()
        .map(|game| {
            let started = Instant::now();
            let outcome = ingest_game::ingest(conn, game, &policy, now).unwrap();
            assert!(matches!(outcome, ingest_game::StoreOutcome::Created(_)));
            started.elapsed()
        })
        .collect()
}

/// (mean, p50, p99) in microseconds.
fn spread(times: &[Duration]) -> (f64, f64, f64) {
    let mut us: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e6).collect();
    us.sort_by(f64::total_cmp);
    let at = |q: f64| us[((us.len() - 1) as f64 * q).round() as usize];
    (us.iter().sum::<f64>() / us.len() as f64, at(0.5), at(0.99))
}

fn ingest(o: &Options, policy: &Arc<CollusionPolicy>) {
    let started = Instant::now();
    let games = simulated(o.warm_up + o.timed, 25);
    println!(
        "simulated {} games of 300 players in {:.1} s",
        games.len(),
        started.elapsed().as_secs_f64()
    );
    // Preparing: the replay and checks alone, then with the statistics.
    let timed = &games[o.warm_up..];
    let started = Instant::now();
    let plain: Vec<PreparedGame> = timed.iter().map(|g| prepared(g, None)).collect();
    let plain_prepare = started.elapsed();
    let started = Instant::now();
    let with: Vec<PreparedGame> = timed.iter().map(|g| prepared(g, Some(policy))).collect();
    let with_prepare = started.elapsed();
    let per = |d: Duration| d.as_secs_f64() * 1e6 / timed.len() as f64;
    println!(
        "prepare (one core): {:.0} us per game without the statistics, {:.0} us with (+{:.0} us)",
        per(plain_prepare),
        per(with_prepare),
        per(with_prepare) - per(plain_prepare)
    );

    let dir = tempfile::tempdir().unwrap();
    let mut results = Vec::new();
    for (label, collusion, timed_games) in [("off", None, plain), ("on", Some(policy), with)] {
        let pool = fresh_store(dir.path(), &format!("ingest_{label}.db"));
        let mut conn = pool.get().unwrap();
        let warm: Vec<PreparedGame> = games[..o.warm_up]
            .iter()
            .map(|g| prepared(g, collusion))
            .collect();
        let policy = ModerationPolicy::default();
        let now = chrono::Utc::now().naive_utc();
        for batch in warm.chunks(500) {
            import_games::import_batch(&mut conn, batch, &policy, now).unwrap();
        }
        let times = store_each(&mut conn, &timed_games);
        let (mean, p50, p99) = spread(&times);
        println!(
            "write, statistics {label}: {} games one per transaction after {} stored: mean {mean:.0} us, p50 {p50:.0} us, p99 {p99:.0} us",
            times.len(),
            o.warm_up
        );
        results.push(mean);
    }
    println!(
        "the statistics add {:.0} us to a game's write",
        results[1] - results[0]
    );

    // A frequent pair: the first two seats of every game renamed to the same two players.
    let pair_games = simulated(o.pair_games + o.timed, 26);
    let renamed: Vec<PreparedGame> = pair_games
        .into_iter()
        .map(|mut g| {
            for (seat, name) in [(0usize, "pair_a"), (1, "pair_b")] {
                let old = g.seats[seat].player.clone();
                let colour = arbiter::rules::geometry::Seat::from_index(seat).name();
                g.pgn4 = g.pgn4.replace(
                    &format!("[{colour} \"{old}\"]"),
                    &format!("[{colour} \"{name}\"]"),
                );
                g.seats[seat].player = name.to_string();
            }
            prepared(&g, Some(policy))
        })
        .collect();
    let pool = fresh_store(dir.path(), "pair.db");
    let mut conn = pool.get().unwrap();
    let early = store_each(&mut conn, &renamed[..o.timed]);
    let moderation = ModerationPolicy::default();
    let now = chrono::Utc::now().naive_utc();
    for batch in renamed[o.timed..o.pair_games].chunks(500) {
        import_games::import_batch(&mut conn, batch, &moderation, now).unwrap();
    }
    let late = store_each(&mut conn, &renamed[o.pair_games..]);
    let (early_mean, _, early_p99) = spread(&early);
    let (late_mean, _, late_p99) = spread(&late);
    println!(
        "a frequent pair, statistics on: their first {} shared games mean {early_mean:.0} us (p99 {early_p99:.0}); games {}-{} mean {late_mean:.0} us (p99 {late_p99:.0})",
        o.timed,
        o.pair_games + 1,
        o.pair_games + o.timed
    );
}

/// A small deterministic generator for the recompute's tables.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn recompute(o: &Options, policy: &CollusionPolicy) {
    let pool = simulated(2_000, 27);
    let texts: Vec<&str> = pool.iter().map(|g| g.pgn4.as_str()).collect();
    let names: Vec<String> = (0..o.players).map(|i| format!("player{i}")).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let started = Instant::now();
    // Replay and statistics on every core, in chunks summed in order into one ledger.
    let mut ledger = Ledger::new();
    let mut table_gen = Gen(0x9e37_79b9_7f4a_7c15);
    let chunk = 20_000;
    let mut done = 0;
    let mut replay_time = Duration::ZERO;
    while done < o.recompute {
        let count = chunk.min(o.recompute - done);
        let replay_started = Instant::now();
        let mut found: Vec<Option<GameInteractions>> = (0..count).map(|_| None).collect();
        std::thread::scope(|scope| {
            for (part, out) in found.chunks_mut(count.div_ceil(threads)).enumerate() {
                let texts = &texts;
                let first = done + part * count.div_ceil(threads);
                scope.spawn(move || {
                    for (j, slot) in out.iter_mut().enumerate() {
                        let text = texts[(first + j) % texts.len()];
                        *slot = interactions(&replay(text).unwrap());
                    }
                });
            }
        });
        replay_time += replay_started.elapsed();
        for game in found.iter().flatten() {
            let mut seats = [usize::MAX; 4];
            for s in 0..4 {
                seats[s] = loop {
                    let p = table_gen.below(o.players);
                    if !seats[..s].contains(&p) {
                        break p;
                    }
                };
            }
            ledger.add_game(seats.map(|p| names[p].as_str()), game);
        }
        done += count;
    }
    let summed = started.elapsed();
    let scoring_started = Instant::now();
    let scored = ledger.score_all(policy);
    let scoring = scoring_started.elapsed();
    let findings = scored
        .iter()
        .filter(|(_, s)| s.reaches(policy.threshold, policy))
        .count();
    println!(
        "recompute over {} games ({} players, {threads} threads): replay and statistics {:.1} s, \
         summing {:.1} s, scoring {} pairs with {}+ shared games {:.1} s; total {:.1} s; {} over the threshold",
        o.recompute,
        o.players,
        replay_time.as_secs_f64(),
        (summed - replay_time).as_secs_f64(),
        scored.len(),
        policy.min_games,
        scoring.as_secs_f64(),
        (summed + scoring).as_secs_f64(),
        findings
    );
}

fn main() {
    let o = options();
    let policy = Arc::new(CollusionPolicy::default());
    ingest(&o, &policy);
    recompute(&o, &policy);
}
