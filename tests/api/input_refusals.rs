//! Input that used to be accepted and is refused now: malformed game numbers (ingest, import,
//! reports, decisions), reported names that are too long or unknown to the archive, and player
//! tokens that live too long or were issued in the future. Each refusal is a 4xx naming the
//! field, and the database is read back to show nothing was written.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::test::TestRequest;
use arbiter::api::auth::player::{sign, PlayerClaims};
use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::schema::{cases, decisions, games, modlog, players, reports};
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::games::SHORT_GAME;
use crate::support::{TestApp, TestDb, PLAYER_SECRET};

/// `SHORT_GAME` (players r1, b1, y1, g1) without its `GameNr` tag.
fn untagged_game() -> String {
    SHORT_GAME.replace("[GameNr \"900000001\"]\n", "")
}

/// `SHORT_GAME` with `number` as its `GameNr` tag.
fn tagged_game(number: &str) -> String {
    SHORT_GAME.replace("900000001", number)
}

/// Rows in the tables a refused request must leave alone.
#[derive(Debug, PartialEq, Eq)]
struct Rows {
    games: i64,
    reports: i64,
    cases: i64,
    decisions: i64,
    modlog: i64,
    players: i64,
}

fn rows(app: &TestApp) -> Rows {
    let mut conn = app.state.pool.get().expect("connection");
    let conn = &mut *conn;
    let count = |n: QueryResult<i64>| n.expect("count");
    Rows {
        games: count(games::table.count().get_result(conn)),
        reports: count(reports::table.count().get_result(conn)),
        cases: count(cases::table.count().get_result(conn)),
        decisions: count(decisions::table.count().get_result(conn)),
        modlog: count(modlog::table.count().get_result(conn)),
        players: count(players::table.count().get_result(conn)),
    }
}

fn player_names(app: &TestApp) -> Vec<String> {
    let mut conn = app.state.pool.get().expect("connection");
    players::table
        .order(players::name.asc())
        .select(players::name)
        .load(&mut *conn)
        .expect("players")
}

async fn post_game(app: &TestApp, server: &str, body: &Value) -> crate::support::TestResponse {
    app.post_json("/api/v1/games", Some(server), body).await
}

async fn post_pgn4(app: &TestApp, server: &str, text: String) -> crate::support::TestResponse {
    app.send(
        TestRequest::post()
            .uri("/api/v1/games")
            .insert_header(("authorization", format!("Bearer {server}")))
            .insert_header(("content-type", "text/plain"))
            .set_payload(text),
    )
    .await
}

#[actix_web::test]
async fn malformed_game_numbers_are_refused_from_either_source() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let before = rows(&app);
    let bad_ids = [
        json!("-5"),
        json!(-5),
        json!("1e30"),
        json!(1e30),
        json!(1.5),
        json!("../../etc/passwd"),
        json!("0"),
        json!(0),
        json!("007"),
        json!("+7"),
        json!("9007199254740992"),
        json!(9_007_199_254_740_992_u64),
    ];
    for id in bad_ids {
        let body = json!({ "pgn4": untagged_game(), "site_game_id": id });
        let error = post_game(&app, &server, &body)
            .await
            .assert_error(422, "invalid_game");
        assert_eq!(error["details"]["field"], "site_game_id", "{id}: {error}");
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains("not a game number")),
            "{id}: {error}"
        );
    }
    for tag in ["-5", "1e30", "../../etc/passwd", "0", "007"] {
        let error = post_pgn4(&app, &server, tagged_game(tag))
            .await
            .assert_error(422, "invalid_game");
        assert_eq!(error["details"]["field"], "pgn4", "{tag}: {error}");
        assert_eq!(error["details"]["tag"], "GameNr", "{tag}: {error}");
        // A good `site_game_id` does not excuse a bad tag.
        let body = json!({ "pgn4": tagged_game(tag), "site_game_id": "900000001" });
        let error = post_game(&app, &server, &body)
            .await
            .assert_error(422, "invalid_game");
        assert_eq!(error["details"]["tag"], "GameNr", "{tag}: {error}");
    }
    assert_eq!(rows(&app), before, "nothing stored");

    // The largest number, given as a JSON number, is a game number.
    let body = json!({ "pgn4": untagged_game(), "site_game_id": 9_007_199_254_740_991_u64 });
    let response = post_game(&app, &server, &body).await;
    assert_eq!(response.status, 201, "{}", response.text());
    assert_eq!(response.json()["site_game_id"], "9007199254740991");
    assert_eq!(rows(&app).games, before.games + 1);
}

/// `arbiter import DIR` through the binary, on the test database.
fn import(db: &TestDb, dir: &std::path::Path) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    for (key, _) in std::env::vars() {
        if key.starts_with("ARBITER_") {
            command.env_remove(key);
        }
    }
    let output = command
        .current_dir(dir)
        .env("ARBITER_DATABASE__URL", &db.url)
        .env("ARBITER_LOG__LEVEL", "warn")
        .arg("import")
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run arbiter import");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

#[actix_web::test]
async fn arbiter_import_rejects_a_file_with_a_malformed_game_number() {
    let app = TestApp::spawn().await;
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("good.pgn4"), SHORT_GAME).expect("write");
    std::fs::write(
        dir.path().join("traversal.pgn4"),
        tagged_game("../../etc/passwd"),
    )
    .expect("write");
    std::fs::write(dir.path().join("negative.pgn4"), tagged_game("-5")).expect("write");
    let (ok, out) = import(&app.db, dir.path());
    // Any rejected file makes the import fail, after the good ones are stored.
    assert!(!ok, "{out}");
    assert!(
        out.contains("imported 1, duplicates 0, rejected 2"),
        "{out}"
    );
    for file in ["traversal.pgn4", "negative.pgn4"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("rejected") && l.contains(file) && l.contains("GameNr")),
            "{file}: {out}"
        );
    }
    let mut conn = app.state.pool.get().expect("connection");
    let stored: Vec<String> = games::table
        .select(games::site_game_id)
        .load(&mut *conn)
        .expect("games");
    assert_eq!(stored, vec!["900000001".to_string()]);
}

/// An app with `SHORT_GAME` (number 900000001; r1, b1, y1, g1) stored.
async fn app_with_a_game() -> TestApp {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let response = post_pgn4(&app, &server, SHORT_GAME.to_string()).await;
    assert_eq!(response.status, 201, "{}", response.text());
    app
}

async fn report(app: &TestApp, reporter: &str, body: Value) -> crate::support::TestResponse {
    app.post_json("/api/v1/reports", Some(&app.player_token(reporter)), &body)
        .await
}

#[actix_web::test]
async fn reports_refuse_malformed_game_numbers_by_field() {
    let app = app_with_a_game().await;
    let before = rows(&app);
    for (body, field, game) in [
        (
            json!({ "accused": ["b1"], "reason": "abandoning", "game": -5 }),
            "game",
            json!(-5),
        ),
        (
            json!({ "accused": ["b1"], "reason": "abandoning", "game": 0 }),
            "game",
            json!(0),
        ),
        (
            json!({ "accused": ["b1"], "reason": "abandoning",
                    "game": 9_007_199_254_740_992_i64 }),
            "game",
            json!(9_007_199_254_740_992_i64),
        ),
        (
            json!({ "accused": ["b1"], "reason": "abandoning", "game": 900000001,
                    "supporting_games": [-1] }),
            "supporting_games",
            json!(-1),
        ),
    ] {
        let error = report(&app, "r1", body.clone())
            .await
            .assert_error(422, "invalid_game_number");
        assert_eq!(error["details"]["field"], field, "{body}: {error}");
        assert_eq!(error["details"]["game"], game, "{body}: {error}");
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| m.contains(&game.to_string())),
            "{error}"
        );
    }
    // Not a number at all: the body cannot be read, and the field is named.
    for game in [json!("../../etc/passwd"), json!(1e30), json!(1.5)] {
        let body = json!({ "accused": ["b1"], "reason": "abandoning", "game": game });
        let error = report(&app, "r1", body)
            .await
            .assert_error(400, "invalid_json");
        assert_eq!(error["details"]["field"], "game", "{game}: {error}");
    }
    assert_eq!(rows(&app), before, "nothing stored");
}

#[actix_web::test]
async fn reported_names_are_bounded_and_known_and_refusals_use_no_rate_slot() {
    let app = app_with_a_game().await;
    let before = rows(&app);
    let long = "x".repeat(65);
    for (body, code, field) in [
        (
            json!({ "accused": ["b1", long], "reason": "offensive_chat" }),
            "invalid_report",
            "accused[1]",
        ),
        (
            json!({ "accused": [long], "reason": "offensive_chat", "game": 900000001 }),
            "invalid_report",
            "accused[0]",
        ),
        (
            json!({ "accused": ["b1\u{7}"], "reason": "offensive_chat" }),
            "invalid_report",
            "accused[0]",
        ),
        // At most 64 characters is a name; this one has never played.
        (
            json!({ "accused": ["y".repeat(64)], "reason": "offensive_chat" }),
            "unknown_player",
            "accused",
        ),
        (
            json!({ "accused": ["b1", "nobody"], "reason": "offensive_chat" }),
            "unknown_player",
            "accused",
        ),
        // Names match exactly, as everywhere in the archive.
        (
            json!({ "accused": ["B1"], "reason": "offensive_chat" }),
            "unknown_player",
            "accused",
        ),
        // Supporting games do not vouch for every name.
        (
            json!({ "accused": ["b1", "nobody"], "reason": "self_partnering",
                    "supporting_games": [900000001] }),
            "unknown_player",
            "accused",
        ),
    ] {
        let error = report(&app, "r1", body.clone())
            .await
            .assert_error(422, code);
        assert_eq!(error["details"]["field"], field, "{body}: {error}");
    }
    let error = report(
        &app,
        "r1",
        json!({ "accused": ["b1", "nobody"], "reason": "offensive_chat" }),
    )
    .await
    .assert_error(422, "unknown_player");
    assert_eq!(error["details"]["problems"][0]["player"], "nobody");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("nobody")),
        "{error}"
    );
    assert_eq!(
        rows(&app),
        before,
        "no report, case, log line or player row"
    );

    // No refusal took a rate-limit slot: the five filings an hour are all still there.
    let body = json!({ "accused": ["b1"], "reason": "offensive_chat" });
    for attempt in 0..5 {
        let response = report(&app, "r1", body.clone()).await;
        assert!(
            [200, 201].contains(&response.status),
            "attempt {attempt}: {}",
            response.text()
        );
    }
    report(&app, "r1", body)
        .await
        .assert_error(429, "report_rate_limited");
    assert_eq!(player_names(&app), vec!["b1".to_string(), "r1".to_string()]);
}

#[actix_web::test]
async fn decisions_refuse_malformed_evidence_game_numbers() {
    let app = app_with_a_game().await;
    let admin = app.token(TokenRole::Admin, "alice");
    report(
        &app,
        "r1",
        json!({ "accused": ["b1"], "reason": "offensive_chat", "game": 900000001 }),
    )
    .await;
    let case: i64 = {
        let mut conn = app.state.pool.get().expect("connection");
        cases::table
            .select(cases::id)
            .first(&mut *conn)
            .expect("case")
    };
    let claimed = app
        .post_json(
            &format!("/api/v1/admin/cases/{case}/claim"),
            Some(&admin),
            &json!({}),
        )
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let before = rows(&app);
    let error = app
        .post_json(
            &format!("/api/v1/admin/cases/{case}/decision"),
            Some(&admin),
            &json!({ "decision": "warn", "ground": "harassment",
                     "evidence_games": [900000001, -5] }),
        )
        .await
        .assert_error(422, "invalid_game_number");
    assert_eq!(error["details"]["field"], "evidence_games[1]");
    assert_eq!(error["details"]["game"], -5);
    assert_eq!(rows(&app), before, "nothing decided");
    let mut conn = app.state.pool.get().expect("connection");
    let status: String = cases::table
        .find(case)
        .select(cases::status)
        .first(&mut *conn)
        .expect("case");
    assert_eq!(status, "open");
}

fn token(sub: &str, exp_in: i64, iat_in: Option<i64>) -> String {
    let now = chrono::Utc::now().timestamp();
    sign(
        PLAYER_SECRET,
        &PlayerClaims {
            sub: sub.to_string(),
            exp: now + exp_in,
            iat: iat_in.map(|s| now + s),
            nbf: None,
            locale: None,
        },
    )
    .expect("sign")
}

#[actix_web::test]
async fn player_tokens_that_live_too_long_or_come_from_the_future_are_refused() {
    let app = app_with_a_game().await;
    let before = rows(&app);
    let day = 86_400;
    let body = json!({ "accused": ["b1"], "reason": "offensive_chat", "game": 900000001 });
    for (bearer, reason) in [
        (token("r1", day + 3600, Some(0)), "lifetime_too_long"),
        (token("r1", 10 * 365 * day, None), "lifetime_too_long"),
        (token("r1", 300, Some(600)), "issued_in_future"),
    ] {
        let response = app.post_json("/api/v1/reports", Some(&bearer), &body).await;
        let error = response.assert_error(401, "unauthorized");
        assert_eq!(error["details"]["reason"], reason, "{error}");
        assert!(
            !response.text().contains(&bearer),
            "the token is not echoed"
        );
        assert_eq!(
            response.header("www-authenticate").as_deref(),
            Some("Bearer")
        );
    }
    assert_eq!(rows(&app), before, "nothing stored");

    // Within the limits (the skew of 30 s is tolerated on both).
    for bearer in [
        token("r1", day, Some(0)),
        token("r1", day + 20, None),
        token("r1", 300, Some(20)),
    ] {
        let response = app.get("/api/v1/whoami", Some(&bearer)).await;
        assert_eq!(response.status, 200, "{}", response.text());
    }
}

#[actix_web::test]
async fn the_token_lifetime_is_configurable() {
    let app = TestApp::spawn_with(|s| s.auth.max_token_lifetime_secs = 600).await;
    let response = app
        .get("/api/v1/whoami", Some(&token("r1", 900, None)))
        .await;
    let error = response.assert_error(401, "unauthorized");
    assert_eq!(error["details"]["reason"], "lifetime_too_long");
    let response = app
        .get("/api/v1/whoami", Some(&token("r1", 600, None)))
        .await;
    assert_eq!(response.status, 200, "{}", response.text());
}

#[test]
fn a_bad_token_lifetime_stops_start_up_and_names_the_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    for value in ["0", "2592001", "soon"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        for (key, _) in std::env::vars() {
            if key.starts_with("ARBITER_") {
                command.env_remove(key);
            }
        }
        let mut child = command
            .current_dir(dir.path())
            .env("ARBITER_AUTH__MAX_TOKEN_LIFETIME_SECS", value)
            .env("ARBITER_SERVER__LISTEN", "127.0.0.1:0")
            .arg("serve")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run arbiter");
        // A server that starts would never exit: stop it and fail.
        let deadline = Instant::now() + Duration::from_secs(60);
        while child.try_wait().expect("wait").is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("serve started with max_token_lifetime_secs = {value}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let output = child.wait_with_output().expect("output");
        assert!(!output.status.success(), "{value}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        // figment writes an environment key in capitals.
        assert!(
            stderr
                .to_lowercase()
                .contains("auth.max_token_lifetime_secs"),
            "{value}: {stderr}"
        );
        assert!(!dir.path().join("data").exists(), "nothing created");
    }
}

#[actix_web::test]
async fn a_nul_character_is_refused_wherever_it_comes_and_nothing_is_written() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let before = rows(&app);
    let note = app
        .post_json(
            "/api/v1/admin/players/r1/notes",
            Some(&admin),
            &json!({ "text": "before\u{0}after" }),
        )
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(note["details"]["field"], "text");
    let nested = app
        .post_json(
            "/api/v1/admin/cases",
            Some(&admin),
            &json!({ "accused": "r1", "reason": "other", "note": "seen", "games": [], "x\u{0}": 1 }),
        )
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(nested["details"]["field"], "x\u{0}");
    // Text that merely shows the escape is ordinary text.
    let shown = app
        .post_json(
            "/api/v1/admin/players/r1/notes",
            Some(&admin),
            &json!({ "text": "typed \\u0000 in chat" }),
        )
        .await;
    assert_eq!(shown.status, 201, "{}", shown.text());
    app.get("/api/v1/admin/players?prefix=a%00", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    app.get("/api/v1/players/a%00b/standing", Some(&admin))
        .await
        .assert_error(400, "invalid_path");
    assert_eq!(
        rows(&app).modlog,
        before.modlog + 1,
        "only the ordinary note"
    );
}

#[actix_web::test]
async fn a_pgn4_body_with_a_nul_character_is_refused() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let before = rows(&app);
    let text = SHORT_GAME.replace("1. ", "{a\u{0}b} 1. ");
    let response = app
        .send(
            TestRequest::post()
                .uri("/api/v1/games")
                .insert_header(("authorization", format!("Bearer {server}")))
                .insert_header(("content-type", "text/plain"))
                .set_payload(text),
        )
        .await;
    response.assert_error(400, "invalid_text");
    assert_eq!(rows(&app), before);
}

/// Names that display like another player's: a zero-width space, a bidi override, a Hangul
/// filler, a control character; and one character too many.
fn impostor_names() -> Vec<String> {
    vec![
        "b\u{200B}1".to_string(),
        "\u{202E}1b".to_string(),
        "b1\u{3164}".to_string(),
        "b\u{7}1".to_string(),
        "x".repeat(65),
    ]
}

#[actix_web::test]
async fn player_names_that_can_pass_for_another_are_refused_everywhere() {
    let app = app_with_a_game().await;
    let server = app.token(TokenRole::Server, "eu-2");
    let admin = app.token(TokenRole::Admin, "alice");
    let before = rows(&app);
    for name in impostor_names() {
        // Ingest: a seat named so.
        let game = tagged_game("900000002").replace("[Blue \"b1\"]", &format!("[Blue \"{name}\"]"));
        let error = post_pgn4(&app, &server, game)
            .await
            .assert_error(422, "invalid_game");
        assert_eq!(error["details"]["field"], "seats", "{name:?}: {error}");
        // The standing check.
        let path = format!("/api/v1/players/{}/standing", utf8_percent(&name));
        app.get(&path, Some(&server))
            .await
            .assert_error(400, "invalid_path");
        // A report naming it.
        let body = json!({ "accused": [name], "reason": "offensive_chat" });
        let error = report(&app, "r1", body)
            .await
            .assert_error(422, "invalid_report");
        assert_eq!(error["details"]["field"], "accused[0]", "{name:?}: {error}");
        // The live check's sender.
        app.post_json(
            "/api/v1/chat/check",
            Some(&server),
            &json!({ "text": "gg", "sender": name }),
        )
        .await
        .assert_error(422, "invalid_sender");
        // A token named so (an admin's token carries their player name).
        app.post_json(
            "/api/v1/admin/tokens",
            Some(&admin),
            &json!({ "name": name, "role": "admin" }),
        )
        .await
        .assert_error(422, "invalid_name");
    }
    // A player token whose subject is such a name is no credential.
    let forged = token("b\u{200B}1", 600, None);
    assert_eq!(
        app.get("/api/v1/reports/mine", Some(&forged)).await.status,
        401
    );
    assert_eq!(rows(&app), before, "nothing stored");
}

/// Every byte outside the unreserved set percent-encoded, as a client puts a name in a path.
fn utf8_percent(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
