//! The console's other pages over HTTP: every page wants a session and answers HTML; notes,
//! admin cases, sanction changes, appeals, tokens and webhooks through their forms, each
//! ending in the API's moderation-log entry.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::schema::api_tokens;
use diesel::prelude::*;
use serde_json::json;

use crate::console::{input_value, seed_case, Browser, ACCUSED};
use crate::moderation::{claim, decide, modlog_kinds};
use crate::support::TestApp;

const PAGES: [&str; 15] = [
    "/admin/",
    "/admin/appeals",
    "/admin/sanctions",
    "/admin/players",
    "/admin/players?prefix=Spa",
    "/admin/players/Spaksi",
    "/admin/games",
    "/admin/games?player=Spaksi",
    "/admin/log",
    "/admin/stats",
    "/admin/word-list",
    "/admin/word-list?removed=true",
    "/admin/webhooks",
    "/admin/tokens",
    "/admin/sessions",
];

const FORMS: [&str; 16] = [
    "/admin/sign-out",
    "/admin/sessions/1/end",
    "/admin/cases/1/claim",
    "/admin/cases/1/decision",
    "/admin/players/Spaksi/notes",
    "/admin/players/Spaksi/cases",
    "/admin/sanctions/1/change",
    "/admin/appeals/1/decision",
    "/admin/webhooks",
    "/admin/tokens",
    "/admin/tokens/1/revoke",
    "/admin/word-list/test",
    "/admin/word-list/terms",
    "/admin/word-list/allowed",
    "/admin/word-list/strictness",
    "/admin/word-list/1/remove",
];

/// A chat ban on the accused of `seed_case`, decided through the API by `admin`; its sanction
/// id.
async fn banned(app: &TestApp, admin: &str) -> i64 {
    let case = seed_case(app).await;
    assert_eq!(claim(app, admin, case).await.status, 200);
    let decided = decide(
        app,
        admin,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "note": "insults",
                "sanction": { "kind": "chat_ban", "minutes": 1440 } }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    decided.json()["sanction"]["id"]
        .as_i64()
        .expect("sanction id")
}

#[actix_web::test]
async fn every_page_wants_a_session_and_answers_html() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let case = seed_case(&app).await;
    let mut stranger = Browser::new(&app);
    for path in PAGES
        .iter()
        .copied()
        .chain([format!("/admin/cases/{case}").as_str(), "/admin/games/1"])
    {
        let away = stranger.get(path).await;
        assert_eq!(away.status, 303, "{path}");
        assert!(away
            .header("location")
            .unwrap_or_default()
            .starts_with("/admin/sign-in"));
    }
    for path in FORMS {
        let away = stranger.post(path, &[("csrf", "x")]).await;
        assert_eq!(away.status, 303, "{path}");
        // Back to the queue after signing in, not to the form's address.
        assert_eq!(
            away.header("location").as_deref(),
            Some("/admin/sign-in"),
            "{path}"
        );
    }
    // A bearer token is not a session: the console never reads Authorization.
    let bearer = app.get("/admin/", Some(&admin)).await;
    assert_eq!(bearer.status, 303);

    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    for path in PAGES.iter().copied().chain([
        format!("/admin/cases/{case}").as_str(),
        "/admin/games/1",
        "/admin/games/1?ply=12",
        "/admin/games/1?ply=100000",
    ]) {
        let page = browser.get(path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.text());
        assert!(page
            .header("content-type")
            .unwrap_or_default()
            .starts_with("text/html"));
        assert!(page.header("content-security-policy").is_some(), "{path}");
        let html = page.text();
        assert!(
            !html.contains(" style=") && !html.contains("<script>"),
            "{path}"
        );
    }
    let download = browser.get("/admin/games/1/pgn4").await;
    assert_eq!(download.status, 200);
    assert!(download
        .header("content-disposition")
        .unwrap_or_default()
        .contains("attachment"));
    assert!(
        download.text().contains("[GameNr \"104071136\"]") || download.text().contains("104071136")
    );
    for (path, sentence) in [
        ("/admin/games/99999", "99999"),
        ("/admin/cases/99999", "99999"),
        ("/admin/nowhere", "There is no page at /admin/nowhere."),
        ("/admin/games/abc", "There is no page"),
    ] {
        let missing = browser.get(path).await;
        assert_eq!(missing.status, 404, "{path}");
        let html = missing.text();
        assert!(
            html.contains(sentence) && html.contains("<p class=\"error\""),
            "{path}: {html}"
        );
    }
    let bad_filter = browser.get("/admin/log?case_id=seven").await;
    assert_eq!(bad_filter.status, 400);
    assert!(bad_filter
        .text()
        .contains("&quot;seven&quot; is not a case number."));
}

#[actix_web::test]
async fn notes_cases_and_sanction_changes_go_through_the_api() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let sanction = banned(&app, &admin).await;
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let player_page = format!("/admin/players/{ACCUSED}");
    let page = browser.get(&player_page).await.text();
    assert!(page.contains("chat ban"), "{page}");
    assert!(
        page.contains("May chat</dt><dd><strong>no</strong>"),
        "{page}"
    );
    let csrf = input_value(&page, "csrf").expect("csrf");

    let noted = browser
        .post(
            &format!("{player_page}/notes"),
            &[("csrf", &csrf), ("text", "warned twice in club chat")],
        )
        .await;
    assert_eq!(noted.status, 303);
    let page = browser.get(&player_page).await.text();
    assert!(page.contains("Your note on Spaksi is saved."));
    assert!(page.contains("warned twice in club chat — mod_anna"));

    let opened = browser
        .post(
            &format!("{player_page}/cases"),
            &[
                ("csrf", &csrf),
                ("reason", "other"),
                ("games", "104071136"),
                ("note", "spectator abuse"),
            ],
        )
        .await;
    assert_eq!(opened.status, 303);
    let location = opened.header("location").expect("location");
    assert!(location.starts_with("/admin/cases/"), "{location}");
    assert!(browser
        .get(&location)
        .await
        .text()
        .contains("Your entry is on case"));

    let change = format!("/admin/sanctions/{sanction}/change");
    let shortened = browser
        .post(
            &change,
            &[
                ("csrf", &csrf),
                ("action", "shorten"),
                ("hours", "12"),
                ("note", "first offence"),
                ("back", "/admin/sanctions"),
            ],
        )
        .await;
    assert_eq!(
        shortened.header("location").as_deref(),
        Some("/admin/sanctions")
    );
    let page = browser.get("/admin/sanctions").await.text();
    assert!(
        page.contains(&format!("Sanction {sanction} now ends")),
        "{page}"
    );
    let refused = browser
        .post(
            &change,
            &[
                ("csrf", &csrf),
                ("action", "shorten"),
                ("hours", "48"),
                ("note", "x"),
            ],
        )
        .await;
    assert_eq!(refused.status, 303);
    let page = browser.get("/admin/").await.text();
    assert!(
        page.contains("class=\"flash refused\""),
        "a longer 'shortening' is refused: {page}"
    );
    browser
        .post(
            &change,
            &[("csrf", &csrf), ("action", "lift"), ("note", "mistake")],
        )
        .await;
    assert!(browser
        .get("/admin/")
        .await
        .text()
        .contains(&format!("Sanction {sanction} is lifted.")));
    let kinds = modlog_kinds(&app);
    for kind in [
        "note_added",
        "admin_entry",
        "sanction_reduced",
        "sanction_lifted",
    ] {
        assert!(
            kinds.iter().any(|k| k == kind),
            "{kind} missing from {kinds:?}"
        );
    }
}

#[actix_web::test]
async fn appeals_are_answered_by_another_admin() {
    let app = TestApp::spawn().await;
    let anna = app.token(TokenRole::Admin, "mod_anna");
    let ben = app.token(TokenRole::Admin, "mod_ben");
    let sanction = banned(&app, &anna).await;
    let appealed = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction}/appeal"),
            Some(&app.player_token(ACCUSED)),
            &json!({ "text": "it was a joke between friends" }),
        )
        .await;
    assert_eq!(appealed.status, 201, "{}", appealed.text());
    let appeal = appealed.json()["id"].as_i64().expect("appeal id");

    let mut as_anna = Browser::new(&app);
    as_anna.sign_in(&anna).await;
    let page = as_anna.get("/admin/appeals").await.text();
    assert!(page.contains("it was a joke between friends"));
    let csrf = input_value(&page, "csrf").expect("csrf");
    let decision = format!("/admin/appeals/{appeal}/decision");
    as_anna
        .post(&decision, &[("csrf", &csrf), ("decision", "lift")])
        .await;
    let refused = as_anna.get("/admin/appeals").await.text();
    assert!(
        refused.contains("class=\"flash refused\""),
        "four eyes: {refused}"
    );

    let mut as_ben = Browser::new(&app);
    as_ben.sign_in(&ben).await;
    let csrf = as_ben.csrf("/admin/appeals").await;
    as_ben
        .post(
            &decision,
            &[
                ("csrf", &csrf),
                ("decision", "reduce"),
                ("hours", "6"),
                ("note", "shortened"),
            ],
        )
        .await;
    let done = as_ben.get("/admin/appeals?status=all").await.text();
    assert!(
        done.contains(&format!("Appeal {appeal} is answered: reduce.")),
        "{done}"
    );
    assert!(modlog_kinds(&app).iter().any(|k| k == "appeal_decided"));
}

#[actix_web::test]
async fn tokens_and_webhook_secrets_are_shown_once() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let csrf = browser.csrf("/admin/tokens").await;
    let created = browser
        .post(
            "/admin/tokens",
            &[("csrf", &csrf), ("name", "eu-9"), ("role", "server")],
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let html = created.text();
    let open = "<code class=\"secret\">";
    let at = html.find(&format!("{open}arb_")).expect("the token, once") + open.len();
    let token = &html[at..at + html[at..].find('<').expect("end")];
    assert_eq!(app.get("/api/v1/whoami", Some(token)).await.status, 200);
    {
        let mut conn = app.state.pool.get().expect("connection");
        let hashes: Vec<String> = api_tokens::table
            .select(api_tokens::token_hash)
            .load(&mut *conn)
            .expect("tokens");
        assert!(hashes.iter().all(|h| h != token), "only hashes are stored");
    }
    assert!(
        !browser.get("/admin/tokens").await.text().contains(token),
        "shown once"
    );
    let id: i64 = {
        let mut conn = app.state.pool.get().expect("connection");
        api_tokens::table
            .filter(api_tokens::name.eq("eu-9"))
            .select(api_tokens::id)
            .first(&mut *conn)
            .expect("token row")
    };
    browser
        .post(&format!("/admin/tokens/{id}/revoke"), &[("csrf", &csrf)])
        .await;
    assert!(browser
        .get("/admin/tokens")
        .await
        .text()
        .contains(&format!("Token {id} is revoked")));
    assert_eq!(app.get("/api/v1/whoami", Some(token)).await.status, 401);

    let subscribed = browser
        .post(
            "/admin/webhooks",
            &[
                ("csrf", &csrf),
                ("url", "https://hook:pw-in-url@93.184.215.14/hooks"),
            ],
        )
        .await;
    assert_eq!(subscribed.status, 201, "{}", subscribed.text());
    assert!(subscribed.text().contains("<code class=\"secret\">"));
    assert!(
        !subscribed.text().contains("pw-in-url"),
        "credentials sealed"
    );
    let listed = browser.get("/admin/webhooks").await.text();
    assert!(listed.contains("https://93.184.215.14/hooks"), "{listed}");
    assert!(
        !listed.contains("pw-in-url") && !listed.contains("whsec_"),
        "{listed}"
    );
    // An inward address is refused, naming why and what would allow it.
    let inward = browser
        .post(
            "/admin/webhooks",
            &[("csrf", &csrf), ("url", "http://127.0.0.1:9/hooks")],
        )
        .await;
    assert_eq!(inward.status, 422);
    assert!(
        inward.text().contains("allowed_networks"),
        "{}",
        inward.text()
    );
    let refused = browser
        .post("/admin/webhooks", &[("csrf", &csrf), ("url", "not a url")])
        .await;
    assert_eq!(refused.status, 422);
    assert!(
        refused.text().contains("class=\"error\""),
        "{}",
        refused.text()
    );
}

#[actix_web::test]
async fn the_word_list_is_tested_and_changed_through_its_forms() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let csrf = browser.csrf("/admin/word-list").await;
    let term = [
        ("csrf", csrf.as_str()),
        ("draft_kind", "term"),
        ("term", "zorpface"),
        ("category", "insult"),
        ("severity", "high"),
        ("mode", "word"),
        ("reason", "seen in the lobbies"),
        ("text", "go away zorpface"),
    ];
    // Tested before saving: the page shows both answers and keeps the form filled.
    let tested = browser.post("/admin/word-list/test", &term).await;
    assert_eq!(tested.status, 200, "{}", tested.text());
    let html = tested.text();
    assert!(html.contains("With the draft saved"), "{html}");
    assert!(html.contains("lexicon:admin:zorpface"), "{html}");
    assert!(html.contains("value=\"zorpface\""), "{html}");
    assert!(modlog_kinds(&app).is_empty(), "a test saves nothing");

    let added = browser.post("/admin/word-list/terms", &term).await;
    assert_eq!(added.status, 303);
    let page = browser.get("/admin/word-list").await.text();
    assert!(page.contains("Term &quot;zorpface&quot; added"), "{page}");
    let line = [
        ("csrf", csrf.as_str()),
        ("draft_kind", "none"),
        ("text", "zorpface!"),
    ];
    let now = browser.post("/admin/word-list/test", &line).await.text();
    assert!(
        now.contains("lexicon:admin:zorpface") && now.contains("block"),
        "{now}"
    );

    let strict = [
        ("csrf", csrf.as_str()),
        ("category", "profanity"),
        ("strictness", "off"),
        ("reason", "adults only server"),
    ];
    assert_eq!(
        browser
            .post("/admin/word-list/strictness", &strict)
            .await
            .status,
        303
    );
    let removal = [("csrf", csrf.as_str()), ("reason", "typo")];
    assert_eq!(
        browser
            .post("/admin/word-list/1/remove", &removal)
            .await
            .status,
        303
    );
    let refused = browser.post("/admin/word-list/1/remove", &removal).await;
    assert_eq!(refused.status, 303);
    assert!(browser
        .get("/admin/word-list")
        .await
        .text()
        .contains("removed by mod_anna already"));
    assert_eq!(
        modlog_kinds(&app),
        [
            "word_list_entry_added",
            "chat_strictness_set",
            "word_list_entry_removed"
        ]
    );
}
