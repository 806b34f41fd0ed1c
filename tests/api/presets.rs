//! Decision presets over HTTP: listed, chosen by key in a decision, rendered into the note the
//! player reads, refused when they do not fit, and a bad presets file stops start-up.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::state::AppState;
use serde_json::json;

use crate::moderation::{app_with_games, case_of, claim, decide, report};
use crate::support::{test_settings, TestDb};

#[actix_web::test]
async fn presets_are_listed_and_filtered() {
    let (app, _server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let all = app.get("/api/v1/admin/presets", Some(&alice)).await;
    assert_eq!(all.status, 200, "{}", all.text());
    let all = all.json();
    assert!(all["items"].as_array().expect("items").len() >= 12);

    let some = app
        .get(
            "/api/v1/admin/presets?reason=offensive_chat&decision=sanction",
            Some(&alice),
        )
        .await
        .json();
    let keys: Vec<&str> = some["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|p| p["key"].as_str())
        .collect();
    assert_eq!(keys, ["offensive_chat_ban"]);

    let bad = app
        .get("/api/v1/admin/presets?reason=cheating", Some(&alice))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(bad["details"]["field"], "reason");
}

#[actix_web::test]
async fn a_preset_becomes_the_note_the_player_reads() {
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
    assert_eq!(claim(&app, &alice, case).await.status, 200);

    let sanction = |preset: &str| {
        json!({ "decision": "sanction", "ground": "harassment", "preset": preset,
                "sanction": { "kind": "chat_ban", "minutes": 4320 } })
    };
    let unknown = decide(&app, &alice, case, sanction("no_such_preset"))
        .await
        .assert_error(422, "unknown_preset");
    assert_eq!(unknown["details"]["field"], "preset");
    let misfit = decide(&app, &alice, case, sanction("offensive_chat_warn"))
        .await
        .assert_error(422, "preset_does_not_fit");
    assert_eq!(misfit["details"]["field"], "preset");
    let teaming = decide(&app, &alice, case, sanction("teaming_ban"))
        .await
        .assert_error(422, "preset_does_not_fit");
    assert!(
        teaming["message"]
            .as_str()
            .is_some_and(|m| m.contains("teaming_ban")),
        "{teaming}"
    );

    // No note needed with a preset; the admin's own words follow it.
    let mut body = sanction("offensive_chat_ban");
    body["note"] = json!("Repeated after a warning in the lobby.");
    let decided = decide(&app, &alice, case, body).await;
    assert_eq!(decided.status, 200, "{}", decided.text());

    let mine = app
        .get("/api/v1/sanctions/mine", Some(&app.player_token("acc1")))
        .await
        .json();
    let note = mine["items"][0]["note"].as_str().expect("note").to_string();
    assert!(
        note.starts_with("acc1, you have received a chat ban of 3 days for your chat in games 1001 (harassment)."),
        "{note}"
    );
    assert!(note.contains("cannot chat until 20"), "{note}");
    assert!(
        note.ends_with("\n\nRepeated after a warning in the lobby."),
        "{note}"
    );
    assert!(!note.contains('{'), "{note}");
}

#[test]
fn a_presets_file_with_an_unknown_placeholder_stops_start_up() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("presets.toml");
    std::fs::write(
        &file,
        "[[preset]]\nkey = \"hello\"\nreason = \"other\"\ndecision = \"warn\"\n\
         title = \"Hello\"\ntext = \"Dear {name}\"\n",
    )
    .expect("write");
    let db = TestDb::sqlite();
    let mut settings = test_settings(&db);
    settings.moderation.presets_file = file.display().to_string();
    let pool = arbiter::store::connect(&settings.database).expect("pool");
    let err = AppState::new(settings, pool)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("moderation.presets_file"), "{err}");
    assert!(err.contains("\"hello\" uses {name}"), "{err}");
}
