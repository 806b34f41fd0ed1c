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
//! The in-process service runs its conduct applier; with conduct on, the bench then waits for
//! the applier to empty the queue and prints that lag and the rate including it.
//! Or against a running server:
//!   cargo bench --bench ingest_load -- --url http://127.0.0.1:8080 --token arb_...

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::{build_app, AppState};
use arbiter::config::Settings;
use arbiter::rules::pgn4;
use arbiter::store::{self, migrations};
use serde_json::json;

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

/// Starts the service in-process (with its conduct applier, as `arbiter serve` runs it);
/// returns its address, a server token and a pool of its own on the same database.
fn start_server(o: &Options, dir: &std::path::Path) -> (SocketAddr, String, store::DbPool) {
    let mut settings = Settings::defaults().expect("default settings");
    settings.conduct.enabled = o.conduct;
    settings.database.url = o
        .database_url
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("ingest.db").display()));
    settings.database.pool_size = o.pool_size;
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
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let state = actix_web::web::Data::new(AppState::new(settings, pool).expect("state"));
            arbiter::api::conduct_applier::spawn(state.clone());
            let server = actix_web::HttpServer::new(move || build_app(state.clone(), |_| {}))
                .workers(2)
                .disable_signals()
                .bind(("127.0.0.1", 0))
                .expect("bind");
            let _ = tx.send(server.addrs()[0]);
            let _ = server.run().await;
        });
    });
    let addr = rx.recv().expect("server address");
    (addr, token, watch)
}

/// Waits until the conduct applier has emptied the queue; returns how long that took.
fn wait_for_conduct(watch: &store::DbPool) -> Duration {
    let started = Instant::now();
    let mut conn = watch.get().expect("connection");
    while store::conduct::pending_count(&mut conn).expect("queue length") > 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
    started.elapsed()
}

fn body(games: &[String], i: usize, offensive_every: usize, players_apart: usize) -> String {
    let (number, mut text) = common::replicated(games, i);
    if players_apart > 0 {
        for colour in ["Red", "Blue", "Yellow", "Green"] {
            let tag = format!("[{colour} \"");
            if let Some(start) = text.find(&tag).map(|at| at + tag.len()) {
                if let Some(len) = text[start..].find('"') {
                    let name = text[start..start + len].trim().to_string();
                    let apart = format!("{name}_{}", i % players_apart);
                    text.replace_range(start..start + len, &apart);
                }
            }
        }
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

fn main() {
    let o = options();
    let games = Arc::new(common::real_games());
    let dir = tempfile::tempdir().expect("temp dir");
    let (addr, token, watch) = match (&o.url, &o.token) {
        (Some(url), Some(token)) => {
            let host = url
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string();
            let addr = std::net::ToSocketAddrs::to_socket_addrs(&host)
                .ok()
                .and_then(|mut a| a.next())
                .expect("--url host:port");
            (addr, token.clone(), None)
        }
        (Some(_), None) => {
            eprintln!("--url needs --token (a server token)");
            std::process::exit(2);
        }
        _ => {
            let (addr, token, watch) = start_server(&o, dir.path());
            (addr, token, Some(watch))
        }
    };
    // Warm-up games first, untimed: the players then have records, as on a running site.
    if o.warm_up > 0 {
        let bodies: Vec<String> = (0..o.warm_up)
            .map(|i| body(&games, i, o.offensive_every, o.players_apart))
            .collect();
        let (_, failures) = post_all(addr, &token, bodies, o.concurrency);
        println!("warm-up: {} games, {failures} failed", o.warm_up);
        if let Some(watch) = &watch {
            wait_for_conduct(watch);
        }
    }
    // Bodies are built before timing.
    let bodies: Vec<String> = (o.warm_up..o.warm_up + o.games)
        .map(|i| body(&games, i, o.offensive_every, o.players_apart))
        .collect();
    let started = Instant::now();
    let (mut latencies, failures) = post_all(addr, &token, bodies, o.concurrency);
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "ingest (conduct {}): {} games with 20 chat lines, {} connections, {seconds:.2} s: \
         {:.0} games/s, p50 {:.1} ms, p99 {:.1} ms, {failures} failed",
        if o.conduct { "on" } else { "off" },
        latencies.len(),
        o.concurrency,
        latencies.len() as f64 / seconds,
        pct(0.50),
        pct(0.99)
    );
    // The applier ran alongside; what it had not applied by the last response it applies now.
    if let (Some(watch), true) = (&watch, o.conduct) {
        let behind = wait_for_conduct(watch).as_secs_f64();
        println!(
            "conduct records current {:.2} s after the last response: {:.0} games/s posted and \
             applied",
            behind,
            latencies.len() as f64 / (seconds + behind)
        );
    }
}
