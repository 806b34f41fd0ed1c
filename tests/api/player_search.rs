//! Finding players by name prefix over HTTP: ASCII case ignored, paginated, each with games
//! count, open cases and sanctions in force; the count kept at ingest.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, chat_ban, ingest, report};

fn names(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect()
}

#[actix_web::test]
async fn players_are_found_by_prefix_in_any_case_with_what_matters() {
    let (app, server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    ingest(
        &app,
        &server,
        3001,
        "FFA",
        ["Spaksi", "spark_y", "SPAM", "acc1"],
    )
    .await;
    ingest(
        &app,
        &server,
        3002,
        "FFA",
        ["Spaksi", "spark_y", "rep", "acc2"],
    )
    .await;
    // The same game again changes no count.
    ingest(
        &app,
        &server,
        3002,
        "FFA",
        ["Spaksi", "spark_y", "rep", "acc2"],
    )
    .await;

    let found = app
        .get("/api/v1/admin/players?prefix=sP", Some(&alice))
        .await;
    assert_eq!(found.status, 200, "{}", found.text());
    let found = found.json();
    // In folded order: "spaksi" < "spam" < "spark_y".
    assert_eq!(names(&found), ["Spaksi", "SPAM", "spark_y"]);
    let games: Vec<i64> = found["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|p| p["games"].as_i64())
        .collect();
    assert_eq!(games, [2, 1, 2]);

    // Open cases and sanctions in force.
    report(
        &app,
        "rep",
        json!({ "accused": ["acc2"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    let (sanction, _) = chat_ban(&app, &alice, 60).await;
    let acc = app
        .get("/api/v1/admin/players?prefix=ACC", Some(&alice))
        .await
        .json();
    assert_eq!(names(&acc), ["acc1", "acc2", "acc3"]);
    let acc1 = &acc["items"][0];
    assert_eq!(acc1["games"], 12);
    assert_eq!(acc1["sanctions_in_force"][0]["id"], sanction);
    assert_eq!(acc1["sanctions_in_force"][0]["kind"], "chat_ban");
    assert_eq!(acc["items"][1]["open_cases"], 1);
    assert_eq!(acc["items"][2]["sanctions_in_force"], json!([]));

    // Pages follow one another without repeats.
    let first = app
        .get("/api/v1/admin/players?prefix=&limit=3", Some(&alice))
        .await
        .json();
    let cursor = first["next_cursor"].as_str().expect("cursor");
    let second = app
        .get(
            &format!("/api/v1/admin/players?limit=3&cursor={cursor}"),
            Some(&alice),
        )
        .await
        .json();
    let mut all = names(&first);
    all.extend(names(&second));
    assert_eq!(all, ["acc1", "acc2", "acc3", "rep", "Spaksi", "SPAM"]);

    let nobody = app
        .get("/api/v1/admin/players?prefix=zz", Some(&alice))
        .await
        .json();
    assert_eq!(nobody["items"], json!([]));
    assert_eq!(nobody["next_cursor"], Value::Null);

    let long = "x".repeat(200);
    let refused = app
        .get(
            &format!("/api/v1/admin/players?prefix={long}"),
            Some(&alice),
        )
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(refused["details"]["field"], "prefix");
    app.get("/api/v1/admin/players?cursor=bm9wZQ", Some(&alice))
        .await
        .assert_error(400, "invalid_cursor");
}
