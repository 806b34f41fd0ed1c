//! Chat analysis at ingest: flags stored with the game, automatic reports, and the admin reads.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::automatic_reports::raised_by_game;
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::support::TestApp;

const FFA_GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
);

fn game_text() -> String {
    std::fs::read_to_string(FFA_GAME).expect("game record")
}

/// Red (Spaksi) insults at ply 10; Yellow (HSCCCB) tells Blue a move at ply 60.
fn submission_with(chat: Value) -> Value {
    json!({ "pgn4": game_text(), "chat": chat })
}

fn dirty_chat() -> Value {
    json!([
        { "ply": 2, "sender": "Spaksi", "channel": "game", "text": "gl hf" },
        { "ply": 10, "sender": "Spaksi", "channel": "game", "text": "shut up and kill yourself idiot" },
        { "ply": 60, "sender": "HSCCCB", "channel": "game", "text": "blue, Bxh2 now" }
    ])
}

fn flag_count(app: &TestApp) -> (i64, i64) {
    use arbiter::store::schema::{automatic_reports, chat_flags};
    let mut conn = app.state.pool.get().expect("connection");
    let flags: i64 = chat_flags::table
        .count()
        .get_result(&mut *conn)
        .expect("count flags");
    let reports: i64 = automatic_reports::table
        .count()
        .get_result(&mut *conn)
        .expect("count reports");
    (flags, reports)
}

fn items(body: &Value) -> &Vec<Value> {
    body["items"].as_array().expect("items")
}

#[actix_web::test]
async fn offensive_and_ffa_lines_are_flagged_and_reported_at_ingest() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");

    let stored = app
        .post_json(
            "/api/v1/games",
            Some(&server),
            &submission_with(dirty_chat()),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let id = stored.json()["id"].as_i64().expect("id");

    let flags = app
        .get(&format!("/api/v1/games/{id}/flags"), Some(&admin))
        .await;
    assert_eq!(flags.status, 200, "{}", flags.text());
    let body = flags.json();
    let all = items(&body);
    assert!(
        all.iter().all(|f| f["line_idx"] != 0),
        "clean line flagged: {body}"
    );
    let insult = all
        .iter()
        .find(|f| f["line_idx"] == 1)
        .unwrap_or_else(|| panic!("no flag on the insult: {body}"));
    assert_eq!(insult["sender"], "Spaksi");
    assert_eq!(insult["ply"], 10);
    assert_eq!(insult["text"], "shut up and kill yourself idiot");
    let suggestion = all
        .iter()
        .find(|f| f["category"] == "move_suggestion")
        .unwrap_or_else(|| panic!("no move suggestion: {body}"));
    assert_eq!(suggestion["line_idx"], 2);
    assert_eq!(suggestion["ply"], 60);
    assert_eq!(suggestion["text"], "blue, Bxh2 now");
    assert_eq!(suggestion["report_worthy"], true, "{body}");
    assert!(
        suggestion["evidence"]["fen4"]
            .as_str()
            .is_some_and(|f| f.starts_with("R-")),
        "{body}"
    );

    // By player, paginated.
    let page = app
        .get("/api/v1/players/HSCCCB/flags?limit=1", Some(&admin))
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let page = page.json();
    assert_eq!(items(&page).len(), 1);
    assert_eq!(items(&page)[0]["sender"], "HSCCCB");
    assert_eq!(items(&page)[0]["game_id"], id);
    let red = app.get("/api/v1/players/Spaksi/flags", Some(&admin)).await;
    assert_eq!(red.status, 200, "{}", red.text());
    let red = red.json();
    assert!(!items(&red).is_empty());
    assert!(items(&red).iter().all(|f| f["sender"] == "Spaksi"));
    assert!(red["next_cursor"].is_null());
    let mut cursor = page["next_cursor"].as_str().map(str::to_string);
    let mut seen = 1;
    while let Some(c) = cursor {
        let next = app
            .get(
                &format!("/api/v1/players/HSCCCB/flags?limit=1&cursor={c}"),
                Some(&admin),
            )
            .await;
        assert_eq!(next.status, 200, "{}", next.text());
        let next = next.json();
        seen += items(&next).len();
        cursor = next["next_cursor"].as_str().map(str::to_string);
    }
    assert_eq!(seen, all.iter().filter(|f| f["sender"] == "HSCCCB").count());

    // The severe line raised an automatic report in the same ingest.
    let mut conn = app.state.pool.get().expect("connection");
    let reports = raised_by_game(&mut conn, id).expect("reports");
    let offensive = reports
        .iter()
        .find(|r| r.reason == "offensive_chat")
        .unwrap_or_else(|| panic!("no offensive report: {reports:?}"));
    assert_eq!(offensive.player, "Spaksi");
    assert_eq!(offensive.source, "chat_analysis");
    assert!(offensive.score > 0.0 && offensive.score <= 1.0);
    assert!(!offensive.summary.is_empty());

    // Unknown game: 404.
    let missing = app.get("/api/v1/games/999999/flags", Some(&admin)).await;
    missing.assert_error(404, "game_not_found");
}

#[actix_web::test]
async fn clean_and_rejected_games_store_no_flags() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");

    let clean = json!([
        { "ply": 2, "sender": "Spaksi", "channel": "game", "text": "gl hf" },
        { "ply": 30, "sender": "rasulk", "channel": "game", "text": "nice game so far" }
    ]);
    let stored = app
        .post_json("/api/v1/games", Some(&server), &submission_with(clean))
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let id = stored.json()["id"].as_i64().expect("id");
    let flags = app
        .get(&format!("/api/v1/games/{id}/flags"), Some(&admin))
        .await;
    assert_eq!(flags.status, 200, "{}", flags.text());
    assert!(items(&flags.json()).is_empty(), "{}", flags.text());
    assert_eq!(flag_count(&app), (0, 0));

    // An illegal move: refused, nothing stored.
    let broken = game_text()
        .replacen("1. f2-f3", "1. f2-f9", 1)
        .replace("[GameNr \"104071136\"]", "[GameNr \"104071137\"]");
    let refused = app
        .post_json(
            "/api/v1/games",
            Some(&server),
            &json!({ "pgn4": broken, "chat": dirty_chat() }),
        )
        .await;
    refused.assert_error(422, "illegal_move");
    assert_eq!(flag_count(&app), (0, 0));
}
