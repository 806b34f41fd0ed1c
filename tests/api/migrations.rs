//! All migrations go up, down and up again, on SQLite always and on PostgreSQL when
//! ARBITER_TEST_DATABASE_URL is set.

use arbiter::api::auth::tokens::{self, TokenRole};
use arbiter::store::{self, api_tokens, migrations};

use crate::support::{postgres_url, test_settings, TestDb};

fn up_down_up(db: &TestDb) {
    let settings = test_settings(db);
    let pool = store::connect(&settings.database).expect("pool");
    let mut conn = pool.get().expect("connection");

    let first = migrations::run_pending(&mut conn).expect("up");
    assert!(!first.is_empty());
    assert!(migrations::pending(&mut conn).expect("pending").is_empty());
    tokens::issue(&mut conn, TokenRole::Admin, "before").expect("insert");

    let reverted = migrations::revert_all(&mut conn).expect("down");
    let mut reverted_sorted = reverted.clone();
    reverted_sorted.sort();
    let mut first_sorted = first.clone();
    first_sorted.sort();
    assert_eq!(
        reverted_sorted, first_sorted,
        "down reverts exactly what up applied"
    );
    assert_eq!(
        migrations::pending(&mut conn).expect("pending").len(),
        first.len()
    );

    let again = migrations::run_pending(&mut conn).expect("up again");
    assert_eq!(again, first);
    // The schema is usable and empty after the round trip.
    assert!(api_tokens::list_page(&mut conn, None, 10)
        .expect("list")
        .is_empty());
    tokens::issue(&mut conn, TokenRole::Server, "after").expect("insert");
    assert_eq!(
        api_tokens::list_page(&mut conn, None, 10)
            .expect("list")
            .len(),
        1
    );
}

#[test]
fn migrations_up_down_up_on_sqlite() {
    up_down_up(&TestDb::sqlite());
}

#[test]
fn migrations_up_down_up_on_postgres() {
    let Some(url) = postgres_url() else {
        eprintln!("skipped: ARBITER_TEST_DATABASE_URL is not set");
        return;
    };
    let db = TestDb::postgres(&url);
    assert!(db.is_postgres());
    up_down_up(&db);
}

#[test]
fn sqlite_connections_use_wal_foreign_keys_and_busy_timeout() {
    use diesel::sql_types::{BigInt, Text};
    use diesel::{QueryableByName, RunQueryDsl};

    #[derive(QueryableByName)]
    struct Mode {
        #[diesel(sql_type = Text)]
        journal_mode: String,
    }
    #[derive(QueryableByName)]
    struct Flag {
        #[diesel(sql_type = BigInt)]
        foreign_keys: i64,
    }
    #[derive(QueryableByName)]
    struct Timeout {
        #[diesel(sql_type = BigInt)]
        timeout: i64,
    }

    let db = TestDb::sqlite();
    let mut settings = test_settings(&db);
    settings.database.busy_timeout_ms = 1234;
    let pool = store::connect(&settings.database).expect("pool");
    // Check a second connection too: the settings are per connection.
    let mut first = pool.get().expect("connection");
    let mut second = pool.get().expect("connection");
    for conn in [&mut first, &mut second] {
        let mode: Mode = diesel::sql_query("PRAGMA journal_mode")
            .get_result(&mut **conn)
            .expect("mode");
        assert_eq!(mode.journal_mode.to_lowercase(), "wal");
        let fk: Flag = diesel::sql_query("PRAGMA foreign_keys")
            .get_result(&mut **conn)
            .expect("fk");
        assert_eq!(fk.foreign_keys, 1);
        let timeout: Timeout = diesel::sql_query("PRAGMA busy_timeout")
            .get_result(&mut **conn)
            .expect("timeout");
        assert_eq!(timeout.timeout, 1234);
    }
}

/// `PRAGMA synchronous` of a connection: 2 is FULL, 1 NORMAL.
fn synchronous(conn: &mut store::DbConnection) -> diesel::QueryResult<i64> {
    use diesel::sql_types::BigInt;
    use diesel::{QueryableByName, RunQueryDsl};

    #[derive(QueryableByName)]
    struct Synchronous {
        #[diesel(sql_type = BigInt)]
        synchronous: i64,
    }
    diesel::sql_query("PRAGMA synchronous")
        .get_result::<Synchronous>(conn)
        .map(|row| row.synchronous)
}

#[actix_web::test]
async fn sqlite_commits_reach_the_disk_unless_told_otherwise() {
    use arbiter::store::SqliteSynchronous;

    for (setting, expected) in [(None, 2), (Some(SqliteSynchronous::Normal), 1)] {
        let db = TestDb::sqlite();
        let mut settings = test_settings(&db);
        if let Some(setting) = setting {
            settings.database.sqlite_synchronous = setting;
        }
        let pool = crate::support::migrated_pool(&settings);
        let mut reader = pool.get().expect("connection");
        assert_eq!(
            synchronous(&mut reader).expect("pragma"),
            expected,
            "{setting:?}"
        );
        // Every write of the server goes through the writer's own connection.
        let state = arbiter::api::state::AppState::new(settings, pool.clone()).expect("state");
        let on_writer = state.write(synchronous).await.expect("pragma");
        assert_eq!(on_writer, expected, "the writer, {setting:?}");
    }
}

#[test]
fn timestamps_round_trip_exactly() {
    let db = TestDb::new();
    let settings = test_settings(&db);
    let pool = crate::support::migrated_pool(&settings);
    let mut conn = pool.get().expect("connection");
    let (row, _) = tokens::issue(&mut conn, TokenRole::Admin, "clock").expect("insert");
    let read = api_tokens::find(&mut conn, row.id)
        .expect("find")
        .expect("exists");
    assert_eq!(read.created_at, row.created_at);
    let age = store::now() - read.created_at;
    assert!(age.num_seconds().abs() < 60, "stored as UTC: {age}");
}

/// SQLite's conduct queue moves back from the games' rows into `conduct_pending` (migration
/// 2026-01-01, one queue on both backends): games queued after the mark keep their seats,
/// games below it or never queued stay out, and going down puts the mark and the rows back.
#[test]
fn sqlite_conduct_queue_moves_from_game_rows_into_the_queue_table_and_back() {
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Nullable, Text};
    use diesel_migrations::MigrationHarness;
    use store::schema::conduct_pending;

    #[derive(QueryableByName, Debug, PartialEq)]
    struct GameQueue {
        #[diesel(sql_type = BigInt)]
        id: i64,
        #[diesel(sql_type = Nullable<Text>)]
        conduct_seats: Option<String>,
    }

    let db = TestDb::sqlite();
    let settings = test_settings(&db);
    let pool = store::connect(&settings.database).expect("pool");
    let mut conn = pool.get().expect("connection");
    let store::DbConnection::Sqlite(c) = &mut *conn else {
        panic!("a SQLite test database");
    };
    while c
        .pending_migrations(migrations::SQLITE_MIGRATIONS)
        .expect("pending")
        .first()
        .is_some_and(|m| m.name().version().to_string() != "20260101000000")
    {
        c.run_next_migration(migrations::SQLITE_MIGRATIONS)
            .expect("migration");
    }
    // Game 1 was applied (the mark), game 2 is queued in its row, game 3 came from the bulk
    // import (never queued), game 4 is queued too.
    for n in 1..=4 {
        let seats = if n % 2 == 0 {
            format!("'seats {n}'")
        } else {
            "NULL".to_string()
        };
        c.batch_execute(&format!(
            "INSERT INTO games (site_game_id, content_hash, variant, rule_variants, time_control, \
             start_setup, termination, termination_text, result_tag, played_at, plies, aborted, \
             pgn4, created_at, conduct_seats) VALUES ('{n}', 'h', 'FFA', '', '1+15', '', 'x', \
             'x', '*', '2025-10-0{n} 10:00:00', 0, 0, '', '2025-10-0{n} 10:00:00', {seats})"
        ))
        .expect("game");
    }
    c.batch_execute("UPDATE conduct_progress SET applied_through = 1")
        .expect("mark");

    // Only this migration, so that reverting the last one reverts it.
    c.run_next_migration(migrations::SQLITE_MIGRATIONS)
        .expect("up");
    let queued: Vec<(i64, String)> = conduct_pending::table
        .select((conduct_pending::game_id, conduct_pending::seats))
        .order(conduct_pending::game_id.asc())
        .load(c)
        .expect("pending");
    assert_eq!(
        queued,
        vec![(2, "seats 2".to_string()), (4, "seats 4".to_string())]
    );
    assert_eq!(store::conduct::pending_count(&mut conn).expect("count"), 2);

    let store::DbConnection::Sqlite(c) = &mut *conn else {
        unreachable!()
    };
    c.revert_last_migration(migrations::SQLITE_MIGRATIONS)
        .expect("down");
    let back: Vec<GameQueue> = diesel::sql_query("SELECT id, conduct_seats FROM games ORDER BY id")
        .load(c)
        .expect("games");
    let seats: Vec<Option<&str>> = back.iter().map(|g| g.conduct_seats.as_deref()).collect();
    assert_eq!(seats, vec![None, Some("seats 2"), None, Some("seats 4")]);
    let left: i64 = conduct_pending::table.count().get_result(c).expect("count");
    assert_eq!(left, 0);
}
