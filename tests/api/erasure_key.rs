//! The erasure key is checked (issue #40): erased names are kept only as a hash under
//! `[privacy] erasure_key`, so once a name is erased, start-up refuses an empty key or another
//! key, naming the setting, and an erasure under another key is refused.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::server::open_database;
use arbiter::config::Settings;
use arbiter::moderation::erasure::{key_check, name_key};
use arbiter::store::key_checks::{self, CheckedKey};
use arbiter::store::schema::key_checks as key_checks_table;
use arbiter::usecases::erase_player::{self, EraseError, ErasureRequest};
use diesel::prelude::*;
use serde_json::json;

use crate::queue_fixtures::Fixtures;
use crate::support::TestApp;

const KEY_A: &str = "erasure-key-a-0123456789abcdef0123456789";
const KEY_B: &str = "erasure-key-b-0123456789abcdef0123456789";

/// An app with key A in which `Zorblax` has been erased.
async fn erased_under_a() -> TestApp {
    let app = TestApp::spawn_with(|settings| settings.privacy.erasure_key = KEY_A.into()).await;
    let admin = app.token(TokenRole::Admin, "alice");
    Fixtures::new(&app).player("Zorblax");
    let erased = app
        .post_json(
            "/api/v1/admin/players/Zorblax/erase",
            Some(&admin),
            &json!({ "confirm": "Zorblax", "why": "request 42" }),
        )
        .await;
    assert_eq!(erased.status, 200, "{}", erased.text());
    app
}

/// The app's settings with another erasure key, as another start-up would read them.
fn with_key(app: &TestApp, key: &str) -> Settings {
    let mut settings = (*app.state.settings).clone();
    settings.privacy.erasure_key = key.to_string();
    settings
}

fn refusal(settings: &Settings) -> String {
    match open_database(settings) {
        Ok(_) => panic!(
            "start-up with erasure key {:?} went on",
            settings.privacy.erasure_key
        ),
        Err(error) => format!("{error:#}"),
    }
}

#[actix_web::test]
async fn start_up_refuses_another_or_no_key_once_names_are_erased() {
    let app = erased_under_a().await;
    for key in [KEY_B, ""] {
        let message = refusal(&with_key(&app, key));
        assert!(
            message.contains("privacy.erasure_key")
                && message.contains("ARBITER_PRIVACY__ERASURE_KEY"),
            "{key:?}: {message}"
        );
    }
    open_database(&with_key(&app, KEY_A)).expect("the key they were erased under starts");
}

#[actix_web::test]
async fn any_key_starts_before_the_first_erasure() {
    let app = TestApp::spawn_with(|settings| settings.privacy.erasure_key = KEY_A.into()).await;
    Fixtures::new(&app).player("Zorblax");
    for key in [KEY_B, ""] {
        open_database(&with_key(&app, key)).expect("nothing erased yet");
    }
}

#[actix_web::test]
async fn an_erasure_under_another_key_is_refused() {
    let app = erased_under_a().await;
    Fixtures::new(&app).player("Mossy");
    let mut conn = app.state.pool.get().expect("connection");
    let (name_key_b, key_check_b) = (name_key(KEY_B, "Mossy"), key_check(KEY_B));
    let request = ErasureRequest {
        name: "Mossy",
        name_key: &name_key_b,
        key_check: &key_check_b,
        admin: "alice",
        why: "request 43",
    };
    let refused = erase_player::erase(&mut conn, &request, arbiter::store::now());
    assert!(
        matches!(refused, Err(EraseError::KeyMismatch)),
        "{refused:?}"
    );
    let recorded = key_checks::recorded(&mut conn, CheckedKey::Erasure).expect("read");
    assert_eq!(recorded, Some(key_check(KEY_A)));
}

#[actix_web::test]
async fn names_erased_before_key_checks_adopt_the_configured_key() {
    let app = erased_under_a().await;
    {
        let mut conn = app.state.pool.get().expect("connection");
        diesel::delete(key_checks_table::table)
            .execute(&mut *conn)
            .expect("forget the check, as before key checks were kept");
    }
    open_database(&with_key(&app, KEY_A)).expect("the configured key is recorded");
    let mut conn = app.state.pool.get().expect("connection");
    let recorded = key_checks::recorded(&mut conn, CheckedKey::Erasure).expect("read");
    assert_eq!(recorded, Some(key_check(KEY_A)));
    drop(conn);
    let message = refusal(&with_key(&app, KEY_B));
    assert!(message.contains("privacy.erasure_key"), "{message}");
}
