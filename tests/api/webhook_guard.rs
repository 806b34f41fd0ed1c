//! Webhooks go only where the operator allows (issue #40): URLs that point inward, in any
//! spelling or through a DNS name, are refused when subscribed and again when sent; redirects
//! are not followed; secrets and URL credentials are sealed at rest, listed nowhere, and rows
//! stored before sealing keep working and are sealed at start-up.

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use arbiter::config::Settings;
use arbiter::moderation::WebhookEventKind;
use arbiter::store::schema::webhook_subscriptions as subs;
use arbiter::store::webhook_sealing::SealingKey;
use arbiter::store::{self, webhook_subscriptions, DbPool};
use arbiter::usecases::seal_webhook_secrets::{self, SealingAccepted, SealingRefused};
use base64::Engine;
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, chat_ban};
use crate::support::{test_settings, TestApp, TestDb};
use crate::webhooks::{fast_webhooks, subscribe, verify, Receiver};

const TEST_KEY: &str = "test-webhook-sealing-key-of-32-bytes-or-more";

/// The stored (url, url_credentials, secret) of every subscription.
fn raw_rows(pool: &DbPool) -> Vec<(String, Option<String>, String)> {
    let mut conn = pool.get().expect("connection");
    subs::table
        .order(subs::id.asc())
        .select((subs::url, subs::url_credentials, subs::secret))
        .load(&mut *conn)
        .expect("rows")
}

/// A subscription written as before sealing: plain secret, credentials in the URL.
/// A subscription row as an older release wrote it, to the sanction events.
fn legacy_row(pool: &DbPool, url: &str, secret: &str) {
    let mut conn = pool.get().expect("connection");
    let target = webhook_subscriptions::StoredTarget {
        url,
        url_credentials: None,
        secret,
    };
    webhook_subscriptions::create(
        &mut conn,
        target,
        &WebhookEventKind::ALL[..4],
        "mod_anna",
        store::now(),
    )
    .expect("legacy subscription");
}

async fn refused(app: &TestApp, admin: &str, url: &str) -> Value {
    app.post_json(
        "/api/v1/admin/webhooks",
        Some(admin),
        &json!({ "url": url }),
    )
    .await
    .assert_error(422, "webhook_url_refused")
}

/// A name other than `localhost` that /etc/hosts points at 127.0.0.1, if there is one.
fn hosts_name_for_loopback() -> Option<String> {
    let hosts = std::fs::read_to_string("/etc/hosts").ok()?;
    hosts.lines().find_map(|line| {
        let mut words = line.split('#').next()?.split_whitespace();
        (words.next()? == "127.0.0.1")
            .then(|| words.find(|w| *w != "localhost" && !w.starts_with("localhost.")))
            .flatten()
            .map(str::to_string)
    })
}

#[actix_web::test]
async fn urls_pointing_inward_are_refused_in_every_spelling() {
    let app = TestApp::spawn().await;
    let alice = app.token(TokenRole::Admin, "alice");
    for (url, address, class) in [
        ("http://127.0.0.1:8080/events", "127.0.0.1", "loopback"),
        (
            "http://169.254.169.254/latest/meta-data/",
            "169.254.169.254",
            "link_local",
        ),
        ("http://2130706433/", "127.0.0.1", "loopback"),
        ("http://0x7f.1/", "127.0.0.1", "loopback"),
        ("http://[::1]:9/", "::1", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", "loopback"),
        ("http://0.0.0.0:8080/", "0.0.0.0", "unspecified"),
        ("https://10.0.0.1/hooks", "10.0.0.1", "private"),
        ("https://100.64.1.1/hooks", "100.64.1.1", "shared_nat"),
        ("http://[fd00::1]/", "fd00::1", "unique_local"),
        ("http://localhost:8080/events", "127.0.0.1", "loopback"),
    ] {
        let error = refused(&app, &alice, url).await;
        let details = &error["details"];
        assert_eq!(details["field"], "url", "{url}: {error}");
        // `localhost` may resolve to ::1 first.
        let got = details["address"].as_str().expect("address");
        assert!(
            got == address || (url.contains("ocalhost") && got == "::1"),
            "{url}: {error}"
        );
        assert_eq!(details["address_class"], class, "{url}: {error}");
        let message = error["message"].as_str().expect("message");
        assert!(message.contains("not public"), "{message}");
        assert!(message.contains("[webhooks] allowed_networks"), "{message}");
    }
    // A DNS name resolving inward names the host and the allowance for it.
    let error = refused(&app, &alice, "http://localhost:8080/events").await;
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("localhost resolves to") && m.contains("allowed_hosts")),
        "{error}"
    );
    if let Some(name) = hosts_name_for_loopback() {
        let error = refused(&app, &alice, &format!("http://{name}:8080/events")).await;
        assert_eq!(error["details"]["address"], "127.0.0.1", "{name}: {error}");
    }
    // Nothing was stored.
    let listed = app.get("/api/v1/admin/webhooks", Some(&alice)).await.json();
    assert_eq!(listed["items"], json!([]), "{listed}");
    // A public address passes (nothing is sent here: no deliverer runs).
    subscribe(&app, &alice, "https://93.184.215.14/events", None).await;
}

#[actix_web::test]
async fn the_operator_allows_networks_and_hosts() {
    let app = TestApp::spawn_with(|s| {
        s.webhooks.allowed_networks = vec!["10.1.0.0/16".into()];
        s.webhooks.allowed_hosts = vec!["localhost".into()];
    })
    .await;
    let alice = app.token(TokenRole::Admin, "alice");
    subscribe(&app, &alice, "https://10.1.2.3/hooks", None).await;
    subscribe(&app, &alice, "http://localhost:8080/hooks", None).await;
    refused(&app, &alice, "https://10.2.0.1/hooks").await;
    refused(&app, &alice, "http://127.0.0.1:8080/hooks").await;
}

#[actix_web::test]
async fn a_redirect_is_not_followed() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let target = Receiver::start(&[]);
    let redirector = Receiver::redirecting(307, &target.url());
    let (subscription, _) = subscribe(&app, &alice, &redirector.url(), None).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    chat_ban(&app, &alice, 60).await;

    let got = redirector.wait_for(2, Duration::from_secs(10)).await;
    assert!(got.len() >= 2, "retried after the 307: {got:?}");
    actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    assert!(target.received().is_empty(), "the redirect was followed");
    let deliveries = app
        .get(
            &format!("/api/v1/admin/webhooks/{subscription}/deliveries"),
            Some(&alice),
        )
        .await
        .json();
    let first = &deliveries["items"][0]["tries"][0];
    assert_eq!(first["status_code"], 307, "{deliveries}");
    assert!(
        first["error"]
            .as_str()
            .is_some_and(|e| e.contains("redirects are not followed")),
        "{deliveries}"
    );
    assert_eq!(
        deliveries["items"][0]["status"], "pending",
        "a failed attempt"
    );
}

#[actix_web::test]
async fn an_inward_url_found_at_send_time_is_recorded_and_not_sent() {
    // Written past the subscription check (as if the rules or DNS changed since).
    let (app, _server) = app_with_games(|s| {
        fast_webhooks(s);
        s.webhooks.allowed_networks.clear();
    })
    .await;
    let alice = app.token(TokenRole::Admin, "alice");
    let by_address = Receiver::start(&[]);
    let by_name = Receiver::start(&[]);
    let named = by_name.url().replace("127.0.0.1", "localhost");
    legacy_row(&app.state.pool, &by_address.url(), "whsec_a");
    legacy_row(&app.state.pool, &named, "whsec_b");
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    chat_ban(&app, &alice, 60).await;

    for (subscription, expected) in [
        (1, "address 127.0.0.1 is not public"),
        (2, "localhost resolves to"),
    ] {
        let started = std::time::Instant::now();
        let error = loop {
            let page = app
                .get(
                    &format!("/api/v1/admin/webhooks/{subscription}/deliveries"),
                    Some(&alice),
                )
                .await
                .json();
            if let Some(error) = page["items"][0]["tries"][0]["error"].as_str() {
                assert_eq!(page["items"][0]["tries"][0]["status_code"], Value::Null);
                break error.to_string();
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no attempt: {page}"
            );
            actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        };
        assert!(error.contains(expected), "{error}");
        assert!(error.contains("not sent"), "{error}");
    }
    assert!(by_address.received().is_empty() && by_name.received().is_empty());
}

#[actix_web::test]
async fn secrets_and_url_credentials_are_sealed_and_never_listed() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let url = receiver
        .url()
        .replace("http://", "http://hook:s3cret%40pass@");
    let created = app
        .post_json(
            "/api/v1/admin/webhooks",
            Some(&alice),
            &json!({ "url": url, "events": ["sanction_started"] }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    let secret = created["secret"].as_str().expect("secret once").to_string();
    assert_eq!(created["subscription"]["url"], receiver.url());
    assert_eq!(created["subscription"]["credentials"], true);

    let rows = raw_rows(&app.state.pool);
    let (stored_url, credentials, stored_secret) = &rows[0];
    assert_eq!(
        stored_url,
        &receiver.url(),
        "no credentials in the URL column"
    );
    assert!(stored_secret.starts_with("sealed:v1:"), "{stored_secret}");
    assert!(!stored_secret.contains(&secret));
    let credentials = credentials.as_deref().expect("sealed credentials");
    assert!(credentials.starts_with("sealed:v1:") && !credentials.contains("s3cret"));

    let listed = app.get("/api/v1/admin/webhooks", Some(&alice)).await;
    let text = listed.text();
    assert!(!text.contains(&secret) && !text.contains("s3cret") && !text.contains("hook:"));
    assert_eq!(listed.json()["items"][0]["credentials"], true);

    // The deliverer opens both: signed with the secret, the credentials as Basic auth.
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    chat_ban(&app, &alice, 60).await;
    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 1, "{got:?}");
    verify(&got[0], &secret);
    let basic = base64::engine::general_purpose::STANDARD.encode("hook:s3cret@pass");
    assert_eq!(
        got[0].header("Authorization"),
        Some(format!("Basic {basic}").as_str())
    );
}

#[actix_web::test]
async fn without_a_sealing_key_subscriptions_are_refused() {
    let app = TestApp::spawn_with(|s| s.webhooks.sealing_key.clear()).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let error = app
        .post_json(
            "/api/v1/admin/webhooks",
            Some(&alice),
            &json!({ "url": "https://93.184.215.14/events" }),
        )
        .await
        .assert_error(409, "webhook_sealing_not_configured");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("[webhooks] sealing_key")),
        "{error}"
    );
}

#[actix_web::test]
async fn legacy_plain_rows_keep_working_and_are_sealed_at_start_up() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let legacy_url = receiver.url().replace("http://", "http://old:pw-legacy@");
    legacy_row(&app.state.pool, &legacy_url, "whsec_legacy");
    // Listed without the credentials still in its URL.
    let listed = app.get("/api/v1/admin/webhooks", Some(&alice)).await;
    assert!(!listed.text().contains("pw-legacy"), "{}", listed.text());
    assert_eq!(listed.json()["items"][0]["url"], receiver.url());
    assert_eq!(listed.json()["items"][0]["credentials"], true);

    let pool = app.state.pool.clone();
    let mut conn = pool.get().expect("connection");
    // No key, nothing sealed: accepted as it is.
    assert_eq!(
        seal_webhook_secrets::check_and_seal(&mut conn, None, store::now()).expect("accepted"),
        SealingAccepted::NoKey { legacy: 1 }
    );
    let key = SealingKey::from_setting(TEST_KEY).expect("key");
    assert_eq!(
        seal_webhook_secrets::check_and_seal(&mut conn, Some(&key), store::now()).expect("sealed"),
        SealingAccepted::Key { sealed_now: 1 }
    );
    let rows = raw_rows(&pool);
    assert_eq!(rows[0].0, receiver.url());
    assert!(rows[0]
        .1
        .as_deref()
        .is_some_and(|c| c.starts_with("sealed:v1:")));
    assert!(rows[0].2.starts_with("sealed:v1:"));
    // Now the key is needed, and only that key.
    assert!(matches!(
        seal_webhook_secrets::check_and_seal(&mut conn, None, store::now()),
        Err(SealingRefused::Missing)
    ));
    let other = SealingKey::from_setting("another-sealing-key-of-32-bytes-at-least").expect("key");
    assert!(matches!(
        seal_webhook_secrets::check_and_seal(&mut conn, Some(&other), store::now()),
        Err(SealingRefused::Mismatch)
    ));
    drop(conn);

    // The sealed row delivers, signed with the old secret, with the old credentials.
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    chat_ban(&app, &alice, 60).await;
    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 1, "{got:?}");
    verify(&got[0], "whsec_legacy");
    let basic = base64::engine::general_purpose::STANDARD.encode("old:pw-legacy");
    assert_eq!(
        got[0].header("Authorization"),
        Some(format!("Basic {basic}").as_str())
    );
}

#[test]
fn serve_refuses_to_start_without_the_key_sealed_rows_need() {
    let db = TestDb::new();
    let settings = test_settings(&db);
    // First start: seals the legacy row and records the key's check value.
    let pool = arbiter::api::server::open_database(&settings).expect("first start");
    legacy_row(&pool, "https://93.184.215.14/e", "whsec_x");
    drop(pool);
    arbiter::api::server::open_database(&settings).expect("seals at start-up");
    let mut without = settings.clone();
    without.webhooks.sealing_key.clear();
    let error = arbiter::api::server::open_database(&without).unwrap_err();
    assert!(
        error.to_string().contains("webhooks.sealing_key"),
        "{error}"
    );
    let mut other = settings.clone();
    other.webhooks.sealing_key = "another-sealing-key-of-32-bytes-at-least".into();
    let error = arbiter::api::server::open_database(&other).unwrap_err();
    assert!(error.to_string().contains("not the key"), "{error}");
    let pool = arbiter::api::server::open_database(&settings).expect("the right key");
    assert!(raw_rows(&pool)[0].2.starts_with("sealed:v1:"));
}

#[test]
fn webhook_settings_are_validated() {
    for (toml, key) in [
        (
            "[webhooks]\nallowed_networks = [\"10.0.0.0/33\"]\n",
            "webhooks.allowed_networks",
        ),
        (
            "[webhooks]\nallowed_networks = [\"intranet\"]\n",
            "webhooks.allowed_networks",
        ),
        (
            "[webhooks]\nallowed_hosts = [\"http://x.example/\"]\n",
            "webhooks.allowed_hosts",
        ),
        (
            "[webhooks]\nsealing_key = \"short\"\n",
            "webhooks.sealing_key",
        ),
    ] {
        let error = Settings::from_toml_str(toml).unwrap_err();
        assert!(error.to_string().contains(key), "{toml}: {error}");
    }
    let s = Settings::defaults().expect("defaults");
    assert!(s.webhooks.allowed_hosts.is_empty() && s.webhooks.allowed_networks.is_empty());
    assert_eq!(s.webhooks.sealing_key, "");
    // The sealing key is hidden from `arbiter config` and from logs.
    let s = Settings::from_toml_str(&format!("[webhooks]\nsealing_key = \"{TEST_KEY}\"\n"))
        .expect("valid");
    assert!(!s.to_redacted_toml().contains(TEST_KEY));
    assert!(!format!("{s:?}").contains(TEST_KEY));
}
