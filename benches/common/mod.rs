//! Shared by the benches: the real games replicated under fresh game numbers, and the real
//! server started in the background for the load commands.

#![allow(dead_code)]

pub mod load;
pub mod memory;

use std::path::Path;

pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

/// The real FFA and Teams games (not fragments or quirks).
pub fn real_games() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["ffa", "teams"] {
        let Ok(entries) = std::fs::read_dir(Path::new(DATA).join(dir)) else {
            eprintln!("no real games in {DATA}/{dir}");
            std::process::exit(1);
        };
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
            .collect();
        paths.sort();
        for path in paths {
            if let Ok(text) = std::fs::read_to_string(&path) {
                out.push(text);
            }
        }
    }
    out
}

/// The game number the `i`-th copy gets: on the same side of the classic-setup boundary as
/// the original, so a game without `StartFen4` keeps its inferred setup.
pub fn fresh_number(original: &str, i: usize) -> u64 {
    let classic = original_number(original).is_some_and(|n| n < 50_000_000);
    if classic {
        10_000_000 + i as u64
    } else {
        700_000_000 + i as u64
    }
}

fn original_number(text: &str) -> Option<u64> {
    let start = text.find("[GameNr \"")? + 9;
    let end = text[start..].find('"')? + start;
    text[start..end].trim().parse().ok()
}

/// `text` with its `GameNr` tag replaced (or added) by `number`.
pub fn renumber(text: &str, number: u64) -> String {
    let tag = format!("[GameNr \"{number}\"]");
    match text.find("[GameNr \"") {
        Some(start) => match text[start..].find("]") {
            Some(len) => format!("{}{}{}", &text[..start], tag, &text[start + len + 1..]),
            None => format!("{tag}\n{text}"),
        },
        None => format!("{tag}\n{text}"),
    }
}

/// The `i`-th game of the replicated set.
pub fn replicated(games: &[String], i: usize) -> (u64, String) {
    let base = &games[i % games.len()];
    let number = fresh_number(base, i);
    (number, renumber(base, number))
}

/// The game with `suffix` added to every player's name, in the colour tags and in `Result`
/// ("Spaksi: 85 - rasulk: 10 - ..."), so replicas with different suffixes share no player.
pub fn rename_players(text: &str, suffix: &str) -> String {
    let mut text = text.to_string();
    for colour in ["Red", "Blue", "Yellow", "Green"] {
        let tag = format!("[{colour} \"");
        if let Some(start) = text.find(&tag).map(|at| at + tag.len()) {
            if let Some(len) = text[start..].find('"') {
                let name = text[start..start + len].trim().to_string();
                text.replace_range(start..start + len, &format!("{name}{suffix}"));
            }
        }
    }
    if let Some(start) = text.find("[Result \"").map(|at| at + 9) {
        if let Some(len) = text[start..].find('"') {
            let renamed: Vec<String> = text[start..start + len]
                .split(" - ")
                .map(|part| match part.rsplit_once(": ") {
                    Some((name, points)) => format!("{name}{suffix}: {points}"),
                    None => part.to_string(),
                })
                .collect();
            text.replace_range(start..start + len, &renamed.join(" - "));
        }
    }
    text
}

/// Starts the real HTTP app on an ephemeral local port in a background thread (two workers)
/// and returns its address once it is listening; with `background_tasks`, the conduct applier
/// and the checkpointer run beside it as in `arbiter serve`.
pub fn serve_in_background(
    state: actix_web::web::Data<arbiter::api::state::AppState>,
    label: &'static str,
    background_tasks: bool,
) -> Result<std::net::SocketAddr, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let system = actix_web::rt::System::new();
        let result = system.block_on(async move {
            if background_tasks {
                arbiter::api::jobs::start::start_all(&state);
            }
            let server = actix_web::HttpServer::new(move || {
                arbiter::api::app::build_app(state.clone(), |_| {})
            })
            .workers(2)
            .bind(("127.0.0.1", 0))?;
            let addr = server.addrs().first().copied();
            let running = server.run();
            let _ = tx.send(addr);
            running.await
        });
        if let Err(e) = result {
            eprintln!("{label}: server: {e}");
        }
    });
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .map_err(|e| format!("server did not start: {e}"))?
        .ok_or_else(|| "server bound no address".to_string())
}

/// A fresh, empty PostgreSQL database at `url` (dropped first if it exists), for one run.
pub fn recreate_postgres(url: &str) {
    use diesel::{Connection, RunQueryDsl};
    let (server, name) = url.rsplit_once('/').expect("postgres://host/database");
    let mut admin =
        diesel::PgConnection::establish(&format!("{server}/postgres")).expect("postgres");
    diesel::sql_query(format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .execute(&mut admin)
        .expect("drop database");
    diesel::sql_query(format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .expect("create database");
}
