//! Load on a player's standing, `GET /api/v1/players/{name}/standing`, the read every game
//! server makes before letting a player chat, play or report. Seeds 10,000 players, 2,000 of
//! them with sanctions (active, expired and lifted chat, play and club bans) and 500 with
//! report timeouts, then asks for random names (sanctioned, clean and unknown) from 8
//! keep-alive connections (driven from one client thread) for a fixed time; prints requests/s
//! and latency percentiles.
//!
//! ```sh
//! cargo bench --bench standing_load
//! ARBITER_BENCH_SECONDS=20 ARBITER_BENCH_CONNECTIONS=16 cargo bench --bench standing_load
//! ```
//!
//! The app runs in-process on an ephemeral port (two workers) on a temporary SQLite file with a
//! fresh server token; with `ARBITER_BENCH_DATABASE_URL=postgres://...` (an empty database) the
//! same run follows on PostgreSQL. Answers other than 200 are counted and printed as errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use common::load;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use arbiter::store::schema::{players, report_timeouts, sanctions};
use arbiter::store::{self, migrations, DbConnection};
use chrono::{Duration as Span, NaiveDateTime};
use diesel::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

const PLAYERS: usize = 10_000;
const SANCTIONED: usize = 2_000;
const TIMED_OUT: usize = 500;
/// Rows per INSERT statement (well under SQLite's bound-parameter limit).
const CHUNK: usize = 1_000;
/// Distinct names the clients cycle through.
const NAMES: usize = 4_096;

struct Options {
    seconds: u64,
    connections: usize,
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
        connections: var("ARBITER_BENCH_CONNECTIONS", 8).max(1) as usize,
    }
}

/// A multi-row insert on the backend's own connection (the multi-backend connection has no
/// batch inserts).
macro_rules! insert_all {
    ($conn:expr, $table:expr, $rows:expr) => {
        match $conn {
            DbConnection::Sqlite(c) => diesel::insert_into($table).values($rows).execute(c),
            DbConnection::Postgres(c) => diesel::insert_into($table).values($rows).execute(c),
        }
    };
}

fn player_name(i: usize) -> String {
    format!("player{i:05}")
}

/// Players `0..SANCTIONED` have sanctions, `SANCTIONED - TIMED_OUT / 2..` the next 500 have
/// report timeouts (half overlapping the sanctioned ones), the rest are clean. Returns the name
/// of a player with a chat ban in force, for a check of the answer's content.
fn seed(conn: &mut DbConnection) -> Result<String, String> {
    let now = store::now();
    let created = now - Span::days(400);
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        let names: Vec<String> = (0..PLAYERS)
            .map(player_name)
            .chain(["moderator".to_string()])
            .collect();
        for chunk in names.chunks(CHUNK) {
            let rows: Vec<_> = chunk
                .iter()
                .map(|n| (players::name.eq(n), players::created_at.eq(created)))
                .collect();
            insert_all!(conn, players::table, rows)?;
        }
        Ok(())
    })
    .map_err(|e| format!("seeding players: {e}"))?;
    let ids: std::collections::HashMap<String, i64> = players::table
        .select((players::name, players::id))
        .load::<(String, i64)>(conn)
        .map_err(|e| e.to_string())?
        .into_iter()
        .collect();
    let moderator = ids["moderator"];

    // (player, kind, starts, ends, lifted): 1-3 sanctions a player, a quarter of them over.
    type Row = (
        i64,
        &'static str,
        NaiveDateTime,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
    );
    let kinds = ["chat_ban", "play_ban", "club_ban"];
    let mut rows: Vec<Row> = Vec::new();
    for i in 0..SANCTIONED {
        let player = ids[&player_name(i)];
        for k in 0..1 + i % 3 {
            let kind = kinds[(i + k) % 3];
            let starts = now - Span::days(((i * 7 + k * 13) % 90) as i64 + 1);
            let (ends, lifted) = match (i + k) % 8 {
                // Over by their planned end.
                0 | 1 => (Some(starts + Span::hours(12)), None),
                // Lifted on appeal.
                2 => (Some(now + Span::days(30)), Some(now - Span::hours(1))),
                // Permanent.
                3 => (None, None),
                // In force for a while yet.
                _ => (Some(now + Span::hours(((i % 500) + 1) as i64)), None),
            };
            rows.push((player, kind, starts, ends, lifted));
        }
    }
    let chat_banned = (0..SANCTIONED)
        .find(|&i| kinds[i % 3] == "chat_ban" && i % 8 >= 4)
        .map(player_name)
        .ok_or("no chat ban in force")?;
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        for chunk in rows.chunks(CHUNK) {
            let values: Vec<_> = chunk
                .iter()
                .map(|&(player, kind, starts, ends, lifted)| {
                    (
                        sanctions::player_id.eq(player),
                        sanctions::kind.eq(kind),
                        sanctions::reason.eq("offensive_chat"),
                        sanctions::ground.eq("abusive_language_habit"),
                        sanctions::starts_at.eq(starts),
                        sanctions::ends_at.eq(ends),
                        sanctions::lifted_at.eq(lifted),
                        sanctions::issued_by.eq(moderator),
                        sanctions::note.eq("repeated insults in game chat"),
                    )
                })
                .collect();
            insert_all!(conn, sanctions::table, values)?;
        }
        let timeouts: Vec<_> = (SANCTIONED - TIMED_OUT / 2..SANCTIONED + TIMED_OUT / 2)
            .map(|i| {
                let starts = now - Span::days((i % 10) as i64 + 1);
                // Every other one over already.
                let ends = if i % 2 == 0 {
                    now + Span::hours((i % 72) as i64 + 1)
                } else {
                    starts + Span::hours(6)
                };
                (
                    report_timeouts::player_id.eq(ids[&player_name(i)]),
                    report_timeouts::step.eq((i % 3) as i32 + 1),
                    report_timeouts::starts_at.eq(starts),
                    report_timeouts::ends_at.eq(ends),
                )
            })
            .collect();
        insert_all!(conn, report_timeouts::table, timeouts)?;
        Ok(())
    })
    .map_err(|e| format!("seeding sanctions: {e}"))?;
    println!(
        "standing_load: seeded {} players, {} sanctions on {SANCTIONED} players, \
         {TIMED_OUT} report timeouts",
        PLAYERS + 1,
        rows.len()
    );
    Ok(chat_banned)
}

/// Starts the app on an ephemeral port over a freshly migrated and seeded database; returns
/// its address, a server token and a player with a chat ban in force.
fn start(database_url: String) -> Result<(SocketAddr, String, String), String> {
    let mut settings = Settings::defaults().map_err(|e| e.to_string())?;
    // The load comes from one address with one token: the rate limits would be measured.
    settings.limits.address_per_second = 0;
    settings.limits.credential_per_second = 0;
    settings.database.url = database_url;
    settings.database.pool_size = 4;
    let pool = store::connect(&settings.database).map_err(|e| e.to_string())?;
    let (token, chat_banned) = {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        migrations::run_pending(&mut conn).map_err(|e| e.to_string())?;
        let chat_banned = seed(&mut conn)?;
        let token = tokens::issue(&mut conn, TokenRole::Server, "load")
            .map_err(|e| e.to_string())?
            .1;
        (token, chat_banned)
    };
    let state = web::Data::new(AppState::new(settings, pool).map_err(|e| e.to_string())?);
    let addr = common::serve_in_background(state, "standing_load", false)?;
    Ok((addr, token, chat_banned))
}

/// A standing request for `name` with the server token.
fn standing_request(addr: SocketAddr, token: &str, name: &str) -> Vec<u8> {
    format!(
        "GET /api/v1/players/{name}/standing HTTP/1.1\r\nHost: {addr}\r\n\
         Authorization: Bearer {token}\r\n\r\n"
    )
    .into_bytes()
}

/// Random names: 40% sanctioned or timed out, 40% clean, 20% never seen.
fn request_names() -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut names: Vec<String> = (0..NAMES)
        .map(|k| match k % 5 {
            0 | 1 => player_name(rng.gen_range(0..SANCTIONED + TIMED_OUT / 2)),
            2 | 3 => player_name(rng.gen_range(SANCTIONED + TIMED_OUT / 2..PLAYERS)),
            _ => format!("newcomer{}", rng.gen_range(0..1_000_000)),
        })
        .collect();
    names.shuffle(&mut rng);
    names
}

/// Connection `c` walks the name list from its own offset.
fn drive(
    addr: SocketAddr,
    token: &str,
    names: &[String],
    connections: usize,
    duration: Duration,
) -> Result<load::Tally, String> {
    let requests: Arc<Vec<Vec<u8>>> = Arc::new(
        names
            .iter()
            .map(|name| standing_request(addr, token, name))
            .collect(),
    );
    load::run(addr, connections, duration, 200, move |c, k| {
        requests[(c * 997 + k) % requests.len()].clone()
    })
}

fn run(label: &str, database_url: String, o: &Options) -> Result<(), String> {
    let (addr, token, chat_banned) = start(database_url)?;
    // The answer itself, once: a chat ban in force shows.
    let answer = load::once(addr, &standing_request(addr, &token, &chat_banned))?;
    let body = String::from_utf8_lossy(&answer.body).to_string();
    if answer.status != 200 || !body.contains("\"may_chat\":false") {
        return Err(format!(
            "{chat_banned}: expected a chat ban: {} {body}",
            answer.status
        ));
    }
    let names = request_names();
    load::measure(
        "standing_load",
        "standing",
        label,
        o.connections,
        o.seconds,
        |duration| drive(addr, &token, &names, o.connections, duration),
    )
}

fn main() {
    if let Err(e) = bench() {
        eprintln!("standing_load: {e}");
        std::process::exit(1);
    }
}

fn bench() -> Result<(), String> {
    let o = options();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    run(
        "sqlite",
        format!("sqlite://{}", dir.path().join("standing.db").display()),
        &o,
    )?;
    if let Ok(url) = std::env::var("ARBITER_BENCH_DATABASE_URL") {
        run("postgres", url, &o)?;
    }
    Ok(())
}
