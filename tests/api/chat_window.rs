//! The rolling-window chat report: report-worthy lines recurring across a player's recent
//! games, each game below the per-game thresholds (defaults: 3 of the last 10 games).

use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::automatic_reports::{raised_by_game, supporting_games, AutomaticReportRow};
use arbiter::store::schema::automatic_reports;
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::support::TestApp;

/// Every game here is the same real game under a new number, so its four players would look
/// like pairs who play identically again and again: collusion statistics are off.
async fn spawn() -> TestApp {
    TestApp::spawn_with(|s| s.collusion.enabled = false).await
}

const FFA_GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
);

/// Medium harassment: report-worthy, but below `report_min_severity` (high), and one line is
/// below `report_repeat_lines` (3).
const BAD_LINE: &str = "learn to play noob";

/// The real game under game number `104500000 + n`, played on day `n`, with one line by
/// Spaksi (Red): `BAD_LINE` when `bad`, else a friendly one.
fn game(n: u32, bad: bool, extra: Option<&str>) -> Value {
    let text = std::fs::read_to_string(FFA_GAME)
        .expect("game record")
        .replace("[GameNr \"104071136\"]", "");
    let mut chat = vec![json!({ "ply": 8, "sender": "Spaksi", "channel": "game",
        "text": if bad { BAD_LINE } else { "good luck everyone" } })];
    if let Some(line) = extra {
        chat.push(json!({ "ply": 12, "sender": "Spaksi", "channel": "game", "text": line }));
    }
    json!({
        "pgn4": text,
        "site_game_id": (104_500_000 + n).to_string(),
        "ended_at": format!("2026-05-{:02}T12:00:00Z", n),
        "chat": chat,
    })
}

async fn ingest(app: &TestApp, token: &str, body: &Value) -> i64 {
    let response = app.post_json("/api/v1/games", Some(token), body).await;
    assert_eq!(response.status, 201, "{}", response.text());
    response.json()["id"].as_i64().expect("id")
}

fn window_reports(app: &TestApp) -> Vec<AutomaticReportRow> {
    let mut conn = app.state.pool.get().expect("connection");
    automatic_reports::table
        .filter(automatic_reports::rule.eq("rolling_window"))
        .order(automatic_reports::id.asc())
        .select(AutomaticReportRow::as_select())
        .load(&mut *conn)
        .expect("window reports")
}

fn reports_of(app: &TestApp, game_id: i64) -> Vec<AutomaticReportRow> {
    let mut conn = app.state.pool.get().expect("connection");
    raised_by_game(&mut conn, game_id).expect("reports")
}

fn games_of(app: &TestApp, report_id: i64) -> Vec<i64> {
    let mut conn = app.state.pool.get().expect("connection");
    supporting_games(&mut conn, report_id).expect("supporting games")
}

#[actix_web::test]
async fn third_bad_game_in_the_window_raises_one_report_listing_every_game() {
    let app = spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");

    let g1 = ingest(&app, &server, &game(1, true, None)).await;
    let g2 = ingest(&app, &server, &game(2, false, None)).await;
    let g3 = ingest(&app, &server, &game(3, true, None)).await;
    // Each game alone is below the per-game rules, and two bad games are below the window.
    for id in [g1, g2, g3] {
        assert!(
            reports_of(&app, id).is_empty(),
            "{:?}",
            reports_of(&app, id)
        );
    }
    let g4 = ingest(&app, &server, &game(4, true, None)).await;
    let window = window_reports(&app);
    assert_eq!(window.len(), 1, "{window:?}");
    let report = &window[0];
    assert_eq!(report.player, "Spaksi");
    assert_eq!(report.game_id, g4);
    assert_eq!(report.reason, "offensive_chat");
    assert_eq!(report.source, "chat_analysis");
    assert!(report.score >= 0.5 && report.score <= 1.0, "{report:?}");
    assert!(
        report.summary.contains("3 of Spaksi's last 4 games"),
        "{report:?}"
    );
    assert_eq!(games_of(&app, report.id), vec![g1, g3, g4]);
    // The window report is the only report of game 4.
    assert_eq!(reports_of(&app, g4).len(), 1);

    // The next bad game adds one new game: no second report.
    let g5 = ingest(&app, &server, &game(5, true, None)).await;
    assert!(
        reports_of(&app, g5).is_empty(),
        "{:?}",
        reports_of(&app, g5)
    );
    let g6 = ingest(&app, &server, &game(6, true, None)).await;
    assert!(reports_of(&app, g6).is_empty());
    assert_eq!(window_reports(&app).len(), 1);
    // Three games no window report lists yet: a second report with the whole window.
    let g7 = ingest(&app, &server, &game(7, true, None)).await;
    let window = window_reports(&app);
    assert_eq!(window.len(), 2, "{window:?}");
    assert_eq!(window[1].game_id, g7);
    assert_eq!(games_of(&app, window[1].id), vec![g1, g3, g4, g5, g6, g7]);
}

#[actix_web::test]
async fn one_bad_game_among_many_raises_no_window_report() {
    let app = spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    for n in 1..=8 {
        ingest(&app, &server, &game(n, n == 4, None)).await;
    }
    assert!(
        window_reports(&app).is_empty(),
        "{:?}",
        window_reports(&app)
    );
    let mut conn = app.state.pool.get().expect("connection");
    let all: i64 = automatic_reports::table
        .count()
        .get_result(&mut *conn)
        .expect("count");
    assert_eq!(all, 0);
}

#[actix_web::test]
async fn games_with_a_per_game_report_count_in_the_window() {
    let app = spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    // Game 1 also has a severe line: it raises `severe_line` on its own.
    let g1 = ingest(
        &app,
        &server,
        &game(1, true, Some("shut up and kill yourself")),
    )
    .await;
    let first = reports_of(&app, g1);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].rule, "severe_line");
    let g2 = ingest(&app, &server, &game(2, true, None)).await;
    let g3 = ingest(&app, &server, &game(3, true, None)).await;
    let window = window_reports(&app);
    assert_eq!(window.len(), 1, "{window:?}");
    assert_eq!(window[0].game_id, g3);
    assert_eq!(games_of(&app, window[0].id), vec![g1, g2, g3]);
}
