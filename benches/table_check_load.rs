//! Load on the table check, `POST /api/v1/tables/check`, the read a game server makes before
//! seating players (issue #42, item 4: p99 under 2 ms with 1,000,000 sanctions). Seeds
//! 1,000,000 sanctions on 200,000 players, a quarter of them separations (pairs, and rings of
//! three), the rest chat, play and club bans, most of them over (`support/separation_fill.rs`),
//! then asks for random tables of four (one in twenty holding a separated pair, some with
//! names never seen) from 16 keep-alive connections (driven from one client thread) for a
//! fixed time; prints requests/s and latency percentiles.
//!
//! ```sh
//! cargo bench --bench table_check_load
//! ARBITER_BENCH_SECONDS=20 ARBITER_BENCH_SANCTIONS=100000 cargo bench --bench table_check_load
//! ```
//!
//! The app runs in-process on an ephemeral port (two workers) on a temporary SQLite file with a
//! fresh server token; with `ARBITER_BENCH_DATABASE_URL=postgres://...` (an empty database) the
//! same run follows on PostgreSQL. Answers other than 200 are counted and printed as errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;
#[path = "support/separation_fill.rs"]
mod separation_fill;

use common::load;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use arbiter::store::{self, migrations};
use rand::{Rng, SeedableRng};

const PLAYERS: i64 = 200_000;
/// Distinct tables the clients cycle through.
const TABLES: usize = 4_096;

struct Options {
    seconds: u64,
    connections: usize,
    sanctions: i64,
}

fn options() -> Options {
    let var = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    Options {
        seconds: var("ARBITER_BENCH_SECONDS", 10).max(1),
        connections: var("ARBITER_BENCH_CONNECTIONS", 16).max(1) as usize,
        sanctions: var("ARBITER_BENCH_SANCTIONS", 1_000_000).max(100) as i64,
    }
}

/// Starts the app on an ephemeral port over a freshly migrated and seeded database; returns
/// its address and a server token.
fn start(database_url: String, o: &Options) -> Result<(SocketAddr, String), String> {
    let mut settings = Settings::defaults().map_err(|e| e.to_string())?;
    // The load comes from one address with one token: the rate limits would be measured.
    settings.limits.address_per_second = 0;
    settings.limits.credential_per_second = 0;
    settings.database.url = database_url;
    settings.database.pool_size = 4;
    let pool = store::connect(&settings.database).map_err(|e| e.to_string())?;
    let token = {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        migrations::run_pending(&mut conn).map_err(|e| e.to_string())?;
        let started = Instant::now();
        separation_fill::fill_sanctions(&mut conn, o.sanctions, PLAYERS)
            .map_err(|e| format!("seeding: {e}"))?;
        println!(
            "table_check_load: seeded {} sanctions on {PLAYERS} players in {:.1} s",
            o.sanctions,
            started.elapsed().as_secs_f64()
        );
        tokens::issue(&mut conn, TokenRole::Server, "load")
            .map_err(|e| e.to_string())?
            .1
    };
    let state = web::Data::new(AppState::new(settings, pool).map_err(|e| e.to_string())?);
    let addr = common::serve_in_background(state, "table_check_load", false)?;
    Ok((addr, token))
}

/// A table check for `players` with the server token.
fn table_request(addr: SocketAddr, token: &str, players: &[String]) -> Vec<u8> {
    let body = serde_json::json!({ "players": players, "variant": "ffa" }).to_string();
    format!(
        "POST /api/v1/tables/check HTTP/1.1\r\nHost: {addr}\r\n\
         Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn name(id: i64) -> String {
    format!("player{id}")
}

/// A separated pair in force, by name.
fn separated() -> [String; 2] {
    let (a, b) = separation_fill::separated_pair(separation_fill::SEPARATION_IN_FORCE, PLAYERS);
    [name(a), name(b)]
}

/// Random tables of four distinct names: one in twenty with a separated pair, one name in ten
/// never seen.
fn tables(sanctions: i64) -> Vec<Vec<String>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    (0..TABLES)
        .map(|t| {
            let mut seats: Vec<String> = Vec::with_capacity(4);
            if t % 20 == 0 {
                // A separation among the seeded ones (every fourth sanction), maybe over.
                let i = 4 * rng.gen_range(1..sanctions / 4);
                let (a, b) = separation_fill::separated_pair(i, PLAYERS);
                seats.extend([name(a), name(b)]);
            }
            while seats.len() < 4 {
                let candidate = if rng.gen_range(0..10) == 0 {
                    format!("newcomer{}", rng.gen_range(0..1_000_000))
                } else {
                    name(rng.gen_range(1..=PLAYERS))
                };
                if !seats.contains(&candidate) {
                    seats.push(candidate);
                }
            }
            seats
        })
        .collect()
}

fn drive(
    addr: SocketAddr,
    token: &str,
    tables: &[Vec<String>],
    connections: usize,
    duration: Duration,
) -> Result<load::Tally, String> {
    let requests: Arc<Vec<Vec<u8>>> = Arc::new(
        tables
            .iter()
            .map(|players| table_request(addr, token, players))
            .collect(),
    );
    load::run(addr, connections, duration, 200, move |c, k| {
        requests[(c * 997 + k) % requests.len()].clone()
    })
}

fn run(label: &str, database_url: String, o: &Options) -> Result<(), String> {
    let (addr, token) = start(database_url, o)?;
    // The answer itself, once: a separated pair is refused.
    let pair = separated();
    let answer = load::once(
        addr,
        &table_request(addr, &token, &[pair[0].clone(), pair[1].clone()]),
    )?;
    let body = String::from_utf8_lossy(&answer.body).to_string();
    if answer.status != 200
        || !body.contains("\"may_start\":false")
        || !body.contains("separation_id")
    {
        return Err(format!(
            "{pair:?}: expected a separation: {} {body}",
            answer.status
        ));
    }
    let tables = tables(o.sanctions);
    load::measure(
        "table_check_load",
        "tables/check",
        label,
        o.connections,
        o.seconds,
        |duration| drive(addr, &token, &tables, o.connections, duration),
    )
}

fn main() {
    if let Err(e) = bench() {
        eprintln!("table_check_load: {e}");
        std::process::exit(1);
    }
}

fn bench() -> Result<(), String> {
    let o = options();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    run(
        "sqlite",
        format!("sqlite://{}", dir.path().join("tables.db").display()),
        &o,
    )?;
    if let Ok(url) = std::env::var("ARBITER_BENCH_DATABASE_URL") {
        run("postgres", url, &o)?;
    }
    Ok(())
}
