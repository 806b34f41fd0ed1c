//! Every route against every kind of caller. Append a row for each new route.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::{json, Value};

use crate::support::TestApp;

/// The callers, in the column order of `Row::expect`.
#[derive(Debug, Clone, Copy)]
enum Caller {
    Nobody,
    BadToken,
    RevokedToken,
    ExpiredPlayer,
    Server,
    Admin,
    Player,
}

const CALLERS: [Caller; 7] = [
    Caller::Nobody,
    Caller::BadToken,
    Caller::RevokedToken,
    Caller::ExpiredPlayer,
    Caller::Server,
    Caller::Admin,
    Caller::Player,
];

struct Row {
    method: &'static str,
    /// `{token_id}` is replaced by the id of a disposable token.
    path: &'static str,
    body: Option<fn() -> Value>,
    /// Expected status for: nobody, bad token, revoked, expired player, server, admin, player.
    expect: [u16; 7],
}

const fn row(
    method: &'static str,
    path: &'static str,
    body: Option<fn() -> Value>,
    expect: [u16; 7],
) -> Row {
    Row {
        method,
        path,
        body,
        expect,
    }
}

fn chat_check_body() -> Value {
    json!({ "text": "good game" })
}

fn table_check_body() -> Value {
    json!({ "players": ["r1", "matrix-player"], "variant": "ffa" })
}

fn new_game_body() -> Value {
    json!({ "pgn4": crate::games::SHORT_GAME })
}

fn new_token_body() -> Value {
    json!({ "name": "matrix-made", "role": "server" })
}

fn report_body() -> Value {
    json!({ "accused": ["r1"], "reason": "offensive_chat" })
}

fn decision_body() -> Value {
    json!({ "decision": "warn", "ground": "harassment" })
}

fn appeal_body() -> Value {
    json!({ "text": "I did not do this, please look again." })
}

fn appeal_decision_body() -> Value {
    json!({ "decision": "uphold" })
}

fn erase_body() -> Value {
    json!({ "confirm": "nobody-held", "why": "matrix erasure" })
}

fn note_body() -> Value {
    json!({ "text": "matrix note" })
}

fn sanction_change_body() -> Value {
    json!({ "action": "lift", "note": "matrix" })
}

fn admin_entry_body() -> Value {
    json!({ "accused": "r1", "reason": "other", "note": "matrix: seen in the lobby" })
}

fn subscription_body() -> Value {
    json!({ "url": "https://matrix.example/events" })
}

fn term_body() -> Value {
    json!({ "term": "matrixword", "category": "insult", "severity": "medium", "why": "matrix" })
}

fn allowed_body() -> Value {
    json!({ "word": "matrixallowed", "why": "matrix" })
}

fn strictness_body() -> Value {
    json!({ "category": "insult", "strictness": "high", "why": "matrix" })
}

fn line_test_body() -> Value {
    json!({ "text": "matrix line" })
}

fn removal_body() -> Value {
    json!({ "why": "matrix" })
}

fn empty_body() -> Value {
    json!({})
}

const PUBLIC: [u16; 7] = [200, 200, 200, 200, 200, 200, 200];
const ANY_AUTHENTICATED: [u16; 7] = [401, 401, 401, 401, 200, 200, 200];
const ADMIN_ONLY: [u16; 7] = [401, 401, 401, 401, 403, 200, 403];
const SERVER_ONLY: [u16; 7] = [401, 401, 401, 401, 200, 403, 403];

#[rustfmt::skip]
fn table() -> Vec<Row> {
    vec![
        //  method    path                                   body                  expected
        row("GET",    "/healthz",                            None,                 PUBLIC),
        row("GET",    "/readyz",                             None,                 PUBLIC),
        row("GET",    "/metrics",                            None,                 PUBLIC),
        row("GET",    "/api/v1/openapi.json",                None,                 PUBLIC),
        row("GET",    "/docs",                               None,                 [302, 302, 302, 302, 302, 302, 302]),
        row("GET",    "/docs/",                              None,                 PUBLIC),
        row("GET",    "/api/v1/whoami",                      None,                 ANY_AUTHENTICATED),
        row("GET",    "/api/v1/admin/tokens",                None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/tokens",                Some(new_token_body), [401, 401, 401, 401, 403, 201, 403]),
        row("DELETE", "/api/v1/admin/tokens/{token_id}",     None,                 [401, 401, 401, 401, 403, 204, 403]),
        row("POST",   "/api/v1/chat/check",                  Some(chat_check_body), SERVER_ONLY),
        row("POST",   "/api/v1/tables/check",                Some(table_check_body), SERVER_ONLY),
        row("POST",   "/api/v1/games",                       Some(new_game_body),  [401, 401, 401, 401, 201, 403, 403]),
        row("GET",    "/api/v1/games",                       None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/games/1",                     None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/games/by-number/999",         None,                 [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/games/1/pgn4",                None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/games/1/flags",               None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/players/r1/summary",          None,                 ANY_AUTHENTICATED),
        row("GET",    "/api/v1/players/r1/games?with=b1",    None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/players/r1/flags",            None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/cases",                 None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/cases",                 Some(admin_entry_body), [401, 401, 401, 401, 403, 201, 403]),
        row("GET",    "/api/v1/admin/cases/999",             None,                 [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/admin/appeals",               None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/alerts",                None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/stats",                 None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/alerts/999/acknowledgement", Some(empty_body), [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/admin/word-list",             None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/word-list/terms",       Some(term_body),      [401, 401, 401, 401, 403, 201, 403]),
        row("POST",   "/api/v1/admin/word-list/allowed",     Some(allowed_body),   [401, 401, 401, 401, 403, 201, 403]),
        row("PUT",    "/api/v1/admin/word-list/strictness",  Some(strictness_body), ADMIN_ONLY),
        row("POST",   "/api/v1/admin/word-list/test",        Some(line_test_body), ADMIN_ONLY),
        row("POST",   "/api/v1/admin/word-list/999/removal", Some(removal_body),   [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/admin/modlog",                None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/presets",               None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/webhooks",              None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/webhooks",              Some(subscription_body), [401, 401, 401, 401, 403, 201, 403]),
        row("DELETE", "/api/v1/admin/webhooks/999",          None,                 [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/admin/webhooks/999/deliveries", None,               [401, 401, 401, 401, 403, 404, 403]),
        row("GET",    "/api/v1/admin/players?prefix=r",      None,                 ADMIN_ONLY),
        row("GET",    "/api/v1/admin/players/r1/notes",      None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/players/r1/notes",      Some(note_body),      [401, 401, 401, 401, 403, 201, 403]),
        // A player exports only their own; erasing a name nobody holds is not found.
        row("GET",    "/api/v1/players/r1/export",           None,                 [401, 401, 401, 401, 403, 200, 403]),
        row("GET",    "/api/v1/players/nobody-held/export",  None,                 [401, 401, 401, 401, 403, 404, 403]),
        row("POST",   "/api/v1/admin/players/nobody-held/erase", Some(erase_body), [401, 401, 401, 401, 403, 404, 403]),
        // A player sees only their own conduct record; nobody has one without games.
        row("GET",    "/api/v1/players/r1/conduct",          None,                 [401, 401, 401, 401, 200, 200, 403]),
        row("GET",    "/api/v1/players/matrix-player/conduct", None,               [401, 401, 401, 401, 404, 404, 404]),
        // A player sees only their own standing and sanctions.
        row("GET",    "/api/v1/players/r1/standing",         None,                 [401, 401, 401, 401, 200, 200, 403]),
        row("GET",    "/api/v1/players/matrix-player/standing", None,              [401, 401, 401, 401, 200, 200, 200]),
        row("GET",    "/api/v1/sanctions/mine",              None,                 [401, 401, 401, 401, 403, 403, 200]),
        row("GET",    "/api/v1/warnings/mine",               None,                 [401, 401, 401, 401, 403, 403, 200]),
        row("POST",   "/api/v1/warnings/999/acknowledgement", Some(empty_body),    [401, 401, 401, 401, 403, 403, 404]),
        row("GET",    "/api/v1/admin/sanctions",             None,                 ADMIN_ONLY),
        row("POST",   "/api/v1/admin/sanctions/999/change",  Some(sanction_change_body), [401, 401, 401, 401, 403, 404, 403]),
        row("POST",   "/api/v1/reports",                     Some(report_body),    [401, 401, 401, 401, 403, 403, 201]),
        row("GET",    "/api/v1/reports/mine",                None,                 [401, 401, 401, 401, 403, 403, 200]),
        row("POST",   "/api/v1/admin/cases/999/claim",       Some(empty_body),     [401, 401, 401, 401, 403, 404, 403]),
        row("POST",   "/api/v1/admin/cases/999/release",     Some(empty_body),     [401, 401, 401, 401, 403, 404, 403]),
        row("POST",   "/api/v1/admin/cases/999/decision",    Some(decision_body),  [401, 401, 401, 401, 403, 404, 403]),
        row("POST",   "/api/v1/sanctions/999/appeal",        Some(appeal_body),    [401, 401, 401, 401, 403, 403, 404]),
        row("POST",   "/api/v1/admin/appeals/999/decision",  Some(appeal_decision_body), [401, 401, 401, 401, 403, 404, 403]),
    ]
}

#[actix_web::test]
async fn every_route_against_every_caller() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "matrix-server");
    let admin = app.token(TokenRole::Admin, "matrix-admin");
    let revoked = app.revoked_token();
    let player = app.player_token("matrix-player");
    let expired = app.expired_player_token("matrix-player");
    let (victim_id, _) = app.token_with_id(TokenRole::Server, "matrix-victim");

    let mut failures = Vec::new();
    for row in table() {
        let path = row.path.replace("{token_id}", &victim_id.to_string());
        let body = row.body.map(|make| make());
        for (caller, expected) in CALLERS.iter().zip(row.expect) {
            let bearer = match caller {
                Caller::Nobody => None,
                Caller::BadToken => Some("arb_not-a-real-token"),
                Caller::RevokedToken => Some(revoked.as_str()),
                Caller::ExpiredPlayer => Some(expired.as_str()),
                Caller::Server => Some(server.as_str()),
                Caller::Admin => Some(admin.as_str()),
                Caller::Player => Some(player.as_str()),
            };
            let response = app.request(row.method, &path, bearer, body.as_ref()).await;
            if response.status != expected {
                failures.push(format!(
                    "{} {} as {caller:?}: expected {expected}, got {} ({})",
                    row.method,
                    row.path,
                    response.status,
                    response.text()
                ));
                continue;
            }
            // Refusals always come in the envelope with the matching code.
            match expected {
                401 => {
                    response.assert_error(401, "unauthorized");
                }
                403 => {
                    response.assert_error(403, "forbidden");
                }
                _ => {}
            }
        }
        // Stored games reach the conduct records through the applier (its interval here).
        app.apply_conduct().await;
    }
    assert!(
        failures.is_empty(),
        "role matrix mismatches:\n{}",
        failures.join("\n")
    );
}

#[actix_web::test]
async fn non_bearer_and_player_tokens_without_a_secret_are_refused() {
    let app = TestApp::spawn_with(|s| s.auth.player_token_secret.clear()).await;
    let player = crate::support::player_token("alice", 300);
    let error = app
        .get("/api/v1/whoami", Some(&player))
        .await
        .assert_error(401, "unauthorized");
    assert_eq!(error["details"]["reason"], "invalid");

    let response = app
        .send(
            actix_web::test::TestRequest::get()
                .uri("/api/v1/whoami")
                .insert_header(("authorization", "Basic dXNlcjpwYXNz")),
        )
        .await;
    let error = response.assert_error(401, "unauthorized");
    assert_eq!(error["details"]["reason"], "malformed");
    assert_eq!(
        response.header("www-authenticate").as_deref(),
        Some("Bearer")
    );
}

#[actix_web::test]
async fn refusal_reasons_are_specific() {
    let app = TestApp::spawn().await;
    let revoked = app.revoked_token();
    let expired = app.expired_player_token("bob");
    let reason = |v: Value| {
        v["details"]["reason"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        reason(
            app.get("/api/v1/whoami", None)
                .await
                .assert_error(401, "unauthorized")
        ),
        "missing"
    );
    assert_eq!(
        reason(
            app.get("/api/v1/whoami", Some(&revoked))
                .await
                .assert_error(401, "unauthorized")
        ),
        "revoked"
    );
    assert_eq!(
        reason(
            app.get("/api/v1/whoami", Some(&expired))
                .await
                .assert_error(401, "unauthorized")
        ),
        "expired"
    );
    assert_eq!(
        reason(
            app.get("/api/v1/whoami", Some("arb_x"))
                .await
                .assert_error(401, "unauthorized")
        ),
        "invalid"
    );
}
