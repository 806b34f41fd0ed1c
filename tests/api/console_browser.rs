//! The admin console in a real browser: headless Chromium driven over WebDriver
//! (`chromedriver`) runs the reporting story (`console::seed_case`) through the pages, checks the
//! refusals a browser meets (a non-admin token, a forged form, an expired session), that every
//! control is labelled and that the queue works from the keyboard alone, and saves screenshots
//! under `target/console-screenshots/`.
//!
//! Without `chromedriver` and Chromium on the machine the test prints why and passes, unless
//! `ARBITER_REQUIRE_BROWSER=1` (set by `.ci/run`), which makes a missing browser a failure.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::schema::console_sessions;
use diesel::prelude::*;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::console::{seed_case, ACCUSED, SUGGESTION};
use crate::moderation::{case_of, modlog_kinds};
use crate::support::LiveServer;

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// chromedriver and the browser it drives, or why they cannot be used here.
fn browser_tools() -> Result<(PathBuf, PathBuf), String> {
    let driver = std::env::var_os("ARBITER_CHROMEDRIVER")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromedriver"]))
        .ok_or("no chromedriver on PATH (Debian: apt-get install chromium chromium-driver)")?;
    let browser = std::env::var_os("ARBITER_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| on_path(&["chromium", "chromium-browser", "google-chrome"]))
        .ok_or("no chromium on PATH (Debian: apt-get install chromium chromium-driver)")?;
    Ok((driver, browser))
}

fn start_driver(driver: &Path) -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

async fn open_browser(driver: &Driver, browser: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1100"],
        }),
    );
    ClientBuilder::native()
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session")
}

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

async fn save_screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(screenshot_dir().join(format!("{name}.png")), png).expect("write screenshot");
}

/// The text of the element `css` selects, waiting for it: a key press that submits a form
/// does not wait for the next page as a click does, so the element may be missing or stale
/// for a moment.
async fn text_of(client: &Client, css: &str) -> String {
    let started = Instant::now();
    loop {
        let found = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await;
        if let Ok(element) = found {
            if let Ok(text) = element.text().await {
                return text;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no {css} on the page"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn body_text(client: &Client) -> String {
    text_of(client, "body").await
}

/// Waits until the page's text contains `needle` and returns the text: right after a click that
/// submits a form the old page can still be showing, and the sign-in form and the queue share
/// one address.
async fn wait_for_text(client: &Client, needle: &str) -> String {
    wait_for_text_in(client, "body", needle).await
}

/// Waits until the element at `css` holds `needle` and returns its text.
async fn wait_for_text_in(client: &Client, css: &str, needle: &str) -> String {
    let started = Instant::now();
    loop {
        let text = text_of(client, css).await;
        if text.contains(needle) {
            return text;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{css} never showed {needle:?}:\n{text}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the browser shows the page at `path` (after a key press that navigates).
async fn wait_for_path(client: &Client, path: &str) {
    let started = Instant::now();
    loop {
        if client.current_url().await.expect("url").path() == path {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never reached {path}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sends `keys` to the page, retrying while a navigation replaces it.
async fn press(client: &Client, keys: &str) {
    let started = Instant::now();
    loop {
        let found = client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css("body"))
            .await;
        if let Ok(body) = found {
            if body.send_keys(keys).await.is_ok() {
                return;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "could not press {keys:?}"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every visible form control has an accessible name: a label, `aria-label`, or (buttons)
/// its text. Returns the ones without.
async fn unlabelled_controls(client: &Client) -> Vec<String> {
    let found = client
        .execute(
            r#"
            const missing = [];
            for (const el of document.querySelectorAll('input, select, textarea, button, a[href]')) {
              if (el.type === 'hidden') continue;
              const named = (el.labels && el.labels.length > 0)
                || (el.getAttribute('aria-label') || '').trim() !== ''
                || (el.getAttribute('aria-labelledby') || '') !== ''
                || ((el.tagName === 'BUTTON' || el.tagName === 'A') && el.textContent.trim() !== '');
              if (!named) missing.push(el.outerHTML.slice(0, 120));
            }
            return missing;
            "#,
            vec![],
        )
        .await
        .expect("script");
    serde_json::from_value(found).unwrap_or_default()
}

async fn assert_labelled(client: &Client, page: &str) {
    let missing = unlabelled_controls(client).await;
    assert!(
        missing.is_empty(),
        "{page}: controls without a label: {missing:?}"
    );
}

async fn sign_in(client: &Client, base: &str, token: &str) {
    client.goto(&format!("{base}/admin/")).await.expect("goto");
    let field = client
        .find(Locator::Id("token"))
        .await
        .expect("token field");
    field.send_keys(token).await.expect("type token");
    client
        .find(Locator::Css("form.sign-in button[type=submit]"))
        .await
        .expect("sign-in button")
        .click()
        .await
        .expect("click");
}

#[actix_web::test]
async fn an_admin_works_the_seed_story_in_a_real_browser() {
    let (driver_path, browser_path) = match browser_tools() {
        Ok(tools) => tools,
        Err(why) => {
            assert!(
                std::env::var("ARBITER_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "ARBITER_REQUIRE_BROWSER=1 but {why}"
            );
            eprintln!("skipping the console's browser test: {why}");
            return;
        }
    };
    let server = LiveServer::start().await;
    let app = &server.app;
    let base = format!("http://{}", server.addr);
    let case = seed_case(app).await;
    let checked_case = case_of(app, ACCUSED, "rule_violating_chat")
        .expect("case")
        .0;
    let admin = app.token(TokenRole::Admin, "mod_anna");
    let game_server = app.token(TokenRole::Server, "eu-1");
    let driver = start_driver(&driver_path);
    let client = open_browser(&driver, &browser_path).await;

    // A game server's token does not open the console.
    sign_in(&client, &base, &game_server).await;
    wait_for_text(&client, "only admin tokens sign in here").await;
    // A failed sign-in makes the address wait `[limits] sign_in_delay_ms` (1 s) before the next.
    actix_web::rt::time::sleep(Duration::from_millis(1_100)).await;

    // Sign in; the queue lists both cases.
    sign_in(&client, &base, &admin).await;
    wait_for_path(&client, "/admin/").await;
    let queue = wait_for_text(&client, "Signed in as mod_anna").await;
    assert!(
        queue.contains(&format!("Case {case}")) && queue.contains(&format!("Case {checked_case}"))
    );
    assert_labelled(&client, "queue").await;
    save_screenshot(&client, "queue").await;

    // Filter to offensive chat, then keyboard alone: j selects the first row, c claims it,
    // o opens it.
    client
        .find(Locator::Id("reason"))
        .await
        .expect("reason filter")
        .select_by_value("offensive_chat")
        .await
        .expect("select");
    client
        .find(Locator::Css("form.filters button[type=submit]"))
        .await
        .expect("filter button")
        .click()
        .await
        .expect("filter");
    press(&client, "j").await;
    let selected = text_of(&client, "tr.selected td:first-child").await;
    assert_eq!(selected, format!("Case {case}"));
    press(&client, "c").await;
    wait_for_text_in(&client, "p.flash", &format!("You hold case {case} until")).await;
    press(&client, "j").await;
    press(&client, "o").await;
    wait_for_path(&client, &format!("/admin/cases/{case}")).await;

    // The case page: the flagged line in its chat, the ladder's suggestion, the form.
    let page = wait_for_text(&client, "learn to play noob").await;
    assert!(page.contains("The ladder suggests"), "{page}");
    assert_labelled(&client, "case").await;
    save_screenshot(&client, "case").await;

    // Decide a 24-hour chat ban with the preset.
    client
        .find(Locator::Id("decision-sanction"))
        .await
        .expect("sanction radio")
        .click()
        .await
        .expect("click");
    for (id, value) in [
        ("sanction_kind", "chat_ban"),
        ("length", "1440"),
        ("ground", "harassment"),
        ("preset", "offensive_chat_ban"),
    ] {
        client
            .find(Locator::Id(id))
            .await
            .expect(id)
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{id}={value}: {e}"));
    }
    client
        .find(Locator::Css("form.stacked button.primary"))
        .await
        .expect("decide button")
        .click()
        .await
        .expect("decide");
    let decided = format!("Case {case} is decided: chat ban until");
    wait_for_text_in(&client, "p.flash", &decided).await;
    assert!(modlog_kinds(app).iter().any(|k| k == "decision"));
    let standing = app
        .get(
            &format!("/api/v1/players/{ACCUSED}/standing"),
            Some(&game_server),
        )
        .await;
    assert_eq!(standing.json()["may_chat"], false);

    // The player's page shows the ban in force; the log shows the decision.
    client
        .find(Locator::LinkText(ACCUSED))
        .await
        .expect("the accused's link")
        .click()
        .await
        .expect("open the player");
    wait_for_path(&client, &format!("/admin/players/{ACCUSED}")).await;
    let player = text_of(&client, "#sanctions + article").await;
    assert!(player.contains("chat ban"), "{player}");
    assert_labelled(&client, "player").await;
    save_screenshot(&client, "player").await;
    client
        .goto(&format!("{base}/admin/log?player={ACCUSED}"))
        .await
        .expect("goto");
    let log = body_text(&client).await;
    assert!(
        log.contains("decision") && log.contains("mod_anna"),
        "{log}"
    );
    assert_labelled(&client, "log").await;

    // The Stats page draws the decision just taken, once the stats job has rolled the log.
    arbiter::api::jobs::stats_roller::stats_pass(&app.state)
        .await
        .expect("stats rolled");
    client
        .goto(&format!("{base}/admin/stats"))
        .await
        .expect("goto");
    let stats = body_text(&client).await;
    assert!(
        stats.contains("Decisions per admin") && stats.contains("mod_anna"),
        "{stats}"
    );
    client
        .find(Locator::Css("svg.chart"))
        .await
        .expect("a chart drawn");
    assert_labelled(&client, "stats").await;
    save_screenshot(&client, "stats").await;

    // The Word list page: a term tested as a draft, then added, then a line tested against it.
    client
        .goto(&format!("{base}/admin/word-list"))
        .await
        .expect("goto");
    assert_labelled(&client, "word list").await;
    for (css, value) in [
        ("#term-term", "glorbnik"),
        ("#term-reason", "new insult in the lobbies"),
        ("#term-text", "you GL0RBNIK"),
    ] {
        client
            .find(Locator::Css(css))
            .await
            .expect(css)
            .send_keys(value)
            .await
            .expect("typed");
    }
    client
        .find(Locator::Css("#term-severity"))
        .await
        .expect("severity")
        .select_by_value("high")
        .await
        .expect("selected");
    client
        .find(Locator::Css(
            "form[action$='/terms'] button[formaction$='/test']",
        ))
        .await
        .expect("test button")
        .click()
        .await
        .expect("click");
    let tested = wait_for_text_in(&client, "#test-result", "With the draft saved").await;
    assert!(
        tested.contains("lexicon:admin:glorbnik") && tested.contains("block"),
        "{tested}"
    );
    save_screenshot(&client, "word-list-draft").await;
    // The form came back filled in: adding saves the term tested.
    client
        .find(Locator::Css(
            "form[action$='/terms'] button:not([formaction])",
        ))
        .await
        .expect("add button")
        .click()
        .await
        .expect("click");
    wait_for_text(&client, "Term \"glorbnik\" added").await;
    client
        .find(Locator::Css("#test-text"))
        .await
        .expect("line")
        .send_keys("glorbnik!!")
        .await
        .expect("typed");
    client
        .find(Locator::Css("form[action$='/test'] button"))
        .await
        .expect("test this line")
        .click()
        .await
        .expect("click");
    let now = wait_for_text_in(&client, "#test-result", "lexicon:admin:glorbnik").await;
    assert!(now.contains("Now: block"), "{now}");
    assert_labelled(&client, "word list").await;
    save_screenshot(&client, "word-list").await;

    // The game viewer steps with the arrow keys.
    let game = app
        .get("/api/v1/games/by-number/104071136", Some(&admin))
        .await
        .json();
    let game_id = game["id"]
        .as_i64()
        .or_else(|| game["summary"]["id"].as_i64())
        .unwrap_or_else(|| panic!("no game id in {game}"));
    client
        .goto(&format!("{base}/admin/games/{game_id}?ply=12"))
        .await
        .expect("goto");
    press(&client, "\u{E014}").await;
    let started = Instant::now();
    while client.current_url().await.expect("url").query() != Some("ply=13") {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the arrow key did not step"
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let stepped = text_of(&client, "#board").await;
    assert!(stepped.starts_with("Ply 13 of"), "{stepped}");
    assert_labelled(&client, "game").await;
    save_screenshot(&client, "game").await;

    // The position-checked line's case draws the board with the suggested move.
    client
        .goto(&format!("{base}/admin/cases/{checked_case}"))
        .await
        .expect("goto");
    assert!(body_text(&client).await.contains(SUGGESTION));
    let arrow_title = client
        .execute(
            "return document.querySelector('figure.board-figure svg line.arrow title').textContent",
            vec![],
        )
        .await
        .expect("the suggested move's arrow");
    assert_eq!(arrow_title, "a4 to b4");
    client
        .execute(
            "document.querySelector('figure.board-figure').scrollIntoView()",
            vec![],
        )
        .await
        .expect("scroll");
    save_screenshot(&client, "case-board").await;

    // A form whose CSRF token was tampered with is refused with a sentence.
    client
        .execute(
            "document.querySelector('form[action$=\"/claim\"] input[name=csrf]').value = 'forged'",
            vec![],
        )
        .await
        .expect("tamper");
    client
        .find(Locator::Css("form[action$='/claim'] button"))
        .await
        .expect("claim button")
        .click()
        .await
        .expect("click");
    wait_for_text(&client, "Reload the page and try again").await;

    // Sign out, sign in again, then let the session expire.
    client
        .goto(&format!("{base}/admin/sessions"))
        .await
        .expect("goto");
    assert_labelled(&client, "sessions").await;
    client
        .find(Locator::Css("form.sign-out button"))
        .await
        .expect("sign-out button")
        .click()
        .await
        .expect("sign out");
    wait_for_text(&client, "You are signed out.").await;
    sign_in(&client, &base, &admin).await;
    wait_for_path(&client, "/admin/").await;
    wait_for_text(&client, "Signed in as mod_anna").await;
    {
        let mut conn = app.state.pool.get().expect("connection");
        diesel::update(console_sessions::table)
            .set(console_sessions::expires_at.eq(arbiter::store::now()))
            .execute(&mut *conn)
            .expect("expire");
    }
    client.goto(&format!("{base}/admin/")).await.expect("goto");
    let expired = body_text(&client).await;
    assert!(
        expired.contains("Your session expired. Sign in again."),
        "{expired}"
    );

    client.close().await.expect("close the browser");
    server.stop().await;
}
