//! A player's export and erasure: the export holds every kind of record (and the player's own
//! hides reporters and notes); after an erasure the name is in no text column of any table,
//! the sanction still answers the standing check for the old name, and every foreign key holds.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::conduct::stored::decode_seats;
use arbiter::store::connection::DbConnection;
use arbiter::store::schema::{conduct_outcomes, conduct_pending};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use serde_json::{json, Value};

use crate::moderation::{case_of, claim, decide, game_text, report};
use crate::support::TestApp;

const NAME: &str = "Zorblax";
const SEATS: [&str; 4] = ["Quill", NAME, "Mossy", "Fenwick"];

/// Games 7001..=7003 with the four players; the erased player chats and is fingerprinted,
/// another player names them in chat.
async fn post_games(app: &TestApp, server: &str) {
    for number in 7001..=7003 {
        let body = json!({
            "pgn4": game_text(number, "FFA", SEATS),
            "seats": [
                {"seat": "red", "player": "Quill"},
                {"seat": "blue", "player": NAME, "device_fp": "dev-9f1", "network_fp": "net-44a"},
                {"seat": "yellow", "player": "Mossy"},
                {"seat": "green", "player": "Fenwick"},
            ],
            "chat": [
                {"ply": 0, "sender": NAME, "channel": "game", "text": "hello all, good luck"},
                {"ply": 1, "sender": "Quill", "channel": "game", "text": "zorblax, your move"},
            ],
        });
        let posted = app.post_json("/api/v1/games", Some(server), &body).await;
        assert_eq!(posted.status, 201, "{}", posted.text());
    }
    app.apply_conduct().await;
}

/// A report on the player decided with a chat ban, their appeal, a note, and a report they
/// filed. Returns the sanction id.
async fn moderation_history(app: &TestApp, admin: &str) -> i64 {
    let filed = report(
        app,
        "Quill",
        json!({ "accused": [NAME, "Fenwick"], "reason": "offensive_chat", "game": 7001,
                "message": "Zorblax insulted me twice" }),
    )
    .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let theirs = report(
        app,
        NAME,
        json!({ "accused": ["Mossy"], "reason": "other", "game": 7002,
                "message": "Mossy stalled against me, Zorblax" }),
    )
    .await;
    assert_eq!(theirs.status, 201, "{}", theirs.text());
    let (case, _, _, _) = case_of(app, NAME, "offensive_chat").expect("case");
    claim(app, admin, case).await;
    let decided = decide(
        app,
        admin,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "note": "Zorblax: insults",
                "sanction": { "kind": "chat_ban", "minutes": 10080 } }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let sanction = decided.json()["sanction"]["id"]
        .as_i64()
        .expect("sanction id");
    let appealed = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction}/appeal"),
            Some(&app.player_token(NAME)),
            &json!({ "text": "I am Zorblax and I am sorry." }),
        )
        .await;
    assert_eq!(appealed.status, 201, "{}", appealed.text());
    let noted = app
        .post_json(
            &format!("/api/v1/admin/players/{NAME}/notes"),
            Some(admin),
            &json!({ "text": "ZORBLAX was warned in game 7001." }),
        )
        .await;
    assert_eq!(noted.status, 201, "{}", noted.text());
    sanction
}

fn lengths(export: &Value) -> Vec<(&'static str, usize)> {
    [
        "games",
        "chat_lines",
        "reports_filed",
        "reports_received",
        "cases",
        "sanctions",
        "appeals",
        "notes",
    ]
    .into_iter()
    .map(|key| (key, export[key].as_array().map_or(0, Vec::len)))
    .collect()
}

#[actix_web::test]
async fn an_export_holds_every_kind_of_record() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    post_games(&app, &server).await;
    moderation_history(&app, &admin).await;

    let path = format!("/api/v1/players/{NAME}/export");
    let full = app.get(&path, Some(&admin)).await;
    assert_eq!(full.status, 200, "{}", full.text());
    let full = full.json();
    assert_eq!(full["player"], NAME);
    assert_eq!(full["scope"], "admin");
    assert_eq!(
        lengths(&full),
        vec![
            ("games", 3),
            ("chat_lines", 3),
            ("reports_filed", 1),
            ("reports_received", 1),
            ("cases", 1),
            ("sanctions", 1),
            ("appeals", 1),
            ("notes", 1),
        ]
    );
    assert_eq!(full["games"][0]["player_seat"]["seat"], "blue");
    assert_eq!(full["games"][0]["player_seat"]["device_fp"], "dev-9f1");
    assert_eq!(full["chat_lines"][0]["text"], "hello all, good luck");
    assert_eq!(full["reports_received"][0]["reporter"], "Quill");
    assert_eq!(
        full["reports_received"][0]["message"],
        "Zorblax insulted me twice"
    );
    let mut accused: Vec<&str> = full["reports_received"][0]["accused"]
        .as_array()
        .expect("accused")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    accused.sort_unstable();
    assert_eq!(accused, ["Fenwick", NAME]);
    assert_eq!(full["reports_filed"][0]["accused"], json!(["Mossy"]));
    assert_eq!(full["sanctions"][0]["kind"], "chat_ban");
    assert!(full["conduct"].is_object(), "{}", full["conduct"]);

    // The player's own: the same records, without what the API hides from the accused
    // elsewhere: the reporter, their message, the other accused, the notes.
    let own = app.get(&path, Some(&app.player_token(NAME))).await;
    assert_eq!(own.status, 200, "{}", own.text());
    let own = own.json();
    assert_eq!(own["scope"], "self");
    assert_eq!(own["reports_received"].as_array().map(Vec::len), Some(1));
    assert!(
        own["reports_received"][0].get("reporter").is_none(),
        "{own}"
    );
    assert!(own["reports_received"][0]["message"].is_null(), "{own}");
    assert_eq!(own["reports_received"][0]["accused"], json!([NAME]));
    assert!(!own.to_string().contains("insulted me"), "{own}");
    assert_eq!(
        own["reports_filed"][0]["message"],
        "Mossy stalled against me, Zorblax"
    );
    assert!(own.get("notes").is_none());

    // Others may not; unknown names are not found.
    app.get(&path, Some(&app.player_token("Quill")))
        .await
        .assert_error(403, "forbidden");
    app.get(&path, Some(&server))
        .await
        .assert_error(403, "forbidden");
    app.get("/api/v1/players/nobody-here/export", Some(&admin))
        .await
        .assert_error(404, "player_not_found");
    let log = app
        .get("/api/v1/admin/modlog?kind=player_exported", Some(&admin))
        .await
        .json();
    assert_eq!(log["items"].as_array().map(Vec::len), Some(2), "{log}");
}

#[actix_web::test]
async fn a_long_history_streams_in_pages() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    for number in 8001..=8520 {
        crate::moderation::ingest(&app, &server, number, "FFA", SEATS).await;
    }
    let export = app
        .get(&format!("/api/v1/players/{NAME}/export"), Some(&admin))
        .await
        .json();
    let games = export["games"].as_array().expect("games");
    assert_eq!(games.len(), 520);
    let mut ids: Vec<i64> = games.iter().filter_map(|g| g["game_id"].as_i64()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 520, "no game twice across the page boundary");
}

#[derive(QueryableByName)]
struct TextColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// Every (table, column) of a text type, from the database's own catalogue.
fn text_columns(conn: &mut DbConnection, postgres: bool) -> Vec<(String, String)> {
    let query = if postgres {
        "SELECT table_name::text AS table_name, column_name::text AS column_name \
         FROM information_schema.columns WHERE table_schema = current_schema() \
         AND data_type IN ('text', 'character varying')"
    } else {
        "SELECT m.name AS table_name, p.name AS column_name \
         FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND upper(p.type) IN ('TEXT', 'VARCHAR')"
    };
    diesel::sql_query(query)
        .load::<TextColumn>(conn)
        .expect("catalogue")
        .into_iter()
        .map(|c| (c.table_name, c.column_name))
        .collect()
}

/// The (table, column) pairs holding `needle` in any case.
fn columns_holding(app: &TestApp, needle: &str) -> Vec<String> {
    let mut conn = app.state.pool.get().expect("connection");
    let postgres = app.db.is_postgres();
    let columns = text_columns(&mut conn, postgres);
    assert!(columns.len() > 40, "{} text columns", columns.len());
    let mut found = Vec::new();
    for (table, column) in columns {
        let query = format!(
            "SELECT COUNT(*) AS n FROM \"{table}\" WHERE lower(\"{column}\") LIKE '%{}%'",
            needle.to_lowercase()
        );
        let count = diesel::sql_query(query)
            .get_result::<Count>(&mut *conn)
            .expect("search");
        if count.n > 0 {
            found.push(format!("{table}.{column} ({})", count.n));
        }
    }
    // The conduct applier's seat lists hold names inside base64.
    let stored: Vec<String> = conduct_outcomes::table
        .select(conduct_outcomes::seats)
        .load::<String>(&mut *conn)
        .expect("outcomes")
        .into_iter()
        .chain(
            conduct_pending::table
                .select(conduct_pending::seats)
                .load::<String>(&mut *conn)
                .expect("pending"),
        )
        .collect();
    for seats in stored {
        let seats = decode_seats(&seats).expect("stored seats");
        if seats
            .iter()
            .any(|(player, _)| player.eq_ignore_ascii_case(needle))
        {
            found.push("conduct seats".to_string());
        }
    }
    found
}

#[actix_web::test]
async fn an_erased_name_is_nowhere_and_its_ban_still_holds() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    post_games(&app, &server).await;
    let sanction = moderation_history(&app, &admin).await;
    app.get(&format!("/api/v1/players/{NAME}/export"), Some(&admin))
        .await;
    assert!(
        !columns_holding(&app, NAME).is_empty(),
        "the search finds the name before"
    );

    let path = format!("/api/v1/admin/players/{NAME}/erase");
    // Refusals change nothing.
    app.post_json(
        &path,
        Some(&admin),
        &json!({ "confirm": "zorblax", "why": "request 41" }),
    )
    .await
    .assert_error(422, "confirm_mismatch");
    app.post_json(&path, Some(&admin), &json!({ "confirm": NAME, "why": " " }))
        .await
        .assert_error(422, "invalid_why");
    app.post_json(&path, Some(&admin), &json!({ "confirm": NAME }))
        .await
        .assert_error(400, "invalid_json");
    app.post_json(
        &path,
        Some(&app.player_token(NAME)),
        &json!({ "confirm": NAME, "why": "x" }),
    )
    .await
    .assert_error(403, "forbidden");
    app.post_json(
        "/api/v1/admin/players/nobody-here/erase",
        Some(&admin),
        &json!({ "confirm": "nobody-here", "why": "request 40" }),
    )
    .await
    .assert_error(404, "player_not_found");

    let erased = app
        .post_json(
            &path,
            Some(&admin),
            &json!({ "confirm": NAME, "why": "Erasure request 41 from Zorblax" }),
        )
        .await;
    assert_eq!(erased.status, 200, "{}", erased.text());
    let erased = erased.json();
    let pseudonym = erased["pseudonym"].as_str().expect("pseudonym").to_string();
    assert!(pseudonym.starts_with("erased-"), "{erased}");
    assert_eq!(erased["games"], 3);
    assert_eq!(erased["chat_lines_deleted"], 3);

    assert_eq!(columns_holding(&app, NAME), Vec::<String>::new());

    // The ban answers for the old name, in any case, and not for the pseudonym's sake only.
    for asked in [NAME, "ZORBLAX"] {
        let standing = app
            .get(&format!("/api/v1/players/{asked}/standing"), Some(&server))
            .await
            .json();
        assert_eq!(standing["may_chat"], false, "{asked}: {standing}");
        assert_eq!(
            standing["active_sanctions"],
            json!([sanction]),
            "{standing}"
        );
    }
    let pseudonymous = app
        .get(
            &format!("/api/v1/players/{pseudonym}/standing"),
            Some(&server),
        )
        .await
        .json();
    assert_eq!(pseudonymous["may_chat"], false, "{pseudonymous}");

    // The archive and the log stay consistent under the pseudonym.
    let games = app
        .get(&format!("/api/v1/players/{pseudonym}/games"), Some(&admin))
        .await
        .json();
    assert_eq!(games["items"].as_array().map(Vec::len), Some(3), "{games}");
    assert_eq!(
        games["items"][0]["player"]["seat"]["device_fp"],
        Value::Null
    );
    let log = app
        .get(
            &format!("/api/v1/admin/modlog?player={pseudonym}"),
            Some(&admin),
        )
        .await
        .json();
    let kinds: Vec<&str> = log["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|l| l["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"player_erased"), "{kinds:?}");
    assert!(kinds.contains(&"sanction_created"), "{kinds:?}");
    let erasure = log["items"]
        .as_array()
        .and_then(|items| items.iter().find(|l| l["kind"] == "player_erased"))
        .expect("erasure line");
    assert_eq!(
        erasure["why"],
        format!("Erasure request 41 from {pseudonym}")
    );
    assert_eq!(erasure["actor"], "alice");

    // Erasing the pseudonym again is refused.
    app.post_json(
        &format!("/api/v1/admin/players/{pseudonym}/erase"),
        Some(&admin),
        &json!({ "confirm": pseudonym, "why": "again" }),
    )
    .await
    .assert_error(422, "already_erased");

    // The log's facts stay append-only; only its free text may be rewritten.
    {
        use arbiter::store::schema::modlog;
        let mut conn = app.state.pool.get().expect("connection");
        let relabelled = diesel::update(modlog::table)
            .set(modlog::subject_id.eq(None::<i64>))
            .execute(&mut *conn);
        assert!(relabelled.is_err(), "a log line's subject was changed");
        let removed = diesel::delete(modlog::table).execute(&mut *conn);
        assert!(removed.is_err(), "a log line was deleted");
    }

    // Every foreign key holds (PostgreSQL refuses a broken one at write time).
    if !app.db.is_postgres() {
        #[derive(QueryableByName)]
        struct Broken {
            #[diesel(sql_type = Text)]
            table: String,
        }
        let mut conn = app.state.pool.get().expect("connection");
        let broken = diesel::sql_query("PRAGMA foreign_key_check")
            .load::<Broken>(&mut *conn)
            .expect("foreign key check");
        let broken: Vec<String> = broken.into_iter().map(|b| b.table).collect();
        assert_eq!(broken, Vec::<String>::new());
    }
}

#[actix_web::test]
async fn erasure_needs_its_key() {
    let app = TestApp::spawn_with(|settings| settings.privacy.erasure_key = String::new()).await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    post_games(&app, &server).await;
    app.post_json(
        &format!("/api/v1/admin/players/{NAME}/erase"),
        Some(&admin),
        &json!({ "confirm": NAME, "why": "request 42" }),
    )
    .await
    .assert_error(409, "erasure_not_configured");
    assert!(!columns_holding(&app, NAME).is_empty());
}
