//! Refunds owed to the victims of teaming (issue #42, item 5) over HTTP, on the test database
//! (SQLite, or PostgreSQL with ARBITER_TEST_DATABASE_URL): games with known ratings are
//! posted, a teaming case is upheld, the case shows refunds summing to the figures worked out
//! by hand below, and `refunds_due` reaches a local receiver once, not again when the
//! partner's case is decided or the sanction is lifted.

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use chrono::{TimeDelta, Utc};
use serde_json::{json, Value};

use crate::moderation::{case_of, claim, decide, game_text, modlog_kinds, report};
use crate::support::TestApp;
use crate::webhooks::{fast_webhooks, sanction_events, subscribe, verify, Receiver};

/// A seat: player and ratings before and after (none: the server sent no rating).
type Seat = (&'static str, Option<(i32, i32)>);

/// Posts game `number` of `variant`, ended `days_ago` days ago, with these four seats.
async fn post_game(
    app: &TestApp,
    server: &str,
    number: i64,
    variant: &str,
    days_ago: i64,
    seats: [Seat; 4],
) {
    let names = seats.map(|s| s.0);
    let seats: Vec<Value> = ["red", "blue", "yellow", "green"]
        .iter()
        .zip(seats)
        .map(|(colour, (player, ratings))| match ratings {
            Some((before, after)) => json!({ "seat": colour, "player": player,
                "rating_before": before, "rating_after": after }),
            None => json!({ "seat": colour, "player": player }),
        })
        .collect();
    let ended = Utc::now() - TimeDelta::days(days_ago) - TimeDelta::minutes(number % 100);
    let body = json!({ "pgn4": game_text(number, variant, names), "seats": seats,
                       "ended_at": ended.to_rfc3339() });
    let posted = app.post_json("/api/v1/games", Some(server), &body).await;
    assert_eq!(posted.status, 201, "{}", posted.text());
}

/// The games: ann and bob team in FFA. What each victim lost, by hand:
/// - 5001 (cited): carl 1500 -> 1482 = 18, dora 1450 -> 1443 = 7; ann's own loss ignored.
/// - 5002 (cited): carl 1482 -> 1471 = 11; eve gained 5: nothing.
/// - 5003 (shared, not cited, within 30 days): no ratings: carl and eve listed, no amount.
/// - 5004 (shared, 60 days ago), 5005 (Teams), 5006 (ann without bob): not concerned.
///
/// Totals: carl 29 (2 games, 1 unrated), dora 7, eve 0 (1 unrated); 36 in all.
async fn post_games(app: &TestApp, server: &str) {
    let loss = |b, a| Some((b, a));
    post_game(
        app,
        server,
        5001,
        "FFA",
        3,
        [
            ("ann", loss(1600, 1595)),
            ("carl", loss(1500, 1482)),
            ("bob", loss(1550, 1580)),
            ("dora", loss(1450, 1443)),
        ],
    )
    .await;
    post_game(
        app,
        server,
        5002,
        "FFA",
        2,
        [
            ("carl", loss(1482, 1471)),
            ("ann", loss(1595, 1620)),
            ("eve", loss(1400, 1405)),
            ("bob", loss(1580, 1570)),
        ],
    )
    .await;
    post_game(
        app,
        server,
        5003,
        "FFA",
        1,
        [("bob", None), ("carl", None), ("ann", None), ("eve", None)],
    )
    .await;
    post_game(
        app,
        server,
        5004,
        "FFA",
        60,
        [
            ("ann", loss(1500, 1520)),
            ("bob", loss(1500, 1510)),
            ("dora", loss(1443, 1400)),
            ("eve", loss(1405, 1380)),
        ],
    )
    .await;
    post_game(
        app,
        server,
        5005,
        "Teams",
        1,
        [
            ("ann", loss(1600, 1610)),
            ("carl", loss(1471, 1400)),
            ("bob", loss(1570, 1580)),
            ("dora", loss(1443, 1420)),
        ],
    )
    .await;
    post_game(
        app,
        server,
        5006,
        "FFA",
        1,
        [
            ("ann", loss(1620, 1640)),
            ("carl", loss(1471, 1421)),
            ("dora", loss(1443, 1440)),
            ("eve", loss(1405, 1400)),
        ],
    )
    .await;
}

fn teaming_ban() -> Value {
    json!({ "decision": "sanction", "ground": "prearranged_teaming",
            "note": "teamed in every shared game",
            "sanction": { "kind": "play_ban", "minutes": 10080 } })
}

async fn case_view(app: &TestApp, admin: &str, case: i64) -> Value {
    let view = app
        .get(&format!("/api/v1/admin/cases/{case}"), Some(admin))
        .await;
    assert_eq!(view.status, 200, "{}", view.text());
    view.json()
}

/// The placement the archive holds for `player` in game `number`.
async fn placement(app: &TestApp, admin: &str, number: i64, player: &str) -> Value {
    let game = app
        .get(&format!("/api/v1/games/by-number/{number}"), Some(admin))
        .await
        .json();
    let seats = game["seats"].as_array().cloned().unwrap_or_default();
    seats
        .into_iter()
        .find(|s| s["player"] == player)
        .map(|s| s["placement"].clone())
        .unwrap_or(Value::Null)
}

fn refunds_due(receiver: &Receiver) -> Vec<Value> {
    receiver
        .received()
        .iter()
        .filter(|r| r.header("Arbiter-Event") == Some("refunds_due"))
        .map(|r| serde_json::from_str(&r.body).expect("json body"))
        .collect()
}

#[actix_web::test]
async fn an_upheld_teaming_case_owes_the_hand_computed_refunds_once() {
    let app = TestApp::spawn_with(fast_webhooks).await;
    let server = app.token(TokenRole::Server, "eu-1");
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let mut wanted = sanction_events();
    if let Some(list) = wanted.as_array_mut() {
        list.push(json!("refunds_due"));
    }
    let (_, secret) = subscribe(&app, &alice, &receiver.url(), Some(wanted)).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);
    post_games(&app, &server).await;

    let filed = report(
        &app,
        "carl",
        json!({ "accused": ["ann", "bob"],
        "reason": "prearranged_teaming", "game": 5001, "supporting_games": [5002],
        "message": "they never attack each other" }),
    )
    .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let (ann_case, _, _, _) = case_of(&app, "ann", "prearranged_teaming").expect("ann's case");
    let (bob_case, _, _, _) = case_of(&app, "bob", "prearranged_teaming").expect("bob's case");
    // Nothing is owed before the decision.
    let before = case_view(&app, &alice, ann_case).await;
    assert_eq!(
        before["refunds"]["lines"],
        json!([]),
        "{}",
        before["refunds"]
    );

    assert_eq!(claim(&app, &alice, ann_case).await.status, 200);
    let decided = decide(&app, &alice, ann_case, teaming_ban()).await;
    assert_eq!(decided.status, 200, "{}", decided.text());

    let refunds = case_view(&app, &alice, ann_case).await["refunds"].clone();
    let lines: Vec<(i64, String, String, Option<i64>)> = refunds["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            (
                l["game"].as_i64().unwrap_or_default(),
                l["player"].as_str().unwrap_or_default().to_string(),
                l["seat"].as_str().unwrap_or_default().to_string(),
                l["amount"].as_i64(),
            )
        })
        .collect();
    let line = |game, player: &str, seat: &str, amount| {
        (game, player.to_string(), seat.to_string(), amount)
    };
    assert_eq!(
        lines,
        vec![
            line(5001, "carl", "blue", Some(18)),
            line(5001, "dora", "green", Some(7)),
            line(5002, "carl", "red", Some(11)),
            line(5003, "carl", "blue", None),
            line(5003, "eve", "green", None),
        ],
        "{refunds}"
    );
    for l in refunds["lines"].as_array().expect("lines") {
        let player = l["player"].as_str().unwrap_or_default();
        let game = l["game"].as_i64().unwrap_or_default();
        assert_eq!(
            l["placement"],
            placement(&app, &alice, game, player).await,
            "{l}"
        );
    }
    assert_eq!(refunds["total"], 36, "{refunds}");
    assert_eq!(
        refunds["totals"],
        json!([
            { "player": "carl", "amount": 29, "games": 2, "unrated_games": 1 },
            { "player": "dora", "amount": 7, "games": 1, "unrated_games": 0 },
            { "player": "eve", "amount": 0, "games": 0, "unrated_games": 1 },
        ])
    );
    assert!(modlog_kinds(&app).iter().any(|k| k == "refunds_owed"));

    // Delivered once, signed, with the same figures.
    let started = std::time::Instant::now();
    while refunds_due(&receiver).is_empty() && started.elapsed() < Duration::from_secs(10) {
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let events = refunds_due(&receiver);
    assert_eq!(events.len(), 1, "{events:?}");
    let event = &events[0];
    assert_eq!(event["case"]["id"], ann_case);
    assert_eq!(event["case"]["offenders"], json!(["ann", "bob"]));
    assert_eq!(event["total"], 36);
    assert_eq!(event["totals"], refunds["totals"]);
    assert_eq!(
        event["refunds"][0],
        json!({ "game": 5001, "player": "carl", "seat": "blue",
        "placement": refunds["lines"][0]["placement"], "rating_before": 1500,
        "rating_after": 1482, "amount": 18 })
    );
    let request = receiver
        .received()
        .into_iter()
        .find(|r| r.header("Arbiter-Event") == Some("refunds_due"))
        .expect("request");
    verify(&request, &secret);

    // The partner's case covers the same games: nothing more is owed, nothing re-announced.
    assert_eq!(claim(&app, &alice, bob_case).await.status, 200);
    let decided = decide(&app, &alice, bob_case, teaming_ban()).await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let bob_refunds = case_view(&app, &alice, bob_case).await["refunds"].clone();
    assert_eq!(bob_refunds["lines"], json!([]), "{bob_refunds}");
    // Lifting ann's ban is a sanction event, not a second refund.
    let sanction = case_view(&app, &alice, ann_case).await["history"]["sanctions"][0]["id"].clone();
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/sanctions/{sanction}/change"),
            Some(&alice),
            &json!({ "action": "lift", "note": "served enough" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    let got = receiver.wait_for(4, Duration::from_secs(10)).await;
    let kinds: Vec<&str> = got
        .iter()
        .filter_map(|r| r.header("Arbiter-Event"))
        .collect();
    assert!(kinds.contains(&"sanction_lifted"), "{kinds:?}");
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(refunds_due(&receiver).len(), 1);
    let again = case_view(&app, &alice, ann_case).await;
    assert_eq!(again["refunds"]["total"], 36);
}

#[actix_web::test]
async fn a_dismissed_or_chat_case_owes_nothing() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let alice = app.token(TokenRole::Admin, "alice");
    post_games(&app, &server).await;
    report(
        &app,
        "carl",
        json!({ "accused": ["ann", "bob"],
        "reason": "prearranged_teaming", "game": 5001, "supporting_games": [5002] }),
    )
    .await;
    let (case, _, _, _) = case_of(&app, "ann", "prearranged_teaming").expect("case");
    assert_eq!(claim(&app, &alice, case).await.status, 200);
    let decided = decide(
        &app,
        &alice,
        case,
        json!({ "decision": "dismiss_not_actionable" }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let view = case_view(&app, &alice, case).await;
    assert_eq!(
        view["refunds"],
        json!({ "lines": [], "totals": [], "total": 0 })
    );
    assert!(!modlog_kinds(&app).iter().any(|k| k == "refunds_owed"));
}
