//! The write path: on SQLite every write of the server takes its turn at one writer, first
//! come first served, and a write that cannot get its turn in time answers 503 `busy` with
//! `Retry-After` and writes nothing; concurrent games, reports and reads never answer 5xx.

use std::time::Duration;

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::error::ApiError;
use arbiter::api::jobs::conduct_applier::ConductApplier;
use diesel::prelude::*;
use serde_json::json;

use crate::support::{TestApp, TestResponse};

fn game_text(number: i64, seats: [&str; 4]) -> String {
    format!(
        "[GameNr \"{number}\"]\n[TimeControl \"1+15D\"]\n[Variant \"FFA\"]\n\
         [RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n[Red \"{}\"]\n[Blue \"{}\"]\n\
         [Yellow \"{}\"]\n[Green \"{}\"]\n\n1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. T\n",
        seats[0], seats[1], seats[2], seats[3]
    )
}

async fn post_game(app: &TestApp, server: &str, number: i64) -> TestResponse {
    let seats = [
        format!("r{number}"),
        format!("b{number}"),
        format!("y{number}"),
        format!("g{number}"),
    ];
    let seats = [
        seats[0].as_str(),
        seats[1].as_str(),
        seats[2].as_str(),
        seats[3].as_str(),
    ];
    app.send(
        TestRequest::post()
            .uri("/api/v1/games")
            .insert_header(("authorization", format!("Bearer {server}")))
            .insert_header(("content-type", "text/plain"))
            .set_payload(game_text(number, seats)),
    )
    .await
}

/// Red of game `number` reports its Blue.
async fn file_report(app: &TestApp, number: i64) -> TestResponse {
    let body =
        json!({ "accused": [format!("b{number}")], "reason": "offensive_chat", "game": number });
    app.post_json(
        "/api/v1/reports",
        Some(&app.player_token(&format!("r{number}"))),
        &body,
    )
    .await
}

fn report_count(app: &TestApp) -> i64 {
    use arbiter::store::schema::reports;
    let mut conn = app.state.pool.get().expect("connection");
    reports::table
        .count()
        .get_result(&mut *conn)
        .expect("count")
}

#[actix_web::test]
async fn a_write_that_waits_past_the_deadline_answers_503_busy_and_writes_nothing() {
    let app = TestApp::spawn_with(|s| s.database.write_deadline_ms = 100).await;
    if app.db.is_postgres() {
        // PostgreSQL's writers share the pool and wait for row locks: there is no turn.
        return;
    }
    let server = app.token(TokenRole::Server, "eu-1");
    assert_eq!(post_game(&app, &server, 101).await.status, 201);
    // Another write holds the turn for much longer than the deadline.
    let state = app.state.clone();
    let holder = actix_web::rt::spawn(async move {
        state
            .write(|_| {
                std::thread::sleep(Duration::from_millis(1500));
                Ok::<_, ApiError>(())
            })
            .await
    });
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    let refused = file_report(&app, 101).await;
    let error = refused.assert_error(503, "busy");
    assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    assert_eq!(error["details"]["retry_after_secs"], 1);
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("nothing was written")),
        "{error}"
    );
    assert_eq!(report_count(&app), 0);
    // Reads go on meanwhile: they never wait for the writer.
    let standing = app
        .get("/api/v1/players/r101/standing", Some(&server))
        .await;
    assert_eq!(standing.status, 200, "{}", standing.text());
    holder.await.expect("holder").expect("held write");
    let filed = file_report(&app, 101).await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    assert_eq!(report_count(&app), 1);
}

#[actix_web::test]
async fn concurrent_games_reports_and_reads_never_answer_5xx() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    const N: i64 = 40;
    for number in 1..=N {
        assert_eq!(post_game(&app, &server, number).await.status, 201);
    }
    // Games, reports and standing checks all at once; the conduct applier too.
    let applier = arbiter::api::jobs::job::start::<ConductApplier>(&app.state).expect("always");
    let games = (N + 1..=3 * N).map(|n| post_game(&app, &server, n));
    let reports = (1..=N).map(|n| file_report(&app, n));
    let path = |n: i64| format!("/api/v1/players/g{n}/standing");
    let paths: Vec<String> = (1..=N).map(path).collect();
    let reads = paths.iter().map(|p| app.get(p, Some(&server)));
    let (games, reports, reads) = futures_util::future::join3(
        futures_util::future::join_all(games),
        futures_util::future::join_all(reports),
        futures_util::future::join_all(reads),
    )
    .await;
    applier.abort();
    for response in games.iter().chain(&reports).chain(&reads) {
        assert!(response.status < 500, "{}", response.text());
    }
    assert!(games.iter().all(|r| r.status == 201));
    assert!(reports.iter().all(|r| r.status == 201));
    assert_eq!(report_count(&app), N);
}
