//! `arbiter backup` and `restore` (the store functions the commands call) on a serving SQLite
//! database: a backup taken while games keep arriving restores to a database that passes
//! the integrity check and holds every game acknowledged before the backup began; a restore
//! over a database in use is refused and leaves it alone.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::cli::collusion::submission;
use arbiter::simulation::{simulate, SimulationConfig};
use arbiter::store::backup::{self, BackupError};
use arbiter::store::DatabaseTarget;
use diesel::prelude::*;

use crate::support::{migrated_pool, test_settings, TestApp, TestDb};

fn sqlite_path(app: &TestApp) -> PathBuf {
    match DatabaseTarget::parse(&app.db.url).expect("url") {
        DatabaseTarget::Sqlite(path) => path,
        DatabaseTarget::Postgres(_) => panic!("a SQLite test database"),
    }
}

#[actix_web::test]
async fn a_backup_under_ingest_restores_every_game_acknowledged_before_it() {
    let db = TestDb::sqlite();
    let settings = test_settings(&db);
    let pool = migrated_pool(&settings);
    let app = TestApp::from_parts(db, settings, pool).await;
    let database = sqlite_path(&app);
    let server = app.token(TokenRole::Server, "eu-1");
    let games = simulate(&SimulationConfig {
        seed: 26,
        players: 16,
        games: 120,
        sparing_pairs: 0,
        feeding_pairs: 0,
        self_partnering: 0,
        rings: 0,
        arranged_games: vec![],
        max_rounds: 60,
    });
    let out = tempfile::tempdir().expect("temp dir");
    let copy = out.path().join("backup.db");

    let acknowledged: RefCell<Vec<String>> = RefCell::new(Vec::new());
    let posting = async {
        for game in &games {
            let body = serde_json::to_value(submission(game)).expect("json");
            let response = app.post_json("/api/v1/games", Some(&server), &body).await;
            assert_eq!(response.status, 201, "{}", response.text());
            acknowledged
                .borrow_mut()
                .push(game.site_game_id.to_string());
        }
    };
    let backing_up = async {
        while acknowledged.borrow().len() < 40 {
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        }
        let before: Vec<String> = acknowledged.borrow().clone();
        let (from, to) = (database.clone(), copy.clone());
        let taken = actix_web::rt::task::spawn_blocking(move || backup::backup(&from, &to))
            .await
            .expect("joined")
            .expect("backup");
        (before, taken)
    };
    let ((), (before, taken)) = futures_util::future::join(posting, backing_up).await;
    assert!(taken.games >= before.len() as i64, "{taken:?}");
    assert!(acknowledged.borrow().len() == games.len());

    // Restoring over the serving database is refused, and leaves nothing behind.
    match backup::restore(&copy, &database) {
        Err(BackupError::InUse(path)) => assert_eq!(path, database),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let mut leftovers: Vec<String> = std::fs::read_dir(database.parent().expect("dir"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("restoring"))
        .collect();
    leftovers.sort();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Restored elsewhere: the integrity check passes and every game acknowledged before the
    // backup began is there.
    let restored = out.path().join("restored.db");
    let summary = backup::restore(&copy, &restored).expect("restore");
    assert_eq!(summary.games, taken.games);
    let mut conn = diesel::sqlite::SqliteConnection::establish(restored.to_str().expect("utf-8"))
        .expect("open");
    use arbiter::store::schema::games;
    let held: Vec<String> = games::table
        .select(games::site_game_id)
        .load(&mut conn)
        .expect("games");
    let missing: Vec<&String> = before.iter().filter(|id| !held.contains(id)).collect();
    assert!(missing.is_empty(), "lost by the backup: {missing:?}");

    // A backup never overwrites a file.
    match backup::backup(&database, &copy) {
        Err(BackupError::Exists(path)) => assert_eq!(path, copy),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_damaged_or_missing_backup_is_refused_and_the_database_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("arbiter.db");
    std::fs::write(&database, b"").expect("database");
    let damaged = dir.path().join("damaged.db");
    std::fs::write(&damaged, vec![7u8; 8192]).expect("damaged");
    let error = backup::restore(&damaged, &database).expect_err("refused");
    assert!(error.to_string().contains("damaged.db"), "{error}");
    let error = backup::restore(&dir.path().join("none.db"), &database).expect_err("refused");
    assert!(matches!(error, BackupError::Missing(_)), "{error}");
    assert_eq!(std::fs::read(&database).expect("kept").len(), 0);
}
