//! The admin console over HTTP, without a browser: sign-in and its refusals, the session
//! cookie and its hash at rest, CSRF and cross-origin refusals, expiry, revocation, sign-out,
//! the security headers, and a decision taken through the console landing in the moderation
//! log as the API's would. The browser drives the same story in `console_browser`.

use std::collections::BTreeMap;

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::schema::{api_tokens, console_sessions};
use diesel::prelude::*;
use serde_json::json;

use crate::moderation::{case_of, modlog_kinds};
use crate::support::{TestApp, TestResponse};

const FFA_GAME: &str = include_str!("../data/pgn4/ffa/cc_game_0016.pgn4");
pub(crate) const ACCUSED: &str = "Spaksi";
/// A line Red sends at ply 12 suggesting a move that is legal for Blue there.
pub(crate) const SUGGESTION: &str = "blue play a4-b4";

/// The reporting story of `seed_story.rs`, up to the queue: the FFA game with an insult and a
/// move suggestion in its chat, reported by two players for offensive chat. Returns the
/// offensive-chat case's id.
pub(crate) async fn seed_case(app: &TestApp) -> i64 {
    let server = app.token(TokenRole::Server, "eu-1");
    let game = json!({
        "pgn4": FFA_GAME,
        "chat": [
            { "ply": 4, "sender": "rasulk", "channel": "game", "text": "good luck all" },
            { "ply": 8, "sender": ACCUSED, "channel": "game", "text": "learn to play noob" },
            { "ply": 12, "sender": ACCUSED, "channel": "game", "text": SUGGESTION },
            { "ply": 14, "sender": "HSCCCB", "channel": "game", "text": "stop it" },
        ],
    });
    let stored = app.post_json("/api/v1/games", Some(&server), &game).await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    for reporter in ["rasulk", "HSCCCB"] {
        for reason in ["offensive_chat", "rule_violating_chat"] {
            let filed = app
                .post_json(
                    "/api/v1/reports",
                    Some(&app.player_token(reporter)),
                    &json!({ "accused": [ACCUSED], "reason": reason, "game": 104_071_136,
                             "message": "see the chat" }),
                )
                .await;
            assert_eq!(filed.status, 201, "{}", filed.text());
        }
    }
    case_of(app, ACCUSED, "offensive_chat").expect("a case").0
}

/// A browser's cookie jar over the in-process app.
pub(crate) struct Browser<'a> {
    app: &'a TestApp,
    pub(crate) cookies: BTreeMap<String, String>,
    /// The address requests come from; none unless a test sets it (rate limits count it).
    pub(crate) peer: Option<std::net::SocketAddr>,
}

fn set_cookies(response: &TestResponse) -> Vec<String> {
    response
        .headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok().map(str::to_string))
        .collect()
}

/// The `value` of `<input ... name="NAME" value="...">` (first match).
pub(crate) fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_string())
}

impl<'a> Browser<'a> {
    pub(crate) fn new(app: &'a TestApp) -> Browser<'a> {
        Browser {
            app,
            cookies: BTreeMap::new(),
            peer: None,
        }
    }

    pub(crate) async fn send(&mut self, request: TestRequest) -> TestResponse {
        let mut request = request;
        if let Some(peer) = self.peer {
            request = request.peer_addr(peer);
        }
        if !self.cookies.is_empty() {
            let header: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            request = request.insert_header(("cookie", header.join("; ")));
        }
        let response = self.app.send(request).await;
        for cookie in set_cookies(&response) {
            let pair = cookie.split(';').next().unwrap_or_default();
            let (name, value) = pair.split_once('=').expect("name=value");
            if value.is_empty() || cookie.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_string(), value.to_string());
            }
        }
        response
    }

    pub(crate) async fn get(&mut self, path: &str) -> TestResponse {
        self.send(TestRequest::get().uri(path)).await
    }

    pub(crate) async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> TestResponse {
        self.send(TestRequest::post().uri(path).set_form(fields))
            .await
    }

    /// Signs in with `token`; returns the response to the form.
    pub(crate) async fn sign_in(&mut self, token: &str) -> TestResponse {
        let form = self.get("/admin/sign-in").await;
        assert_eq!(form.status, 200);
        let csrf = input_value(&form.text(), "csrf").expect("the sign-in form's csrf");
        self.post(
            "/admin/sign-in",
            &[("token", token), ("csrf", &csrf), ("next", "/admin/")],
        )
        .await
    }

    /// The CSRF token of the forms on `path`.
    pub(crate) async fn csrf(&mut self, path: &str) -> String {
        let page = self.get(path).await;
        assert_eq!(page.status, 200, "{}", page.text());
        input_value(&page.text(), "csrf").expect("a form with csrf")
    }
}

fn session_rows(app: &TestApp) -> Vec<(String, Option<chrono::NaiveDateTime>)> {
    let mut conn = app.state.pool.get().expect("connection");
    console_sessions::table
        .order(console_sessions::id.asc())
        .select((console_sessions::session_hash, console_sessions::ended_at))
        .load(&mut *conn)
        .expect("sessions")
}

#[actix_web::test]
async fn an_admin_signs_in_and_the_session_is_a_hashed_strict_cookie() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);

    let away = browser.get("/admin/").await;
    assert_eq!(away.status, 303);
    assert_eq!(
        away.header("location").as_deref(),
        Some("/admin/sign-in?next=/admin/")
    );

    let signed_in = browser.sign_in(&admin).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.text());
    assert_eq!(signed_in.header("location").as_deref(), Some("/admin/"));
    let cookie = set_cookies(&signed_in)
        .into_iter()
        .find(|c| c.starts_with("arbiter_session="))
        .expect("session cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/admin"] {
        assert!(cookie.contains(attribute), "{cookie} lacks {attribute}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let secret = browser.cookies["arbiter_session"].clone();
    let rows = session_rows(&app);
    assert_eq!(rows.len(), 1);
    assert_ne!(rows[0].0, secret, "the cookie's value is not stored");
    assert_eq!(
        rows[0].0,
        arbiter::api::console::session::secret_hash(&secret)
    );

    let queue = browser.get("/admin/").await;
    assert_eq!(queue.status, 200);
    let html = queue.text();
    assert!(
        html.contains("Signed in as <strong>mod_anna</strong>"),
        "{html}"
    );
    let csp = queue.header("content-security-policy").expect("CSP");
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
    assert_eq!(queue.header("x-frame-options").as_deref(), Some("DENY"));
    assert!(!html.contains("<script>"), "no inline script");
    assert!(!html.contains(" style="), "no inline style");

    // Behind a TLS proxy the cookie is Secure.
    let mut behind_tls = Browser::new(&app);
    let form = behind_tls
        .send(
            TestRequest::get()
                .uri("/admin/sign-in")
                .insert_header(("x-forwarded-proto", "https")),
        )
        .await;
    assert!(set_cookies(&form).iter().all(|c| c.contains("Secure")));
}

#[actix_web::test]
async fn only_admin_tokens_get_in_and_each_refusal_is_a_sentence() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let (revoked_id, revoked) = app.token_with_id(TokenRole::Admin, "mod_old");
    {
        let mut conn = app.state.pool.get().expect("connection");
        arbiter::store::api_tokens::revoke(&mut conn, revoked_id, arbiter::store::now())
            .expect("revoke");
    }
    let player = app.player_token("rasulk");
    for (token, sentence) in [
        (server.as_str(), "only admin tokens sign in here"),
        (player.as_str(), "only admins sign in here"),
        (revoked.as_str(), "That token was revoked"),
        ("arb_not_a_real_token", "No API token matches"),
        ("", "Enter your admin API token."),
    ] {
        let mut browser = Browser::new(&app);
        let refused = browser.sign_in(token).await;
        assert_eq!(refused.status, 401, "{token:?}");
        assert!(
            refused.text().contains(sentence),
            "{token:?}: {}",
            refused.text()
        );
        assert!(!browser.cookies.contains_key("arbiter_session"));
        assert_eq!(browser.get("/admin/").await.status, 303);
    }
    assert!(session_rows(&app).is_empty());
}

#[actix_web::test]
async fn forms_without_the_session_s_csrf_token_or_from_another_origin_are_refused() {
    let app = TestApp::spawn().await;
    let case = seed_case(&app).await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let csrf = browser.csrf("/admin/").await;
    let claim = format!("/admin/cases/{case}/claim");

    // Another session's token, none at all, and a forged origin: 403, nothing claimed.
    let mut other = Browser::new(&app);
    other.sign_in(&admin).await;
    let foreign = other.csrf("/admin/").await;
    assert_ne!(foreign, csrf);
    for fields in [vec![("csrf", foreign.as_str())], vec![]] {
        let refused = browser.post(&claim, &fields).await;
        assert_eq!(refused.status, 403, "{}", refused.text());
        assert!(refused.text().contains("Reload the page and try again"));
    }
    let forged = browser
        .send(
            TestRequest::post()
                .uri(&claim)
                .insert_header(("origin", "https://evil.example"))
                .set_form([("csrf", csrf.as_str())]),
        )
        .await;
    assert_eq!(forged.status, 403);
    let sign_in_csrf = browser
        .post("/admin/sign-in", &[("token", &admin), ("csrf", "forged")])
        .await;
    assert_eq!(sign_in_csrf.status, 403);
    assert!(!modlog_kinds(&app).iter().any(|k| k.contains("claim")));

    // With its own token the same form claims the case, and the queue says so.
    let claimed = browser
        .post(&claim, &[("csrf", &csrf), ("back", "/admin/")])
        .await;
    assert_eq!(claimed.status, 303);
    let queue = browser.get("/admin/").await.text();
    assert!(
        queue.contains(&format!("You hold case {case} until")),
        "{queue}"
    );
    assert!(queue.contains(&format!("Release case {case}")));
    // The flash shows once.
    assert!(!browser
        .get("/admin/")
        .await
        .text()
        .contains("You hold case"));
}

#[actix_web::test]
async fn sessions_end_by_expiry_revocation_sign_out_or_from_another_browser() {
    let app = TestApp::spawn().await;
    let (token_id, admin) = app.token_with_id(TokenRole::Admin, "mod_anna");
    let set = |column: &str| {
        let mut conn = app.state.pool.get().expect("connection");
        let past = arbiter::store::now() - chrono::Duration::minutes(1);
        match column {
            "expires_at" => diesel::update(console_sessions::table)
                .set(console_sessions::expires_at.eq(past))
                .execute(&mut *conn),
            _ => diesel::update(api_tokens::table.find(token_id))
                .set(api_tokens::revoked_at.eq(Some(past)))
                .execute(&mut *conn),
        }
        .expect("update");
    };

    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    assert_eq!(browser.get("/admin/cases/1").await.status, 404);
    set("expires_at");
    let expired = browser.get("/admin/cases/1").await;
    assert_eq!(expired.status, 303);
    let location = expired.header("location").expect("location");
    assert_eq!(
        location,
        "/admin/sign-in?reason=expired&next=/admin/cases/1"
    );
    let page = browser.get(&location).await.text();
    assert!(
        page.contains("Your session expired. Sign in again."),
        "{page}"
    );

    // Another browser ends this one from the sessions page; then it signs itself out.
    let mut first = Browser::new(&app);
    first.sign_in(&admin).await;
    let mut second = Browser::new(&app);
    second.sign_in(&admin).await;
    let sessions = second.get("/admin/sessions").await.text();
    assert_eq!(sessions.matches(">End</button>").count(), 1, "{sessions}");
    let end = sessions
        .split("action=\"/admin/sessions/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("the other session's id")
        .to_string();
    let csrf = input_value(&sessions, "csrf").expect("csrf");
    let ended = second
        .post(&format!("/admin/sessions/{end}/end"), &[("csrf", &csrf)])
        .await;
    assert_eq!(ended.status, 303);
    assert_eq!(first.get("/admin/").await.status, 303);
    let out = second.post("/admin/sign-out", &[("csrf", &csrf)]).await;
    assert_eq!(
        out.header("location").as_deref(),
        Some("/admin/sign-in?signed_out=1")
    );
    assert!(!second.cookies.contains_key("arbiter_session"));
    // The expired session stays as it was; the two others are ended.
    assert!(session_rows(&app)[1..]
        .iter()
        .all(|(_, ended)| ended.is_some()));

    // Revoking the API token ends its sessions at once.
    let mut third = Browser::new(&app);
    third.sign_in(&admin).await;
    assert_eq!(third.get("/admin/").await.status, 200);
    set("revoked_at");
    let revoked = third.get("/admin/").await;
    assert_eq!(
        revoked.header("location").as_deref(),
        Some("/admin/sign-in?reason=revoked&next=/admin/")
    );
}

#[actix_web::test]
async fn a_decision_through_the_console_is_the_api_s_decision() {
    let app = TestApp::spawn().await;
    let case = seed_case(&app).await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let page_path = format!("/admin/cases/{case}");
    let page = browser.get(&page_path).await.text();
    assert!(
        page.contains("learn to play <mark>noob</mark>") || page.contains("<mark>"),
        "{page}"
    );
    assert!(page.contains("Claim the case to decide it"));
    let csrf = input_value(&page, "csrf").expect("csrf");
    browser
        .post(
            &format!("{page_path}/claim"),
            &[("csrf", &csrf), ("back", &page_path)],
        )
        .await;
    let page = browser.get(&page_path).await.text();
    assert!(page.contains("The ladder suggests"), "{page}");
    let decide = format!("{page_path}/decision");
    let fields = |note: &'static str, ground: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("decision", "sanction".to_string()),
            ("sanction_kind", "chat_ban".to_string()),
            ("length", "1440".to_string()),
            ("ground", ground.to_string()),
            ("preset", "offensive_chat_ban".to_string()),
            ("note", note.to_string()),
            ("evidence_games", String::new()),
        ]
    };
    // The habitual ground on one game is refused with the rule in a sentence, the form kept.
    let as_refs = |f: &Vec<(&'static str, String)>| -> Vec<(&'static str, String)> { f.clone() };
    let refused_fields = as_refs(&fields("kept note", "abusive_language_habit"));
    let refused = browser
        .send(TestRequest::post().uri(&decide).set_form(&refused_fields))
        .await;
    assert_eq!(refused.status, 422, "{}", refused.text());
    let text = refused.text();
    assert!(text.contains("class=\"error\""), "{text}");
    assert!(text.contains("kept note"), "the note survives the refusal");
    assert!(!text.contains("{\"error\""), "no JSON on the page");

    let done_fields = as_refs(&fields("", "harassment"));
    let done = browser
        .send(TestRequest::post().uri(&decide).set_form(&done_fields))
        .await;
    assert_eq!(done.status, 303, "{}", done.text());
    let page = browser.get(&page_path).await.text();
    assert!(
        page.contains(&format!("Case {case} is decided: chat ban until")),
        "{page}"
    );
    let kinds = modlog_kinds(&app);
    assert!(kinds.iter().any(|k| k == "decision"), "{kinds:?}");
    let standing = app
        .get(
            &format!("/api/v1/players/{ACCUSED}/standing"),
            Some(&app.token(TokenRole::Server, "eu-2")),
        )
        .await;
    assert_eq!(standing.json()["may_chat"], false);
}

#[actix_web::test]
async fn the_case_page_draws_the_board_with_the_suggested_move() {
    let app = TestApp::spawn().await;
    seed_case(&app).await;
    let case = case_of(&app, ACCUSED, "rule_violating_chat")
        .expect("case")
        .0;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let page = browser.get(&format!("/admin/cases/{case}")).await.text();
    assert!(page.contains(SUGGESTION), "{page}");
    assert!(page.contains("a4-b4 is legal for Blue"), "{page}");
    assert!(page.contains("<svg"), "the board is drawn");
    assert!(
        page.contains("<title>a4 to b4</title>"),
        "the move is marked"
    );
}
