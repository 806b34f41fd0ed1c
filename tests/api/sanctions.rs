//! What players see of their own sanctions and standing, and the admins' list of sanctions,
//! over HTTP on the test database.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, chat_ban};

fn items(page: &Value) -> &Vec<Value> {
    page["items"].as_array().expect("items")
}

#[actix_web::test]
async fn a_player_reads_their_own_standing_and_sanctions_and_nobody_elses() {
    let (app, _server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let (sanction, case) = chat_ban(&app, &admin, 1440).await;
    let accused = app.player_token("acc1");

    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&accused))
        .await;
    assert_eq!(standing.status, 200, "{}", standing.text());
    let standing = standing.json();
    assert_eq!(standing["may_chat"], false);
    assert_eq!(standing["active_sanctions"], json!([sanction]));
    app.get("/api/v1/players/rep/standing", Some(&accused))
        .await
        .assert_error(403, "forbidden");

    let mine = app.get("/api/v1/sanctions/mine", Some(&accused)).await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    let mine = mine.json();
    let listed = items(&mine);
    assert_eq!(listed.len(), 1, "{mine}");
    let own = &listed[0];
    assert_eq!(own["sanction"]["id"], sanction);
    assert_eq!(own["sanction"]["case_id"], case);
    assert_eq!(own["sanction"]["kind"], "chat_ban");
    assert_eq!(own["sanction"]["ground"], "harassment");
    assert_eq!(own["player"], "acc1");
    assert_eq!(own["note"], "insults");
    assert_eq!(own["in_force"], true);
    assert_eq!(own["appeal"], Value::Null);
    assert!(own["appeal_until"].is_string(), "{own}");

    // Appealed: the appeal shows, and it can no longer be appealed.
    let filed = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction}/appeal"),
            Some(&accused),
            &json!({ "text": "It was a joke between friends, sorry." }),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let mine = app
        .get("/api/v1/sanctions/mine", Some(&accused))
        .await
        .json();
    assert_eq!(items(&mine)[0]["appeal"]["status"], "open");
    assert_eq!(items(&mine)[0]["appeal_until"], Value::Null);

    // Another player sees none of it.
    let other = app
        .get("/api/v1/sanctions/mine", Some(&app.player_token("rep")))
        .await
        .json();
    assert_eq!(items(&other).len(), 0, "{other}");
}

#[actix_web::test]
async fn admins_list_sanctions_in_force_by_kind_player_and_end() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let (sanction, _) = chat_ban(&app, &alice, 60).await;

    let in_force = app.get("/api/v1/admin/sanctions", Some(&alice)).await;
    assert_eq!(in_force.status, 200, "{}", in_force.text());
    let in_force = in_force.json();
    assert_eq!(items(&in_force).len(), 1, "{in_force}");
    assert_eq!(items(&in_force)[0]["sanction"]["id"], sanction);
    let count = |query: &'static str| {
        let app = &app;
        let alice = alice.clone();
        async move {
            let page = app
                .get(&format!("/api/v1/admin/sanctions?{query}"), Some(&alice))
                .await;
            assert_eq!(page.status, 200, "{query}: {}", page.text());
            items(&page.json()).len()
        }
    };
    assert_eq!(count("kind=chat_ban").await, 1);
    assert_eq!(count("kind=play_ban").await, 0);
    assert_eq!(count("player=acc1").await, 1);
    assert_eq!(count("player=rep").await, 0);
    assert_eq!(count("ending_before=2999-01-01T00:00:00Z").await, 1);
    assert_eq!(count("ending_before=2000-01-01T00:00:00Z").await, 0);

    // Lifted on appeal (by another admin): out of force, still listed with `status=all`.
    let appeal = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction}/appeal"),
            Some(&app.player_token("acc1")),
            &json!({ "text": "Somebody else used my account." }),
        )
        .await
        .json();
    let bob = app.token(TokenRole::Admin, "bob");
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/appeals/{}/decision", appeal["id"]),
            Some(&bob),
            &json!({ "decision": "lift" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    assert_eq!(count("").await, 0);
    assert_eq!(count("status=all").await, 1);

    // Bad filters name the parameter.
    for (query, field) in [
        ("kind=mute", "kind"),
        ("status=over", "status"),
        ("ending_before=tomorrow", "ending_before"),
    ] {
        let error = app
            .get(&format!("/api/v1/admin/sanctions?{query}"), Some(&alice))
            .await
            .assert_error(400, "invalid_query");
        assert_eq!(error["details"]["field"], field, "{query}");
    }
}

#[actix_web::test]
async fn an_admin_shortens_then_lifts_a_sanction_with_a_note() {
    let (app, server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let (sanction, _) = chat_ban(&app, &alice, 1440).await;
    let path = format!("/api/v1/admin/sanctions/{sanction}/change");

    // Refusals name the field and change nothing.
    let error = app
        .post_json(
            &path,
            Some(&alice),
            &json!({ "action": "shorten", "note": "ok" }),
        )
        .await
        .assert_error(422, "invalid_sanction_change");
    assert_eq!(error["details"]["field"], "until");
    let error = app
        .post_json(
            &path,
            Some(&alice),
            &json!({ "action": "lift", "note": "  " }),
        )
        .await
        .assert_error(422, "invalid_sanction_change");
    assert_eq!(error["details"]["field"], "note");
    app.post_json(
        &path,
        Some(&alice),
        &json!({ "action": "shorten", "minutes": 5000, "note": "longer" }),
    )
    .await
    .assert_error(422, "reduction_not_shorter");
    app.post_json(
        "/api/v1/admin/sanctions/999/change",
        Some(&alice),
        &json!({ "action": "lift", "note": "none" }),
    )
    .await
    .assert_error(404, "sanction_not_found");

    let shortened = app
        .post_json(
            &path,
            Some(&alice),
            &json!({ "action": "shorten", "minutes": 60, "note": "first offence" }),
        )
        .await;
    assert_eq!(shortened.status, 200, "{}", shortened.text());
    let shortened = shortened.json();
    assert_eq!(shortened["effective_end"], shortened["reduced_until"]);
    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["chat_until"], shortened["reduced_until"]);

    let lifted = app
        .post_json(
            &path,
            Some(&alice),
            &json!({ "action": "lift", "note": "wrong player" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    assert!(lifted.json()["lifted_at"].is_string());
    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["may_chat"], true);
    app.post_json(
        &path,
        Some(&alice),
        &json!({ "action": "lift", "note": "again" }),
    )
    .await
    .assert_error(409, "sanction_lifted");

    // Both changes are logged with their notes.
    let log = app
        .get("/api/v1/admin/modlog?player=acc1&admin=alice", Some(&alice))
        .await
        .json();
    let lines = items(&log);
    let line = |kind: &str| {
        lines
            .iter()
            .find(|l| l["kind"] == kind)
            .unwrap_or_else(|| panic!("{kind} missing from {log}"))
    };
    assert_eq!(line("sanction_reduced")["why"], "first offence");
    assert_eq!(line("sanction_lifted")["why"], "wrong player");
}
