//! Token management over HTTP and the identity it yields.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn whoami_reports_role_and_name() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let body = app.get("/api/v1/whoami", Some(&server)).await.json();
    assert_eq!(body, json!({ "role": "server", "name": "eu-1" }));
    let player = app.player_token("Magnus4P");
    let body = app.get("/api/v1/whoami", Some(&player)).await.json();
    assert_eq!(body, json!({ "role": "player", "name": "Magnus4P" }));
}

#[actix_web::test]
async fn admin_creates_lists_and_revokes_tokens() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "root-admin");

    let created = app
        .post_json(
            "/api/v1/admin/tokens",
            Some(&admin),
            &json!({ "name": " game-server-1 ", "role": "server" }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let created = created.json();
    assert_eq!(created["name"], "game-server-1");
    assert_eq!(created["role"], "server");
    assert!(created["revoked_at"].is_null());
    let new_token = created["token"]
        .as_str()
        .expect("token shown once")
        .to_string();
    let new_id = created["id"].as_i64().expect("id");

    // The new token works and its use is recorded.
    let me = app.get("/api/v1/whoami", Some(&new_token)).await.json();
    assert_eq!(me["role"], "server");

    // Listing never shows tokens; pages follow the cursor.
    let first = app.get("/api/v1/admin/tokens?limit=1", Some(&admin)).await;
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    assert_eq!(first["items"].as_array().map(Vec::len), Some(1));
    assert!(first["items"][0].get("token").is_none());
    assert!(first["items"][0].get("token_hash").is_none());
    let cursor = first["next_cursor"]
        .as_str()
        .expect("more pages")
        .to_string();
    let second = app
        .get(
            &format!("/api/v1/admin/tokens?limit=1&cursor={cursor}"),
            Some(&admin),
        )
        .await
        .json();
    assert_eq!(second["items"][0]["id"], new_id);
    assert!(second["items"][0]["last_used_at"].is_string(), "{second}");
    assert!(second["next_cursor"].is_null(), "{second}");

    // Revocation takes effect at once and is idempotent.
    let path = format!("/api/v1/admin/tokens/{new_id}");
    assert_eq!(app.delete(&path, Some(&admin)).await.status, 204);
    assert_eq!(app.delete(&path, Some(&admin)).await.status, 204);
    app.get("/api/v1/whoami", Some(&new_token))
        .await
        .assert_error(401, "unauthorized");
    let all = app.get("/api/v1/admin/tokens", Some(&admin)).await.json();
    let revoked = all["items"]
        .as_array()
        .and_then(|items| items.iter().find(|t| t["id"] == new_id))
        .expect("listed");
    assert!(revoked["revoked_at"].is_string());
}

#[actix_web::test]
async fn token_input_is_validated() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "root-admin");
    let error = app
        .post_json(
            "/api/v1/admin/tokens",
            Some(&admin),
            &json!({ "name": "   ", "role": "admin" }),
        )
        .await
        .assert_error(422, "invalid_name");
    assert_eq!(error["details"]["field"], "name");
    let error = app
        .post_json(
            "/api/v1/admin/tokens",
            Some(&admin),
            &json!({ "name": "x", "role": "player" }),
        )
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["field"], "role");
    app.delete("/api/v1/admin/tokens/999999", Some(&admin))
        .await
        .assert_error(404, "token_not_found");
    app.delete("/api/v1/admin/tokens/abc", Some(&admin))
        .await
        .assert_error(400, "invalid_path");
    app.get("/api/v1/admin/tokens?limit=0", Some(&admin))
        .await
        .assert_error(400, "invalid_limit");
    app.get("/api/v1/admin/tokens?limit=many", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    app.get("/api/v1/admin/tokens?cursor=bogus", Some(&admin))
        .await
        .assert_error(400, "invalid_cursor");
}

/// The standing check authenticates inside its own read: the same refusals as every other
/// route, and the token's use is still recorded (after the answer).
#[actix_web::test]
async fn standing_check_authenticates_like_every_route() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "root-admin");
    let created = app
        .post_json(
            "/api/v1/admin/tokens",
            Some(&admin),
            &json!({ "name": "eu-7", "role": "server" }),
        )
        .await
        .json();
    let server = created["token"].as_str().expect("token").to_string();
    let id = created["id"].as_i64().expect("id");
    let path = "/api/v1/players/SomePlayer/standing";

    let standing = app.get(path, Some(&server)).await;
    assert_eq!(standing.status, 200, "{}", standing.text());
    assert_eq!(standing.json()["may_chat"], true);
    let mut recorded = false;
    for _ in 0..100 {
        let all = app.get("/api/v1/admin/tokens", Some(&admin)).await.json();
        let row = all["items"]
            .as_array()
            .and_then(|items| items.iter().find(|t| t["id"] == id))
            .cloned()
            .expect("listed");
        if row["last_used_at"].is_string() {
            recorded = true;
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        recorded,
        "the standing check did not record the token's use"
    );

    app.get(path, None).await.assert_error(401, "unauthorized");
    app.get(path, Some("arb_not-a-real-token"))
        .await
        .assert_error(401, "unauthorized");
    // A player reads only their own standing.
    app.get(path, Some(&app.player_token("OtherPlayer")))
        .await
        .assert_error(403, "forbidden");
    assert_eq!(
        app.get(path, Some(&app.player_token("SomePlayer")))
            .await
            .status,
        200
    );
    assert_eq!(
        app.delete(&format!("/api/v1/admin/tokens/{id}"), Some(&admin))
            .await
            .status,
        204
    );
    app.get(path, Some(&server))
        .await
        .assert_error(401, "unauthorized");
}
