//! `POST /api/v1/chat/check`: the live check of one line.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::{json, Value};

use crate::support::TestApp;

const PATH: &str = "/api/v1/chat/check";

/// The first 60 plies (15 rounds) of a real FFA game, as a game still running: Blue's
/// bishop on f4 can take Red's undefended pawn on h2.
fn pgn4_at_ply_60() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let text = std::fs::read_to_string(path).expect("game record");
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("16. ") {
            break;
        }
        // A game still being played has no result yet.
        if line.starts_with("[Result") || line.starts_with("[Termination") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

async fn check(app: &TestApp, token: &str, body: Value) -> Value {
    let response = app.post_json(PATH, Some(token), &body).await;
    assert_eq!(response.status, 200, "{}", response.text());
    response.json()
}

fn categories(body: &Value) -> Vec<String> {
    body["flags"]
        .as_array()
        .map(|flags| {
            flags
                .iter()
                .filter_map(|f| f["category"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn flag<'a>(body: &'a Value, category: &str) -> Option<&'a Value> {
    body["flags"]
        .as_array()?
        .iter()
        .find(|f| f["category"] == category)
}

#[actix_web::test]
async fn clean_and_offensive_lines() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");

    let body = check(&app, &server, json!({ "text": "good game everyone" })).await;
    assert_eq!(body["action"], "allow", "{body}");
    assert!(categories(&body).is_empty(), "{body}");

    let text = "shut up you f*cking idiot";
    let body = check(&app, &server, json!({ "text": text })).await;
    assert_ne!(body["action"], "allow", "{body}");
    let flags = body["flags"].as_array().expect("flags");
    assert!(!flags.is_empty(), "{body}");
    for f in flags {
        let (start, end) = (
            f["span"]["start"].as_u64().unwrap_or(0) as usize,
            f["span"]["end"].as_u64().unwrap_or(0) as usize,
        );
        assert_eq!(text.get(start..end), f["matched"].as_str(), "{f}");
        assert!(f["rule"].as_str().is_some_and(|r| !r.is_empty()));
        assert!(f["explanation"].as_str().is_some_and(|r| !r.is_empty()));
    }
}

#[actix_web::test]
async fn ffa_suggestion_with_and_without_the_game() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let text = "blue, Bxh2 now";

    // Without the game: a suggestion by its wording, no position evidence.
    let body = check(&app, &server, json!({ "text": text })).await;
    let suggestion = flag(&body, "move_suggestion").unwrap_or_else(|| panic!("{body}"));
    assert!(suggestion["evidence"].is_null(), "{body}");
    assert!(body["position"].is_null());

    // With the game: the move is legal for Blue, so the flag carries the position.
    let pgn4 = pgn4_at_ply_60();
    let body = check(
        &app,
        &server,
        json!({ "text": text, "pgn4": pgn4, "sender_seat": "yellow" }),
    )
    .await;
    let suggestion = flag(&body, "move_suggestion").unwrap_or_else(|| panic!("{body}"));
    assert_eq!(suggestion["report_worthy"], true, "{body}");
    assert_eq!(suggestion["evidence"]["ply"], 60, "{body}");
    assert!(suggestion["evidence"]["fen4"]
        .as_str()
        .is_some_and(|f| f.starts_with("R-")));
    assert_eq!(body["position"]["move_legal_for_other"], true, "{body}");
    assert_eq!(body["action"], "block", "{body}");

    // A move nobody else can play is not escalated.
    let body = check(
        &app,
        &server,
        json!({ "text": "green play Qh7", "pgn4": pgn4, "sender_seat": "red" }),
    )
    .await;
    assert_eq!(body["position"]["move_legal_for_other"], false, "{body}");
    assert_eq!(body["action"], "allow", "{body}");
    if let Some(suggestion) = flag(&body, "move_suggestion") {
        assert_eq!(suggestion["report_worthy"], false, "{body}");
    }
}

#[actix_web::test]
async fn teams_team_channel_is_exempt() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let text = "take his queen, it is hanging";
    let body = check(&app, &server, json!({ "text": text })).await;
    assert!(flag(&body, "move_suggestion").is_some(), "{body}");

    let body = check(
        &app,
        &server,
        json!({ "text": text, "variant": "teams", "channel": "team" }),
    )
    .await;
    assert!(categories(&body).is_empty(), "{body}");
    assert_eq!(body["action"], "allow");
    assert!(body["ffa"].is_null());
}

#[actix_web::test]
async fn oversized_text_and_bad_input() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");

    let long = "a".repeat(501);
    let response = app
        .post_json(PATH, Some(&server), &json!({ "text": long }))
        .await;
    let error = response.assert_error(422, "text_too_long");
    assert_eq!(error["details"]["max_chars"], 500);
    // 500 characters of several bytes each are fine.
    let wide = "é".repeat(500);
    check(&app, &server, json!({ "text": wide })).await;

    let response = app
        .post_json(PATH, Some(&server), &json!({ "text": "hi", "game_ply": 7 }))
        .await;
    response.assert_error(400, "invalid_json");
    let response = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "hi", "variant": "chess" }),
        )
        .await;
    response.assert_error(400, "invalid_json");
}

#[actix_web::test]
async fn broken_pgn4_is_422_with_its_place() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let pgn4 = "[Variant \"FFA\"]\n\n1. h2-h3 .. b7-c7 .. %%% .. m7-l7\n";
    let response = app
        .post_json(PATH, Some(&server), &json!({ "text": "Qe7", "pgn4": pgn4 }))
        .await;
    let error = response.assert_error(422, "invalid_pgn4");
    assert_eq!(error["details"]["line"], 3, "{error}");
    assert!(error["details"]["column"].as_u64().is_some_and(|c| c > 1));

    let pgn4 = "[Variant \"FFA\"]\n\n1. h2-h5 .. b7-c7\n";
    let response = app
        .post_json(PATH, Some(&server), &json!({ "text": "Qe7", "pgn4": pgn4 }))
        .await;
    let error = response.assert_error(422, "illegal_move");
    assert_eq!(error["details"]["ply"], 0, "{error}");
}

/// Stores the whole real game and returns its archive id.
async fn archived_game(app: &TestApp) -> i64 {
    let server = app.token(TokenRole::Server, "eu-1");
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let text = std::fs::read_to_string(path).expect("game record");
    let stored = app
        .post_json("/api/v1/games", Some(&server), &json!({ "pgn4": text }))
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    stored.json()["id"].as_i64().expect("id")
}

#[actix_web::test]
async fn archived_game_at_a_ply_is_judged_like_its_pgn4() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let id = archived_game(&app).await;
    let text = "blue, Bxh2 now";

    let by_id = check(
        &app,
        &server,
        json!({ "text": text, "game_id": id, "ply": 60, "sender_seat": "yellow" }),
    )
    .await;
    let suggestion = flag(&by_id, "move_suggestion").unwrap_or_else(|| panic!("{by_id}"));
    assert_eq!(suggestion["report_worthy"], true, "{by_id}");
    assert_eq!(suggestion["evidence"]["ply"], 60, "{by_id}");
    assert_eq!(by_id["position"]["move_legal_for_other"], true, "{by_id}");
    // At ply 60 the game was still being played: the FFA rules apply and the line is blocked.
    assert_eq!(by_id["action"], "block", "{by_id}");

    // The same position as the record cut at ply 60, given as PGN4.
    let by_pgn4 = check(
        &app,
        &server,
        json!({ "text": text, "pgn4": pgn4_at_ply_60(), "sender_seat": "yellow" }),
    )
    .await;
    assert_eq!(by_id["position"], by_pgn4["position"]);
    assert_eq!(
        suggestion["evidence"],
        flag(&by_pgn4, "move_suggestion").expect("flag")["evidence"]
    );

    // Without `ply`: the end of the game, which is over, so there is nothing to suggest.
    let at_end = check(
        &app,
        &server,
        json!({ "text": text, "game_id": id, "sender_seat": "yellow" }),
    )
    .await;
    assert_ne!(at_end["position"]["ply"], 60, "{at_end}");
    assert_ne!(at_end["action"], "block", "{at_end}");
}

#[actix_web::test]
async fn game_id_errors_name_the_fields() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let id = archived_game(&app).await;

    let missing = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "Qe7", "game_id": id + 1000 }),
        )
        .await;
    let error = missing.assert_error(404, "game_not_found");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains(&(id + 1000).to_string())),
        "{error}"
    );

    let both = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "Qe7", "game_id": id, "pgn4": pgn4_at_ply_60() }),
        )
        .await;
    let error = both.assert_error(400, "conflicting_fields");
    assert_eq!(
        error["details"]["fields"],
        json!(["game_id", "pgn4"]),
        "{error}"
    );

    let beyond = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "Qe7", "game_id": id, "ply": 100000 }),
        )
        .await;
    let error = beyond.assert_error(422, "ply_out_of_range");
    assert_eq!(error["details"]["field"], "ply");
    assert_eq!(error["details"]["min"], 0);
    let max = error["details"]["max"].as_u64().expect("max");
    assert!(max > 60, "{error}");
    // The last ply itself is in range.
    let last = check(
        &app,
        &server,
        json!({ "text": "Qe7", "game_id": id, "ply": max }),
    )
    .await;
    assert!(last["action"].is_string(), "{last}");

    let no_game = app
        .post_json(PATH, Some(&server), &json!({ "text": "Qe7", "ply": 3 }))
        .await;
    let error = no_game.assert_error(400, "ply_without_game");
    assert_eq!(error["details"]["field"], "ply");
}

/// A chat ban of `minutes` on Spaksi (Red of the archived game), through the moderation
/// routes: rasulk reports, an admin claims the case and decides a chat ban.
async fn chat_ban_spaksi(app: &TestApp, minutes: u32) -> Value {
    use arbiter::store::schema::{cases, players};
    use diesel::prelude::*;

    archived_game(app).await;
    let reported = app
        .post_json(
            "/api/v1/reports",
            Some(&app.player_token("rasulk")),
            &json!({ "accused": ["Spaksi"], "reason": "offensive_chat", "game": 104071136 }),
        )
        .await;
    assert!(
        reported.status == 201 || reported.status == 200,
        "{}",
        reported.text()
    );
    let case: i64 = {
        let mut conn = app.state.pool.get().expect("connection");
        cases::table
            .inner_join(players::table.on(players::id.eq(cases::accused_id)))
            .filter(players::name.eq("Spaksi"))
            .select(cases::id)
            .first(&mut *conn)
            .expect("a case against Spaksi")
    };
    let admin = app.token(TokenRole::Admin, "alice");
    let claimed = app
        .post_json(
            &format!("/api/v1/admin/cases/{case}/claim"),
            Some(&admin),
            &json!({}),
        )
        .await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let decided = app
        .post_json(
            &format!("/api/v1/admin/cases/{case}/decision"),
            Some(&admin),
            &json!({ "decision": "sanction", "ground": "harassment", "note": "insults",
                     "sanction": { "kind": "chat_ban", "minutes": minutes } }),
        )
        .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    decided.json()
}

#[actix_web::test]
async fn a_chat_banned_sender_is_blocked_with_the_ban_end() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let decided = chat_ban_spaksi(&app, 60).await;

    // A harmless line from the banned sender: blocked, with the reason and the ban's end.
    let body = check(
        &app,
        &server,
        json!({ "text": "good game everyone", "sender": "Spaksi" }),
    )
    .await;
    assert_eq!(body["action"], "block", "{body}");
    assert_eq!(body["reason"], "sender_banned", "{body}");
    assert_eq!(body["sender"]["name"], "Spaksi", "{body}");
    assert_eq!(body["sender"]["may_chat"], false, "{body}");
    assert!(body["sender"]["chat_until"].is_string(), "{body}");
    assert!(categories(&body).is_empty(), "{body}");
    // The same end as the standing the game servers read.
    let standing = app
        .get("/api/v1/players/Spaksi/standing", Some(&server))
        .await
        .json();
    assert_eq!(body["sender"]["chat_until"], standing["chat_until"]);
    assert_eq!(
        body["sender"]["chat_until"],
        decided["sanction"]["effective_end"]
    );

    // With a game too: still blocked whatever the board says.
    let body = check(
        &app,
        &server,
        json!({ "text": "gg", "sender": "Spaksi", "pgn4": pgn4_at_ply_60() }),
    )
    .await;
    assert_eq!(body["action"], "block", "{body}");
    assert_eq!(body["reason"], "sender_banned", "{body}");
}

#[actix_web::test]
async fn an_unbanned_sender_is_judged_by_the_text() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    chat_ban_spaksi(&app, 60).await;

    // Another player of the same game, never sanctioned, and a name the service never saw.
    for sender in ["rasulk", "nobody-ever"] {
        let body = check(
            &app,
            &server,
            json!({ "text": "good game everyone", "sender": sender }),
        )
        .await;
        assert_eq!(body["action"], "allow", "{body}");
        assert!(body["reason"].is_null(), "{body}");
        assert_eq!(body["sender"]["may_chat"], true, "{body}");
        assert!(body["sender"]["chat_until"].is_null(), "{body}");

        let body = check(
            &app,
            &server,
            json!({ "text": "blue your queen is hanging", "sender": sender }),
        )
        .await;
        assert_eq!(body["action"], "block", "{body}");
        assert!(body["reason"].is_null(), "{body}");
        assert!(flag(&body, "move_suggestion").is_some(), "{body}");
    }
    // Without `sender` the answer has no sender part.
    let body = check(&app, &server, json!({ "text": "gg" })).await;
    assert!(
        body["sender"].is_null() && body["reason"].is_null(),
        "{body}"
    );
}

#[actix_web::test]
async fn sender_must_be_a_possible_player_name() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    for sender in [String::new(), "   ".to_string(), "x".repeat(65)] {
        let error = app
            .post_json(
                PATH,
                Some(&server),
                &json!({ "text": "gg", "sender": sender }),
            )
            .await
            .assert_error(422, "invalid_sender");
        assert_eq!(error["details"]["field"], "sender", "{error}");
        assert_eq!(error["details"]["max_chars"], 64, "{error}");
    }
    // 64 characters is a name.
    let body = check(
        &app,
        &server,
        json!({ "text": "gg", "sender": "x".repeat(64) }),
    )
    .await;
    assert_eq!(body["sender"]["may_chat"], true, "{body}");
}

#[actix_web::test]
async fn a_bare_check_is_judged_by_who_gave_check() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");
    let id = archived_game(&app).await;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    );
    let game = arbiter::rules::replay::replay(&std::fs::read_to_string(path).expect("record"))
        .expect("replays");
    // The first ply that gave check, and its mover.
    let (ply, checker) = game
        .plies
        .iter()
        .find(|p| !p.checks.is_empty() && p.played.is_some())
        .map(|p| (p.index + 1, p.mover))
        .expect("a check in the game");
    let body = check(
        &app,
        &server,
        json!({ "text": "check!", "game_id": id, "ply": ply,
                "sender_seat": checker.name().to_ascii_lowercase() }),
    )
    .await;
    assert_eq!(body["ffa"], "check_announcement", "{body}");
    assert_eq!(body["action"], "allow", "{body}");
    assert_eq!(body["position"]["sender_gave_check"], true, "{body}");

    // The checking player named by `sender` alone is seated by the game's player tags.
    let name = game
        .pgn
        .tag(checker.name())
        .expect("player tag")
        .to_string();
    let body = check(
        &app,
        &server,
        json!({ "text": "check!", "game_id": id, "ply": ply, "sender": name }),
    )
    .await;
    assert_eq!(body["ffa"], "check_announcement", "{body}");
    assert_eq!(body["sender"]["may_chat"], true, "{body}");

    // Without a game a bare "check" is an announcement too (documented choice).
    let body = check(&app, &server, json!({ "text": "check" })).await;
    assert_eq!(body["ffa"], "check_announcement", "{body}");
    assert_eq!(body["action"], "allow", "{body}");
}

#[actix_web::test]
async fn a_reply_is_judged_with_the_line_it_answers() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");

    // Consent to an alliance, in an FFA game: collusion, as the offer is.
    let offer = json!({ "sender": "Spaksi", "text": "wanna team up against red?" });
    let body = check(
        &app,
        &server,
        json!({ "text": "ok deal", "answering": offer }),
    )
    .await;
    let consent = flag(&body, "collusion").unwrap_or_else(|| panic!("{body}"));
    assert_eq!(consent["rule"], "conversation:agrees", "{body}");
    assert_eq!(body["ffa"], "collusion", "{body}");
    let alone = check(&app, &server, json!({ "text": "ok deal" })).await;
    assert!(categories(&alone).is_empty(), "{alone}");
    let teams = json!({ "text": "ok deal", "answering": offer, "variant": "teams" });
    assert!(categories(&check(&app, &server, teams).await).is_empty());

    // A retort to an insult is an insult.
    let insult = json!({ "sender": "Spaksi", "text": "you are a fucking idiot" });
    let body = check(
        &app,
        &server,
        json!({ "text": "same to you", "answering": insult }),
    )
    .await;
    let retort = flag(&body, "insult").unwrap_or_else(|| panic!("{body}"));
    assert_eq!(retort["rule"], "conversation:echo", "{body}");
    assert_eq!(retort["matched"], "same to you");
    assert_ne!(body["action"], "allow", "{body}");
}

#[actix_web::test]
async fn conversation_fields_are_checked_and_named() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "game-server");

    let six = vec!["gg"; 6];
    let response = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "hi", "earlier_lines": six }),
        )
        .await;
    let error = response.assert_error(422, "too_many_earlier_lines");
    assert_eq!(error["details"]["field"], "earlier_lines");
    assert_eq!(error["details"]["max_items"], 5);

    let long = "a".repeat(501);
    let response = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "hi", "earlier_lines": ["gg", long] }),
        )
        .await;
    let error = response.assert_error(422, "text_too_long");
    assert_eq!(error["details"]["field"], "earlier_lines[1]");

    let response = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "hi", "answering": { "sender": " ", "text": "gg" } }),
        )
        .await;
    let error = response.assert_error(422, "invalid_sender");
    assert_eq!(error["details"]["field"], "answering.sender");

    let response = app
        .post_json(
            PATH,
            Some(&server),
            &json!({ "text": "hi", "answering": { "text": "gg" } }),
        )
        .await;
    response.assert_error(400, "invalid_json");

    // Earlier lines that say nothing leave a clean line clean.
    let body = check(
        &app,
        &server,
        json!({ "text": "good game everyone", "earlier_lines": ["well played", "that was close"] }),
    )
    .await;
    assert!(categories(&body).is_empty(), "{body}");
}
