//! Test harness: a database per test (temp SQLite file, or a fresh PostgreSQL schema when
//! ARBITER_TEST_DATABASE_URL is set), the app in-process or on a real port, and helpers for
//! tokens and requests.

use std::net::SocketAddr;

use actix_http::Request;
use actix_service::boxed::BoxService;
use actix_service::ServiceExt;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header::HeaderMap;
use actix_web::test::TestRequest;
use actix_web::{web, HttpResponse, HttpServer};
use arbiter::api::app::build_app;
use arbiter::api::auth::player::{sign, PlayerClaims};
use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::api::json::ApiJson;
use arbiter::api::state::AppState;
use arbiter::config::Settings;
use arbiter::store::{self, api_tokens, migrations, DbPool};
use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};
use serde::Deserialize;
use serde_json::Value;

/// Points the tests at PostgreSQL: a server URL whose database the tests may create schemas in.
pub const PG_URL_ENV: &str = "ARBITER_TEST_DATABASE_URL";

pub const PLAYER_SECRET: &str = "test-player-secret-0123456789abcdef";

/// A database that lives as long as the test.
pub struct TestDb {
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres {
        server_url: String,
        schema: String,
    },
    /// Another test database's: it cleans up.
    Borrowed,
}

impl TestDb {
    /// PostgreSQL when ARBITER_TEST_DATABASE_URL is set, otherwise SQLite.
    pub fn new() -> TestDb {
        match postgres_url() {
            Some(url) => TestDb::postgres(&url),
            None => TestDb::sqlite(),
        }
    }

    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("arbiter.db").display());
        TestDb {
            url,
            cleanup: Cleanup::Sqlite(dir),
        }
    }

    /// A fresh schema, made the connection's search path through libpq `options`.
    pub fn postgres(server_url: &str) -> TestDb {
        let schema = format!("t_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::establish(server_url).unwrap_or_else(|e| {
            panic!("{PG_URL_ENV} is set but PostgreSQL at {server_url} is unreachable: {e}")
        });
        conn.batch_execute(&format!("CREATE SCHEMA {schema}"))
            .expect("create test schema");
        let separator = if server_url.contains('?') { '&' } else { '?' };
        let url = format!("{server_url}{separator}options=-csearch_path%3D{schema}");
        TestDb {
            url,
            cleanup: Cleanup::Postgres {
                server_url: server_url.to_string(),
                schema,
            },
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self.cleanup, Cleanup::Postgres { .. })
            || (matches!(self.cleanup, Cleanup::Borrowed) && self.url.starts_with("postgres"))
    }

    /// The same database again, for a second instance; `self` must outlive it.
    pub fn borrowed(&self) -> TestDb {
        TestDb {
            url: self.url.clone(),
            cleanup: Cleanup::Borrowed,
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { server_url, schema } = &self.cleanup {
            if let Ok(mut conn) = PgConnection::establish(server_url) {
                let _ = conn.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"));
            }
        }
    }
}

pub fn postgres_url() -> Option<String> {
    std::env::var(PG_URL_ENV)
        .ok()
        .filter(|url| !url.trim().is_empty())
}

/// Settings for tests: the defaults with the test database and a player secret.
pub fn test_settings(db: &TestDb) -> Settings {
    let mut settings = Settings::defaults().expect("default settings");
    settings.database.url = db.url.clone();
    settings.database.pool_size = 4;
    settings.auth.player_token_secret = PLAYER_SECRET.to_string();
    settings.log.level = "warn".to_string();
    settings.privacy.erasure_key = "test-erasure-key-of-at-least-32-bytes".to_string();
    settings.webhooks.sealing_key = "test-webhook-sealing-key-of-32-bytes-or-more".to_string();
    settings
}

/// A migrated pool on `settings.database`.
pub fn migrated_pool(settings: &Settings) -> DbPool {
    let pool = store::connect(&settings.database).expect("test database pool");
    let mut conn = pool.get().expect("connection");
    migrations::run_pending(&mut conn).expect("migrations");
    drop(conn);
    pool
}

/// Routes only tests mount: fault injection and an endpoint with a nested body.
pub fn test_routes(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource("/__test/panic").route(web::get().to(panicking_handler)))
        .service(web::resource("/__test/echo").route(web::post().to(echo_handler)));
}

async fn panicking_handler() -> HttpResponse {
    panic!("deliberate test panic with secret detail");
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct EchoBody {
    pub name: String,
    pub moves: Vec<EchoMove>,
}

#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct EchoMove {
    pub from: String,
    pub to: String,
}

async fn echo_handler(body: ApiJson<EchoBody>) -> HttpResponse {
    HttpResponse::Ok().json(body.into_inner())
}

type AppService = BoxService<Request, ServiceResponse, actix_web::Error>;

/// The application in-process, on its own database.
pub struct TestApp {
    pub state: web::Data<AppState>,
    service: AppService,
    // Held for its Drop, and dropped last: the pool in `state` must close before a
    // PostgreSQL schema is dropped.
    #[allow(dead_code)]
    pub db: TestDb,
}

impl TestApp {
    pub async fn spawn() -> TestApp {
        TestApp::spawn_with(|_| {}).await
    }

    pub async fn spawn_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
        let db = TestDb::new();
        let mut settings = test_settings(&db);
        adjust(&mut settings);
        let pool = migrated_pool(&settings);
        TestApp::from_parts(db, settings, pool).await
    }

    /// A second instance on this one's database, with its own state (pool, analyser, SQLite
    /// writer); drop it before `self`.
    pub async fn beside(&self) -> TestApp {
        let db = self.db.borrowed();
        let settings = (*self.state.settings).clone();
        let pool = migrated_pool(&settings);
        TestApp::from_parts(db, settings, pool).await
    }

    pub async fn from_parts(db: TestDb, settings: Settings, pool: DbPool) -> TestApp {
        let state = web::Data::new(AppState::new(settings, pool).expect("state"));
        let service = actix_web::test::init_service(build_app(state.clone(), test_routes)).await;
        let service = actix_service::boxed::service(
            service.map(|response: ServiceResponse<_>| response.map_into_boxed_body()),
        );
        TestApp { state, service, db }
    }

    /// Applies every queued game to the conduct records (what the background applier does
    /// every `[conduct] apply_interval_ms`); returns how many it took off the queue.
    pub async fn apply_conduct(&self) -> usize {
        self.state
            .apply_conduct_backlog()
            .await
            .expect("conduct applied")
    }

    /// A new API token of `role`, created through the store.
    pub fn token(&self, role: TokenRole, name: &str) -> String {
        let mut conn = self.state.pool.get().expect("connection");
        tokens::issue(&mut conn, role, name).expect("issue token").1
    }

    pub fn token_with_id(&self, role: TokenRole, name: &str) -> (i64, String) {
        let mut conn = self.state.pool.get().expect("connection");
        let (row, token) = tokens::issue(&mut conn, role, name).expect("issue token");
        (row.id, token)
    }

    /// A server token that has been revoked.
    pub fn revoked_token(&self) -> String {
        let (id, token) = self.token_with_id(TokenRole::Server, "revoked-server");
        let mut conn = self.state.pool.get().expect("connection");
        api_tokens::revoke(&mut conn, id, store::now())
            .expect("revoke")
            .expect("token exists");
        token
    }

    pub fn player_token(&self, player: &str) -> String {
        player_token(player, 300)
    }

    /// A player token whose `locale` claim names the player's language on the site.
    pub fn player_token_in(&self, player: &str, locale: &str) -> String {
        let now = chrono::Utc::now().timestamp();
        sign(
            PLAYER_SECRET,
            &PlayerClaims {
                sub: player.to_string(),
                exp: now + 300,
                iat: Some(now),
                nbf: None,
                locale: Some(locale.to_string()),
            },
        )
        .expect("sign player token")
    }

    /// Expired well beyond the allowed clock skew.
    pub fn expired_player_token(&self, player: &str) -> String {
        player_token(player, -3600)
    }

    pub async fn send(&self, request: TestRequest) -> TestResponse {
        match self.service.call(request.to_request()).await {
            Ok(response) => TestResponse::read(response).await,
            // Errors that escaped as errors (e.g. a contained panic) carry their response, as
            // the HTTP dispatcher would send it.
            Err(err) => {
                let response = err.error_response();
                let status = response.status().as_u16();
                let headers = response.headers().clone();
                let body = actix_web::body::to_bytes(response.into_body())
                    .await
                    .unwrap_or_default();
                TestResponse {
                    status,
                    headers,
                    body,
                }
            }
        }
    }

    pub async fn request(
        &self,
        method: &str,
        path: &str,
        bearer: Option<&str>,
        body: Option<&Value>,
    ) -> TestResponse {
        let method = actix_web::http::Method::from_bytes(method.as_bytes()).expect("method");
        let mut request = TestRequest::default().method(method).uri(path);
        if let Some(token) = bearer {
            request = request.insert_header(("authorization", format!("Bearer {token}")));
        }
        if let Some(body) = body {
            request = request.set_json(body);
        }
        self.send(request).await
    }

    pub async fn get(&self, path: &str, bearer: Option<&str>) -> TestResponse {
        self.request("GET", path, bearer, None).await
    }

    pub async fn post_json(&self, path: &str, bearer: Option<&str>, body: &Value) -> TestResponse {
        self.request("POST", path, bearer, Some(body)).await
    }

    pub async fn delete(&self, path: &str, bearer: Option<&str>) -> TestResponse {
        self.request("DELETE", path, bearer, None).await
    }

    /// Sends `body` as-is with a JSON content type (for malformed-body tests).
    pub async fn post_raw_json(
        &self,
        path: &str,
        bearer: Option<&str>,
        body: &str,
    ) -> TestResponse {
        let mut request = TestRequest::post()
            .uri(path)
            .insert_header(("content-type", "application/json"))
            .set_payload(body.to_string());
        if let Some(token) = bearer {
            request = request.insert_header(("authorization", format!("Bearer {token}")));
        }
        self.send(request).await
    }
}

pub fn player_token(player: &str, expires_in_secs: i64) -> String {
    let now = chrono::Utc::now().timestamp();
    sign(
        PLAYER_SECRET,
        &PlayerClaims {
            sub: player.to_string(),
            exp: now + expires_in_secs,
            iat: Some(now),
            nbf: None,
            locale: None,
        },
    )
    .expect("sign player token")
}

pub struct TestResponse {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: web::Bytes,
}

impl TestResponse {
    async fn read(response: ServiceResponse) -> TestResponse {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = actix_web::test::read_body(response).await;
        TestResponse {
            status,
            headers,
            body,
        }
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "response is not JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }

    /// Asserts the status and the envelope's code; returns the envelope's `error` object.
    #[track_caller]
    pub fn assert_error(&self, status: u16, code: &str) -> Value {
        assert_eq!(self.status, status, "body: {}", self.text());
        let body = self.json();
        let error = body
            .get("error")
            .cloned()
            .unwrap_or_else(|| panic!("no error envelope: {body}"));
        assert_eq!(error["code"], code, "envelope: {body}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
        assert!(error["details"].is_object(), "{body}");
        error
    }
}

/// A real HTTP server on an ephemeral loopback port.
pub struct LiveServer {
    pub addr: SocketAddr,
    handle: actix_web::dev::ServerHandle,
    pub app: TestApp,
}

impl LiveServer {
    pub async fn start() -> LiveServer {
        let app = TestApp::spawn().await;
        let state = app.state.clone();
        let server = HttpServer::new(move || build_app(state.clone(), test_routes))
            .workers(1)
            .shutdown_timeout(1)
            .disable_signals()
            .bind(("127.0.0.1", 0))
            .expect("bind ephemeral port");
        let addr = server.addrs()[0];
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        LiveServer { addr, handle, app }
    }

    /// Sends a raw HTTP/1.1 request and returns (status, headers+body text).
    pub async fn raw(&self, request: String) -> (u16, String) {
        let addr = self.addr;
        actix_web::rt::task::spawn_blocking(move || raw_http(addr, &request))
            .await
            .expect("blocking task")
    }

    pub async fn stop(self) {
        self.handle.stop(true).await;
    }
}

pub fn raw_http(addr: SocketAddr, request: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .expect("timeout");
    stream.write_all(request.as_bytes()).expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read response");
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {response:?}"));
    (status, response)
}
