//! Every admin console page's server time on a database with 1,000,000 open cases and
//! 1,000,000 games: each page is requested in-process (routing, the session check, the API
//! handler it calls, the database, the HTML) by a signed-in admin, and the median, p99 and
//! max over repeated requests are printed. The console tests' game and its two cases (one with
//! a position-checked line, so the board is drawn) sit on top of the bulk rows.
//!
//! `cargo bench --bench console_pages` (SQLite, a fresh file);
//! `ARBITER_BENCH_CASES=N` and `ARBITER_BENCH_GAMES=N` (a multiple of 100,000) for other sizes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::exit)]

#[path = "support/archive_fill.rs"]
mod archive_fill;
#[path = "support/queue_fill.rs"]
mod queue_fill;

use std::time::{Duration, Instant};

use actix_web::test::{call_service, init_service, read_body, TestRequest};
use actix_web::web;
use arbiter::api::app::build_app;
use arbiter::api::auth::player::{sign, PlayerClaims};
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use arbiter::store::{self, migrations};
use diesel::connection::SimpleConnection;
use serde_json::{json, Value};

const READS: usize = 50;
const SECRET: &str = "bench-secret-at-least-thirty-two-bytes-long";
const SEED_GAME: &str = include_str!("../tests/data/pgn4/ffa/cc_game_0016.pgn4");

fn size(var: &str, default: i64) -> i64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "  {label:<40} median {:>7.2} ms   p99 {:>7.2} ms   max {:>7.2} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
    );
}

fn cookie_of(headers: &actix_web::http::header::HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with(&format!("{name}=")))
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
}

fn csrf_in(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    html[at..at + 64].to_string()
}

fn main() -> anyhow::Result<()> {
    let cases = size("ARBITER_BENCH_CASES", 1_000_000);
    let games = size("ARBITER_BENCH_GAMES", 1_000_000);
    if games < archive_fill::HEAVY_GAMES || games % archive_fill::HEAVY_GAMES != 0 {
        eprintln!(
            "ARBITER_BENCH_GAMES is a multiple of {}",
            archive_fill::HEAVY_GAMES
        );
        std::process::exit(2);
    }
    let dir = tempfile::tempdir()?;
    let mut settings = Settings::defaults()?;
    settings.database.url = format!("sqlite://{}", dir.path().join("console.db").display());
    settings.auth.player_token_secret = SECRET.to_string();
    settings.conduct.enabled = false;
    let pool = store::connect(&settings.database)?;
    {
        let mut conn = pool.get()?;
        let started = Instant::now();
        archive_fill::migrate_before_backfill(&mut conn)?;
        archive_fill::fill_games(&mut conn, games)?;
        migrations::run_pending(&mut conn).map_err(|e| anyhow::anyhow!("{e}"))?;
        queue_fill::fill_open_cases(&mut conn, usize::try_from(cases)?)?;
        conn.batch_execute("ANALYZE")?;
        println!(
            "SQLite: {games} games and {cases} open cases generated in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let (server, admin) = {
        let mut conn = pool.get()?;
        (
            tokens::issue(&mut conn, TokenRole::Server, "eu-1")?.1,
            tokens::issue(&mut conn, TokenRole::Admin, "mod_anna")?.1,
        )
    };
    let state = web::Data::new(AppState::new(settings, pool)?);
    actix_web::rt::System::new().block_on(async move {
        let app = init_service(build_app(state.clone(), |_| {})).await;
        let post_json = |path: &str, token: &str, body: &Value| {
            TestRequest::post()
                .uri(path)
                .insert_header(("authorization", format!("Bearer {token}")))
                .set_json(body)
                .to_request()
        };
        // The console tests' game and two cases on top of the bulk rows.
        let game = json!({ "pgn4": SEED_GAME, "chat": [
            { "ply": 8, "sender": "Spaksi", "channel": "game", "text": "learn to play noob" },
            { "ply": 12, "sender": "Spaksi", "channel": "game", "text": "blue play a4-b4" },
        ]});
        let stored = call_service(&app, post_json("/api/v1/games", &server, &game)).await;
        assert_eq!(stored.status(), 201);
        let game_id = serde_json::from_slice::<Value>(&read_body(stored).await)?["id"]
            .as_i64()
            .expect("game id");
        for reason in ["offensive_chat", "rule_violating_chat"] {
            let now = chrono::Utc::now().timestamp();
            let player = sign(SECRET, &PlayerClaims { sub: "rasulk".into(), exp: now + 600, iat: Some(now), nbf: None, locale: None })?;
            let body = json!({ "accused": ["Spaksi"], "reason": reason, "game": 104_071_136, "message": "see the chat" });
            let filed = call_service(&app, post_json("/api/v1/reports", &player, &body)).await;
            assert_eq!(filed.status(), 201);
        }
        // A self-partnering case between two heavy players of the bulk archive: the pair panel
        // reads their shared games and fingerprints. Game `5 x step` seats both (archive_fill).
        let pair_game = games / archive_fill::HEAVY_GAMES * 5;
        let reporter: Option<String> = {
            let mut conn = state.pool.get()?;
            use diesel::prelude::*;
            use arbiter::store::schema::game_seats;
            game_seats::table
                .filter(game_seats::game_id.eq(pair_game))
                .filter(game_seats::player.ne_all(["heavy", "partner"]))
                .select(game_seats::player)
                .first(&mut *conn)
                .optional()?
        };
        let now = chrono::Utc::now().timestamp();
        let reporter_token = sign(SECRET, &PlayerClaims { sub: reporter.unwrap_or_default(), exp: now + 600, iat: Some(now), nbf: None, locale: None })?;
        let body = json!({ "accused": ["heavy", "partner"], "reason": "self_partnering", "game": 100_000_000 + pair_game });
        let filed = call_service(&app, post_json("/api/v1/reports", &reporter_token, &body)).await;
        let pair_case_filed = filed.status() == 201;
        if !pair_case_filed {
            println!("(no pair case: {})", String::from_utf8_lossy(&read_body(filed).await));
        }
        let listed = call_service(
            &app,
            TestRequest::get()
                .uri("/api/v1/admin/cases?accused=Spaksi")
                .insert_header(("authorization", format!("Bearer {admin}")))
                .to_request(),
        )
        .await;
        let listed: Value = serde_json::from_slice(&read_body(listed).await)?;
        let case_ids: Vec<i64> = listed["items"]
            .as_array()
            .map(|items| items.iter().filter_map(|c| c["id"].as_i64()).collect())
            .unwrap_or_default();
        assert_eq!(case_ids.len(), 2, "the seed's two cases");

        // Sign in as a browser would.
        let form = call_service(&app, TestRequest::get().uri("/admin/sign-in").to_request()).await;
        let sign_in_cookie = cookie_of(form.headers(), "arbiter_sign_in").expect("sign-in cookie");
        let csrf = csrf_in(&String::from_utf8_lossy(&read_body(form).await));
        let signed_in = call_service(
            &app,
            TestRequest::post()
                .uri("/admin/sign-in")
                .insert_header(("cookie", sign_in_cookie))
                .set_form([("token", admin.as_str()), ("csrf", csrf.as_str())])
                .to_request(),
        )
        .await;
        let session = cookie_of(signed_in.headers(), "arbiter_session").expect("signed in");

        let case_pages: Vec<String> = case_ids.iter().map(|id| format!("/admin/cases/{id}")).collect();
        let pair_case = if pair_case_filed {
            let listed = call_service(
                &app,
                TestRequest::get()
                    .uri("/api/v1/admin/cases?accused=heavy")
                    .insert_header(("authorization", format!("Bearer {admin}")))
                    .to_request(),
            )
            .await;
            let listed: Value = serde_json::from_slice(&read_body(listed).await)?;
            listed["items"][0]["id"].as_i64()
        } else {
            None
        };
        let mut pages = vec![
            "/admin/".to_string(),
            "/admin/?reason=abandoning&claimed=no".to_string(),
            "/admin/cases/1".to_string(),
        ];
        pages.extend(case_pages);
        pages.extend(pair_case.map(|id| format!("/admin/cases/{id}")));
        pages.extend([
            format!("/admin/games/{game_id}?ply=12"),
            "/admin/games".to_string(),
            "/admin/games?player=heavy".to_string(),
            "/admin/players?prefix=p12".to_string(),
            "/admin/players/Spaksi".to_string(),
            "/admin/players/heavy".to_string(),
            "/admin/players/player17".to_string(),
            "/admin/appeals".to_string(),
            "/admin/sanctions".to_string(),
            "/admin/log".to_string(),
            "/admin/webhooks".to_string(),
            "/admin/tokens".to_string(),
            "/admin/sessions".to_string(),
        ]);
        println!("each page {READS} times, signed in, in-process:");
        for page in &pages {
            let mut times = Vec::with_capacity(READS);
            for _ in 0..READS {
                let request = TestRequest::get()
                    .uri(page)
                    .insert_header(("cookie", session.clone()))
                    .to_request();
                let started = Instant::now();
                let response = call_service(&app, request).await;
                let status = response.status();
                let body = read_body(response).await;
                times.push(started.elapsed());
                assert_eq!(status, 200, "{page}: {}", String::from_utf8_lossy(&body));
            }
            report(page, times);
        }
        Ok::<_, anyhow::Error>(())
    })
}
