//! Sanction events to game servers over real HTTP: a receiver started by the test on a local
//! port gets each event signed, retried with backoff after failures and delivered once it
//! answers; events written while no deliverer runs are delivered when one starts; ends of
//! timed sanctions are announced; a lease is held by one deliverer at a time.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use arbiter::api::webhook_signature::signature;
use arbiter::store::{self, webhook_outbox};
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, chat_ban};
use crate::support::TestApp;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Received {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A webhook receiver on a local port: answers each request with the next scripted status
/// (200 once the script runs out) and keeps what it got.
pub(crate) struct Receiver {
    addr: SocketAddr,
    got: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    pub(crate) fn start(script: &[u16]) -> Receiver {
        Receiver::start_on("127.0.0.1:0".parse().expect("address"), script)
    }

    /// A receiver on this address (port 0: any free port).
    pub(crate) fn start_on(addr: SocketAddr, script: &[u16]) -> Receiver {
        Receiver::listen(addr, script, None)
    }

    /// A receiver that answers `status` with `Location: location` to every request.
    pub(crate) fn redirecting(status: u16, location: &str) -> Receiver {
        let addr = "127.0.0.1:0".parse().expect("address");
        Receiver::listen(addr, &[status; 16], Some(location.to_string()))
    }

    fn listen(addr: SocketAddr, script: &[u16], location: Option<String>) -> Receiver {
        let listener = TcpListener::bind(addr).expect("bind");
        let addr = listener.local_addr().expect("address");
        let got = Arc::new(Mutex::new(Vec::new()));
        let statuses = Arc::new(Mutex::new(
            script.iter().copied().collect::<VecDeque<u16>>(),
        ));
        let kept = got.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut headers = Vec::new();
                let mut line = String::new();
                reader.read_line(&mut line).expect("request line");
                loop {
                    line.clear();
                    reader.read_line(&mut line).expect("header");
                    let trimmed = line.trim_end();
                    if trimmed.is_empty() {
                        break;
                    }
                    if let Some((name, value)) = trimmed.split_once(':') {
                        headers.push((name.trim().to_string(), value.trim().to_string()));
                    }
                }
                let length: usize = headers
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                let mut body = vec![0; length];
                reader.read_exact(&mut body).expect("body");
                kept.lock().expect("lock").push(Received {
                    headers,
                    body: String::from_utf8_lossy(&body).into_owned(),
                });
                let status = statuses.lock().expect("lock").pop_front().unwrap_or(200);
                let location = location
                    .as_deref()
                    .map(|l| format!("Location: {l}\r\n"))
                    .unwrap_or_default();
                let _ = stream.write_all(
                    format!(
                        "HTTP/1.1 {status} X\r\n{location}Content-Length: 0\r\nConnection: close\r\n\r\n"
                    )
                    .as_bytes(),
                );
            }
        });
        Receiver { addr, got }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}/events", self.addr)
    }

    pub(crate) fn received(&self) -> Vec<Received> {
        self.got.lock().expect("lock").clone()
    }

    pub(crate) async fn wait_for(&self, count: usize, within: Duration) -> Vec<Received> {
        let started = Instant::now();
        loop {
            let got = self.received();
            if got.len() >= count || started.elapsed() > within {
                return got;
            }
            actix_web::rt::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Lets webhooks reach the test's receivers, which listen on this machine.
pub(crate) fn allow_local(settings: &mut arbiter::config::Settings) {
    settings.webhooks.allowed_networks = vec!["127.0.0.0/8".to_string()];
}

pub(crate) fn fast_webhooks(settings: &mut arbiter::config::Settings) {
    allow_local(settings);
    settings.webhooks.poll_interval_ms = 20;
    settings.webhooks.retry_base_ms = 50;
    settings.webhooks.retry_max_ms = 200;
    settings.webhooks.timeout_ms = 2000;
}

/// The sanction events only, for tests that count what a sanction sends (a decided case also
/// announces `report_decided`, a warning `warning_issued`, an upheld teaming case
/// `refunds_due`).
pub(crate) fn sanction_events() -> Value {
    json!([
        "sanction_started",
        "sanction_reduced",
        "sanction_lifted",
        "sanction_ended"
    ])
}

pub(crate) async fn subscribe(
    app: &TestApp,
    admin: &str,
    url: &str,
    events: Option<Value>,
) -> (i64, String) {
    let mut body = json!({ "url": url });
    if let Some(events) = events {
        body["events"] = events;
    }
    let created = app
        .post_json("/api/v1/admin/webhooks", Some(admin), &body)
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    (
        created["subscription"]["id"].as_i64().expect("id"),
        created["secret"].as_str().expect("secret").to_string(),
    )
}

/// Checks `Arbiter-Signature: t=..,v1=..` against the body with the secret.
pub(crate) fn verify(received: &Received, secret: &str) {
    let header = received
        .header("Arbiter-Signature")
        .expect("signature header");
    let (t, v1) = header.split_once(',').expect("t and v1");
    let timestamp: i64 = t.trim_start_matches("t=").parse().expect("timestamp");
    let given = v1.trim_start_matches("v1=");
    assert_eq!(
        given,
        signature(secret, timestamp, &received.body),
        "signature"
    );
    assert!((chrono::Utc::now().timestamp() - timestamp).abs() < 60);
}

#[actix_web::test]
async fn a_chat_ban_reaches_the_game_server_signed_after_two_failures_once() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[500, 503]);
    let (subscription, secret) =
        subscribe(&app, &alice, &receiver.url(), Some(sanction_events())).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    let (sanction, _) = chat_ban(&app, &alice, 60).await;
    let got = receiver.wait_for(3, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 3, "{got:?}");
    // The same event each time, signed each time.
    for request in &got {
        verify(request, &secret);
        assert_eq!(request.header("Arbiter-Event"), Some("sanction_started"));
    }
    let event: Value = serde_json::from_str(&got[0].body).expect("json body");
    assert_eq!(event["type"], "sanction_started");
    assert_eq!(event["sanction"]["id"], sanction);
    assert_eq!(event["sanction"]["player"], "acc1");
    assert_eq!(event["sanction"]["kind"], "chat_ban");
    assert_eq!(event["sanction"]["in_force"], true);
    let id = event["id"].as_str().expect("event id");
    assert!(got.iter().all(|r| r.header("Arbiter-Event-Id") == Some(id)));

    // Delivered: nothing more arrives.
    actix_web::rt::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(receiver.received().len(), 3);

    let deliveries = app
        .get(
            &format!("/api/v1/admin/webhooks/{subscription}/deliveries"),
            Some(&alice),
        )
        .await;
    assert_eq!(deliveries.status, 200, "{}", deliveries.text());
    let delivery = &deliveries.json()["items"][0];
    assert_eq!(delivery["status"], "delivered", "{delivery}");
    assert_eq!(delivery["attempts"], 3);
    let codes: Vec<i64> = delivery["tries"]
        .as_array()
        .expect("tries")
        .iter()
        .filter_map(|t| t["status_code"].as_i64())
        .collect();
    assert_eq!(codes, [500, 503, 200]);

    // Lifting it is the next event.
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/sanctions/{sanction}/change"),
            Some(&alice),
            &json!({ "action": "lift", "note": "apologised" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    let got = receiver.wait_for(4, Duration::from_secs(5)).await;
    let last: Value = serde_json::from_str(&got[3].body).expect("json");
    assert_eq!(last["type"], "sanction_lifted");
    assert_eq!(last["sanction"]["in_force"], false);
    verify(&got[3], &secret);
}

#[actix_web::test]
async fn events_written_while_no_deliverer_runs_are_delivered_when_one_starts() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let (_, secret) = subscribe(
        &app,
        &alice,
        &receiver.url(),
        Some(json!(["sanction_started", "sanction_ended"])),
    )
    .await;
    let (sanction, _) = chat_ban(&app, &alice, 60).await;
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert!(receiver.received().is_empty(), "no deliverer runs yet");

    // The sanction's time runs out (moved into the past rather than waited for).
    {
        use arbiter::store::schema::sanctions;
        let mut conn = app.state.pool.get().expect("connection");
        let past = store::now() - chrono::TimeDelta::minutes(1);
        diesel::update(sanctions::table.find(sanction))
            .set((
                sanctions::starts_at.eq(past - chrono::TimeDelta::hours(1)),
                sanctions::ends_at.eq(past),
            ))
            .execute(&mut *conn)
            .expect("move the sanction into the past");
    }
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    let got = receiver.wait_for(2, Duration::from_secs(10)).await;
    let kinds: Vec<String> = got
        .iter()
        .map(|r| r.header("Arbiter-Event").unwrap_or_default().to_string())
        .collect();
    assert_eq!(kinds, ["sanction_started", "sanction_ended"], "{got:?}");
    for request in &got {
        verify(request, &secret);
    }
    // Announced once: a later look finds nothing more to say.
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), 2);
}

#[actix_web::test]
async fn a_lease_is_held_by_one_deliverer_and_revoked_subscriptions_get_nothing() {
    let (app, _server) = app_with_games(allow_local).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let never = "http://127.0.0.1:9/never";
    let (subscription, _) = subscribe(&app, &alice, never, Some(sanction_events())).await;
    chat_ban(&app, &alice, 60).await;

    let mut conn = app.state.pool.get().expect("connection");
    let now = store::now();
    let lease = chrono::TimeDelta::seconds(30);
    let first = webhook_outbox::lease_due(&mut conn, now, lease, 10).expect("lease");
    assert_eq!(first.len(), 1);
    let second = webhook_outbox::lease_due(&mut conn, now, lease, 10).expect("lease");
    assert!(second.is_empty(), "held by the first deliverer");
    // A lease that ran out (its deliverer died) is taken again.
    let later = now + chrono::TimeDelta::seconds(31);
    let again = webhook_outbox::lease_due(&mut conn, later, lease, 10).expect("lease");
    assert_eq!(again.len(), 1);
    drop(conn);

    let revoked = app
        .delete(
            &format!("/api/v1/admin/webhooks/{subscription}"),
            Some(&alice),
        )
        .await;
    assert_eq!(revoked.status, 204, "{}", revoked.text());
    let mut conn = app.state.pool.get().expect("connection");
    let much_later = now + chrono::TimeDelta::hours(1);
    assert!(webhook_outbox::lease_due(&mut conn, much_later, lease, 10)
        .expect("lease")
        .is_empty());
}

#[actix_web::test]
async fn subscriptions_refuse_bad_urls_and_events_and_never_show_the_secret_again() {
    let app = TestApp::spawn().await;
    let alice = app.token(TokenRole::Admin, "alice");
    for (url, field) in [
        ("ftp://x.example/e", "url"),
        ("not a url", "url"),
        ("/relative", "url"),
    ] {
        let refused = app
            .post_json(
                "/api/v1/admin/webhooks",
                Some(&alice),
                &json!({ "url": url }),
            )
            .await
            .assert_error(422, "invalid_subscription");
        assert_eq!(refused["details"]["field"], field, "{url}");
    }
    app.post_json(
        "/api/v1/admin/webhooks",
        Some(&alice),
        &json!({ "url": "https://x.example/e", "events": [] }),
    )
    .await
    .assert_error(422, "invalid_subscription");
    app.post_json(
        "/api/v1/admin/webhooks",
        Some(&alice),
        &json!({ "url": "https://x.example/e", "events": ["sanction_exploded"] }),
    )
    .await
    .assert_error(400, "invalid_json");

    let (id, secret) = subscribe(&app, &alice, "https://x.example/e", None).await;
    assert!(secret.starts_with("whsec_") && secret.len() > 40);
    let listed = app.get("/api/v1/admin/webhooks", Some(&alice)).await;
    assert_eq!(listed.status, 200);
    assert!(!listed.text().contains(&secret));
    assert_eq!(listed.json()["items"][0]["id"], id);
    assert_eq!(
        listed.json()["items"][0]["events"].as_array().map(Vec::len),
        Some(arbiter::moderation::WebhookEventKind::FOR_GAME_SERVERS.len()),
        "every event a game server acts on by default"
    );
    assert!(
        !listed.text().contains("case_needs_attention"),
        "alerts are asked for"
    );
    app.delete("/api/v1/admin/webhooks/999", Some(&alice))
        .await
        .assert_error(404, "subscription_not_found");
    app.get("/api/v1/admin/webhooks/999/deliveries", Some(&alice))
        .await
        .assert_error(404, "subscription_not_found");
}
