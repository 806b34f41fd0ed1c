//! List cursors are sealed (issue #40): a cursor the service did not issue, or one edited or
//! cut short, answers 400 `invalid_cursor`; a real one pages; a configured `[api] cursor_key`
//! is the key, so instances sharing it accept each other's cursors.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::cursor_key::CursorKey;
use arbiter::api::pagination::decode_cursor;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;

use crate::queue_fixtures::{hours_ago, Case, Fixtures};
use crate::support::TestApp;

const SHARED_KEY: &str = "cursor-key-shared-by-every-instance-0123";

fn ids(page: &Value) -> Vec<i64> {
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["id"].as_i64().expect("id"))
        .collect()
}

fn next_cursor(page: &Value) -> String {
    page["next_cursor"]
        .as_str()
        .expect("a next page")
        .to_string()
}

/// `cursor` with its character at `at` replaced by another base64url character.
fn edited(cursor: &str, at: usize) -> String {
    let mut chars: Vec<char> = cursor.chars().collect();
    chars[at] = if chars[at] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

/// Every way of handing back a cursor the service did not issue, on `path` (which takes
/// `&cursor=`), answers 400 `invalid_cursor`.
async fn refuses_all_but_the_real(app: &TestApp, admin: &str, path: &str, real: &str) {
    let forged = URL_SAFE_NO_PAD.encode("queue:0:0:0:0");
    let forged_id = URL_SAFE_NO_PAD.encode("id:0");
    let candidates = [
        forged,
        forged_id,
        edited(real, 0),
        edited(real, real.len() / 2),
        edited(real, real.len() - 1),
        real[..real.len() - 1].to_string(),
        real[..real.len() - 43].to_string(),
        format!("{real}A"),
    ];
    for cursor in candidates {
        app.get(&format!("{path}&cursor={cursor}"), Some(admin))
            .await
            .assert_error(400, "invalid_cursor");
    }
}

#[actix_web::test]
async fn the_queue_takes_back_only_its_own_cursors() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let fx = Fixtures::new(&app);
    let cases: Vec<i64> = (0..3)
        .map(|i| {
            fx.case(Case {
                accused: fx.player(&format!("accused{i}")),
                opened_at: hours_ago(3.0 - i as f64),
                ..Case::default()
            })
        })
        .collect();
    let first = app.get("/api/v1/admin/cases?limit=1", Some(&admin)).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    let real = next_cursor(&first);
    assert!(
        real.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "URL-safe: {real}"
    );

    refuses_all_but_the_real(&app, &admin, "/api/v1/admin/cases?limit=1", &real).await;

    let second = app
        .get(
            &format!("/api/v1/admin/cases?limit=1&cursor={real}"),
            Some(&admin),
        )
        .await;
    assert_eq!(second.status, 200, "{}", second.text());
    let second = second.json();
    assert_eq!(
        second["as_of"], first["as_of"],
        "the real cursor keeps its clock"
    );
    let mut seen = ids(&first);
    seen.extend(ids(&second));
    let third = app
        .get(
            &format!(
                "/api/v1/admin/cases?limit=1&cursor={}",
                next_cursor(&second)
            ),
            Some(&admin),
        )
        .await
        .json();
    seen.extend(ids(&third));
    assert!(third["next_cursor"].is_null());
    seen.sort_unstable();
    assert_eq!(seen, cases, "three pages, each case once");
}

#[actix_web::test]
async fn id_lists_take_back_only_their_own_cursors() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    app.token(TokenRole::Server, "eu-1");
    app.token(TokenRole::Server, "eu-2");
    let first = app.get("/api/v1/admin/tokens?limit=1", Some(&admin)).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    let real = next_cursor(&first);

    refuses_all_but_the_real(&app, &admin, "/api/v1/admin/tokens?limit=1", &real).await;

    let second = app
        .get(
            &format!("/api/v1/admin/tokens?limit=1&cursor={real}"),
            Some(&admin),
        )
        .await;
    assert_eq!(second.status, 200, "{}", second.text());
    let (first_ids, second_ids) = (ids(&first), ids(&second.json()));
    assert_eq!(second_ids.len(), 1);
    assert!(
        second_ids[0] > first_ids[0],
        "{first_ids:?} then {second_ids:?}"
    );
}

#[actix_web::test]
async fn a_configured_key_seals_the_cursors() {
    let app = TestApp::spawn_with(|settings| settings.api.cursor_key = SHARED_KEY.into()).await;
    let admin = app.token(TokenRole::Admin, "alice");
    app.token(TokenRole::Server, "eu-1");
    let page = app
        .get("/api/v1/admin/tokens?limit=1", Some(&admin))
        .await
        .json();
    let cursor = next_cursor(&page);
    // Another instance with the same setting opens it; one with its own random key does not.
    let shared = CursorKey::from_setting(SHARED_KEY);
    assert!(decode_cursor::<1>(&shared, &cursor, "id").is_ok());
    let own = CursorKey::from_setting("");
    assert!(decode_cursor::<1>(&own, &cursor, "id").is_err());
}
