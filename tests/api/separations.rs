//! Separations (issue #42, item 4) over HTTP: a teaming case decided with a separation keeps
//! the pair apart at `POST /api/v1/tables/check`, announces it to game servers, shows in each
//! member's own sanctions, and an appeal that lifts it lets the table start.

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use serde_json::{json, Value};

use crate::console::{input_value, Browser};
use crate::moderation::{app_with_games, case_of, claim, decide, report};
use crate::support::TestApp;
use crate::webhooks::{fast_webhooks, sanction_events, subscribe, Receiver};

async fn table(app: &TestApp, server: &str, players: &[&str]) -> Value {
    let answer = app
        .post_json(
            "/api/v1/tables/check",
            Some(server),
            &json!({ "players": players, "variant": "ffa" }),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text());
    answer.json()
}

/// acc1 and acc2 reported for prearranged teaming in two games; alice holds acc1's case.
async fn teaming_case(app: &TestApp, admin: &str) -> i64 {
    let filed = report(
        app,
        "rep",
        json!({ "accused": ["acc1", "acc2"], "reason": "prearranged_teaming", "game": 1001,
                "supporting_games": [1002], "message": "they spare each other every game" }),
    )
    .await;
    assert!(filed.status == 201, "{}", filed.text());
    let (case, _, _, _) = case_of(app, "acc1", "prearranged_teaming").expect("case");
    let claimed = claim(app, admin, case).await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    case
}

fn separation(members: Value) -> Value {
    json!({ "decision": "sanction", "ground": "prearranged_teaming",
            "note": "spared each other in games 1001 and 1002",
            "sanction": { "kind": "separation", "minutes": 43200, "members": members } })
}

#[actix_web::test]
async fn a_separation_keeps_a_pair_apart_until_an_appeal_lifts_it() {
    let (app, server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    subscribe(&app, &alice, &receiver.url(), Some(sanction_events())).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    // Before: the table may start.
    let before = table(&app, &server, &["acc1", "acc2", "rep", "newcomer"]).await;
    assert_eq!(before["may_start"], true, "{before}");

    let case = teaming_case(&app, &alice).await;
    let decided = decide(&app, &alice, case, separation(json!(["acc2"]))).await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let decided = decided.json();
    assert_eq!(decided["sanction"]["kind"], "separation");
    assert_eq!(decided["separated"], json!(["acc1", "acc2"]));
    let separation_id = decided["sanction"]["id"].as_i64().expect("id");

    // Both at one table: refused, the pair named; each may still play.
    let both = table(&app, &server, &["rep", "acc2", "acc1", "newcomer"]).await;
    assert_eq!(both["may_start"], false, "{both}");
    assert_eq!(
        both["kept_apart"],
        json!([{ "players": ["acc2", "acc1"], "separation_id": separation_id,
                 "ends_at": decided["sanction"]["effective_end"] }])
    );
    let seats = both["players"].as_array().expect("players");
    assert_eq!(seats.len(), 4);
    assert!(seats.iter().all(|s| s["may_play"] == true), "{both}");
    // One of them with others: fine.
    let one = table(&app, &server, &["acc1", "rep", "acc3"]).await;
    assert_eq!(one["may_start"], true, "{one}");
    assert_eq!(one["kept_apart"], json!([]));
    // Standing: a separation stops neither play nor chat.
    let standing = app
        .get("/api/v1/players/acc2/standing", Some(&server))
        .await
        .json();
    assert_eq!(
        (standing["may_play"].clone(), standing["may_chat"].clone()),
        (json!(true), json!(true))
    );

    // Announced, with the members.
    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    let event: Value = serde_json::from_str(&got[0].body).expect("json body");
    assert_eq!(event["type"], "sanction_started");
    assert_eq!(event["sanction"]["kind"], "separation");
    assert_eq!(event["sanction"]["members"], json!(["acc1", "acc2"]));

    // Each member sees it among their own measures, and acc2 (not the case's accused) appeals.
    for member in ["acc1", "acc2"] {
        let mine = app
            .get("/api/v1/sanctions/mine", Some(&app.player_token(member)))
            .await
            .json();
        assert_eq!(
            mine["items"][0]["sanction"]["id"], separation_id,
            "{member}: {mine}"
        );
        assert_eq!(mine["items"][0]["members"], json!(["acc1", "acc2"]));
    }
    let outsider = app
        .post_json(
            &format!("/api/v1/sanctions/{separation_id}/appeal"),
            Some(&app.player_token("acc3")),
            &json!({ "text": "I am not even part of this." }),
        )
        .await;
    outsider.assert_error(404, "sanction_not_found");
    let filed = app
        .post_json(
            &format!("/api/v1/sanctions/{separation_id}/appeal"),
            Some(&app.player_token("acc2")),
            &json!({ "text": "We are friends, but we never teamed up." }),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let appeal = filed.json()["id"].as_i64().expect("appeal id");
    let bob = app.token(TokenRole::Admin, "bob");
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/appeals/{appeal}/decision"),
            Some(&bob),
            &json!({ "decision": "lift", "note": "the games do not show it" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());

    let after = table(&app, &server, &["rep", "acc2", "acc1", "newcomer"]).await;
    assert_eq!(after["may_start"], true, "{after}");
    let got = receiver.wait_for(2, Duration::from_secs(10)).await;
    let event: Value = serde_json::from_str(&got[1].body).expect("json body");
    assert_eq!(event["type"], "sanction_lifted");
    assert_eq!(event["sanction"]["members"], json!(["acc1", "acc2"]));
}

#[actix_web::test]
async fn a_separation_names_only_players_of_the_case() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let case = teaming_case(&app, &alice).await;
    for (members, field) in [
        (json!([]), "sanction.members"),
        (json!(["acc3"]), "sanction.members"),
        (json!(["nobody-ever"]), "sanction.members"),
        (json!(["acc2", "acc2"]), "sanction.members"),
        (json!(["acc1"]), "sanction.members"),
        (json!([""]), "sanction.members[0]"),
    ] {
        let error = decide(&app, &alice, case, separation(members.clone()))
            .await
            .assert_error(422, "invalid_separation");
        assert_eq!(error["details"]["field"], field, "{members}: {error}");
    }
    // Members with another kind of sanction.
    let mut ban = separation(json!(["acc2"]));
    ban["sanction"]["kind"] = json!("play_ban");
    let error = decide(&app, &alice, case, ban)
        .await
        .assert_error(422, "invalid_separation");
    assert_eq!(error["details"]["field"], "sanction.members");
    // Nothing was decided: the case is still open.
    assert_eq!(
        case_of(&app, "acc1", "prearranged_teaming").map(|c| c.1),
        Some("open".to_string())
    );
}

#[actix_web::test]
async fn a_separation_answers_only_teaming_or_self_partnering() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    report(
        &app,
        "rep",
        json!({ "accused": ["acc1", "acc2"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    let (case, _, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");
    claim(&app, &alice, case).await;
    let error = decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "note": "insults",
                "sanction": { "kind": "separation", "permanent": true, "members": ["acc2"] } }),
    )
    .await
    .assert_error(422, "invalid_separation");
    assert_eq!(error["details"]["field"], "sanction.kind");
}

#[actix_web::test]
async fn the_table_check_refuses_bad_tables_naming_the_field() {
    let (app, server) = app_with_games(|_| {}).await;
    for (players, field) in [
        (json!(["solo"]), "players"),
        (json!(["a", "b", "c", "d", "e"]), "players"),
        (json!(["a", "b", "a"]), "players[2]"),
        (json!(["a", ""]), "players[1]"),
        (json!(["a", "x".repeat(65)]), "players[1]"),
    ] {
        let error = app
            .post_json(
                "/api/v1/tables/check",
                Some(&server),
                &json!({ "players": players, "variant": "teams" }),
            )
            .await
            .assert_error(422, "invalid_table");
        assert_eq!(error["details"]["field"], field, "{players}");
    }
    app.post_json(
        "/api/v1/tables/check",
        Some(&server),
        &json!({ "players": ["a", "b"], "variant": "chess960" }),
    )
    .await
    .assert_error(400, "invalid_json");
    // Unknown players may play; a play ban stops the table.
    let strangers = table(&app, &server, &["never-seen", "nor-this-one"]).await;
    assert_eq!(strangers["may_start"], true);
    let alice = app.token(TokenRole::Admin, "alice");
    report(
        &app,
        "rep",
        json!({ "accused": ["acc3"], "reason": "abandoning", "game": 1001,
                "supporting_games": [1002] }),
    )
    .await;
    let (case, _, _, _) = case_of(&app, "acc3", "abandoning").expect("case");
    claim(&app, &alice, case).await;
    let decided = decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "sandbagging", "note": "threw games",
                "sanction": { "kind": "play_ban", "minutes": 60 } }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let banned = table(&app, &server, &["acc3", "rep"]).await;
    assert_eq!(banned["may_start"], false, "{banned}");
    assert_eq!(banned["players"][0]["may_play"], false);
    assert!(banned["players"][0]["play_until"].is_string());
    assert_eq!(banned["players"][1]["may_play"], true);
    assert_eq!(banned["kept_apart"], json!([]));
}

#[actix_web::test]
async fn the_console_decides_a_separation_and_the_player_page_lists_it() {
    let (app, _server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let case = teaming_case(&app, &admin).await;
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let page_path = format!("/admin/cases/{case}");
    let page = browser.get(&page_path).await.text();
    assert!(page.contains("Keep apart from (separation)"), "{page}");
    assert!(page.contains("value=\"separation\""), "{page}");
    let csrf = input_value(&page, "csrf").expect("csrf");
    let done = browser
        .post(
            &format!("{page_path}/decision"),
            &[
                ("csrf", &csrf),
                ("decision", "sanction"),
                ("sanction_kind", "separation"),
                ("length", "permanent"),
                ("ground", "prearranged_teaming"),
                ("note", "spared each other in games 1001 and 1002"),
                ("evidence_games", ""),
                ("members", "acc2"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text());
    // The other member's page lists the separation with both members.
    let page = browser.get("/admin/players/acc2").await.text();
    assert!(page.contains("separation"), "{page}");
    assert!(page.contains("Kept apart: "), "{page}");
    assert!(page.contains("/admin/players/acc1"), "{page}");
}
