//! Alerts to admins' channels (docs/moderation.md, "Alerts"): a rule fires once per case as a
//! stored alert and a signed `case_needs_attention` event to the subscriptions that ask for
//! it; the rules that wait hours are tested by moving the instance's clock; admins list and
//! acknowledge alerts. On both databases (ARBITER_TEST_DATABASE_URL).

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::alerter::alert_pass;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use arbiter::moderation::policy::DEFAULT_POLICY_TOML;
use chrono::TimeDelta;
use serde_json::{json, Value};

use crate::moderation::app_with_games;
use crate::support::TestApp;
use crate::webhooks::{fast_webhooks, subscribe, verify, Receiver};

/// The default policy with its `[alerts]` rules replaced by `rules`.
fn policy_with_rules(rules: &str) -> tempfile::NamedTempFile {
    let (head, _) = DEFAULT_POLICY_TOML
        .split_once("\n[alerts]")
        .expect("the default policy has [alerts]");
    let text = format!("{head}\n[alerts]\ncheck_every_secs = 3600\nrules = [{rules}]\n");
    let file = tempfile::NamedTempFile::new().expect("temp policy");
    std::fs::write(file.path(), text).expect("write policy");
    file
}

async fn app_with_rules(rules: &str) -> (TestApp, tempfile::NamedTempFile) {
    let policy = policy_with_rules(rules);
    let path = policy.path().display().to_string();
    // Players who have played (rep, acc1, acc2, acc3): admins open cases about them.
    let (app, _server) = app_with_games(move |settings| {
        fast_webhooks(settings);
        settings.moderation.policy_file = path;
        settings.console.public_url = "https://mod.example.org".to_string();
    })
    .await;
    (app, policy)
}

/// An admin's own entry opens a case (priority: reason `other` 12, an admin's evidence 15).
async fn open_case(app: &TestApp, admin: &str, accused: &str) -> i64 {
    let opened = app
        .post_json(
            "/api/v1/admin/cases",
            Some(admin),
            &json!({ "accused": accused, "reason": "other", "note": "seen in the lobby, threatening" }),
        )
        .await;
    assert_eq!(opened.status, 201, "{}", opened.text());
    opened.json()["case_id"].as_i64().expect("case id")
}

async fn pass(app: &TestApp) -> usize {
    alert_pass(&app.state)
        .await
        .expect("alert pass")
        .fired
        .len()
}

async fn alerts(app: &TestApp, admin: &str, query: &str) -> Vec<Value> {
    let listed = app
        .get(&format!("/api/v1/admin/alerts{query}"), Some(admin))
        .await;
    assert_eq!(listed.status, 200, "{}", listed.text());
    listed.json()["items"].as_array().expect("items").clone()
}

#[actix_web::test]
async fn a_case_reaching_the_priority_alerts_once_signed_with_a_ready_message() {
    let (app, _policy) = app_with_rules(r#"{ name = "critical", min_priority = 25.0 }"#).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let (_, secret) = subscribe(
        &app,
        &alice,
        &receiver.url(),
        Some(json!(["case_needs_attention"])),
    )
    .await;
    // A subscription made without a list is a game server's: it gets no alerts.
    let game_server = Receiver::start(&[]);
    subscribe(&app, &alice, &game_server.url(), None).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    let case = open_case(&app, &alice, "acc1").await;
    assert_eq!(pass(&app).await, 1);
    // Not again on the next look, nor after the case gains evidence.
    assert_eq!(pass(&app).await, 0);
    open_case(&app, &alice, "acc1").await;
    assert_eq!(pass(&app).await, 0);

    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(got.len(), 1, "{got:?}");
    verify(&got[0], &secret);
    assert_eq!(got[0].header("Arbiter-Event"), Some("case_needs_attention"));
    let event: Value = serde_json::from_str(&got[0].body).expect("json");
    assert_eq!(event["type"], "case_needs_attention");
    assert_eq!(event["alert"]["rule"], "critical");
    assert_eq!(event["alert"]["case"]["id"], case);
    assert_eq!(event["alert"]["case"]["reason"], "other");
    let message = event["alert"]["message"].as_str().expect("message");
    assert_eq!(
        message,
        format!("Case {case} (other) reached priority 27 [critical]: https://mod.example.org/admin/cases/{case}")
    );
    assert!(
        !message.contains("acc1"),
        "a channel message names no player"
    );
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), 1);
    assert!(game_server.received().is_empty());

    let listed = alerts(&app, &alice, "").await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["message"], message);
    assert_eq!(listed[0]["case_id"], case);
}

#[actix_web::test]
async fn a_case_left_unclaimed_two_hours_alerts_once_and_is_acknowledged() {
    let (app, _policy) = app_with_rules(
        r#"{ name = "unclaimed_2h", unclaimed_hours = 2 },
           { name = "undecided_3h", undecided_hours = 3 }"#,
    )
    .await;
    let alice = app.token(TokenRole::Admin, "alice");
    // The rules start from their first look: older cases are not a flood.
    assert_eq!(pass(&app).await, 0);
    let waiting = open_case(&app, &alice, "acc1").await;
    open_case(&app, &alice, "acc2").await;
    assert_eq!(pass(&app).await, 0);

    app.state.clock.advance(TimeDelta::minutes(119));
    assert_eq!(pass(&app).await, 0, "not before two hours");
    app.state.clock.advance(TimeDelta::minutes(2));
    assert_eq!(pass(&app).await, 2, "each case, once");
    assert_eq!(pass(&app).await, 0, "once per case and rule");

    app.state.clock.advance(TimeDelta::hours(1));
    assert_eq!(
        pass(&app).await,
        2,
        "the undecided rule fires for each case"
    );
    assert_eq!(pass(&app).await, 0);

    let open = alerts(&app, &alice, "?unacknowledged=true").await;
    assert_eq!(open.len(), 4);
    let unclaimed: Vec<&Value> = open
        .iter()
        .filter(|a| a["rule"] == "unclaimed_2h")
        .collect();
    assert_eq!(unclaimed.len(), 2);
    let first = unclaimed
        .iter()
        .find(|a| a["case_id"] == waiting)
        .expect("waiting case");
    assert!(first["message"]
        .as_str()
        .expect("message")
        .contains("has waited 2 h without a claim"));

    let id = first["id"].as_i64().expect("id");
    let acknowledged = app
        .post_json(
            &format!("/api/v1/admin/alerts/{id}/acknowledgement"),
            Some(&alice),
            &json!({}),
        )
        .await;
    assert_eq!(acknowledged.status, 200, "{}", acknowledged.text());
    assert_eq!(acknowledged.json()["acknowledged_by"], "alice");
    // Again, by someone else: the first acknowledgement stands.
    let again = app
        .post_json(
            &format!("/api/v1/admin/alerts/{id}/acknowledgement"),
            Some(&app.token(TokenRole::Admin, "bob")),
            &json!({}),
        )
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["acknowledged_by"], "alice");
    assert_eq!(alerts(&app, &alice, "?unacknowledged=true").await.len(), 3);
    assert_eq!(alerts(&app, &alice, "").await.len(), 4);
    let missing = app
        .post_json(
            "/api/v1/admin/alerts/999999/acknowledgement",
            Some(&alice),
            &json!({}),
        )
        .await;
    assert_eq!(missing.status, 404);

    arbiter::api::jobs::alerter::refresh_gauges(&app.state)
        .await
        .expect("gauges");
    let metrics = app.get("/metrics", None).await.text();
    assert!(
        metrics.contains("arbiter_alerts_unacknowledged 3"),
        "{metrics}"
    );
    assert!(
        metrics.contains("arbiter_open_cases{reason=\"other\"} 2"),
        "{metrics}"
    );
    assert!(metrics.contains("arbiter_open_cases{reason=\"self_partnering\"} 0"));
    // The clock moved three hours.
    let age = metrics
        .lines()
        .find_map(|l| l.strip_prefix("arbiter_oldest_open_case_age_seconds "))
        .and_then(|v| v.parse::<i64>().ok())
        .expect("age gauge");
    assert!((3 * 3600..4 * 3600).contains(&age), "{age}");
}

#[actix_web::test]
async fn a_deep_queue_alerts_once_per_crossing() {
    let (app, _policy) = app_with_rules(r#"{ name = "deep", queue_depth_over = 1 }"#).await;
    let alice = app.token(TokenRole::Admin, "alice");
    open_case(&app, &alice, "rep").await;
    assert_eq!(pass(&app).await, 0);
    let second = open_case(&app, &alice, "acc1").await;
    assert_eq!(pass(&app).await, 1);
    let third = open_case(&app, &alice, "acc2").await;
    assert_eq!(pass(&app).await, 0, "it stands while the queue stays deep");
    let listed = alerts(&app, &alice, "").await;
    assert_eq!(listed[0]["case_id"], Value::Null);
    assert!(listed[0]["message"]
        .as_str()
        .expect("message")
        .starts_with("The queue holds 2 open cases, more than 1 [deep]"));

    // Two cases decided: the queue is back at one, the alert clears, and the next crossing
    // alerts again.
    for case in [second, third] {
        let bob = app.token(TokenRole::Admin, "bob");
        let claimed = app
            .post_json(
                &format!("/api/v1/admin/cases/{case}/claim"),
                Some(&bob),
                &json!({}),
            )
            .await;
        assert_eq!(claimed.status, 200, "{}", claimed.text());
        let decided = app
            .post_json(
                &format!("/api/v1/admin/cases/{case}/decision"),
                Some(&bob),
                &json!({ "decision": "dismiss_not_actionable" }),
            )
            .await;
        assert_eq!(decided.status, 200, "{}", decided.text());
    }
    let cleared = alert_pass(&app.state).await.expect("pass");
    assert_eq!((cleared.fired.len(), cleared.cleared), (0, 1));
    open_case(&app, &alice, "acc3").await;
    assert_eq!(pass(&app).await, 1);
    assert_eq!(alerts(&app, &alice, "").await.len(), 2);
}
