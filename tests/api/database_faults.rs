//! A database that cannot serve answers 503 with `Retry-After` and the reason, never 500;
//! `/readyz` says not ready while writes fail; nothing is half written; and service resumes by
//! itself once the fault is gone. On SQLite the database fills up (`[database]
//! sqlite_max_pages`, which fails writes exactly as a full disk does: SQLITE_FULL); on
//! PostgreSQL the connection of a write is killed mid-transaction.

use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use serde_json::json;

use crate::moderation::game_text;
use crate::support::{migrated_pool, test_settings, TestApp, TestDb, TestResponse};

const SEATS: [&str; 4] = ["Amber", "Basil", "Cedar", "Dune"];

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn game(number: i64) -> serde_json::Value {
    json!({ "pgn4": game_text(number, "FFA", SEATS) })
}

fn assert_fault(response: &TestResponse, reason: &str) {
    let error = response.assert_error(503, "unavailable");
    assert_eq!(error["details"]["reason"], reason, "{error}");
    assert_eq!(response.header("retry-after").as_deref(), Some("5"));
}

fn stored_games(conn: &mut SqliteConnection) -> i64 {
    diesel::sql_query("SELECT COUNT(*) AS n FROM games")
        .get_result::<Count>(conn)
        .expect("count")
        .n
}

#[actix_web::test]
async fn a_full_sqlite_database_answers_503_until_space_is_freed() {
    if crate::support::postgres_url().is_some() {
        return; // The PostgreSQL variant is the killed connection below.
    }
    let db = TestDb::sqlite();
    let mut settings = test_settings(&db);
    let path = db.url.trim_start_matches("sqlite://").to_string();
    // Fill the migrated database with a table to free later, then cap it where it stands.
    {
        let pool = migrated_pool(&settings);
        let mut conn = pool.get().expect("connection");
        conn.batch_execute(
            "CREATE TABLE ballast (filler TEXT NOT NULL);\
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64)\
             INSERT INTO ballast SELECT printf('%.4000c', 'x') FROM n;",
        )
        .expect("ballast");
    }
    let mut direct = SqliteConnection::establish(&path).expect("direct connection");
    let pages = diesel::sql_query("SELECT page_count AS n FROM pragma_page_count()")
        .get_result::<Count>(&mut direct)
        .expect("page count")
        .n;
    settings.database.sqlite_max_pages = u32::try_from(pages).expect("pages");
    let pool = migrated_pool(&settings);
    let app = TestApp::from_parts(db, settings, pool).await;
    let server = app.token(TokenRole::Server, "eu-1");
    assert_eq!(app.get("/readyz", None).await.status, 200);

    let mut number = 9_000;
    let refused = loop {
        number += 1;
        let response = app
            .post_json("/api/v1/games", Some(&server), &game(number))
            .await;
        if response.status != 201 {
            break response;
        }
        assert!(number < 9_100, "the capped database never filled up");
    };
    assert_fault(&refused, "database_full");
    let before = stored_games(&mut direct);
    let again = app
        .post_json("/api/v1/games", Some(&server), &game(number))
        .await;
    assert_fault(&again, "database_full");
    assert_eq!(stored_games(&mut direct), before, "nothing half written");
    let ready = app.get("/readyz", None).await;
    assert_fault(&ready, "database_full");
    // Reads go on.
    let standing = app
        .get("/api/v1/players/Amber/standing", Some(&server))
        .await;
    assert_eq!(standing.status, 200, "{}", standing.text());

    // Space is freed (as retention would); nothing is restarted.
    direct
        .batch_execute("DROP TABLE ballast")
        .expect("free space");
    assert_eq!(app.get("/readyz", None).await.status, 200);
    let stored = app
        .post_json("/api/v1/games", Some(&server), &game(number))
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
}

#[actix_web::test]
async fn a_postgres_connection_killed_mid_transaction_answers_503_then_recovers() {
    if crate::support::postgres_url().is_none() {
        return; // The SQLite variant is the full database above.
    }
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let url = app.db.url.clone();

    // Hold a lock the ingest's transaction will wait on, then kill the waiting backend.
    let mut holder = PgConnection::establish(&url).expect("holder");
    holder
        .batch_execute("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE;")
        .expect("lock");
    let holder_pid = diesel::sql_query("SELECT pg_backend_pid()::BIGINT AS n")
        .get_result::<Count>(&mut holder)
        .expect("pid")
        .n;
    let killer_url = url.clone();
    let killer = std::thread::spawn(move || {
        let mut killer = PgConnection::establish(&killer_url).expect("killer");
        for _ in 0..200 {
            let killed = diesel::sql_query(format!(
                "SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
                 WHERE {holder_pid} = ANY(pg_blocking_pids(pid))"
            ))
            .get_result::<Count>(&mut killer)
            .expect("terminate")
            .n;
            if killed > 0 {
                return killed;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        0
    });
    let killed_mid_write = app
        .post_json("/api/v1/games", Some(&server), &game(9_501))
        .await;
    assert!(
        killer.join().expect("killer") > 0,
        "no write waited on the lock"
    );
    assert_fault(&killed_mid_write, "database_unreachable");
    holder.batch_execute("ROLLBACK").expect("unlock");

    let count = diesel::sql_query("SELECT COUNT(*)::BIGINT AS n FROM games")
        .get_result::<Count>(&mut holder)
        .expect("count")
        .n;
    assert_eq!(count, 0, "nothing half written");
    // The pool drops the dead connection; the next write goes through.
    let stored = app
        .post_json("/api/v1/games", Some(&server), &game(9_501))
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    assert_eq!(app.get("/readyz", None).await.status, 200);
}
