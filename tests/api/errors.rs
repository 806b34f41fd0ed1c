//! The error envelope for malformed input, size limits, unknown routes, methods and panics.

use actix_web::test::TestRequest;
use serde_json::json;

use crate::support::TestApp;

#[actix_web::test]
async fn wrong_type_names_the_nested_field() {
    let app = TestApp::spawn().await;
    let body = r#"{"name": "g1", "moves": [{"from": "h2", "to": "h4"}, {"from": "e2", "to": 7}]}"#;
    let error = app
        .post_raw_json("/__test/echo", None, body)
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["field"], "moves[1].to");
    assert!(
        error["details"]["line"].as_u64().is_some_and(|l| l >= 1),
        "{error}"
    );
    assert!(
        error["details"]["column"].as_u64().is_some_and(|c| c > 1),
        "{error}"
    );
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("moves[1].to"), "{message}");
}

#[actix_web::test]
async fn syntax_errors_give_line_and_column() {
    let app = TestApp::spawn().await;
    let error = app
        .post_raw_json("/__test/echo", None, "{\"name\": \"g1\",\n \"moves\": [}")
        .await
        .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["line"], 2);
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("line 2"), "{message}");
}

#[actix_web::test]
async fn missing_and_unknown_fields_are_named() {
    let app = TestApp::spawn().await;
    let error = app
        .post_raw_json("/__test/echo", None, r#"{"moves": []}"#)
        .await
        .assert_error(400, "invalid_json");
    assert!(
        error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("`name`"),
        "{error}"
    );
    let error = app
        .post_raw_json(
            "/__test/echo",
            None,
            r#"{"name": "g", "moves": [], "colour": 1}"#,
        )
        .await
        .assert_error(400, "invalid_json");
    assert!(
        error["message"]
            .as_str()
            .unwrap_or_default()
            .contains("colour"),
        "{error}"
    );
    app.post_raw_json(
        "/__test/echo",
        None,
        r#"{"name": "g", "moves": []} trailing"#,
    )
    .await
    .assert_error(400, "invalid_json");
}

#[actix_web::test]
async fn well_formed_body_is_accepted() {
    let app = TestApp::spawn().await;
    let body = json!({ "name": "g1", "moves": [{ "from": "h2", "to": "h4" }] });
    let response = app.post_json("/__test/echo", None, &body).await;
    assert_eq!(response.status, 200, "{}", response.text());
    assert_eq!(response.json(), body);
}

#[actix_web::test]
async fn only_json_in_utf8_is_read_as_json() {
    use arbiter::api::auth::tokens::TokenRole;
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "media-server");
    let send = |path: &str, content_type: &str, body: &str| {
        TestRequest::post()
            .uri(path)
            .insert_header(("authorization", format!("Bearer {server}")))
            .insert_header(("content-type", content_type.to_string()))
            .set_payload(body.to_string())
    };
    let echo = r#"{"name": "g1", "moves": []}"#;
    for refused in [
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/json; charset=latin1",
        "application/json; charset=utf-16",
    ] {
        app.send(send("/__test/echo", refused, echo))
            .await
            .assert_error(415, "unsupported_media_type");
        // Ingest reads JSON or PGN4 text, in UTF-8 only as well.
        app.send(send("/api/v1/games", refused, "{}"))
            .await
            .assert_error(415, "unsupported_media_type");
    }
    app.send(send("/api/v1/games", "text/plain; charset=latin1", "x"))
        .await
        .assert_error(415, "unsupported_media_type");
    for accepted in ["application/json", "application/json; charset=UTF-8"] {
        let response = app.send(send("/__test/echo", accepted, echo)).await;
        assert_eq!(response.status, 200, "{accepted}: {}", response.text());
    }
}

#[actix_web::test]
async fn non_json_content_type_is_415() {
    let app = TestApp::spawn().await;
    let response = app
        .send(
            TestRequest::post()
                .uri("/__test/echo")
                .insert_header(("content-type", "text/plain"))
                .set_payload("{}"),
        )
        .await;
    response.assert_error(415, "unsupported_media_type");
}

#[actix_web::test]
async fn oversized_body_is_413() {
    let app = TestApp::spawn_with(|s| s.server.body_limit_bytes = 256).await;
    let big = json!({ "name": "x".repeat(1000), "moves": [] });
    let error = app
        .post_json("/__test/echo", None, &big)
        .await
        .assert_error(413, "payload_too_large");
    assert_eq!(error["details"]["limit_bytes"], 256);
    // Just under the limit still works.
    let small = json!({ "name": "x".repeat(100), "moves": [] });
    assert_eq!(
        app.post_json("/__test/echo", None, &small).await.status,
        200
    );
}

#[actix_web::test]
async fn unknown_routes_are_404_in_the_envelope() {
    let app = TestApp::spawn().await;
    for path in [
        "/nope",
        "/api/v1/nope",
        "/api/v2/whoami",
        "/api/v1/admin/tokens/1/extra",
    ] {
        let error = app
            .get(path, None)
            .await
            .assert_error(404, "route_not_found");
        assert!(
            error["message"].as_str().unwrap_or_default().contains(path),
            "{error}"
        );
    }
}

#[actix_web::test]
async fn wrong_method_is_405_in_the_envelope() {
    let app = TestApp::spawn().await;
    app.request("POST", "/healthz", None, None)
        .await
        .assert_error(405, "method_not_allowed");
    app.request("PUT", "/api/v1/admin/tokens", None, None)
        .await
        .assert_error(405, "method_not_allowed");
    app.request("GET", "/api/v1/admin/tokens/1", None, None)
        .await
        .assert_error(405, "method_not_allowed");
}

#[actix_web::test]
async fn panics_become_a_500_envelope_without_details() {
    let app = TestApp::spawn().await;
    let response = app.get("/__test/panic", None).await;
    let error = response.assert_error(500, "internal");
    assert!(!response.text().contains("secret detail"), "{error}");
    assert!(response.header("x-request-id").is_some());
    // The app keeps serving afterwards.
    assert_eq!(app.get("/healthz", None).await.status, 200);
}
