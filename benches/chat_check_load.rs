//! Load on the live chat check, `POST /api/v1/chat/check`: N requests from several
//! keep-alive connections; prints requests/s and latency percentiles.
//!
//! ```sh
//! cargo bench --bench chat_check_load                      # app in-process, ephemeral port
//! cargo bench --bench chat_check_load -- --requests 50000 --connections 8
//! cargo bench --bench chat_check_load -- --url http://127.0.0.1:8080 --token arb_...
//! cargo bench --bench chat_check_load -- --word-list 200   # with an admins' word list
//! ```
//!
//! In-process, the app runs on a temporary SQLite database with two workers and a fresh
//! server token; `--word-list N` first stores N admins' terms, N/5 allowed words and insults
//! at strictness high, and serves the analyser built from them. Lines are a mix of clean,
//! offensive and FFA lines; a second, smaller run
//! sends each line with the first 60 plies of a real game (PGN4) as context.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::chat::{Analyzer, Category, EntryKind, MatchMode, Severity, Strictness};
use arbiter::config::Settings;
use arbiter::store::{self, migrations, players, word_list, DbConnection};
use arbiter::usecases::add_word_list_entry::{add_word_list_entry, EntryToAdd};
use arbiter::usecases::set_chat_strictness::set_chat_strictness;

const LINES: [&str; 8] = [
    "good game everyone",
    "gl hf",
    "shut up you f*cking idiot",
    "red's queen is hanging",
    "blue, Bxh2 now",
    "I just need 5 points, let me take your bishop",
    "Ne10 was better",
    "your turn",
];

struct Options {
    requests: usize,
    connections: usize,
    url: Option<String>,
    token: Option<String>,
    word_list: usize,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        requests: 20_000,
        connections: 4,
        url: None,
        token: None,
        word_list: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--requests" => {
                o.requests = value("--requests")?.parse().map_err(|e| format!("{e}"))?
            }
            "--connections" => {
                o.connections = value("--connections")?
                    .parse()
                    .map_err(|e| format!("{e}"))?
            }
            "--url" => o.url = Some(value("--url")?),
            "--token" => o.token = Some(value("--token")?),
            "--word-list" => {
                o.word_list = value("--word-list")?.parse().map_err(|e| format!("{e}"))?
            }
            // `cargo bench` passes `--bench`; ignore it and anything else it adds.
            _ => {}
        }
    }
    o.connections = o.connections.max(1);
    Ok(o)
}

/// The first 60 plies of a real FFA game, as a game still running.
fn game_so_far() -> Option<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let text = std::fs::read_to_string(path).ok()?;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("16. ") {
            break;
        }
        if line.starts_with("[Result") || line.starts_with("[Termination") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

/// Starts the app on an ephemeral port; returns its address, a server token and the
/// temporary directory holding its database.
fn start_in_process(word_list: usize) -> Result<(SocketAddr, String, tempfile::TempDir), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut settings = Settings::defaults().map_err(|e| e.to_string())?;
    // The load comes from one address with one token: the rate limits would be measured.
    settings.limits.address_per_second = 0;
    settings.limits.credential_per_second = 0;
    settings.database.url = format!("sqlite://{}", dir.path().join("load.db").display());
    settings.database.pool_size = 4;
    let pool = store::connect(&settings.database).map_err(|e| e.to_string())?;
    let token = {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        migrations::run_pending(&mut conn).map_err(|e| e.to_string())?;
        if word_list > 0 {
            store_word_list(&mut conn, word_list).map_err(|e| e.to_string())?;
        }
        tokens::issue(&mut conn, TokenRole::Server, "load")
            .map_err(|e| e.to_string())?
            .1
    };
    let built = Instant::now();
    let state = web::Data::new(AppState::new(settings, pool).map_err(|e| e.to_string())?);
    if word_list > 0 {
        // What `arbiter serve` does before it listens.
        let mut conn = state.pool.get().map_err(|e| e.to_string())?;
        let (version, list) = word_list::in_force(&mut conn).map_err(|e| e.to_string())?;
        let analyzer = Analyzer::with_word_list(&list).map_err(|e| e.to_string())?;
        println!(
            "chat_check_load: word list of {} terms and {} allowed words, insults at strictness high",
            list.terms.len(),
            list.allowed.len()
        );
        state.chat.replace(version, list, Arc::new(analyzer));
    }
    println!(
        "chat_check_load: app state (chat analyser included) built in {:.0} ms",
        built.elapsed().as_secs_f64() * 1e3
    );
    let addr = common::serve_in_background(state, "chat_check_load", false)?;
    Ok((addr, token, dir))
}

/// `terms` admins' terms, a fifth as many allowed words, and insults at strictness high.
fn store_word_list(conn: &mut DbConnection, terms: usize) -> diesel::QueryResult<()> {
    let now = store::now();
    let admin = players::id_or_create(conn, "bench-admin", now)?;
    let by = (admin, "bench-admin");
    for i in 0..terms {
        let entry = EntryToAdd {
            kind: EntryKind::Term,
            term: format!("benchterm{i}"),
            term_of: Some((Category::Insult, Severity::Medium, MatchMode::Word)),
            reason: "bench".into(),
        };
        add_word_list_entry(conn, by, &entry, now)?;
    }
    for i in 0..terms / 5 {
        let entry = EntryToAdd {
            kind: EntryKind::Allowed,
            term: format!("benchallowed{i}"),
            term_of: None,
            reason: "bench".into(),
        };
        add_word_list_entry(conn, by, &entry, now)?;
    }
    set_chat_strictness(conn, by, Category::Insult, Strictness::High, "bench", now)?;
    Ok(())
}

fn target(url: &str) -> Result<SocketAddr, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or("only http:// URLs are supported")?;
    let host = rest.split('/').next().unwrap_or(rest);
    host.to_socket_addrs()
        .map_err(|e| e.to_string())?
        .next()
        .ok_or(format!("{host} does not resolve"))
}

/// One keep-alive connection: sends `count` requests, returns each latency.
fn client(
    addr: SocketAddr,
    token: &str,
    bodies: &[String],
    offset: usize,
    count: usize,
) -> Result<Vec<Duration>, String> {
    let stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(stream);
    let mut latencies = Vec::with_capacity(count);
    let mut line = String::new();
    let mut body = Vec::new();
    for i in 0..count {
        let payload = &bodies[(offset + i) % bodies.len()];
        let request = format!(
            "POST /api/v1/chat/check HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{payload}",
            payload.len()
        );
        let start = Instant::now();
        writer
            .write_all(request.as_bytes())
            .map_err(|e| e.to_string())?;
        line.clear();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        if !line.starts_with("HTTP/1.1 200") {
            return Err(format!("unexpected status line: {}", line.trim_end()));
        }
        let mut length = 0usize;
        loop {
            line.clear();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().map_err(|_| "bad content-length")?;
                }
            }
        }
        body.resize(length, 0);
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        latencies.push(start.elapsed());
    }
    Ok(latencies)
}

fn run(
    label: &str,
    addr: SocketAddr,
    token: &str,
    bodies: &[String],
    requests: usize,
    connections: usize,
) -> Result<(), String> {
    // Warm-up: connections, caches, the analyser's thread-local buffers.
    client(addr, token, bodies, 0, bodies.len() * 4)?;
    let per = requests.div_ceil(connections);
    let start = Instant::now();
    let handles: Vec<_> = (0..connections)
        .map(|c| {
            let token = token.to_string();
            let bodies = bodies.to_vec();
            std::thread::spawn(move || client(addr, &token, &bodies, c, per))
        })
        .collect();
    let mut all = Vec::with_capacity(per * connections);
    for handle in handles {
        all.extend(handle.join().map_err(|_| "client thread panicked")??);
    }
    let elapsed = start.elapsed().as_secs_f64();
    all.sort_unstable();
    let at = |q: f64| {
        let i = ((all.len() as f64 * q).ceil() as usize).clamp(1, all.len()) - 1;
        all[i].as_secs_f64() * 1e3
    };
    println!(
        "chat_check_load [{label}]: {} requests, {connections} connections: {:.0} req/s; \
         latency p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        all.len(),
        all.len() as f64 / elapsed,
        at(0.50),
        at(0.90),
        at(0.99),
        at(1.0)
    );
    Ok(())
}

fn main() {
    if let Err(e) = bench() {
        eprintln!("chat_check_load: {e}");
        std::process::exit(1);
    }
}

fn bench() -> Result<(), String> {
    let o = options()?;
    let mut _keep = None;
    let (addr, token) = match (&o.url, &o.token) {
        (Some(url), Some(token)) => (target(url)?, token.clone()),
        (Some(_), None) => return Err("--url needs --token (a server token)".to_string()),
        _ => {
            let (addr, token, dir) = start_in_process(o.word_list)?;
            _keep = Some(dir);
            (addr, token)
        }
    };
    let text_only: Vec<String> = LINES
        .iter()
        .map(|t| serde_json::json!({ "text": t }).to_string())
        .collect();
    run("text", addr, &token, &text_only, o.requests, o.connections)?;
    if let Some(pgn4) = game_so_far() {
        let with_game: Vec<String> = LINES
            .iter()
            .map(|t| {
                serde_json::json!({ "text": t, "pgn4": pgn4, "sender_seat": "yellow" }).to_string()
            })
            .collect();
        run(
            "text + 60-ply PGN4",
            addr,
            &token,
            &with_game,
            (o.requests / 4).max(100),
            o.connections,
        )?;
    }
    Ok(())
}
