//! The game archive: ingest of every real game, read-back, export, queries, and refusals that
//! leave the database unchanged.

use std::path::{Path, PathBuf};

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::rules::{pgn4, replay};
use arbiter::store::games::count_rows;
use serde_json::{json, Value};

use crate::support::TestApp;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

/// A short FFA game: Red times out on its second turn with nobody scoring (an abort).
pub const SHORT_GAME: &str = "[GameNr \"900000001\"]\n[TimeControl \"1+15D\"]\n\
    [Variant \"FFA\"]\n[RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n\
    [Red \"r1\"]\n[Blue \"b1\"]\n[Yellow \"y1\"]\n[Green \"g1\"]\n\n\
    1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. T\n";

pub(crate) fn real_games() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in ["ffa", "teams"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(Path::new(DATA).join(dir))
            .expect("real game directory")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("read game");
            out.push((path, text));
        }
    }
    out
}

fn players(text: &str) -> [String; 4] {
    let pgn = pgn4::parse(text).expect("parses");
    ["Red", "Blue", "Yellow", "Green"].map(|c| pgn.tag(c).unwrap_or("").trim().to_string())
}

/// The JSON submission for a real game, with seats and a little chat.
fn submission(text: &str) -> Value {
    let names = players(text);
    let seats: Vec<Value> = ["red", "blue", "yellow", "green"]
        .iter()
        .zip(&names)
        .enumerate()
        .map(|(i, (seat, name))| {
            json!({ "seat": seat, "player": name, "rating_after": 2000 + i as i32,
                    "device_fp": format!("dev-{i}"), "network_fp": "net-1" })
        })
        .collect();
    json!({
        "pgn4": text,
        "seats": seats,
        "started_at": "2026-06-07T18:00:00Z",
        "ended_at": "2026-06-07T18:43:23Z",
        "chat": [
            { "ply": 0, "at": "2026-06-07T18:00:01Z", "sender": names[0], "channel": "game", "text": "gl hf" },
            { "ply": 1, "sender": "watcher", "channel": "spectator", "text": "hi all" },
            { "ply": 2, "sender": names[1], "channel": "game", "text": "you too" },
            { "ply": 3, "sender": names[2], "channel": "game", "text": "gg" }
        ],
        "events": [
            { "kind": "disconnect", "seat": "green", "ply": 1, "at": "2026-06-07T18:00:05Z" },
            { "kind": "reconnect", "seat": "green", "ply": 2 }
        ]
    })
}

fn counts(app: &TestApp) -> [i64; 4] {
    let mut conn = app.state.pool.get().expect("connection");
    count_rows(&mut conn).expect("count rows")
}

async fn post_text(app: &TestApp, token: &str, text: &str) -> crate::support::TestResponse {
    app.send(
        TestRequest::post()
            .uri("/api/v1/games")
            .insert_header(("authorization", format!("Bearer {token}")))
            .insert_header(("content-type", "text/plain"))
            .set_payload(text.to_string()),
    )
    .await
}

#[actix_web::test]
async fn every_real_game_is_ingested_read_back_exported_and_found() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    let games = real_games();
    assert!(games.len() > 100, "real games found: {}", games.len());

    let mut ids = Vec::new();
    for (i, (path, text)) in games.iter().enumerate() {
        // Alternate JSON (with chat and events) and bare PGN4.
        let response = if i % 2 == 0 {
            app.post_json("/api/v1/games", Some(&server), &submission(text))
                .await
        } else {
            post_text(&app, &server, text).await
        };
        assert_eq!(
            response.status,
            201,
            "{}: {}",
            path.display(),
            response.text()
        );
        ids.push(response.json()["id"].as_i64().expect("id"));
    }
    let stored = counts(&app);
    assert_eq!(stored[0], games.len() as i64);
    assert_eq!(stored[1], 4 * games.len() as i64);

    // The same content again: 200 with the same id, nothing new stored.
    let again = app
        .post_json("/api/v1/games", Some(&server), &submission(&games[0].1))
        .await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.json()["id"], ids[0]);
    assert_eq!(again.json()["status"], "duplicate");
    let again = post_text(&app, &server, &games[1].1).await;
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(counts(&app), stored);

    for (i, ((path, text), id)) in games.iter().zip(&ids).enumerate() {
        let original = replay::replay(text).expect("real game replays");
        let plies = original.plies.len();
        let view = app.get(&format!("/api/v1/games/{id}"), Some(&admin)).await;
        assert_eq!(view.status, 200, "{}: {}", path.display(), view.text());
        let view = view.json();
        assert_eq!(view["plies"], plies, "{}", path.display());
        assert_eq!(view["timeline"].as_array().map(Vec::len), Some(plies));
        assert_eq!(view["seats"].as_array().map(Vec::len), Some(4));
        let names = players(text);
        for (seat, name) in view["seats"].as_array().expect("seats").iter().zip(&names) {
            assert_eq!(seat["player"], name.as_str());
        }
        let points: Vec<i64> = view["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| s["points"].as_i64().expect("points"))
            .collect();
        let expected = original.points_at(plies).expect("final points");
        assert_eq!(
            points,
            expected.map(i64::from).to_vec(),
            "{}",
            path.display()
        );
        // The same game by the site's number, with the archive id in the answer.
        let number = view["site_game_id"].as_str().expect("number");
        let by_number = app
            .get(&format!("/api/v1/games/by-number/{number}"), Some(&admin))
            .await;
        assert_eq!(by_number.status, 200, "{}", by_number.text());
        assert_eq!(by_number.json(), view);
        if i % 2 == 0 {
            assert_eq!(view["chat"].as_array().map(Vec::len), Some(4));
            assert_eq!(view["chat"][0]["text"], "gl hf");
            assert_eq!(view["events"][0]["kind"], "disconnect");
            assert_eq!(view["seats"][0]["device_fp"], "dev-0");
        }

        let export = app
            .get(&format!("/api/v1/games/{id}/pgn4"), Some(&admin))
            .await;
        assert_eq!(export.status, 200, "{}", path.display());
        let again = replay::replay(&export.text()).expect("export replays");
        assert_eq!(again.plies, original.plies, "{}", path.display());
        assert_eq!(
            again.points_at(again.plies.len()),
            original.points_at(plies),
            "{}",
            path.display()
        );
        assert_eq!(again.standing, original.standing, "{}", path.display());
    }

    // Queries by player and by pair.
    let names = players(&games[0].1);
    let page = app
        .get(
            &format!("/api/v1/games?player={}&limit=200", names[0]),
            Some(&admin),
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let found: Vec<i64> = page.json()["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|g| g["id"].as_i64().expect("id"))
        .collect();
    assert!(found.contains(&ids[0]));
    let pair = app
        .get(
            &format!("/api/v1/games?player={}&with={}", names[0], names[1]),
            Some(&admin),
        )
        .await
        .json();
    assert!(pair["items"]
        .as_array()
        .expect("items")
        .iter()
        .any(|g| g["id"] == ids[0]));
    let shared = app
        .get(
            &format!("/api/v1/players/{}/games?with={}", names[0], names[1]),
            Some(&admin),
        )
        .await;
    assert_eq!(shared.status, 200, "{}", shared.text());
    let shared = shared.json();
    let entry = shared["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|g| g["game"]["id"] == ids[0])
        .expect("shared game listed")
        .clone();
    assert_eq!(entry["player"]["player"], names[0].as_str());
    assert_eq!(entry["other"]["player"], names[1].as_str());
    assert!(entry["player"]["points_taken_from_other"].is_i64());

    // Paging over everything visits each game once.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(c) => format!("/api/v1/games?limit=50&cursor={c}"),
            None => "/api/v1/games?limit=50".to_string(),
        };
        let page = app.get(&url, Some(&admin)).await.json();
        for g in page["items"].as_array().expect("items") {
            seen.push(g["id"].as_i64().expect("id"));
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    seen.sort_unstable();
    let mut all = ids.clone();
    all.sort_unstable();
    assert_eq!(seen, all);

    // Filters.
    let teams = app
        .get("/api/v1/games?variant=Teams&limit=200", Some(&admin))
        .await
        .json();
    let teams_files = games
        .iter()
        .filter(|(p, _)| p.parent().is_some_and(|d| d.ends_with("teams")))
        .count();
    assert_eq!(teams["items"].as_array().map(Vec::len), Some(teams_files));
    let dated = app
        .get(
            "/api/v1/games?from=2026-06-07&to=2026-06-08&limit=200",
            Some(&admin),
        )
        .await;
    assert_eq!(dated.status, 200, "{}", dated.text());
    assert!(!dated.json()["items"].as_array().expect("items").is_empty());
    let bad = app.get("/api/v1/games?from=yesterday", Some(&admin)).await;
    bad.assert_error(400, "invalid_query");

    // The player summary counts the games.
    let summary = app
        .get(
            &format!("/api/v1/players/{}/summary", names[0]),
            Some(&server),
        )
        .await;
    assert_eq!(summary.status, 200, "{}", summary.text());
    assert!(summary.json()["games"].as_i64().unwrap_or(0) >= 1);
}

#[actix_web::test]
async fn a_game_number_that_is_not_one_or_not_stored_is_refused_by_name() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let error = app
        .get("/api/v1/games/by-number/12x", Some(&admin))
        .await
        .assert_error(400, "invalid_path");
    assert_eq!(error["details"]["field"], "number");
    let error = app
        .get("/api/v1/games/by-number/104071136", Some(&admin))
        .await
        .assert_error(404, "game_not_found");
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("104071136")));
}

#[actix_web::test]
async fn aborts_are_classified_and_counted() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    let response = post_text(&app, &server, SHORT_GAME).await;
    assert_eq!(response.status, 201, "{}", response.text());
    let id = response.json()["id"].as_i64().expect("id");
    let view = app
        .get(&format!("/api/v1/games/{id}"), Some(&admin))
        .await
        .json();
    assert_eq!(view["aborted"]["seat"], "red");
    assert_eq!(view["aborted"]["ply"], 4);
    assert_eq!(view["aborted"]["reason"], "early_leave");
    assert_eq!(view["seats"][0]["elimination_cause"], "timed_out");
    let summary = app
        .get("/api/v1/players/r1/summary", Some(&app.player_token("b1")))
        .await
        .json();
    assert_eq!(summary["aborted"], 1);
    assert_eq!(summary["games"], 1);
    let blue = app
        .get("/api/v1/players/b1/summary", Some(&admin))
        .await
        .json();
    assert_eq!(blue["aborted"], 0);
    let aborted = app
        .get("/api/v1/games?aborted=true", Some(&admin))
        .await
        .json();
    assert_eq!(aborted["items"][0]["id"], id);
    let none = app
        .get("/api/v1/games?aborted=false", Some(&admin))
        .await
        .json();
    assert_eq!(none["items"].as_array().map(Vec::len), Some(0));
}

#[actix_web::test]
async fn bad_games_are_refused_precisely_and_store_nothing() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let games = real_games();
    let text = &games[0].1;
    let before = counts(&app);

    // Truncated in the middle of a move.
    let movetext_start = text.find("\n1.").expect("movetext");
    let cut = movetext_start
        + text[movetext_start..movetext_start + 400]
            .rfind('-')
            .expect("a move");
    let truncated = &text[..=cut];
    let error = post_text(&app, &server, truncated)
        .await
        .assert_error(422, "pgn4_syntax");
    assert!(error["details"]["line"].as_u64().is_some(), "{error}");
    assert!(error["details"]["column"].as_u64().is_some(), "{error}");

    // An illegal move in a real export.
    let quirk =
        std::fs::read_to_string(format!("{DATA}/quirks/cc_game_0133.pgn4")).expect("quirk game");
    let error = post_text(&app, &server, &quirk)
        .await
        .assert_error(422, "illegal_move");
    assert_eq!(error["details"]["ply"], 74);
    assert_eq!(error["details"]["move"], "Qg2-h3");
    assert!(error["details"]["fen4"]
        .as_str()
        .is_some_and(|f| f.starts_with("R-")));
    assert!(error["message"].as_str().unwrap_or("").contains("Qg2-h3"));

    // A seat that does not match the PGN4.
    let mut body = submission(text);
    body["seats"][1]["player"] = json!("impostor");
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(422, "invalid_game");
    assert_eq!(error["details"]["field"], "seats[1].player");
    // An unknown seat colour is unreadable JSON naming the field.
    let mut body = submission(text);
    body["seats"][2]["seat"] = json!("purple");
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["field"], "seats[2].seat");

    // A chat sender who is not in the game.
    let mut body = submission(text);
    body["chat"][3]["sender"] = json!("stranger");
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(422, "invalid_game");
    assert_eq!(error["details"]["field"], "chat[3].sender");

    // Plies out of range.
    let mut body = submission(text);
    body["chat"][2]["ply"] = json!(100_000);
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(422, "invalid_game");
    assert_eq!(error["details"]["field"], "chat[2].ply");
    let mut body = submission(text);
    body["events"][1]["ply"] = json!(100_000);
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(422, "invalid_game");
    assert_eq!(error["details"]["field"], "events[1].ply");

    // A game number that contradicts the tag.
    let mut body = submission(text);
    body["site_game_id"] = json!(1);
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(422, "invalid_game");
    assert_eq!(error["details"]["field"], "site_game_id");

    // Too large.
    let mut body = submission(text);
    body["chat"][0]["text"] = json!("x".repeat(2 * 1024 * 1024));
    app.post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(413, "payload_too_large");

    assert_eq!(counts(&app), before, "refusals stored nothing");

    // Different content under the same number: 409, the first version kept.
    let first = app
        .post_json("/api/v1/games", Some(&server), &submission(text))
        .await;
    assert_eq!(first.status, 201, "{}", first.text());
    let stored = counts(&app);
    let mut body = submission(text);
    body["chat"][0]["text"] = json!("edited");
    let error = app
        .post_json("/api/v1/games", Some(&server), &body)
        .await
        .assert_error(409, "game_conflict");
    assert_eq!(error["details"]["id"], first.json()["id"]);
    assert_eq!(counts(&app), stored);
}

#[actix_web::test]
async fn concurrent_duplicates_store_one_game() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let body = submission(&real_games()[3].1);
    let requests = (0..6).map(|_| app.post_json("/api/v1/games", Some(&server), &body));
    let responses = futures_util::future::join_all(requests).await;
    let mut statuses: Vec<u16> = responses.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 200, 200, 200, 200, 201]);
    let ids: Vec<Value> = responses.iter().map(|r| r.json()["id"].clone()).collect();
    assert!(ids.iter().all(|id| *id == ids[0]));
    assert_eq!(counts(&app)[0], 1);
}

#[actix_web::test]
async fn bulk_import_is_safe_to_rerun_and_names_rejected_files() {
    use arbiter::archive::AbortPreset;
    use arbiter::cli::import::{collect_files, import_sources};

    let app = TestApp::spawn().await;
    let paths = vec![
        Path::new(DATA).join("teams"),
        Path::new(DATA).join("quirks/cc_game_0133.pgn4"),
    ];
    let files = collect_files(&paths).expect("files");
    let sources = || {
        files.iter().map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(p).map_err(|e| e.to_string()),
            )
        })
    };
    let mut conn = app.state.pool.get().expect("connection");
    let first =
        import_sources(&mut conn, sources(), AbortPreset::Seed001, 2, 2, |_| {}).expect("import");
    assert!(first.imported >= 3, "{first:?}");
    assert!(
        first
            .rejected
            .iter()
            .any(|(file, reason)| file.ends_with("cc_game_0133.pgn4") && reason.contains("Qg2-h3")),
        "{first:?}"
    );
    let stored = count_rows(&mut conn).expect("counts");
    let second = import_sources(&mut conn, sources(), AbortPreset::Seed001, 1000, 1, |_| {})
        .expect("import again");
    assert_eq!(second.imported, 0);
    assert_eq!(second.duplicates, first.imported);
    assert_eq!(second.rejected.len(), first.rejected.len());
    assert_eq!(count_rows(&mut conn).expect("counts"), stored);
}

/// The tags of a real game without its moves.
fn tags_only(text: &str) -> String {
    text.lines()
        .filter(|l| l.starts_with('['))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The tags of a real game as a game aborted before any move: another number, `Result "*"`,
/// no `Termination`.
pub(crate) fn aborted_before_any_move(text: &str, number: &str) -> String {
    tags_only(text)
        .lines()
        .filter(|l| !l.starts_with("[Termination "))
        .map(|l| {
            if l.starts_with("[Result ") {
                "[Result \"*\"]\n".to_string()
            } else if l.starts_with("[GameNr ") {
                format!("[GameNr \"{number}\"]\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

#[actix_web::test]
async fn a_result_that_disagrees_with_the_replay_is_refused_and_stores_nothing() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    let game = std::fs::read_to_string(format!("{DATA}/ffa/cc_game_0016.pgn4")).expect("game");
    let before = counts(&app);

    // Tags only: the claimed win in the Termination tag computes 60 points for Green, the
    // Result gives every player's final points.
    let error = post_text(&app, &server, &tags_only(&game))
        .await
        .assert_error(422, "result_mismatch");
    assert_eq!(error["details"]["field"], "pgn4");
    let message = error["message"].as_str().unwrap_or("");
    assert!(
        message.contains(
            "points: computed Red 0, Blue 0, Yellow 0, Green 60 \
             but Result says Red 85, Blue 10, Yellow 35, Green 79"
        ),
        "{message}"
    );
    // The same over JSON.
    let error = app
        .post_json(
            "/api/v1/games",
            Some(&server),
            &json!({ "pgn4": tags_only(&game) }),
        )
        .await
        .assert_error(422, "result_mismatch");
    assert_eq!(error["message"].as_str(), Some(message));

    // Every move legal, but the last round is missing: the Result disagrees with the moves.
    let short = std::fs::read_to_string(format!("{DATA}/quirks/human_4pc_game_100783164.pgn4"))
        .expect("quirk game");
    let error = post_text(&app, &server, &short)
        .await
        .assert_error(422, "result_mismatch");
    assert!(
        error["message"].as_str().unwrap_or("").contains(
            "points: computed Red 38, Blue 78, Yellow 58, Green 27 \
             but Result says Red 58, Blue 58, Yellow 58, Green 27"
        ),
        "{error}"
    );
    // A truncated export whose Termination says checkmate and whose Result gives final points.
    let truncated =
        std::fs::read_to_string(format!("{DATA}/quirks/cc_game_0235.pgn4")).expect("quirk game");
    let error = post_text(&app, &server, &truncated)
        .await
        .assert_error(422, "result_mismatch");
    let mismatches = error["details"]["mismatches"].as_array().expect("list");
    assert!(
        mismatches
            .iter()
            .any(|m| m.as_str().is_some_and(|m| m.contains("still running"))),
        "{error}"
    );
    assert_eq!(counts(&app), before, "refusals stored nothing");

    // Aborted before any move: stored, with nobody on points and no result.
    let aborted = aborted_before_any_move(&game, "104071137");
    let response = post_text(&app, &server, &aborted).await;
    assert_eq!(response.status, 201, "{}", response.text());
    let id = response.json()["id"].as_i64().expect("id");
    let view = app
        .get(&format!("/api/v1/games/{id}"), Some(&admin))
        .await
        .json();
    assert_eq!(view["plies"], 0);
    assert_eq!(view["termination"], "unfinished");
    for seat in view["seats"].as_array().expect("seats") {
        assert_eq!(seat["points"], 0, "{view}");
    }
}
