//! An admin opens a case about what they saw themselves, over HTTP: the case is decided with
//! the same rules as any (claim, the several-games rule, the ladder), and every step is logged.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::json;

use crate::moderation::{app_with_games, claim, decide, modlog_kinds};

const PATH: &str = "/api/v1/admin/cases";

#[actix_web::test]
async fn an_admin_opened_case_is_refused_on_one_game_then_decided_on_two() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");

    let opened = app
        .post_json(
            PATH,
            Some(&alice),
            &json!({
                "accused": "acc2",
                "reason": "abandoning",
                "games": [1003],
                "note": "  Left at move 2 while losing.  ",
            }),
        )
        .await;
    assert_eq!(opened.status, 201, "{}", opened.text());
    let opened = opened.json();
    assert_eq!(opened["opened"], true);
    let case = opened["case_id"].as_i64().expect("case id");

    // The case view shows the admin's entry with its note and game.
    let view = app
        .get(&format!("{PATH}/{case}"), Some(&alice))
        .await
        .json();
    let entry = &view["entries"][0];
    assert_eq!(entry["source"], "admin", "{view}");
    assert_eq!(entry["admin"], "alice");
    assert_eq!(entry["reporter"], serde_json::Value::Null);
    assert_eq!(entry["message"], "Left at move 2 while losing.");

    // The opener may claim and decide it; one game is not enough for a habit.
    assert_eq!(claim(&app, &alice, case).await.status, 200);
    let warn = json!({ "decision": "warn", "ground": "habitual_disconnecting" });
    decide(&app, &alice, case, warn.clone())
        .await
        .assert_error(422, "single_game_evidence");

    // A second entry about another game joins the same open case.
    let joined = app
        .post_json(
            PATH,
            Some(&alice),
            &json!({
                "accused": "acc2",
                "reason": "abandoning",
                "games": [1007],
                "note": "Again, at move 3.",
            }),
        )
        .await;
    assert_eq!(joined.status, 201, "{}", joined.text());
    assert_eq!(joined.json()["opened"], false);
    assert_eq!(joined.json()["case_id"], case);

    let decided = decide(&app, &alice, case, warn).await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let decided = decided.json();
    assert_eq!(decided["kind"], "warn");
    assert_eq!(decided["evidence_games"], json!([1003, 1007]));
    // The admin's entries are upheld; nobody is timed out for them.
    assert_eq!(decided["report_timeouts"], json!([]));

    let kinds = modlog_kinds(&app);
    for kind in ["admin_entry", "case_opened", "case_claimed", "decision"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    assert_eq!(kinds.iter().filter(|k| *k == "admin_entry").count(), 2);
}

#[actix_web::test]
async fn an_admin_entry_is_checked_like_a_report() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let post = |body: serde_json::Value| {
        let app = &app;
        let alice = alice.clone();
        async move { app.post_json(PATH, Some(&alice), &body).await }
    };

    let empty_note = post(json!({
        "accused": "acc1", "reason": "offensive_chat", "games": [1001], "note": "  ",
    }))
    .await
    .assert_error(422, "invalid_note");
    assert_eq!(empty_note["details"]["field"], "note");

    let unknown_game = post(json!({
        "accused": "acc1", "reason": "offensive_chat", "games": [999999], "note": "seen",
    }))
    .await
    .assert_error(422, "unknown_game");
    assert_eq!(unknown_game["details"]["game"], 999999);
    assert_eq!(unknown_game["details"]["field"], "games");

    let not_seated = post(json!({
        "accused": "nobody", "reason": "offensive_chat", "games": [1001], "note": "seen",
    }))
    .await
    .assert_error(422, "invalid_report");
    assert!(
        not_seated["message"]
            .as_str()
            .is_some_and(|m| m.contains("nobody did not play in game 1001")),
        "{not_seated}"
    );

    let unknown_player = post(json!({
        "accused": "nobody", "reason": "other", "note": "Threatened players on the forum.",
    }))
    .await
    .assert_error(422, "unknown_player");
    assert_eq!(unknown_player["details"]["field"], "accused");

    let own_case = post(json!({
        "accused": "alice", "reason": "other", "note": "testing",
    }))
    .await;
    assert_eq!(own_case.status, 422, "{}", own_case.text());

    let empty_name = post(json!({
        "accused": " ", "reason": "other", "note": "seen",
    }))
    .await
    .assert_error(422, "invalid_report");
    assert_eq!(empty_name["details"]["field"], "accused");

    post(json!({ "accused": "acc1", "reason": "offensive_chat", "note": "x", "extra": 1 }))
        .await
        .assert_error(400, "invalid_json");

    // Nothing was written by any refusal.
    assert!(!modlog_kinds(&app).iter().any(|k| k == "admin_entry"));

    // A player may not open a case this way.
    let player = app.player_token("rep");
    app.post_json(
        PATH,
        Some(&player),
        &json!({ "accused": "acc1", "reason": "offensive_chat", "games": [1001], "note": "seen" }),
    )
    .await
    .assert_error(403, "forbidden");
}
