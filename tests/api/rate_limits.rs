//! `[limits]`: requests per client address and per credential, 401s per address, and the
//! console's growing wait and lockout after failed sign-ins; each refusal a 429 with
//! `Retry-After`, and other addresses and credentials served meanwhile. In-process, with the
//! client address set on each request (the HTTP server sets it from the connection).

use std::net::SocketAddr;

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;

use crate::console::Browser;
use crate::support::{TestApp, TestResponse};

fn from(address: &str) -> SocketAddr {
    format!("{address}:40000").parse().expect("address")
}

async fn get_from(app: &TestApp, address: &str, bearer: &str) -> TestResponse {
    app.send(
        TestRequest::get()
            .uri("/api/v1/players/Somebody/standing")
            .peer_addr(from(address))
            .insert_header(("authorization", format!("Bearer {bearer}"))),
    )
    .await
}

fn assert_limited(response: &TestResponse, limit: &str) {
    let error = response.assert_error(429, "rate_limited");
    assert_eq!(error["details"]["limit"], limit, "{error}");
    let retry: u64 = response
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!(retry >= 1, "{retry}");
}

#[actix_web::test]
async fn an_address_over_its_rate_is_refused_and_others_are_served() {
    let app = TestApp::spawn_with(|s| {
        s.limits.address_per_second = 1;
        s.limits.address_burst = 3;
    })
    .await;
    let server = app.token(TokenRole::Server, "eu-1");
    for _ in 0..3 {
        assert_eq!(get_from(&app, "198.51.100.1", &server).await.status, 200);
    }
    assert_limited(&get_from(&app, "198.51.100.1", &server).await, "address");
    assert_eq!(get_from(&app, "198.51.100.2", &server).await.status, 200);
}

#[actix_web::test]
async fn a_credential_over_its_rate_is_refused_from_any_address() {
    let app = TestApp::spawn_with(|s| {
        s.limits.credential_per_second = 1;
        s.limits.credential_burst = 2;
    })
    .await;
    let busy = app.token(TokenRole::Server, "eu-1");
    let other = app.token(TokenRole::Server, "eu-2");
    assert_eq!(get_from(&app, "198.51.100.1", &busy).await.status, 200);
    assert_eq!(get_from(&app, "198.51.100.2", &busy).await.status, 200);
    assert_limited(&get_from(&app, "198.51.100.3", &busy).await, "credential");
    assert_eq!(get_from(&app, "198.51.100.3", &other).await.status, 200);
}

#[actix_web::test]
async fn an_address_guessing_tokens_is_refused_even_with_a_good_one() {
    let app = TestApp::spawn_with(|s| s.limits.failed_auth_per_minute = 3).await;
    let good = app.token(TokenRole::Server, "eu-1");
    for guess in 0..3 {
        let response = get_from(&app, "203.0.113.9", &format!("guess-{guess}")).await;
        response.assert_error(401, "unauthorized");
    }
    assert_limited(
        &get_from(&app, "203.0.113.9", "guess-4").await,
        "failed_authentication",
    );
    assert_limited(
        &get_from(&app, "203.0.113.9", &good).await,
        "failed_authentication",
    );
    assert_eq!(get_from(&app, "203.0.113.10", &good).await.status, 200);
}

#[actix_web::test]
async fn failed_sign_ins_wait_longer_each_time_then_lock_the_address_out() {
    let app = TestApp::spawn_with(|s| {
        s.limits.sign_in_delay_ms = 60_000;
        s.limits.sign_in_lockout_failures = 2;
        s.limits.sign_in_lockout_secs = 900;
    })
    .await;
    let admin = app.token(TokenRole::Admin, "alice");
    let mut guesser = Browser::new(&app);
    guesser.peer = Some(from("192.0.2.7"));

    let first = guesser.sign_in("not-a-token").await;
    assert_eq!(first.status, 401, "{}", first.text());
    // The right token does not help during the wait: the address must wait it out.
    let waiting = guesser.sign_in(&admin).await;
    assert_eq!(waiting.status, 429, "{}", waiting.text());
    let retry: u64 = waiting
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((59..=60).contains(&retry), "{retry}");
    assert!(waiting.text().contains("Too many failed sign-ins"));

    // Another address signs in at once.
    let mut admin_browser = Browser::new(&app);
    admin_browser.peer = Some(from("192.0.2.8"));
    let signed_in = admin_browser.sign_in(&admin).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.text());
}

#[test]
fn the_wait_doubles_up_to_the_lockout() {
    use arbiter::api::limits::sign_in::SignInPolicy;
    use std::time::Duration;
    let policy = SignInPolicy {
        delay: Duration::from_secs(1),
        lockout_failures: 10,
        lockout: Duration::from_secs(900),
    };
    let waits: Vec<u64> = (1..=11).map(|n| policy.delay_after(n).as_secs()).collect();
    assert_eq!(waits, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
}
