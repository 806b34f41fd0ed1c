//! Decisions reach the people they concern (issue #42, items 1-2) over HTTP, on the test
//! database (SQLite, or PostgreSQL with ARBITER_TEST_DATABASE_URL): a warning is announced as
//! `warning_issued` to a local receiver, carried in the standing until the player acknowledges
//! it (once, logged; never by someone else), and listed in their own warnings and export; the
//! reporters of a decided case hear the outcome and the note to reporters in `report_decided`
//! and `reports/mine`, the measure only where the site discloses it.

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use arbiter::moderation::DEFAULT_POLICY_TOML;
use serde_json::{json, Value};

use crate::console::{input_value, Browser};
use crate::moderation::{app_with_games, case_of, claim, decide, modlog_kinds, report};
use crate::support::TestApp;
use crate::webhooks::{fast_webhooks, subscribe, verify, Receiver};

/// The bodies of the events of `kind` the receiver got so far.
fn events(receiver: &Receiver, kind: &str) -> Vec<Value> {
    receiver
        .received()
        .iter()
        .filter(|r| r.header("Arbiter-Event") == Some(kind))
        .map(|r| serde_json::from_str(&r.body).expect("json body"))
        .collect()
}

/// Waits up to ten seconds for at least one event of `kind`.
async fn wait_for_event(receiver: &Receiver, kind: &str) -> Vec<Value> {
    let started = std::time::Instant::now();
    while events(receiver, kind).is_empty() && started.elapsed() < Duration::from_secs(10) {
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    events(receiver, kind)
}

async fn standing(app: &TestApp, server: &str, player: &str) -> Value {
    let got = app
        .get(&format!("/api/v1/players/{player}/standing"), Some(server))
        .await;
    assert_eq!(got.status, 200, "{}", got.text());
    got.json()
}

async fn acknowledge(app: &TestApp, bearer: &str, warning: i64) -> crate::support::TestResponse {
    app.post_json(
        &format!("/api/v1/warnings/{warning}/acknowledgement"),
        Some(bearer),
        &json!({}),
    )
    .await
}

/// Files a chat report by `reporter` against acc1 about `game`, and answers acc1's case.
async fn chat_report(app: &TestApp, reporter: &str, game: i64) -> i64 {
    let filed = report(
        app,
        reporter,
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": game,
                "message": "insults all game long" }),
    )
    .await;
    assert!(
        filed.status == 201 || filed.status == 200,
        "{}",
        filed.text()
    );
    case_of(app, "acc1", "offensive_chat").expect("case").0
}

/// Claims the case and decides it with `body`; answers the decision.
async fn claim_and_decide(app: &TestApp, admin: &str, case: i64, body: Value) -> Value {
    assert_eq!(claim(app, admin, case).await.status, 200);
    let decided = decide(app, admin, case, body).await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    decided.json()
}

/// A policy file with these replacements made to the default.
fn policy_with(replacements: &[(&str, &str)]) -> tempfile::NamedTempFile {
    let mut text = DEFAULT_POLICY_TOML.to_string();
    for (from, to) in replacements {
        assert!(text.contains(from), "the default policy has {from:?}");
        text = text.replace(from, to);
    }
    let file = tempfile::NamedTempFile::new().expect("temp policy");
    std::fs::write(file.path(), text).expect("write policy");
    file
}

#[actix_web::test]
async fn a_warning_reaches_the_player_and_waits_for_their_acknowledgement() {
    let (app, server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let events_wanted = Some(json!(["warning_issued"]));
    let (_, secret) = subscribe(&app, &alice, &receiver.url(), events_wanted).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    let case = chat_report(&app, "rep", 1001).await;
    let decided = claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "warn", "ground": "harassment", "preset": "offensive_chat_warn",
                "note": "Second time this month." }),
    )
    .await;
    let warning = decided["warning"].clone();
    let id = warning["id"].as_i64().expect("warning id");
    let text = warning["text"].as_str().expect("text").to_string();
    assert!(
        text.starts_with("acc1, this is a warning about your chat in games 1001"),
        "{text}"
    );
    assert!(text.ends_with("\n\nSecond time this month."), "{text}");
    assert_eq!(warning["must_acknowledge"], true);

    // Announced once, signed, with the text the player reads.
    let announced = wait_for_event(&receiver, "warning_issued").await;
    assert_eq!(announced.len(), 1, "{announced:?}");
    let body = &announced[0]["warning"];
    assert_eq!(body["id"], id);
    assert_eq!(body["player"], "acc1");
    assert_eq!(body["case_id"], case);
    assert_eq!(body["reason"], "offensive_chat");
    assert_eq!(body["ground"], "harassment");
    assert_eq!(body["text"], text.as_str());
    assert_eq!(body["must_acknowledge"], true);
    let request = receiver
        .received()
        .into_iter()
        .find(|r| r.header("Arbiter-Event") == Some("warning_issued"))
        .expect("request");
    verify(&request, &secret);

    // The standing carries it; the player's own list shows it.
    let before = standing(&app, &server, "acc1").await;
    assert_eq!(before["must_acknowledge"]["id"], id, "{before}");
    assert_eq!(before["must_acknowledge"]["text"], text.as_str());
    assert_eq!(before["may_chat"], true, "a warning is not a ban");
    let acc1 = app.player_token("acc1");
    let mine = app.get("/api/v1/warnings/mine", Some(&acc1)).await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    assert_eq!(mine.json()["items"][0]["id"], id);
    assert_eq!(mine.json()["items"][0]["must_acknowledge"], true);
    let others = app
        .get("/api/v1/warnings/mine", Some(&app.player_token("rep")))
        .await;
    assert_eq!(others.json()["items"], json!([]), "only one's own");

    // Nobody else acknowledges it: another player, a game server.
    acknowledge(&app, &app.player_token("rep"), id)
        .await
        .assert_error(403, "not_your_warning");
    assert_eq!(acknowledge(&app, &server, id).await.status, 403);
    acknowledge(&app, &acc1, id + 1000)
        .await
        .assert_error(404, "warning_not_found");
    assert!(standing(&app, &server, "acc1").await["must_acknowledge"].is_object());

    // The player does, twice: the same answer, one log line.
    let first = acknowledge(&app, &acc1, id).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    assert_eq!(first["must_acknowledge"], false);
    assert!(first["acknowledged_at"].is_string(), "{first}");
    let second = acknowledge(&app, &acc1, id).await;
    assert_eq!(second.status, 200, "{}", second.text());
    assert_eq!(second.json()["acknowledged_at"], first["acknowledged_at"]);
    let logged = modlog_kinds(&app);
    let acknowledgements = logged.iter().filter(|k| *k == "warning_acknowledged");
    assert_eq!(acknowledgements.count(), 1, "{logged:?}");
    assert_eq!(
        standing(&app, &server, "acc1").await["must_acknowledge"],
        Value::Null
    );

    // The player's export holds it, acknowledged.
    let export = app.get("/api/v1/players/acc1/export", Some(&alice)).await;
    assert_eq!(export.status, 200, "{}", export.text());
    let export = export.json();
    assert_eq!(export["warnings"][0]["id"], id, "{}", export["warnings"]);
    assert_eq!(
        export["warnings"][0]["acknowledged_at"],
        first["acknowledged_at"]
    );
    assert_eq!(export["refunds_owed"], json!([]));
}

#[actix_web::test]
async fn reporters_hear_the_outcome_and_the_note_but_not_the_length() {
    let (app, _server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let wanted = Some(json!(["report_decided"]));
    subscribe(&app, &alice, &receiver.url(), wanted).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    chat_report(&app, "rep", 1001).await;
    let case = chat_report(&app, "acc3", 1002).await;
    claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "harassment",
                "sanction": { "kind": "chat_ban", "minutes": 4320 },
                "preset": "offensive_chat_ban", "note": "Seen in both games.",
                "reporter_note": "We read every line you sent." }),
    )
    .await;
    let told = "Thank you for reporting acc1. A moderator read the chat in games 1001, 1002 and \
                took action.\n\nWe read every line you sent.";

    let announced = wait_for_event(&receiver, "report_decided").await;
    assert_eq!(announced.len(), 1, "one event per case: {announced:?}");
    let event = &announced[0];
    assert_eq!(event["case"]["id"], case);
    let reports = event["reports"].as_array().expect("reports");
    let reporters: Vec<&str> = reports
        .iter()
        .filter_map(|r| r["reporter"].as_str())
        .collect();
    assert_eq!(reporters, ["rep", "acc3"]);
    for told_one in reports {
        assert_eq!(told_one["outcome"], "upheld");
        assert_eq!(told_one["action_taken"], true);
        assert!(told_one.get("measure").is_none(), "{told_one}");
        assert_eq!(told_one["note"], told);
    }
    let body = serde_json::to_string(event).expect("json");
    assert!(
        !body.contains("Seen in both games"),
        "never the note to the accused"
    );
    assert!(!body.contains("3 days"), "never the length: {body}");

    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    let own = &mine.json()["items"][0];
    assert_eq!(own["outcome"], "upheld");
    assert_eq!(own["action_taken"], true);
    assert_eq!(own["measure"], Value::Null);
    assert_eq!(own["reporter_note"], told);

    // A dismissal tells the reporter too: no action, no note unless written.
    let case = chat_report(&app, "rep", 1003).await;
    claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "dismiss_not_actionable" }),
    )
    .await;
    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await
        .json();
    assert_eq!(mine["items"][0]["outcome"], "dismissed_not_actionable");
    assert_eq!(mine["items"][0]["action_taken"], false);
    assert_eq!(mine["items"][0]["reporter_note"], Value::Null);
    let started = std::time::Instant::now();
    while events(&receiver, "report_decided").len() < 2
        && started.elapsed() < Duration::from_secs(10)
    {
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let all = events(&receiver, "report_decided");
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[1]["reports"][0]["action_taken"], false);
}

#[actix_web::test]
async fn a_site_may_disclose_the_measure_and_not_ask_for_acknowledgement() {
    let policy = policy_with(&[
        (
            "require_acknowledgement = true",
            "require_acknowledgement = false",
        ),
        ("disclose = \"action_taken\"", "disclose = \"measure\""),
    ]);
    let path = policy.path().display().to_string();
    let (app, server) = app_with_games(move |settings| {
        settings.moderation.policy_file = path;
    })
    .await;
    let alice = app.token(TokenRole::Admin, "alice");

    let case = chat_report(&app, "rep", 1001).await;
    let warned = claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "warn", "ground": "harassment" }),
    )
    .await;
    let warning = warned["warning"].clone();
    assert_eq!(warning["must_acknowledge"], false);
    assert!(
        warning["text"]
            .as_str()
            .unwrap_or_default()
            .contains("harassment"),
        "without a preset or note, the text still says why: {warning}"
    );
    assert_eq!(
        standing(&app, &server, "acc1").await["must_acknowledge"],
        Value::Null
    );
    let rep = app.player_token("rep");
    let mine = app.get("/api/v1/reports/mine", Some(&rep)).await.json();
    assert_eq!(
        mine["items"][0]["measure"],
        json!({ "decision": "warn", "sanction": null, "minutes": null, "permanent": false })
    );

    let case = chat_report(&app, "rep", 1002).await;
    claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "note": "again",
                "sanction": { "kind": "chat_ban", "minutes": 4320 } }),
    )
    .await;
    let mine = app.get("/api/v1/reports/mine", Some(&rep)).await.json();
    assert_eq!(
        mine["items"][0]["measure"],
        json!({ "decision": "sanction", "sanction": "chat_ban", "minutes": 4320,
                "permanent": false })
    );
    assert_eq!(mine["items"][0]["reporter_note"], Value::Null);
}

#[actix_web::test]
async fn texts_reach_each_person_in_their_language_and_in_english() {
    let (app, server) = app_with_games(fast_webhooks).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let receiver = Receiver::start(&[]);
    let wanted = Some(json!([
        "warning_issued",
        "report_decided",
        "sanction_started"
    ]));
    subscribe(&app, &alice, &receiver.url(), wanted).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    // The reporter's token says Brazilian Portuguese; the accused's browser asks for German.
    let filed = app
        .post_json(
            "/api/v1/reports",
            Some(&app.player_token_in("rep", "pt-BR")),
            &json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001,
                     "message": "insults all game long" }),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let seen = app
        .send(
            actix_web::test::TestRequest::get()
                .uri("/api/v1/warnings/mine")
                .insert_header((
                    "authorization",
                    format!("Bearer {}", app.player_token("acc1")),
                ))
                .insert_header(("accept-language", "ja, de-DE;q=0.9, en;q=0.5")),
        )
        .await;
    assert_eq!(seen.status, 200, "{}", seen.text());

    let case = case_of(&app, "acc1", "offensive_chat").expect("case").0;
    let decided = claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "warn", "ground": "harassment", "preset": "offensive_chat_warn",
                "note": "Zweites Mal.", "reporter_note": "Obrigado." }),
    )
    .await;
    let warning = decided["warning"].clone();
    assert_eq!(warning["language"], "de", "{warning}");
    let (text, text_en) = (
        warning["text"].as_str().unwrap_or_default(),
        warning["text_en"].as_str().unwrap_or_default(),
    );
    assert!(
        text_en.starts_with("acc1, this is a warning about your chat"),
        "{text_en}"
    );
    assert_ne!(text, text_en, "German, not English");
    assert!(text.starts_with("acc1") && text.contains("1001"), "{text}");
    assert!(
        text.ends_with("\n\nZweites Mal."),
        "the admin's words as written: {text}"
    );
    let standing = standing(&app, &server, "acc1").await;
    assert_eq!(standing["must_acknowledge"]["text"], text);
    assert_eq!(standing["must_acknowledge"]["text_en"], text_en);

    let announced = wait_for_event(&receiver, "warning_issued").await;
    assert_eq!(announced[0]["warning"]["language"], "de");
    assert_eq!(announced[0]["warning"]["text"], text);
    assert_eq!(announced[0]["warning"]["text_en"], text_en);
    let told = wait_for_event(&receiver, "report_decided").await;
    let told = &told[0]["reports"][0];
    assert_eq!(told["language"], "pt", "{told}");
    let (note, note_en) = (
        told["note"].as_str().unwrap_or_default(),
        told["note_en"].as_str().unwrap_or_default(),
    );
    assert_eq!(
        note_en,
        "Thank you for reporting acc1. A moderator read the chat in games 1001 and took \
         action.\n\nObrigado."
    );
    assert_ne!(note, note_en, "Portuguese, not English");
    assert!(
        note.contains("acc1") && note.ends_with("\n\nObrigado."),
        "{note}"
    );
    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await
        .json();
    assert_eq!(mine["items"][0]["reporter_note"], note);

    // A sanction for the same player: its note in German in their own list and its event.
    let case = chat_report(&app, "rep", 1002).await;
    claim_and_decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "preset": "offensive_chat_ban",
                "sanction": { "kind": "chat_ban", "minutes": 4320 } }),
    )
    .await;
    let own = app
        .get("/api/v1/sanctions/mine", Some(&app.player_token("acc1")))
        .await
        .json();
    let own = &own["items"][0];
    assert_eq!(own["language"], "de", "{own}");
    let english = own["note"].as_str().unwrap_or_default();
    assert!(
        english.starts_with("acc1, you have received a chat ban of 3 days"),
        "{english}"
    );
    let german = own["player_note"].as_str().unwrap_or_default();
    assert!(german.contains("eine Chatsperre für 3 Tage"), "{german}");
    let started = wait_for_event(&receiver, "sanction_started").await;
    assert_eq!(started[0]["sanction"]["language"], "de");
    assert_eq!(started[0]["sanction"]["text"], german);
    assert_eq!(started[0]["sanction"]["text_en"], english);
}

#[actix_web::test]
async fn the_console_warns_with_a_note_to_reporters_and_lists_the_acknowledgement() {
    let (app, server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let case = chat_report(&app, "rep", 1001).await;
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let page_path = format!("/admin/cases/{case}");
    assert_eq!(claim(&app, &admin, case).await.status, 200);
    let page = browser.get(&page_path).await.text();
    assert!(page.contains("name=\"reporter_note\""), "{page}");
    let csrf = input_value(&page, "csrf").expect("csrf");
    let done = browser
        .post(
            &format!("{page_path}/decision"),
            &[
                ("csrf", &csrf),
                ("decision", "warn"),
                ("ground", "harassment"),
                ("preset", "offensive_chat_warn"),
                ("note", ""),
                ("reporter_note", "Thanks for the clear report."),
                ("evidence_games", ""),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.text());
    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await
        .json();
    let note = mine["items"][0]["reporter_note"]
        .as_str()
        .unwrap_or_default();
    assert!(note.ends_with("\n\nThanks for the clear report."), "{note}");

    let page = browser.get("/admin/players/acc1").await.text();
    assert!(page.contains("Warnings"), "{page}");
    assert!(page.contains("not yet acknowledged"), "{page}");
    let id = standing(&app, &server, "acc1").await["must_acknowledge"]["id"]
        .as_i64()
        .expect("warning");
    let acc1 = app.player_token("acc1");
    assert_eq!(acknowledge(&app, &acc1, id).await.status, 200);
    let page = browser.get("/admin/players/acc1").await.text();
    assert!(page.contains("acknowledged 20"), "{page}");
    assert!(!page.contains("not yet acknowledged"), "{page}");
}
