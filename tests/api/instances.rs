//! Two `arbiter serve` processes on one PostgreSQL database, both taking games and both
//! applying conduct: the records they leave equal a rebuild from the archive. Runs on
//! PostgreSQL only (a SQLite file has one server).

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::archive::AbortPreset;
use arbiter::cli::conduct::rebuild;
use arbiter::conduct::ConductPolicy;
use arbiter::store::conduct;

use crate::conduct::generated_games;
use crate::support::{migrated_pool, postgres_url, raw_http, test_settings, TestDb, PLAYER_SECRET};

/// A server process, killed when dropped.
pub(crate) struct Instance {
    child: Child,
    pub(crate) addr: SocketAddr,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address")
}

fn start(database_url: &str) -> Instance {
    start_with(database_url, &[])
}

/// `arbiter serve` on a free port with these settings besides the test's own.
pub(crate) fn start_with(database_url: &str, settings: &[(&str, &str)]) -> Instance {
    let addr = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("serve")
        .envs(settings.iter().copied())
        .env("ARBITER_DATABASE__URL", database_url)
        .env("ARBITER_SERVER__LISTEN", addr.to_string())
        .env("ARBITER_SERVER__WORKERS", "2")
        .env("ARBITER_CONDUCT__APPLY_INTERVAL_MS", "20")
        .env("ARBITER_CONDUCT__APPLY_BATCH", "17")
        .env("ARBITER_AUTH__PLAYER_TOKEN_SECRET", PLAYER_SECRET)
        .env("ARBITER_LOG__LEVEL", "warn")
        .stdout(Stdio::null())
        .spawn()
        .expect("arbiter serve");
    let instance = Instance { child, addr };
    let started = Instant::now();
    loop {
        let ready = std::net::TcpStream::connect(addr).is_ok()
            && raw_http(
                addr,
                "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            )
            .0 == 200;
        if ready {
            return instance;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "arbiter serve did not get ready"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn post(addr: SocketAddr, token: &str, body: &str) -> u16 {
    let request = format!(
        "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    raw_http(addr, &request).0
}

#[test]
fn two_servers_on_one_postgres_database_leave_the_records_a_rebuild_gives() {
    let Some(server_url) = postgres_url() else {
        eprintln!(
            "skipped: two servers need a shared PostgreSQL database (ARBITER_TEST_DATABASE_URL)"
        );
        return;
    };
    let db = TestDb::postgres(&server_url);
    let settings = test_settings(&db);
    let pool = migrated_pool(&settings);
    let token = {
        let mut conn = pool.get().expect("connection");
        tokens::issue(&mut conn, TokenRole::Server, "eu-1")
            .expect("token")
            .1
    };
    let instances = [start(&db.url), start(&db.url)];
    // The same players throughout, so both appliers contend for the same records.
    let games: Vec<String> = generated_games(23, 300, 960_000_000)
        .into_iter()
        .map(|g| g.to_string())
        .collect();
    std::thread::scope(|scope| {
        for (half, instance) in instances.iter().enumerate() {
            let (games, token) = (&games, &token);
            scope.spawn(move || {
                for body in games.iter().skip(half).step_by(2) {
                    assert_eq!(post(instance.addr, token, body), 201);
                }
            });
        }
    });
    let mut conn = pool.get().expect("connection");
    let started = Instant::now();
    while conduct::pending_count(&mut conn).expect("queue") > 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the appliers did not empty the queue"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Both took part: each instance's applier applied some of the games.
    for instance in &instances {
        let (_, metrics) = raw_http(
            instance.addr,
            "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        let applied: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix("arbiter_conduct_applied_games_total "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0);
        assert!(applied > 0.0, "an instance applied no games:\n{metrics}");
    }
    drop(instances);
    let records = conduct::all_records(&mut conn).expect("records");
    let outcomes = conduct::all_outcomes(&mut conn).expect("outcomes");
    assert_eq!(outcomes.len(), games.len() * 4);
    let policy = ConductPolicy::default();
    let report = rebuild(&mut conn, AbortPreset::Seed001, &policy, 100, |_| {}).expect("rebuild");
    assert_eq!(report.games as usize, games.len());
    assert_eq!(conduct::all_records(&mut conn).expect("records"), records);
    assert_eq!(
        conduct::all_outcomes(&mut conn).expect("outcomes"),
        outcomes
    );
}
