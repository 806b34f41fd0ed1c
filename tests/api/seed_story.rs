//! The reporting guide's story end to end over HTTP: three players report the same offensive
//! chat in one game, an admin claims the case and decides a 24-hour chat ban, the game
//! server's standing check reflects it, the reporters see the outcome, the player appeals, the
//! appeal is decided, and every step is in the moderation log.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::webhook_deliverer::WebhookDeliverer;
use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use crate::support::TestApp;
use crate::webhooks::{allow_local, sanction_events, subscribe, verify, Receiver};

const FFA_GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
);
/// The game's site number (its `GameNr`).
const GAME_NUMBER: i64 = 104_071_136;
const ACCUSED: &str = "Spaksi";
const REPORTERS: [&str; 3] = ["rasulk", "HSCCCB", "BlondieFlower"];

fn time(value: &Value) -> DateTime<Utc> {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a time: {value}"))
        .parse()
        .expect("RFC 3339 time")
}

#[actix_web::test]
async fn three_reports_one_case_a_chat_ban_an_appeal_and_the_log() {
    // The game server's receiver listens on this machine.
    let app = TestApp::spawn_with(allow_local).await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "mod_anna");
    // The game server takes sanction events at its own URL (default delivery settings).
    let game_server = Receiver::start(&[]);
    let sanctions = Some(sanction_events());
    let (_, secret) = subscribe(&app, &admin, &game_server.url(), sanctions).await;
    arbiter::api::jobs::job::start::<WebhookDeliverer>(&app.state);

    // The game server posts the finished game with its chat.
    let game = json!({
        "pgn4": std::fs::read_to_string(FFA_GAME).expect("game record"),
        "chat": [
            { "ply": 4, "sender": "rasulk", "channel": "game", "text": "good luck all" },
            { "ply": 8, "sender": ACCUSED, "channel": "game", "text": "learn to play noob" },
        ],
    });
    let stored = app.post_json("/api/v1/games", Some(&server), &game).await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let game_id = stored.json()["id"].as_i64().expect("game id");

    // Before anything, the accused may chat.
    let standing = app
        .get(
            &format!("/api/v1/players/{ACCUSED}/standing"),
            Some(&server),
        )
        .await;
    assert_eq!(standing.status, 200, "{}", standing.text());
    assert_eq!(standing.json()["may_chat"], true);

    // Three players report the same line.
    for reporter in REPORTERS {
        let filed = app
            .post_json(
                "/api/v1/reports",
                Some(&app.player_token(reporter)),
                &json!({
                    "accused": [ACCUSED],
                    "reason": "offensive_chat",
                    "game": GAME_NUMBER,
                    "message": "insulted me in the game chat",
                }),
            )
            .await;
        assert_eq!(filed.status, 201, "{reporter}: {}", filed.text());
    }

    // One case in the queue, with the three reporters' entries and the flagged line.
    let queue = app.get("/api/v1/admin/cases", Some(&admin)).await;
    assert_eq!(queue.status, 200, "{}", queue.text());
    let queue = queue.json();
    let cases: Vec<&Value> = queue["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|c| c["accused"] == ACCUSED && c["reason"] == "offensive_chat")
        .collect();
    assert_eq!(cases.len(), 1, "{queue}");
    let case_id = cases[0]["id"].as_i64().expect("case id");
    let detail = app
        .get(&format!("/api/v1/admin/cases/{case_id}"), Some(&admin))
        .await;
    assert_eq!(detail.status, 200, "{}", detail.text());
    let detail = detail.json();
    let player_entries: Vec<&Value> = detail["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["source"] == "player")
        .collect();
    assert_eq!(player_entries.len(), 3, "{detail}");
    let mut reporters: Vec<&str> = player_entries
        .iter()
        .map(|e| e["reporter"]["name"].as_str().expect("reporter name"))
        .collect();
    reporters.sort_unstable();
    let mut expected = REPORTERS.to_vec();
    expected.sort_unstable();
    assert_eq!(reporters, expected);
    assert!(player_entries
        .iter()
        .all(|e| e["games"] == json!([game_id])));
    assert!(
        detail["flagged_lines"]
            .as_array()
            .expect("flagged lines")
            .iter()
            .any(|l| l.to_string().contains("learn to play noob")),
        "{detail}"
    );

    // The admin claims the case and decides a 24-hour chat ban.
    let claimed = app
        .post_json(
            &format!("/api/v1/admin/cases/{case_id}/claim"),
            Some(&admin),
            &json!({}),
        )
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let decided = app
        .post_json(
            &format!("/api/v1/admin/cases/{case_id}/decision"),
            Some(&admin),
            &json!({
                "decision": "sanction",
                "ground": "harassment",
                "note": "insulted an opponent (game 104071136)",
                "sanction": { "kind": "chat_ban", "minutes": 1440 },
            }),
        )
        .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let decided_at = std::time::Instant::now();
    let decided = decided.json();
    let sanction_id = decided["sanction"]["id"].as_i64().expect("sanction id");

    // The game server learns of the chat ban by webhook within a second.
    let pushed = game_server
        .wait_for(1, std::time::Duration::from_secs(1))
        .await;
    assert_eq!(
        pushed.len(),
        1,
        "no webhook within {:?}",
        decided_at.elapsed()
    );
    verify(&pushed[0], &secret);
    let event: serde_json::Value = serde_json::from_str(&pushed[0].body).expect("event");
    assert_eq!(event["type"], "sanction_started");
    assert_eq!(event["sanction"]["id"], sanction_id);
    assert_eq!(event["sanction"]["player"], ACCUSED);

    // The game server's standing check: no chat for 24 hours, play and reports unaffected.
    let standing = app
        .get(
            &format!("/api/v1/players/{ACCUSED}/standing"),
            Some(&server),
        )
        .await
        .json();
    assert_eq!(standing["may_chat"], false, "{standing}");
    assert_eq!(standing["may_play"], true, "{standing}");
    let hours = (time(&standing["chat_until"]) - Utc::now()).num_minutes();
    assert!(
        (1430..=1440).contains(&hours),
        "chat ban ends in {hours} minutes"
    );

    // Each reporter sees the outcome of their own report, and only their own.
    for reporter in REPORTERS {
        let mine = app
            .get("/api/v1/reports/mine", Some(&app.player_token(reporter)))
            .await;
        assert_eq!(mine.status, 200, "{}", mine.text());
        let mine = mine.json();
        let items = mine["items"].as_array().expect("items");
        assert_eq!(items.len(), 1, "{reporter}: {mine}");
        assert_eq!(items[0]["status"], "decided");
        assert_eq!(items[0]["outcome"], "upheld");
        assert!(
            !mine.to_string().contains("insulted an opponent"),
            "admin note leaked"
        );
    }

    // The player appeals; the admin lifts the ban; the standing check follows at once.
    let appeal = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction_id}/appeal"),
            Some(&app.player_token(ACCUSED)),
            &json!({ "text": "It was banter with a friend, I apologise." }),
        )
        .await;
    assert_eq!(appeal.status, 201, "{}", appeal.text());
    let appeal_id = appeal.json()["id"].as_i64().expect("appeal id");
    let open = app.get("/api/v1/admin/appeals", Some(&admin)).await.json();
    assert!(
        open["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|a| a["id"] == appeal_id),
        "{open}"
    );
    // Another admin answers the appeal: the one who imposed the ban may not (four eyes).
    let second_admin = app.token(TokenRole::Admin, "mod_ben");
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/appeals/{appeal_id}/decision"),
            Some(&second_admin),
            &json!({ "decision": "lift", "note": "first offence, apologised" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    let standing = app
        .get(
            &format!("/api/v1/players/{ACCUSED}/standing"),
            Some(&server),
        )
        .await
        .json();
    assert_eq!(standing["may_chat"], true, "{standing}");

    // Every step is in the moderation log, with who did it.
    let log = app
        .get("/api/v1/admin/modlog?limit=200", Some(&admin))
        .await;
    assert_eq!(log.status, 200, "{}", log.text());
    let log = log.json();
    let lines = log["items"].as_array().expect("items");
    let count = |kind: &str| lines.iter().filter(|l| l["kind"] == kind).count();
    assert_eq!(count("report_filed"), 3, "{log}");
    for kind in [
        "case_opened",
        "case_claimed",
        "decision",
        "sanction_created",
        "appeal_filed",
        "appeal_decided",
        "sanction_lifted",
    ] {
        assert!(count(kind) >= 1, "{kind} missing from {log}");
    }
    let by_admin = |kind: &str, admin: &str| {
        lines
            .iter()
            .filter(|l| l["kind"] == kind)
            .all(|l| l["actor_kind"] == "admin" && l["actor"] == admin)
    };
    assert!(by_admin("case_claimed", "mod_anna") && by_admin("decision", "mod_anna"));
    assert!(by_admin("appeal_decided", "mod_ben"));
    assert!(lines
        .iter()
        .filter(|l| l["kind"] == "report_filed")
        .all(|l| l["actor_kind"] == "player" && l["subject"] == ACCUSED));
    // The log filters by player and by admin.
    let about = app
        .get(
            &format!("/api/v1/admin/modlog?player={ACCUSED}&kind=decision"),
            Some(&admin),
        )
        .await
        .json();
    assert_eq!(
        about["items"].as_array().expect("items").len(),
        1,
        "{about}"
    );
    let by = app
        .get("/api/v1/admin/modlog?admin=mod_anna", Some(&admin))
        .await
        .json();
    assert!(by["items"]
        .as_array()
        .expect("items")
        .iter()
        .all(|l| l["actor"] == "mod_anna"));
}
