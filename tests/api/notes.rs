//! Admins' notes on players over HTTP: added, listed, shown in the case view, logged, and
//! never changed.

use arbiter::api::auth::tokens::TokenRole;
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, case_of, modlog_kinds, report};

fn items(page: &Value) -> &Vec<Value> {
    page["items"].as_array().expect("items")
}

#[actix_web::test]
async fn a_note_is_added_listed_and_seen_in_the_case_view() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let filed = report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let (case, _, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");

    let path = "/api/v1/admin/players/acc1/notes";
    let added = app
        .post_json(
            path,
            Some(&alice),
            &json!({ "text": "  Warned in chat twice before.  ", "case_id": case }),
        )
        .await;
    assert_eq!(added.status, 201, "{}", added.text());
    let added = added.json();
    assert_eq!(added["player"], "acc1");
    assert_eq!(added["author"], "alice");
    assert_eq!(added["case_id"], case);
    assert_eq!(added["text"], "Warned in chat twice before.");
    let second = app
        .post_json(
            path,
            Some(&alice),
            &json!({ "text": "Plays with acc2 a lot." }),
        )
        .await;
    assert_eq!(second.status, 201, "{}", second.text());

    // Newest first, paginated.
    let first_page = app
        .get(&format!("{path}?limit=1"), Some(&alice))
        .await
        .json();
    assert_eq!(items(&first_page).len(), 1);
    assert_eq!(items(&first_page)[0]["text"], "Plays with acc2 a lot.");
    let cursor = first_page["next_cursor"].as_str().expect("cursor");
    let next = app
        .get(&format!("{path}?limit=1&cursor={cursor}"), Some(&alice))
        .await
        .json();
    assert_eq!(items(&next)[0]["id"], added["id"]);

    // The case view shows the accused's notes.
    let view = app
        .get(&format!("/api/v1/admin/cases/{case}"), Some(&alice))
        .await
        .json();
    let notes = view["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 2, "{view}");
    assert_eq!(notes[1]["text"], "Warned in chat twice before.");

    // Logged, with the player as subject.
    assert!(modlog_kinds(&app).iter().any(|k| k == "note_added"));
    let log = app
        .get(
            "/api/v1/admin/modlog?kind=note_added&player=acc1",
            Some(&alice),
        )
        .await
        .json();
    assert_eq!(items(&log).len(), 2, "{log}");

    // Append-only: the database refuses changes, except to the text, which only an erasure
    // rewrites (docs/personal-data.md).
    {
        use arbiter::store::schema::player_notes;
        let mut conn = app.state.pool.get().expect("connection");
        let changed = diesel::update(player_notes::table)
            .set(player_notes::author_id.eq(player_notes::player_id))
            .execute(&mut *conn);
        assert!(changed.is_err(), "a note was changed");
        let moved = diesel::update(player_notes::table)
            .set(player_notes::created_at.eq(chrono::NaiveDateTime::MIN))
            .execute(&mut *conn);
        assert!(moved.is_err(), "a note was moved in time");
        let removed = diesel::delete(player_notes::table).execute(&mut *conn);
        assert!(removed.is_err(), "a note was deleted");
    }

    // Another player has no notes.
    let none = app
        .get("/api/v1/admin/players/acc2/notes", Some(&alice))
        .await
        .json();
    assert_eq!(items(&none).len(), 0);
}

#[actix_web::test]
async fn bad_notes_are_refused_by_field_and_store_nothing() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let path = "/api/v1/admin/players/acc1/notes";
    let error = app
        .post_json(path, Some(&alice), &json!({ "text": "   " }))
        .await
        .assert_error(422, "invalid_note");
    assert_eq!(error["details"]["field"], "text");
    let long = "x".repeat(4001);
    app.post_json(path, Some(&alice), &json!({ "text": long }))
        .await
        .assert_error(422, "invalid_note");
    app.post_json(path, Some(&alice), &json!({ "text": "ok", "case_id": 999 }))
        .await
        .assert_error(404, "case_not_found");
    let error = app
        .post_json(
            path,
            Some(&alice),
            &json!({ "text": "ok", "colour": "red" }),
        )
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["field"], "colour");
    let listed = app.get(path, Some(&alice)).await.json();
    assert_eq!(items(&listed).len(), 0, "{listed}");
    app.post_json(
        path,
        Some(&app.player_token("acc1")),
        &json!({ "text": "hi" }),
    )
    .await
    .assert_error(403, "forbidden");
}
