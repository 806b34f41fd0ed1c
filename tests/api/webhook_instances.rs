//! Webhook delivery across real `arbiter serve` processes: a killed service's pending events
//! are delivered after a restart, and two instances on one PostgreSQL database deliver every
//! event exactly once between them.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use arbiter::moderation::{
    Ground, NewSanction, ReportReason, SanctionDuration, SanctionKind, WebhookEventKind,
};
use arbiter::store::{self, players, sanctions, webhook_outbox, webhook_subscriptions, DbPool};
use chrono::Utc;

use crate::instances::start_with;
use crate::support::{migrated_pool, postgres_url, test_settings, TestDb};
use crate::webhooks::Receiver;

const SECRET: &str = "whsec_instances";

/// Fast delivery settings for the processes.
const FAST: [(&str, &str); 5] = [
    // The receivers listen on this machine.
    ("ARBITER_WEBHOOKS__ALLOWED_NETWORKS", "[\"127.0.0.0/8\"]"),
    ("ARBITER_WEBHOOKS__POLL_INTERVAL_MS", "20"),
    ("ARBITER_WEBHOOKS__RETRY_BASE_MS", "50"),
    ("ARBITER_WEBHOOKS__RETRY_MAX_MS", "100"),
    ("ARBITER_WEBHOOKS__TIMEOUT_MS", "1000"),
];

fn subscribe(pool: &DbPool, url: &str) {
    let mut conn = pool.get().expect("connection");
    // A plain row, as written before sealing: it keeps working (a legacy value).
    let target = webhook_subscriptions::StoredTarget {
        url,
        url_credentials: None,
        secret: SECRET,
    };
    webhook_subscriptions::create(
        &mut conn,
        target,
        &WebhookEventKind::ALL,
        "mod_anna",
        store::now(),
    )
    .expect("subscription");
}

/// `count` chat bans, each announced as the decision would (sanction and event together).
fn ban(pool: &DbPool, count: usize) {
    let mut conn = pool.get().expect("connection");
    for n in 0..count {
        let now = store::now();
        let player = players::id_or_create(&mut conn, &format!("p{n}"), now).expect("player");
        let admin = players::id_or_create(&mut conn, "mod_anna", now).expect("admin");
        let sanction = NewSanction {
            player,
            kind: SanctionKind::ChatBan,
            reason: ReportReason::OffensiveChat,
            ground: Ground::Harassment,
            starts_at: Utc::now(),
            duration: SanctionDuration::hours(24),
        };
        let id = sanctions::insert(&mut conn, &sanction, None, admin, "test").expect("sanction");
        webhook_outbox::emit(&mut conn, WebhookEventKind::SanctionStarted, id, now).expect("event");
    }
}

fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address")
}

fn wait_for(receiver: &Receiver, count: usize, within: Duration) -> usize {
    let started = Instant::now();
    loop {
        let got = receiver.received().len();
        if got >= count || started.elapsed() > within {
            return got;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn database() -> TestDb {
    match postgres_url() {
        Some(url) => TestDb::postgres(&url),
        None => TestDb::sqlite(),
    }
}

#[test]
fn a_killed_service_delivers_its_pending_events_after_a_restart() {
    let db = database();
    let pool = migrated_pool(&test_settings(&db));
    // Nothing listens at the receiver's address yet: every attempt fails.
    let addr = closed_port();
    subscribe(&pool, &format!("http://{addr}/events"));
    let first = start_with(&db.url, &FAST);
    ban(&pool, 3);
    let started = Instant::now();
    let tried = |pool: &DbPool| {
        use arbiter::store::schema::webhook_attempts;
        use diesel::prelude::*;
        let mut conn = pool.get().expect("connection");
        webhook_attempts::table
            .count()
            .get_result::<i64>(&mut *conn)
            .expect("attempts")
    };
    while tried(&pool) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no attempts made"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(first); // killed (SIGKILL), with its deliveries pending

    let receiver = Receiver::start_on(addr, &[]);
    let _second = start_with(&db.url, &FAST);
    assert_eq!(wait_for(&receiver, 3, Duration::from_secs(20)), 3);
    // The receiver answers before the deliverer records the delivery: wait for the records.
    let mut conn = pool.get().expect("connection");
    let recorded = Instant::now();
    let page = loop {
        let page = webhook_outbox::deliveries_page(&mut conn, 1, None, 10).expect("deliveries");
        if page.iter().all(|d| d.status == "delivered")
            || recorded.elapsed() > Duration::from_secs(20)
        {
            break page;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(page.iter().all(|d| d.status == "delivered"), "{page:?}");
    assert!(
        page.iter().all(|d| d.attempts >= 2),
        "failed before, delivered after"
    );
}

#[test]
fn two_instances_on_one_postgres_database_deliver_each_event_once() {
    let Some(url) = postgres_url() else {
        eprintln!("skipped: two instances need a shared PostgreSQL database");
        return;
    };
    let db = TestDb::postgres(&url);
    let pool = migrated_pool(&test_settings(&db));
    let receiver = Receiver::start(&[]);
    subscribe(&pool, &receiver.url());
    let instances = [start_with(&db.url, &FAST), start_with(&db.url, &FAST)];
    ban(&pool, 60);
    assert_eq!(wait_for(&receiver, 60, Duration::from_secs(30)), 60);
    // A moment more: a second sending of any event would arrive now.
    std::thread::sleep(Duration::from_millis(500));
    drop(instances);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for request in receiver.received() {
        let id = request
            .header("Arbiter-Event-Id")
            .expect("event id")
            .to_string();
        *seen.entry(id).or_default() += 1;
    }
    assert_eq!(seen.len(), 60);
    assert!(seen.values().all(|n| *n == 1), "an event arrived twice");
    // One attempt each, recorded once.
    use arbiter::store::schema::webhook_attempts;
    use diesel::prelude::*;
    let mut conn = pool.get().expect("connection");
    let attempts: i64 = webhook_attempts::table
        .count()
        .get_result(&mut *conn)
        .expect("attempts");
    assert_eq!(attempts, 60);
}
