//! Health, readiness, metrics (buckets, token, separate listener), request ids and the
//! documentation page.

use std::net::SocketAddr;

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::checkpointer::Checkpointer;
use arbiter::api::server::Listeners;
use arbiter::store;

use crate::support::{raw_http, test_settings, TestApp, TestDb};

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
    assert_eq!(app.get("/docs/swagger-ui.css", None).await.status, 200);
    // Only what the page loads is built in: no source maps, no other bundles.
    for absent in [
        "/docs/swagger-ui-bundle.js.map",
        "/docs/swagger-ui-es-bundle.js",
    ] {
        assert_eq!(app.get(absent, None).await.status, 404, "{absent}");
    }
}

#[actix_web::test]
async fn no_page_may_be_framed() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    for (path, bearer, status) in [
        ("/docs/", None, 200),
        ("/docs/swagger-initializer.js", None, 200),
        ("/api/v1/openapi.json", None, 200),
        ("/api/v1/whoami", Some(admin.as_str()), 200),
        ("/healthz", None, 200),
        ("/api/v1/no-such-route", None, 404),
        ("/api/v1/whoami", None, 401),
        // Refused by the middleware, before any route.
        ("/api/v1/players/a%00b/standing", None, 400),
    ] {
        let response = app.get(path, bearer).await;
        assert_eq!(response.status, status, "{path}: {}", response.text());
        assert_eq!(
            response.header("x-frame-options").as_deref(),
            Some("DENY"),
            "{path}"
        );
        assert_eq!(
            response.header("content-security-policy").as_deref(),
            Some("frame-ancestors 'none'"),
            "{path}"
        );
    }
    // The console keeps its own, fuller policy, which forbids framing too.
    let console = app.get("/admin/sign-in", None).await;
    assert_eq!(console.header("x-frame-options").as_deref(), Some("DENY"));
    assert_eq!(
        console.header("content-security-policy").as_deref(),
        Some(arbiter::api::console::CONTENT_SECURITY_POLICY)
    );
    assert!(arbiter::api::console::CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
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
        assert!(arbiter::api::jobs::job::start::<Checkpointer>(&app.state).is_none());
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
    let checkpointer = arbiter::api::jobs::job::start::<Checkpointer>(&app.state).expect("SQLite");
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

/// The cumulative count of one latency bucket of `method route` in the exposition text.
fn latency_bucket(text: &str, method: &str, route: &str, le: &str) -> u64 {
    let prefix = format!(
        "arbiter_http_request_duration_seconds_bucket{{method=\"{method}\",route=\"{route}\",le=\"{le}\"}} "
    );
    text.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in:\n{text}"))
        .parse()
        .expect("a count")
}

// Which bucket a request lands in depends on the machine, so this checks the
// exposition, not timing; `metrics::tests` checks bucket assignment with set durations.
#[actix_web::test]
async fn the_standing_check_is_counted_in_sub_millisecond_buckets() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let route = "/api/v1/players/{name}/standing";
    let requests = 20;
    for _ in 0..requests {
        let response = app
            .get("/api/v1/players/SomePlayer/standing", Some(&server))
            .await;
        assert_eq!(response.status, 200, "{}", response.text());
    }
    let text = app.get("/metrics", None).await.text();
    let bounds = [
        "0.00005", "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "10", "+Inf",
    ];
    let counts: Vec<u64> = bounds
        .iter()
        .map(|le| latency_bucket(&text, "GET", route, le))
        .collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] <= pair[1]),
        "buckets must be cumulative: {counts:?}"
    );
    assert_eq!(counts.last(), Some(&requests));
}

/// GET `path` over real HTTP, with `bearer` if given.
async fn http_get(addr: SocketAddr, path: &str, bearer: Option<&str>) -> (u16, String) {
    let auth = bearer.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\n{auth}Connection: close\r\n\r\n");
    actix_web::rt::task::spawn_blocking(move || raw_http(addr, &request))
        .await
        .expect("blocking task")
}

const SCRAPE_TOKEN: &str = "scrape-token-0123456789";

/// The app's listeners as `arbiter serve` starts them, on ephemeral loopback ports.
async fn start_listeners(app: &TestApp) -> (Listeners, actix_web::dev::ServerHandle) {
    let listeners = Listeners::start(app.state.clone(), false).expect("listeners");
    let handle = listeners.api_handle();
    (listeners, handle)
}

fn on_ephemeral_ports(settings: &mut arbiter::config::Settings) {
    settings.server.listen = "127.0.0.1:0".parse().expect("address");
    settings.server.workers = 1;
    settings.server.shutdown_timeout_secs = 1;
}

#[actix_web::test]
async fn a_metrics_token_guards_metrics_on_the_api_listener() {
    let app = TestApp::spawn_with(|s| {
        on_ephemeral_ports(s);
        s.metrics.token = SCRAPE_TOKEN.to_string();
    })
    .await;
    let (listeners, handle) = start_listeners(&app).await;
    assert!(listeners.metrics_addrs.is_empty());
    let api = listeners.api_addrs[0];
    let running = actix_web::rt::spawn(listeners.run());

    let (status, response) = http_get(api, "/metrics", None).await;
    assert_eq!(status, 401, "{response}");
    assert!(response.contains("\"reason\":\"missing\""), "{response}");
    assert!(
        response.to_lowercase().contains("www-authenticate: bearer"),
        "{response}"
    );
    let (status, response) = http_get(api, "/metrics", Some("scrape-token-012345678")).await;
    assert_eq!(status, 401, "{response}");
    assert!(response.contains("\"reason\":\"invalid\""), "{response}");
    let (status, response) = http_get(api, "/metrics", Some(SCRAPE_TOKEN)).await;
    assert_eq!(status, 200, "{response}");
    assert!(
        response.contains(
            "arbiter_http_requests_total{method=\"GET\",route=\"/metrics\",status=\"401\"} 2"
        ),
        "{response}"
    );
    // The rest of the API is untouched by the scrape token.
    assert_eq!(http_get(api, "/healthz", None).await.0, 200);

    handle.stop(true).await;
    running.await.expect("task").expect("served");
}

#[actix_web::test]
async fn a_separate_metrics_listener_serves_metrics_alone() {
    let app = TestApp::spawn_with(|s| {
        on_ephemeral_ports(s);
        s.metrics.listen = "127.0.0.1:0".to_string();
        s.metrics.token = SCRAPE_TOKEN.to_string();
    })
    .await;
    let (listeners, handle) = start_listeners(&app).await;
    let (api, metrics) = (listeners.api_addrs[0], listeners.metrics_addrs[0]);
    assert_ne!(api, metrics);
    let running = actix_web::rt::spawn(listeners.run());

    // The API listener no longer knows /metrics, with or without the token.
    for bearer in [None, Some(SCRAPE_TOKEN)] {
        let (status, response) = http_get(api, "/metrics", bearer).await;
        assert_eq!(status, 404, "{response}");
        assert!(response.contains("route_not_found"), "{response}");
    }
    assert_eq!(http_get(api, "/healthz", None).await.0, 200);

    // The metrics listener serves /metrics behind the token, and nothing else.
    assert_eq!(http_get(metrics, "/metrics", None).await.0, 401);
    let (status, response) = http_get(metrics, "/metrics", Some(SCRAPE_TOKEN)).await;
    assert_eq!(status, 200, "{response}");
    // One registry: the API listener's requests are counted there.
    assert!(
        response.contains(
            "arbiter_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1"
        ),
        "{response}"
    );
    let (status, response) = http_get(metrics, "/healthz", Some(SCRAPE_TOKEN)).await;
    assert_eq!(status, 404, "{response}");
    assert!(response.contains("route_not_found"), "{response}");
    let post = format!(
        "POST /metrics HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {SCRAPE_TOKEN}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let (status, response) = actix_web::rt::task::spawn_blocking(move || raw_http(metrics, &post))
        .await
        .expect("blocking task");
    assert_eq!(status, 405, "{response}");

    // Stopping the API listener (as SIGTERM does) stops the metrics listener too.
    handle.stop(true).await;
    running.await.expect("task").expect("served");
    assert!(
        std::net::TcpStream::connect(metrics).is_err(),
        "metrics listener closed"
    );
}

#[test]
fn metrics_settings_are_checked_at_start_up_and_the_token_is_redacted() {
    let dir = tempfile::tempdir().expect("temp dir");
    let arbiter = |vars: &[(&str, &str)], command: &str| {
        let mut run = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
        for (key, _) in std::env::vars() {
            if key.starts_with("ARBITER_") {
                run.env_remove(key);
            }
        }
        run.current_dir(dir.path())
            .envs(vars.iter().copied())
            .arg(command);
        run.output().expect("the binary runs")
    };
    for (key, value, named) in [
        ("ARBITER_METRICS__LISTEN", "localhost", "metrics.listen"),
        (
            "ARBITER_METRICS__LISTEN",
            "127.0.0.1:8080",
            "metrics.listen",
        ),
        ("ARBITER_METRICS__TOKEN", "short", "metrics.token"),
    ] {
        for command in ["config", "serve"] {
            let output = arbiter(&[(key, value)], command);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{key}={value} {command}");
            assert!(stderr.contains(named), "{key}={value} {command}: {stderr}");
        }
    }
    assert!(
        !dir.path().join("data").exists(),
        "serve stopped before the database"
    );
    let output = arbiter(
        &[
            ("ARBITER_METRICS__LISTEN", "127.0.0.1:9090"),
            ("ARBITER_METRICS__TOKEN", SCRAPE_TOKEN),
        ],
        "config",
    );
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(shown.contains("listen = \"127.0.0.1:9090\""), "{shown}");
    assert!(shown.contains("token = \"<redacted>\""), "{shown}");
    assert!(!shown.contains(SCRAPE_TOKEN), "{shown}");
}
