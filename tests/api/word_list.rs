//! The admins' word list (issue #43, item 3): a term added on one instance is flagged on a
//! second instance sharing the database within seconds, an allowed word is not flagged there,
//! strictness moves the action, every change is logged and can be removed; refusals name the
//! field. On SQLite, or PostgreSQL with ARBITER_TEST_DATABASE_URL.

use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::job::start;
use arbiter::api::jobs::word_list_reloader::WordListReloader;
use serde_json::{json, Value};

use crate::moderation::modlog_kinds;
use crate::support::TestApp;

const CHECK: &str = "/api/v1/chat/check";
const FFA_GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
);
const LIST: &str = "/api/v1/admin/word-list";

/// How long a change may take to reach the second instance: its look every second, one
/// rebuild of the analyser, and room for a slow machine.
const WITHIN: Duration = Duration::from_secs(20);

async fn check(app: &TestApp, token: &str, text: &str) -> Value {
    let response = app
        .post_json(CHECK, Some(token), &json!({ "text": text }))
        .await;
    assert_eq!(response.status, 200, "{}", response.text());
    response.json()
}

fn rules(body: &Value) -> Vec<String> {
    body["flags"]
        .as_array()
        .map(|flags| {
            flags
                .iter()
                .filter_map(|f| f["rule"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks `text` on `app` until `holds` says yes; panics after [`WITHIN`]. Returns the answer
/// and how long it took.
async fn until(
    app: &TestApp,
    token: &str,
    text: &str,
    holds: impl Fn(&Value) -> bool,
) -> (Value, Duration) {
    let started = Instant::now();
    loop {
        let body = check(app, token, text).await;
        if holds(&body) {
            return (body, started.elapsed());
        }
        assert!(
            started.elapsed() < WITHIN,
            "{text:?} still answered {body} after {WITHIN:?}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn post(app: &TestApp, admin: &str, path: &str, body: Value) -> (u16, Value) {
    let response = app.post_json(path, Some(admin), &body).await;
    let status = response.status;
    let text = response.text();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[actix_web::test]
async fn changes_reach_a_second_instance_within_seconds() {
    let first = TestApp::spawn_with(|s| s.chat.word_list_check_secs = 1).await;
    let second = first.beside().await;
    let reloader = start::<WordListReloader>(&second.state).expect("the reloader runs");
    let admin = first.token(TokenRole::Admin, "mod_anna");
    let server = first.token(TokenRole::Server, "eu-1");

    // Before: an unknown word passes, a built-in insult warns.
    assert!(rules(&check(&second, &server, "you glorbnik").await).is_empty());
    let trash = check(&second, &server, "what trash").await;
    assert_eq!(trash["action"], "warn", "{trash}");

    // A term added on the first instance: flagged there at once, in a disguised spelling too.
    let (status, term) = post(
        &first,
        &admin,
        &format!("{LIST}/terms"),
        json!({ "term": "Glorbnik", "category": "slur_hate", "severity": "critical",
                "why": "new slur in the lobbies" }),
    )
    .await;
    assert_eq!(status, 201, "{term}");
    assert_eq!(term["term"], "glorbnik");
    assert_eq!(term["mode"], "word");
    assert_eq!(term["rule"], "lexicon:admin:glorbnik");
    assert_eq!(term["added_by"], "mod_anna");
    let here = check(&first, &server, "you GL0RBN1K").await;
    assert_eq!(here["action"], "block", "{here}");
    assert_eq!(rules(&here), ["lexicon:admin:glorbnik"]);
    assert_eq!(here["flags"][0]["category"], "slur_hate");

    // ... and on the second instance within seconds, without a restart.
    let (there, took) = until(&second, &server, "you glorbniks", |b| {
        b["action"] == "block"
    })
    .await;
    assert_eq!(rules(&there), ["lexicon:admin:glorbnik"]);
    assert!(took < WITHIN);

    // A game posted to the second instance has the line flagged and reported at ingest.
    let game = json!({
        "pgn4": std::fs::read_to_string(FFA_GAME).expect("game record"),
        "chat": [{ "ply": 10, "sender": "Spaksi", "channel": "game", "text": "glorbnik" }],
    });
    let stored = second
        .post_json("/api/v1/games", Some(&server), &game)
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let id = stored.json()["id"].as_i64().expect("game id");
    let flags = second
        .get(&format!("/api/v1/games/{id}/flags"), Some(&admin))
        .await
        .json();
    assert_eq!(
        flags["items"][0]["rule"], "lexicon:admin:glorbnik",
        "{flags}"
    );
    let queue = second.get("/api/v1/admin/cases", Some(&admin)).await.json();
    assert_eq!(queue["items"][0]["reason"], "offensive_chat", "{queue}");

    // An allowed word wins over the built-in term it is spelled like, in any spelling.
    let (status, allowed) = post(
        &first,
        &admin,
        &format!("{LIST}/allowed"),
        json!({ "word": "trash", "why": "trash talk is the game's culture here" }),
    )
    .await;
    assert_eq!(status, 201, "{allowed}");
    until(&second, &server, "what trash", |b| b["action"] == "allow").await;
    let disguised = check(&second, &server, "what tr4sh").await;
    assert!(rules(&disguised).is_empty(), "{disguised}");

    // Strictness: insults at high block where they warned; off drops them.
    let (status, levels) = post_put(&first, &admin, "insult", "high").await;
    assert_eq!(status, 200, "{levels}");
    let insult = levels
        .as_array()
        .and_then(|l| l.iter().find(|s| s["category"] == "insult"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(insult["strictness"], "high");
    assert_eq!(insult["set_by"], "mod_anna");
    let (strict, _) = until(&second, &server, "you idiot", |b| b["action"] == "block").await;
    assert_eq!(strict["flags"][0]["severity"], "high", "{strict}");
    post_put(&first, &admin, "insult", "off").await;
    until(&second, &server, "you idiot", |b| rules(b).is_empty()).await;

    // Removing the term: no longer flagged there; the row keeps who removed it and why.
    let id = term["id"].as_i64().expect("entry id");
    let (status, removed) = post(
        &first,
        &admin,
        &format!("{LIST}/{id}/removal"),
        json!({ "why": "a player's real name, it turns out" }),
    )
    .await;
    assert_eq!(status, 200, "{removed}");
    assert_eq!(removed["removed_by"], "mod_anna");
    until(&second, &server, "you glorbnik", |b| rules(b).is_empty()).await;

    // The list, with the removed entry on request, and the version each instance serves.
    let list = first
        .get(&format!("{LIST}?removed=true"), Some(&admin))
        .await
        .json();
    assert_eq!(list["entries"].as_array().map(Vec::len), Some(2), "{list}");
    assert_eq!(list["served_version"], list["version"]);
    let in_force = second.get(LIST, Some(&admin)).await.json();
    assert_eq!(in_force["entries"].as_array().map(Vec::len), Some(1));
    assert_eq!(in_force["entries"][0]["term"], "trash");
    let strictness_rows = in_force["strictness"].as_array().map(Vec::len);
    assert_eq!(strictness_rows, Some(18));

    // Every change is in the moderation log with its reason.
    let kinds = modlog_kinds(&first);
    for kind in [
        "word_list_entry_added",
        "word_list_entry_removed",
        "chat_strictness_set",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} missing: {kinds:?}");
    }
    let log = first
        .get(
            "/api/v1/admin/modlog?kind=word_list_entry_removed",
            Some(&admin),
        )
        .await
        .json();
    assert_eq!(
        log["items"][0]["why"], "a player's real name, it turns out",
        "{log}"
    );
    reloader.abort();
    drop(second);
}

async fn post_put(app: &TestApp, admin: &str, category: &str, level: &str) -> (u16, Value) {
    let response = app
        .request(
            "PUT",
            &format!("{LIST}/strictness"),
            Some(admin),
            Some(&json!({ "category": category, "strictness": level,
                          "why": "the community asked" })),
        )
        .await;
    let status = response.status;
    (
        status,
        serde_json::from_str(&response.text()).unwrap_or(Value::Null),
    )
}

#[actix_web::test]
async fn a_draft_is_tested_before_it_is_saved_and_refusals_name_the_field() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");

    // Testing a draft saves nothing: the line passes now and would be blocked with it.
    let (status, tested) = post(
        &app,
        &admin,
        &format!("{LIST}/test"),
        json!({ "text": "go away zorp-face",
                "draft": { "kind": "term", "term": "zorp", "category": "insult",
                           "severity": "high", "mode": "prefix" } }),
    )
    .await;
    assert_eq!(status, 200, "{tested}");
    assert_eq!(tested["current"]["action"], "allow");
    assert_eq!(tested["with_draft"]["action"], "block");
    assert_eq!(rules(&tested["with_draft"]), ["lexicon:admin:zorp"]);
    let list = app.get(LIST, Some(&admin)).await.json();
    assert_eq!(list["version"], 0);

    // A draft allowed word shows the built-in flag it would silence.
    let (_, tested) = post(
        &app,
        &admin,
        &format!("{LIST}/test"),
        json!({ "text": "what trash", "draft": { "kind": "allowed", "term": "trash" } }),
    )
    .await;
    assert_eq!(tested["current"]["action"], "warn", "{tested}");
    assert_eq!(tested["with_draft"]["action"], "allow", "{tested}");

    let refusals = [
        (
            "terms",
            json!({ "term": "x", "category": "insult", "severity": "high", "why": "r" }),
            422,
            "invalid_term",
            "term",
        ),
        (
            "terms",
            json!({ "term": "zorp", "category": "insult", "severity": "high",
                    "mode": "phrase", "why": "r" }),
            422,
            "invalid_term",
            "term",
        ),
        (
            "terms",
            json!({ "term": "zorp", "category": "flooding", "severity": "high", "why": "r" }),
            422,
            "invalid_term",
            "term",
        ),
        (
            "terms",
            json!({ "term": "zorp", "category": "insult", "severity": "high", "why": " " }),
            422,
            "invalid_why",
            "why",
        ),
        (
            "allowed",
            json!({ "word": "a\u{0}b", "why": "r" }),
            400,
            "invalid_json",
            "word",
        ),
        (
            "allowed",
            json!({ "word": "a\tb", "why": "r" }),
            422,
            "invalid_term",
            "word",
        ),
        (
            "test",
            json!({ "text": "zorp", "draft": { "kind": "term", "term": "zorp" } }),
            422,
            "invalid_draft",
            "draft.category",
        ),
    ];
    for (path, body, status, code, field) in refusals {
        let response = app
            .post_json(&format!("{LIST}/{path}"), Some(&admin), &body)
            .await;
        let error = response.assert_error(status, code);
        assert_eq!(error["details"]["field"], field, "{body}");
    }
    let unknown_category = app
        .post_json(
            &format!("{LIST}/terms"),
            Some(&admin),
            &json!({ "term": "zorp", "category": "rudeness", "severity": "high", "why": "r" }),
        )
        .await;
    assert_eq!(unknown_category.status, 400, "{}", unknown_category.text());

    // A spelling in force is refused once; removal twice is refused; an unknown entry is 404.
    let body = json!({ "word": "scunthorpe", "why": "a town" });
    let (status, entry) = post(&app, &admin, &format!("{LIST}/allowed"), body.clone()).await;
    assert_eq!(status, 201);
    let again = app
        .post_json(&format!("{LIST}/allowed"), Some(&admin), &body)
        .await;
    again.assert_error(409, "already_in_force");
    let id = entry["id"].as_i64().expect("id");
    let removal = json!({ "why": "no longer needed" });
    let (status, _) = post(
        &app,
        &admin,
        &format!("{LIST}/{id}/removal"),
        removal.clone(),
    )
    .await;
    assert_eq!(status, 200);
    app.post_json(&format!("{LIST}/{id}/removal"), Some(&admin), &removal)
        .await
        .assert_error(409, "already_removed");
    app.post_json(&format!("{LIST}/999/removal"), Some(&admin), &removal)
        .await
        .assert_error(404, "word_list_entry_not_found");
    // Allowed again after its removal: a new entry.
    let (status, _) = post(&app, &admin, &format!("{LIST}/allowed"), body).await;
    assert_eq!(status, 201);

    // Only admins.
    let server = app.token(TokenRole::Server, "eu-1");
    let refused = app.get(LIST, Some(&server)).await;
    assert_eq!(refused.status, 403);
}
