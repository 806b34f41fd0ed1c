//! Health, readiness, metrics, request ids and the documentation page.

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::store;

use crate::support::{test_settings, TestApp, TestDb};

#[actix_web::test]
async fn healthz_and_readyz() {
    let app = TestApp::spawn().await;
    let health = app.get("/healthz", None).await;
    assert_eq!(health.status, 200);
    assert_eq!(health.json()["status"], "ok");
    let ready = app.get("/readyz", None).await;
    assert_eq!(ready.status, 200, "{}", ready.text());
    assert_eq!(ready.json()["status"], "ready");
}

#[actix_web::test]
async fn readyz_is_503_when_the_database_is_unreachable() {
    let db = TestDb::sqlite();
    let mut settings = test_settings(&db);
    // Nothing listens on port 1.
    settings.database.url = "postgres://nobody@127.0.0.1:1/none?connect_timeout=1".to_string();
    settings.database.connect_timeout_secs = 1;
    let pool = store::connect_lazy(&settings.database).expect("lazy pool");
    let app = TestApp::from_parts(db, settings, pool).await;
    assert_eq!(app.get("/healthz", None).await.status, 200);
    app.get("/readyz", None)
        .await
        .assert_error(503, "unavailable");
    // Routes that need the database say so too.
    app.get("/api/v1/whoami", Some("arb_anything"))
        .await
        .assert_error(503, "unavailable");
}

#[actix_web::test]
async fn request_ids_are_generated_or_echoed() {
    let app = TestApp::spawn().await;
    let generated = app
        .get("/healthz", None)
        .await
        .header("x-request-id")
        .expect("generated id");
    assert_eq!(generated.len(), 36, "{generated}");
    let echoed = app
        .send(
            TestRequest::get()
                .uri("/healthz")
                .insert_header(("x-request-id", "abc-123")),
        )
        .await;
    assert_eq!(echoed.header("x-request-id").as_deref(), Some("abc-123"));
    let error = app
        .send(
            TestRequest::get()
                .uri("/nope")
                .insert_header(("x-request-id", "err-1")),
        )
        .await;
    assert_eq!(error.header("x-request-id").as_deref(), Some("err-1"));
    // An unreasonable incoming id is replaced.
    let long = "x".repeat(500);
    let replaced = app
        .send(
            TestRequest::get()
                .uri("/healthz")
                .insert_header(("x-request-id", long.as_str())),
        )
        .await;
    assert_ne!(replaced.header("x-request-id"), Some(long));
}

#[actix_web::test]
async fn metrics_count_requests_by_route_pattern() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "metrics-admin");
    app.get("/healthz", None).await;
    app.get("/healthz", None).await;
    app.delete("/api/v1/admin/tokens/424242", Some(&admin))
        .await;
    app.get("/no/such/route", None).await;
    let response = app.get("/metrics", None).await;
    assert_eq!(response.status, 200);
    assert!(response
        .header("content-type")
        .unwrap_or_default()
        .starts_with("text/plain"));
    let text = response.text();
    for expected in [
        r#"arbiter_http_requests_total{method="GET",route="/healthz",status="200"} 2"#,
        r#"arbiter_http_requests_total{method="DELETE",route="/api/v1/admin/tokens/{id}",status="404"} 1"#,
        r#"arbiter_http_requests_total{method="GET",route="unmatched",status="404"} 1"#,
        r#"arbiter_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="+Inf"} 2"#,
        "arbiter_db_pool_connections ",
        "arbiter_db_pool_idle_connections ",
        "arbiter_db_pool_max_connections 4",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("424242"), "raw paths must not become labels");
}

#[actix_web::test]
async fn documentation_page_is_served_offline() {
    let app = TestApp::spawn().await;
    let page = app.get("/docs/", None).await;
    assert_eq!(page.status, 200);
    assert!(
        page.text().to_lowercase().contains("swagger"),
        "{}",
        page.text()
    );
    let script = app.get("/docs/swagger-ui-bundle.js", None).await;
    assert_eq!(script.status, 200);
    assert!(script.body.len() > 100_000, "the bundle is embedded");
    let config = app.get("/docs/swagger-initializer.js", None).await;
    assert_eq!(config.status, 200);
    assert!(
        config.text().contains("/api/v1/openapi.json"),
        "{}",
        config.text()
    );
}

/// The database file itself, without its write-ahead log.
fn sqlite_file_len(url: &str) -> u64 {
    let path = url.trim_start_matches("sqlite://");
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[actix_web::test]
async fn the_checkpointer_copies_the_log_into_the_database_file() {
    let app = TestApp::spawn_with(|s| s.database.checkpoint_interval_ms = 10).await;
    if app.db.is_postgres() {
        assert!(arbiter::api::checkpointer::spawn(app.state.clone()).is_none());
        return;
    }
    // Commits leave checkpoints to the checkpointer (until 16,384 log pages), so without it
    // the games below would stay in the log and the file would not grow.
    let mut conn = app.state.pool.get().expect("connection");
    store::checkpoint_wal(&mut conn).expect("checkpoint");
    drop(conn);
    let before = sqlite_file_len(&app.db.url);
    let server = app.token(TokenRole::Server, "eu-1");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn4/ffa");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("real games")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
        .collect();
    paths.sort();
    for path in paths.iter().take(6) {
        let pgn4 = std::fs::read_to_string(path).expect("game");
        let response = app
            .post_json(
                "/api/v1/games",
                Some(&server),
                &serde_json::json!({ "pgn4": pgn4 }),
            )
            .await;
        assert_eq!(response.status, 201, "{}", response.text());
    }
    assert_eq!(
        sqlite_file_len(&app.db.url),
        before,
        "commits did not checkpoint"
    );
    let checkpointer = arbiter::api::checkpointer::spawn(app.state.clone()).expect("SQLite");
    let started = std::time::Instant::now();
    while sqlite_file_len(&app.db.url) == before && started.elapsed().as_secs() < 20 {
        actix_web::rt::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    checkpointer.abort();
    assert!(sqlite_file_len(&app.db.url) > before, "the log was copied");
    let metrics = app.get("/metrics", None).await.text();
    assert!(
        metrics.contains("arbiter_sqlite_wal_uncheckpointed_pages 0"),
        "{metrics}"
    );
}
