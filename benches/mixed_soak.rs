//! Mixed soak: the service's users at once against one in-process server for a while, and
//! per route the requests, p50 and p99 latency, unexpected answers and 5xx answers.
//!
//! - game servers posting real games (8 keep-alive connections, expecting 201), each
//!   player renamed so that games less than 64 apart share no player;
//! - players filing reports (4 connections, 201), one per seeded game, by one of its players
//!   about another;
//! - game servers checking standings (2 connections, 200);
//! - an admin reading the queue's first page (1 connection, 200);
//! - a game server checking chat lines live (1 connection, 200);
//! - an admin deciding cases one after another: the first open case of offensive chat in the
//!   queue, claimed, then decided with a 24-hour chat ban (one client, claim and decision
//!   timed).
//!
//! The conduct applier and the checkpointer run as in `arbiter serve`. A fresh SQLite file
//! (default) or PostgreSQL database:
//!   cargo bench --bench mixed_soak                       (180 s on SQLite)
//!   cargo bench --bench mixed_soak -- --seconds 60
//!   cargo bench --bench mixed_soak -- --database-url postgres://postgres@127.0.0.1:5432/soak
//! The run fails (exit 1) if any answer was a 5xx.
//!
//! With `--process`, the service runs as `arbiter serve` (the release binary) in a child
//! process on the seeded database instead, and its resident memory (VmRSS) is sampled every
//! `--memory-every` seconds (10): the curve is printed with the spread over the last two
//! thirds of the run, so memory that keeps growing shows (issue #41: flat within 10 % over
//! the last 10 minutes of 15):
//!   cargo bench --bench mixed_soak -- --process --seconds 900
//!
//! `--instances N` (with `--process` and `--database-url`) starts N `arbiter serve` processes
//! on the one PostgreSQL database, as several stateless instances behind a balancer: the
//! games', reports' and standings' connections are spread over them, the queue reader, the
//! chat checker and the admin use the first; memory is sampled in the first.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::archive::{prepare_with, AbortPreset, Submission};
use arbiter::config::Settings;
use arbiter::store::{self, migrations};
use arbiter::usecases::import_games;
use common::load::{self, Tally};
use common::memory;
use serde_json::{json, Value};

/// What the live chat check client sends, in turn: table talk, chess talk and abuse.
const CHAT_LINES: [&str; 6] = [
    "gg all, well played",
    "red, your queen on h7 is hanging",
    "you are a complete idiot, uninstall",
    "nice move blue",
    "team up with me against green?",
    "i will find where you live",
];

/// Games seeded before the run, whose players the reports are about.
const SEEDED_GAMES: usize = 100_000;
/// First game number of the seeded games (the posted ones take the real games' numbers,
/// replicated under fresh ones below this).
const SEEDED_FROM: u64 = 8_000_000_000;

struct Options {
    seconds: u64,
    database_url: Option<String>,
    /// Serve from an `arbiter serve` child process and sample its memory.
    process: bool,
    memory_every: u64,
    /// `arbiter serve` processes sharing the database (with `--process`).
    instances: usize,
}

fn options() -> Options {
    let mut o = Options {
        seconds: 180,
        database_url: None,
        process: false,
        memory_every: 10,
        instances: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--seconds" => o.seconds = value.parse().expect("--seconds N"),
            "--database-url" => o.database_url = Some(value),
            "--memory-every" => o.memory_every = value.parse().expect("--memory-every S"),
            "--instances" => o.instances = value.parse().expect("--instances N"),
            "--process" => {
                o.process = true;
                i += 1;
                continue;
            }
            // `cargo bench` passes --bench to every target.
            "--bench" => {
                i += 1;
                continue;
            }
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    if o.instances > 1 && !(o.process && o.database_url.is_some()) {
        panic!("--instances N needs --process and --database-url (instances share PostgreSQL)");
    }
    o
}

fn seeded_text(n: usize) -> String {
    format!(
        "[GameNr \"{}\"]\n[TimeControl \"1+15D\"]\n[Variant \"FFA\"]\n\
         [RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n[Red \"r{n}\"]\n[Blue \"b{n}\"]\n\
         [Yellow \"y{n}\"]\n[Green \"g{n}\"]\n\n1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. T\n",
        SEEDED_FROM + n as u64
    )
}

/// Seeds the games through the bulk import's path; returns (server token, admin token).
fn seed(settings: &Settings, pool: &store::DbPool) -> (String, String) {
    let mut conn = pool.get().expect("connection");
    migrations::run_pending(&mut conn).expect("migrations");
    let moderation = settings.moderation.load_policy().expect("policy");
    for chunk in (0..SEEDED_GAMES).collect::<Vec<_>>().chunks(1000) {
        let prepared: Vec<_> = chunk
            .iter()
            .map(|&n| {
                let submission: Submission =
                    serde_json::from_value(json!({ "pgn4": seeded_text(n) })).expect("body");
                prepare_with(submission, AbortPreset::Seed001, None, None, None).expect("valid")
            })
            .collect();
        import_games::import_batch(&mut conn, &prepared, &moderation, store::now())
            .expect("seeded");
    }
    // As `arbiter import` does after a bulk load.
    store::refresh_planner_statistics(&mut conn).expect("planner statistics");
    let server = tokens::issue(&mut conn, TokenRole::Server, "soak-server")
        .expect("token")
        .1;
    let admin = tokens::issue(&mut conn, TokenRole::Admin, "soak-admin")
        .expect("token")
        .1;
    (server, admin)
}

fn start(settings: Settings, pool: store::DbPool) -> SocketAddr {
    let state = actix_web::web::Data::new(AppState::new(settings, pool).expect("state"));
    common::serve_in_background(state, "mixed_soak", true).expect("server")
}

/// `arbiter serve` on the seeded database, as an operator runs it, with the bench's settings
/// in its environment; answers once `/readyz` does.
fn spawn_service(settings: &Settings) -> (SocketAddr, Child) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("address");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("serve")
        .env("ARBITER_SERVER__LISTEN", addr.to_string())
        .env("ARBITER_DATABASE__URL", &settings.database.url)
        .env(
            "ARBITER_AUTH__PLAYER_TOKEN_SECRET",
            &settings.auth.player_token_secret,
        )
        .env("ARBITER_LIMITS__ADDRESS_PER_SECOND", "0")
        .env("ARBITER_LIMITS__CREDENTIAL_PER_SECOND", "0")
        .env("ARBITER_LOG__LEVEL", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let started = Instant::now();
    let readyz = b"GET /readyz HTTP/1.1\r\nHost: soak\r\n\r\n";
    while load::once(addr, readyz).map_or(true, |a| a.status != 200) {
        if started.elapsed() > Duration::from_secs(120) || child.try_wait().ok().flatten().is_some()
        {
            let _ = child.kill();
            eprintln!("mixed_soak: arbiter serve was not ready within 120 s");
            std::process::exit(1);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    (addr, child)
}

fn request(method: &str, path: &str, token: &str, content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn player_token(secret: &str, player: &str) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({ "sub": player, "iat": now, "exp": now + 3600 });
    jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
    )
    .expect("player token")
}

/// What the decision loop saw: claim and decision latencies, unexpected and 5xx answers.
struct Decisions {
    claims: Tally,
    decisions: Tally,
}

fn empty_tally() -> Tally {
    Tally {
        latencies: Vec::new(),
        errors: 0,
        server_errors: 0,
        samples: Vec::new(),
        elapsed: Duration::ZERO,
    }
}

fn timed(tally: &mut Tally, addr: SocketAddr, bytes: &[u8], expected: u16) -> Option<Value> {
    let sent = Instant::now();
    let answer = load::once(addr, bytes).ok()?;
    tally.latencies.push(sent.elapsed());
    if answer.status >= 500 {
        tally.server_errors += 1;
    }
    if answer.status != expected {
        tally.errors += 1;
        if tally.samples.len() < 3 {
            let body = String::from_utf8_lossy(&answer.body).to_string();
            tally.samples.push(format!("{}: {body}", answer.status));
        }
        return None;
    }
    serde_json::from_slice(&answer.body).ok()
}

fn decide_cases(addr: SocketAddr, admin: &str, duration: Duration) -> Decisions {
    let started = Instant::now();
    let mut claims = empty_tally();
    let mut decisions = empty_tally();
    let mut reads = empty_tally();
    // The top case of offensive chat, which the decision below fits (a teaming case needs
    // another ground; the soak's reports are all offensive chat).
    let page = request(
        "GET",
        "/api/v1/admin/cases?reason=offensive_chat&limit=1",
        admin,
        "text/plain",
        "",
    );
    while started.elapsed() < duration {
        let Some(page) = timed(&mut reads, addr, &page, 200) else {
            continue;
        };
        let Some(id) = page["items"][0]["id"].as_i64() else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let claim = request(
            "POST",
            &format!("/api/v1/admin/cases/{id}/claim"),
            admin,
            "application/json",
            "{}",
        );
        if timed(&mut claims, addr, &claim, 200).is_none() {
            continue;
        }
        let body = json!({
            "decision": "sanction",
            "ground": "harassment",
            "note": "soak",
            "sanction": { "kind": "chat_ban", "minutes": 1440 },
        })
        .to_string();
        let decide = request(
            "POST",
            &format!("/api/v1/admin/cases/{id}/decision"),
            admin,
            "application/json",
            &body,
        );
        timed(&mut decisions, addr, &decide, 200);
    }
    for tally in [&mut claims, &mut decisions] {
        tally.elapsed = started.elapsed();
        tally.latencies.sort_unstable();
    }
    Decisions { claims, decisions }
}

fn print_row(route: &str, tally: &Tally) {
    println!(
        "{route:<34} {:>8} {:>8.1} {:>9.2} {:>9.2} {:>10} {:>5}",
        tally.requests(),
        tally.per_second(),
        tally.quantile_ms(0.5),
        tally.quantile_ms(0.99),
        tally.errors,
        tally.server_errors
    );
    for sample in &tally.samples {
        println!("    e.g. {}", sample.chars().take(200).collect::<String>());
    }
}

fn main() {
    let o = options();
    let dir = tempfile::tempdir().expect("temporary directory");
    let (label, url) = match &o.database_url {
        Some(url) => {
            common::recreate_postgres(url);
            ("PostgreSQL", url.clone())
        }
        None => (
            "SQLite",
            format!("sqlite://{}", dir.path().join("soak.db").display()),
        ),
    };
    let mut settings = Settings::defaults().expect("default settings");
    // The load comes from one address with one token: the rate limits would be measured.
    settings.limits.address_per_second = 0;
    settings.limits.credential_per_second = 0;
    settings.database.url = url;
    settings.auth.player_token_secret = "mixed-soak-player-token-secret-0123456789".into();
    settings.log.level = "warn".into();
    let secret = settings.auth.player_token_secret.clone();
    let pool = store::connect(&settings.database).expect("database");
    let seeding = Instant::now();
    let (server, admin) = seed(&settings, &pool);
    println!(
        "{label}: {SEEDED_GAMES} games seeded in {:.1} s; soak of {} s",
        seeding.elapsed().as_secs_f64(),
        o.seconds
    );
    let duration = Duration::from_secs(o.seconds);
    let (addrs, mut children) = if o.process {
        drop(pool);
        (0..o.instances.max(1))
            .map(|_| spawn_service(&settings))
            .unzip()
    } else {
        (vec![start(settings, pool)], Vec::new())
    };
    // The people's clients and the admin talk to the first instance, game servers to all.
    let addr = addrs[0];
    let memory = children.first().map(|child| {
        let (pid, every) = (child.id(), Duration::from_secs(o.memory_every.max(1)));
        std::thread::spawn(move || memory::sample(pid, duration, every))
    });
    let real = Arc::new(common::real_games());

    let games = {
        let (server, real) = (server.clone(), real.clone());
        let addrs = addrs.clone();
        std::thread::spawn(move || {
            load::run_spread(&addrs, 8, duration, 201, move |c, k| {
                // Games in flight together share no player, as on a site where a player
                // plays one game at a time; players and pairs recur every 64 games.
                let i = k * 8 + c;
                let (_, text) = common::replicated(&real, i);
                let text = common::rename_players(&text, &format!("_{}", i % 64));
                let body = json!({ "pgn4": text }).to_string();
                request("POST", "/api/v1/games", &server, "application/json", &body)
            })
        })
    };
    let reports = {
        let secret = secret.clone();
        let addrs = addrs.clone();
        std::thread::spawn(move || {
            load::run_spread(&addrs, 4, duration, 201, move |c, k| {
                // One report per seeded game: its Red reports its Blue (a second report of
                // the same game by the same reporter would merge into the first).
                let n = (k * 4 + c) % SEEDED_GAMES;
                let body = json!({
                    "accused": [format!("b{n}")],
                    "reason": "offensive_chat",
                    "game": SEEDED_FROM + n as u64,
                })
                .to_string();
                let token = player_token(&secret, &format!("r{n}"));
                request("POST", "/api/v1/reports", &token, "application/json", &body)
            })
        })
    };
    let standings = {
        let addrs = addrs.clone();
        let server = server.clone();
        std::thread::spawn(move || {
            load::run_spread(&addrs, 2, duration, 200, move |c, k| {
                let n = (k * 2 + c) % SEEDED_GAMES;
                let path = format!("/api/v1/players/b{n}/standing");
                request("GET", &path, &server, "text/plain", "")
            })
        })
    };
    let queue = {
        let admin = admin.clone();
        std::thread::spawn(move || {
            load::run(addr, 1, duration, 200, move |_, _| {
                request(
                    "GET",
                    "/api/v1/admin/cases?limit=50",
                    &admin,
                    "text/plain",
                    "",
                )
            })
        })
    };
    let chat = {
        let server = server.clone();
        std::thread::spawn(move || {
            load::run(addr, 1, duration, 200, move |_, k| {
                let body = json!({ "text": CHAT_LINES[k % CHAT_LINES.len()] }).to_string();
                request(
                    "POST",
                    "/api/v1/chat/check",
                    &server,
                    "application/json",
                    &body,
                )
            })
        })
    };
    let decisions = std::thread::spawn(move || decide_cases(addr, &admin, duration));

    let games = games.join().expect("games").expect("games run");
    let reports = reports.join().expect("reports").expect("reports run");
    let standings = standings.join().expect("standings").expect("standing run");
    let queue = queue.join().expect("queue").expect("queue run");
    let chat = chat.join().expect("chat").expect("chat run");
    let decisions = decisions.join().expect("decisions");

    println!(
        "{:<34} {:>8} {:>8} {:>9} {:>9} {:>10} {:>5}",
        "route", "requests", "per s", "p50 ms", "p99 ms", "unexpected", "5xx"
    );
    print_row("POST /api/v1/games", &games);
    print_row("POST /api/v1/reports", &reports);
    print_row("GET /api/v1/players/{name}/standing", &standings);
    print_row("GET /api/v1/admin/cases", &queue);
    print_row("POST /api/v1/chat/check", &chat);
    print_row("POST /api/v1/admin/cases/{id}/claim", &decisions.claims);
    print_row(
        "POST /api/v1/admin/cases/{id}/decision",
        &decisions.decisions,
    );
    let server_errors: usize = [
        &games,
        &reports,
        &standings,
        &queue,
        &chat,
        &decisions.claims,
        &decisions.decisions,
    ]
    .iter()
    .map(|t| t.server_errors)
    .sum();
    println!("5xx answers in all: {server_errors}");
    if let Some(memory) = memory {
        memory::print(&memory.join().expect("memory samples"));
    }
    for child in &mut children {
        let _ = child.kill();
        let _ = child.wait();
    }
    if server_errors > 0 {
        std::process::exit(1);
    }
}
