//! HTTP ingest load: posts N real games (fresh game numbers, 20 chat lines each) with C
//! concurrent keep-alive connections and prints games/s and p50/p99 latency.
//!
//! In-process server on an ephemeral port with a fresh SQLite file (default), or PostgreSQL:
//!   cargo bench --bench ingest_load -- --games 5000 --concurrency 16
//!   cargo bench --bench ingest_load -- --database-url postgres://postgres@127.0.0.1:5432/db
//!   cargo bench --bench ingest_load -- --conduct off   (conduct tracking off; on by default)
//!   cargo bench --bench ingest_load -- --pool-size 4   (database connections; 8 by default)
//!   cargo bench --bench ingest_load -- --players-apart 64   (games < 64 apart share no player)
//!   cargo bench --bench ingest_load -- --warm-up 10000   (games posted first, untimed)
//!   cargo bench --bench ingest_load -- --apply-interval-ms 1000 --apply-batch 200   (applier)
//!   cargo bench --bench ingest_load -- --offensive-every 4   (a report-worthy line every 4th game)
//!   cargo bench --bench ingest_load -- --synchronous normal   (SQLite commits not flushed; `full`
//!       by default, as `[database] sqlite_synchronous`)
//! The in-process service runs its conduct applier; with conduct on, the bench then waits for
//! the applier to empty the queue and prints that lag, the rate including it, and the longest
//! queue seen while posting (bounded: the applier keeps up).
//!   cargo bench --bench ingest_load -- --compare 6   (an untimed run to warm the process, then
//!       6 rounds of on/off pairs, each on a fresh database, the order alternating; prints each
//!       round's change and the medians)
//!   cargo bench --bench ingest_load -- --grow 10000,100000,1000000 --window 5000
//!       (issue #41: one database grown from empty; at each mark the last `--window` games
//!       are timed, and the open cases and their largest entry count are printed. Use with
//!       `--players-apart` (recurring players and pairs) and `--offensive-every` (automatic
//!       reports, so open cases keep growing); the database is kept when `--database-url`
//!       names one)
//! Or against a running server:
//!   cargo bench --bench ingest_load -- --url http://127.0.0.1:8080 --token arb_...

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::api::app::build_app;
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use arbiter::rules::pgn4;
use arbiter::store::{self, migrations, SqliteSynchronous};
use serde_json::json;

#[derive(Clone)]
struct Options {
    games: usize,
    concurrency: usize,
    url: Option<String>,
    token: Option<String>,
    database_url: Option<String>,
    /// Every Nth game's first line is report-worthy (0: all lines clean).
    offensive_every: usize,
    /// `[conduct] enabled` of the in-process service.
    conduct: bool,
    /// `[database] pool_size` of the in-process service.
    pool_size: u32,
    /// Each player becomes N players (a suffix from the game's index modulo N), so games less
    /// than N apart share nobody, as real players play one game at a time. 0: names as they are.
    players_apart: usize,
    /// Games posted before the timed ones, untimed.
    warm_up: usize,
    /// `[conduct] apply_interval_ms` and `apply_batch` of the in-process service.
    apply_interval_ms: Option<u64>,
    apply_batch: Option<u32>,
    /// Rounds of on/off pairs (0: one run as `--conduct` says).
    compare: usize,
    /// `[database] sqlite_synchronous` of the in-process service (`full` by default).
    synchronous: SqliteSynchronous,
    /// Archive sizes at which to time the ingest of one database grown from empty.
    grow: Vec<usize>,
    /// Games timed before each `grow` mark.
    window: usize,
}

fn options() -> Options {
    let mut o = Options {
        games: 5000,
        concurrency: 16,
        url: None,
        token: None,
        database_url: None,
        offensive_every: 0,
        conduct: true,
        pool_size: 8,
        players_apart: 0,
        warm_up: 0,
        apply_interval_ms: None,
        apply_batch: None,
        compare: 0,
        synchronous: SqliteSynchronous::Full,
        grow: Vec::new(),
        window: 5000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned();
        match args[i].as_str() {
            "--games" => o.games = value.and_then(|v| v.parse().ok()).unwrap_or(o.games),
            "--concurrency" => {
                o.concurrency = value.and_then(|v| v.parse().ok()).unwrap_or(o.concurrency)
            }
            "--url" => o.url = value,
            "--token" => o.token = value,
            "--database-url" => o.database_url = value,
            "--conduct" => o.conduct = value.as_deref() != Some("off"),
            "--pool-size" => o.pool_size = value.and_then(|v| v.parse().ok()).unwrap_or(8),
            "--apply-interval-ms" => o.apply_interval_ms = value.and_then(|v| v.parse().ok()),
            "--apply-batch" => o.apply_batch = value.and_then(|v| v.parse().ok()),
            "--synchronous" => {
                o.synchronous = match value.as_deref() {
                    Some("normal") => SqliteSynchronous::Normal,
                    _ => SqliteSynchronous::Full,
                }
            }
            "--grow" => {
                o.grow = value
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|mark| mark.trim().parse().ok())
                    .collect();
                o.grow.sort_unstable();
            }
            "--window" => o.window = value.and_then(|v| v.parse().ok()).unwrap_or(o.window),
            "--compare" => o.compare = value.and_then(|v| v.parse().ok()).unwrap_or(0),
            "--warm-up" => o.warm_up = value.and_then(|v| v.parse().ok()).unwrap_or(0),
            "--players-apart" => o.players_apart = value.and_then(|v| v.parse().ok()).unwrap_or(0),
            "--offensive-every" => {
                o.offensive_every = value.and_then(|v| v.parse().ok()).unwrap_or(0)
            }
            // `cargo bench` passes `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    o
}

/// The service running in-process for one measurement.
struct InProcess {
    addr: SocketAddr,
    token: String,
    /// A pool of its own on the same database, to watch the conduct queue.
    watch: store::DbPool,
    handle: actix_web::dev::ServerHandle,
    thread: std::thread::JoinHandle<()>,
}

/// Starts the service in-process (with its background tasks, as `arbiter serve` runs it) on
/// `database_url`, conduct tracking on or off.
fn start_server(o: &Options, database_url: String, conduct: bool) -> InProcess {
    let mut settings = Settings::defaults().expect("default settings");
    // The load comes from one address with one token: the rate limits would be measured.
    settings.limits.address_per_second = 0;
    settings.limits.credential_per_second = 0;
    settings.conduct.enabled = conduct;
    settings.database.url = database_url;
    settings.database.pool_size = o.pool_size;
    settings.database.sqlite_synchronous = o.synchronous;
    if let Some(ms) = o.apply_interval_ms {
        settings.conduct.apply_interval_ms = ms;
    }
    if let Some(batch) = o.apply_batch {
        settings.conduct.apply_batch = batch;
    }
    settings.log.level = "warn".into();
    let pool = store::connect(&settings.database).expect("database");
    let mut conn = pool.get().expect("connection");
    migrations::run_pending(&mut conn).expect("migrations");
    let token = tokens::issue(&mut conn, TokenRole::Server, "load")
        .expect("token")
        .1;
    drop(conn);
    let mut watch = settings.database.clone();
    watch.pool_size = 1;
    let watch = store::connect(&watch).expect("database");
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let state = actix_web::web::Data::new(AppState::new(settings, pool).expect("state"));
            arbiter::api::jobs::start::start_all(&state);
            let server = actix_web::HttpServer::new(move || build_app(state.clone(), |_| {}))
                .workers(2)
                .disable_signals()
                .bind(("127.0.0.1", 0))
                .expect("bind");
            let addr = server.addrs()[0];
            let server = server.run();
            let _ = tx.send((addr, server.handle()));
            let _ = server.await;
        });
    });
    let (addr, handle) = rx.recv().expect("server address");
    InProcess {
        addr,
        token,
        watch,
        handle,
        thread,
    }
}

impl InProcess {
    /// Stops the server and its applier (the runtime they run on ends).
    fn stop(self) {
        actix_web::rt::System::new().block_on(self.handle.stop(false));
        self.thread.join().expect("server thread");
    }
}

/// Waits until the conduct applier has emptied the queue; returns how long after `since`.
fn wait_for_conduct(watch: &store::DbPool, since: Instant) -> Duration {
    let mut conn = watch.get().expect("connection");
    while store::conduct::pending_count(&mut conn).expect("queue length") > 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
    since.elapsed()
}

/// Samples the conduct queue's length every second while games are posted: a queue that stays
/// bounded means the applier keeps up, so the posting rate is also the sustained rate.
struct QueueSampler {
    stop: Arc<std::sync::atomic::AtomicBool>,
    handle: std::thread::JoinHandle<u64>,
}

fn sample_queue(watch: store::DbPool) -> QueueSampler {
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    let handle = std::thread::spawn(move || {
        let mut conn = watch.get().expect("connection");
        let mut deepest = 0;
        while !flag.load(Ordering::Relaxed) {
            if let Ok(n) = store::conduct::pending_count(&mut conn) {
                deepest = deepest.max(n);
            }
            // Seldom: each count is a query on the database being measured (on SQLite it
            // walks the games after the mark, a page each).
            std::thread::sleep(Duration::from_millis(1000));
        }
        deepest
    });
    QueueSampler { stop, handle }
}

impl QueueSampler {
    /// Stops sampling; returns the longest queue seen.
    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.handle.join().expect("queue sampler")
    }
}

fn body(games: &[String], i: usize, offensive_every: usize, players_apart: usize) -> String {
    let (number, mut text) = common::replicated(games, i);
    if players_apart > 0 {
        text = common::rename_players(&text, &format!("_{}", i % players_apart));
    }
    let names: Vec<String> = match pgn4::parse(&text) {
        Ok(pgn) => ["Red", "Blue", "Yellow", "Green"]
            .iter()
            .map(|c| pgn.tag(c).unwrap_or("").trim().to_string())
            .collect(),
        Err(_) => vec![String::new(); 4],
    };
    // Report-worthy (harassment) but below the per-game rules: exercises the rolling window.
    let offensive = offensive_every > 0 && i.is_multiple_of(offensive_every);
    let chat: Vec<_> = (0..20)
        .map(|k| {
            let text = if k == 0 && offensive {
                "learn to play noob".to_string()
            } else {
                format!("message {k} of this game")
            };
            json!({ "ply": k, "at": "2026-06-07T18:00:00Z", "sender": names[k % 4],
                    "channel": "game", "text": text })
        })
        .collect();
    let seats: Vec<_> = ["red", "blue", "yellow", "green"]
        .iter()
        .zip(&names)
        .map(|(seat, name)| json!({ "seat": seat, "player": name, "rating_after": 2000 }))
        .collect();
    json!({ "pgn4": text, "site_game_id": number.to_string(), "seats": seats, "chat": chat,
            "started_at": "2026-06-07T18:00:00Z", "ended_at": "2026-06-07T18:40:00Z" })
    .to_string()
}

/// One request on a keep-alive connection; returns the status.
fn post(
    reader: &mut BufReader<TcpStream>,
    host: &str,
    token: &str,
    body: &str,
) -> std::io::Result<u16> {
    let request = format!(
        "POST /api/v1/games HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    reader.get_mut().write_all(request.as_bytes())?;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut sink = vec![0u8; length];
    reader.read_exact(&mut sink)?;
    if !(200..300).contains(&status) {
        eprintln!("status {status}: {}", String::from_utf8_lossy(&sink));
    }
    Ok(status)
}

/// Posts every body over `concurrency` keep-alive connections; returns the latencies of the
/// accepted ones and the number that failed.
fn post_all(
    addr: SocketAddr,
    token: &str,
    bodies: Vec<String>,
    concurrency: usize,
) -> (Vec<Duration>, usize) {
    let bodies = Arc::new(bodies);
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (bodies, next, token) = (bodies.clone(), next.clone(), token.to_string());
            std::thread::spawn(move || {
                let host = addr.to_string();
                let stream = TcpStream::connect(addr).expect("connect");
                stream.set_nodelay(true).ok();
                stream.set_read_timeout(Some(Duration::from_secs(30))).ok();
                let mut reader = BufReader::new(stream);
                let mut latencies = Vec::new();
                let mut failures = 0usize;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(body) = bodies.get(i) else { break };
                    let t = Instant::now();
                    match post(&mut reader, &host, &token, body) {
                        Ok(201) | Ok(200) => latencies.push(t.elapsed()),
                        Ok(status) => {
                            failures += 1;
                            if failures < 3 {
                                eprintln!("game {i}: status {status}");
                            }
                        }
                        Err(e) => {
                            eprintln!("connection error: {e}");
                            failures += 1;
                            break;
                        }
                    }
                }
                (latencies, failures)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut failures = 0;
    for w in workers {
        let (l, f) = w.join().expect("worker");
        latencies.extend(l);
        failures += f;
    }
    (latencies, failures)
}

/// What one measurement found.
struct Measured {
    /// Games accepted per second while posting.
    posted: f64,
    /// Games per second counted until the applier had emptied the queue (conduct on).
    until_current: Option<f64>,
}

/// Posts the warm-up games (untimed), then the timed ones; prints and returns the rates.
fn measure(
    o: &Options,
    games: &[String],
    addr: SocketAddr,
    token: &str,
    watch: Option<&store::DbPool>,
    conduct: bool,
) -> Measured {
    // Warm-up games first, untimed: the players then have records, as on a running site.
    if o.warm_up > 0 {
        let bodies: Vec<String> = (0..o.warm_up)
            .map(|i| body(games, i, o.offensive_every, o.players_apart))
            .collect();
        let (_, failures) = post_all(addr, token, bodies, o.concurrency);
        if failures > 0 {
            println!("warm-up: {} games, {failures} failed", o.warm_up);
        }
        if let Some(watch) = watch {
            wait_for_conduct(watch, Instant::now());
        }
    }
    // Bodies are built before timing.
    let bodies: Vec<String> = (o.warm_up..o.warm_up + o.games)
        .map(|i| body(games, i, o.offensive_every, o.players_apart))
        .collect();
    let started = Instant::now();
    let sampler = match (watch, conduct) {
        (Some(watch), true) => Some(sample_queue(watch.clone())),
        _ => None,
    };
    let (mut latencies, failures) = post_all(addr, token, bodies, o.concurrency);
    let last_response = Instant::now();
    let seconds = (last_response - started).as_secs_f64();
    let deepest_queue = sampler.map(QueueSampler::stop);
    latencies.sort_unstable();
    let pct = |p: f64| percentile_ms(&latencies, p);
    let posted = latencies.len() as f64 / seconds;
    println!(
        "ingest (conduct {}): {} games with 20 chat lines, {} connections, {seconds:.2} s: \
         {posted:.0} games/s, p50 {:.1} ms, p99 {:.1} ms, {failures} failed",
        if conduct { "on" } else { "off" },
        latencies.len(),
        o.concurrency,
        pct(0.50),
        pct(0.99)
    );
    // The applier ran alongside; what it had not applied by the last response it applies now.
    let until_current = match (watch, conduct) {
        (Some(watch), true) => {
            let behind = wait_for_conduct(watch, last_response).as_secs_f64();
            let rate = latencies.len() as f64 / (seconds + behind);
            println!(
                "conduct records current {behind:.2} s after the last response: {rate:.0} \
                 games/s posted and applied; queue at most {} games while posting",
                deepest_queue.unwrap_or(0)
            );
            Some(rate)
        }
        _ => None,
    };
    Measured {
        posted,
        until_current,
    }
}

/// One in-process measurement on a fresh database.
fn measure_in_process(o: &Options, games: &[String], conduct: bool) -> Measured {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = match &o.database_url {
        Some(url) => {
            if o.compare > 0 {
                common::recreate_postgres(url);
            }
            url.clone()
        }
        None => format!("sqlite://{}", dir.path().join("ingest.db").display()),
    };
    let server = start_server(o, url, conduct);
    let measured = measure(
        o,
        games,
        server.addr,
        &server.token,
        Some(&server.watch),
        conduct,
    );
    server.stop();
    measured
}

/// The `p` quantile of sorted latencies, in milliseconds.
fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    let at = ((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(at).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Open cases, their entries and the largest one's, as the database holds them now.
fn open_cases(watch: &store::DbPool) -> (i64, i64, i64) {
    use arbiter::store::schema::cases;
    use diesel::dsl::{count_star, max, sum};
    use diesel::prelude::*;
    let mut conn = watch.get().expect("connection");
    let (open, entries, largest): (i64, Option<i64>, Option<i32>) = cases::table
        .filter(cases::status.eq("open"))
        .select((
            count_star(),
            sum(cases::entry_count),
            max(cases::entry_count),
        ))
        .first(&mut *conn)
        .expect("open cases");
    (open, entries.unwrap_or(0), i64::from(largest.unwrap_or(0)))
}

/// `--grow`: one database grown from empty; at each mark the last `--window` games before it
/// are timed, so a rate that falls with the archive's size shows.
fn grow(o: &Options, games: &[String]) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = o
        .database_url
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("grow.db").display()));
    let server = start_server(o, url, o.conduct);
    let bodies = |range: std::ops::Range<usize>| -> Vec<String> {
        range
            .map(|i| body(games, i, o.offensive_every, o.players_apart))
            .collect()
    };
    let since_empty = Instant::now();
    let mut posted = 0;
    for &mark in &o.grow {
        let timed_from = mark.saturating_sub(o.window).max(posted);
        // Untimed, in slices, so the bodies of a million games are never held at once.
        while posted < timed_from {
            let to = (posted + 20_000).min(timed_from);
            let (_, failures) = post_all(
                server.addr,
                &server.token,
                bodies(posted..to),
                o.concurrency,
            );
            if failures > 0 {
                println!("games {posted}..{to}: {failures} failed");
            }
            posted = to;
        }
        let window = bodies(timed_from..mark);
        let started = Instant::now();
        let (mut latencies, failures) = post_all(server.addr, &server.token, window, o.concurrency);
        let seconds = started.elapsed().as_secs_f64();
        posted = mark;
        latencies.sort_unstable();
        let pct = |p: f64| percentile_ms(&latencies, p);
        let (open, entries, largest) = open_cases(&server.watch);
        println!(
            "at {mark} games: {:.0} games/s over the last {} ({} connections), p50 {:.1} ms, \
             p99 {:.1} ms, {failures} failed; {open} open cases, {entries} entries, the largest \
             {largest}; {:.0} s since empty",
            latencies.len() as f64 / seconds,
            latencies.len(),
            o.concurrency,
            pct(0.50),
            pct(0.99),
            since_empty.elapsed().as_secs_f64()
        );
    }
    server.stop();
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// `--compare N`: N rounds, each one run with conduct tracking on and one with it off, each on
/// a fresh database, the order alternating between rounds so drift in the machine's speed
/// falls on both sides. Prints each round's difference and the medians.
fn compare(o: &Options, games: &[String]) {
    let mut posted = Vec::new();
    let mut until_current = Vec::new();
    // The process's first run also warms it (allocator, page cache): that run is untimed, so
    // no round starts colder than the others.
    let warm = Options {
        games: o.games.min(10_000),
        warm_up: 0,
        ..o.clone()
    };
    println!("untimed first run, to warm the process:");
    measure_in_process(&warm, games, false);
    for round in 1..=o.compare {
        let on_first = round % 2 == 1;
        let first = measure_in_process(o, games, on_first);
        let second = measure_in_process(o, games, !on_first);
        let (on, off) = if on_first {
            (first, second)
        } else {
            (second, first)
        };
        let change = |rate: f64| (rate / off.posted - 1.0) * 100.0;
        let current = on.until_current.unwrap_or(on.posted);
        println!(
            "round {round}: off {:.0}, on {:.0} games/s posting ({:+.1}%), {current:.0} until \
             records current ({:+.1}%)",
            off.posted,
            on.posted,
            change(on.posted),
            change(current)
        );
        posted.push(change(on.posted));
        until_current.push(change(current));
    }
    println!(
        "conduct tracking on vs off, median of {} rounds: posting {:+.1}%, until records \
         current {:+.1}%",
        o.compare,
        median(&mut posted),
        median(&mut until_current)
    );
}

fn main() {
    let o = options();
    let games = common::real_games();
    match (&o.url, &o.token) {
        (Some(url), Some(token)) => {
            let host = url
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string();
            let addr = std::net::ToSocketAddrs::to_socket_addrs(&host)
                .ok()
                .and_then(|mut a| a.next())
                .expect("--url host:port");
            measure(&o, &games, addr, token, None, o.conduct);
        }
        (Some(_), None) => {
            eprintln!("--url needs --token (a server token)");
            std::process::exit(2);
        }
        _ if !o.grow.is_empty() => grow(&o, &games),
        _ if o.compare > 0 => compare(&o, &games),
        _ => {
            measure_in_process(&o, &games, o.conduct);
        }
    }
}
