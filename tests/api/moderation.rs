//! Reports, cases, claims, decisions, standing and appeals over HTTP, on the test database
//! (SQLite, or PostgreSQL with ARBITER_TEST_DATABASE_URL).

use std::sync::{Arc, Barrier};

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::moderation::{CaseId, PlayerId, DEFAULT_POLICY_TOML};
use arbiter::store::{self, players};
use arbiter::usecases::claim_case::{self, ClaimResult};
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::support::{TestApp, TestResponse};

/// A four-move game of `variant` between four named players under a game number.
pub(crate) fn game_text(number: i64, variant: &str, seats: [&str; 4]) -> String {
    format!(
        "[GameNr \"{number}\"]\n[TimeControl \"1+15D\"]\n[Variant \"{variant}\"]\n\
         [RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n[Red \"{}\"]\n[Blue \"{}\"]\n\
         [Yellow \"{}\"]\n[Green \"{}\"]\n\n1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. T\n",
        seats[0], seats[1], seats[2], seats[3]
    )
}

pub(crate) async fn ingest(
    app: &TestApp,
    server: &str,
    number: i64,
    variant: &str,
    seats: [&str; 4],
) {
    let response = app
        .send(
            TestRequest::post()
                .uri("/api/v1/games")
                .insert_header(("authorization", format!("Bearer {server}")))
                .insert_header(("content-type", "text/plain"))
                .set_payload(game_text(number, variant, seats)),
        )
        .await;
    assert!(
        response.status == 201 || response.status == 200,
        "{}",
        response.text()
    );
}

const FFA_SEATS: [&str; 4] = ["rep", "acc1", "acc2", "acc3"];

/// An app with FFA games 1001..=1010 and Teams game 2001, all with the same four players.
pub(crate) async fn app_with_games(
    adjust: impl FnOnce(&mut arbiter::config::Settings),
) -> (TestApp, String) {
    let app = TestApp::spawn_with(adjust).await;
    let server = app.token(TokenRole::Server, "eu-1");
    for number in 1001..=1010 {
        ingest(&app, &server, number, "FFA", FFA_SEATS).await;
    }
    ingest(&app, &server, 2001, "Teams", FFA_SEATS).await;
    (app, server)
}

pub(crate) async fn report(app: &TestApp, reporter: &str, body: Value) -> TestResponse {
    app.post_json("/api/v1/reports", Some(&app.player_token(reporter)), &body)
        .await
}

pub(crate) fn case_of(
    app: &TestApp,
    accused: &str,
    reason: &str,
) -> Option<(i64, String, i32, f64)> {
    use arbiter::store::schema::{cases, players};
    let mut conn = app.state.pool.get().expect("connection");
    cases::table
        .inner_join(players::table.on(players::id.eq(cases::accused_id)))
        .filter(players::name.eq(accused))
        .filter(cases::reason.eq(reason))
        .order(cases::id.desc())
        .select((
            cases::id,
            cases::status,
            cases::entry_count,
            cases::priority_base,
        ))
        .first(&mut *conn)
        .optional()
        .expect("case query")
}

pub(crate) fn modlog_kinds(app: &TestApp) -> Vec<String> {
    use arbiter::store::schema::modlog;
    let mut conn = app.state.pool.get().expect("connection");
    modlog::table
        .order(modlog::id.asc())
        .select(modlog::kind)
        .load(&mut *conn)
        .expect("modlog")
}

/// A policy file with a generous rate limit, for tests that file many reports.
fn generous_policy() -> tempfile::NamedTempFile {
    let text = DEFAULT_POLICY_TOML
        .replace("per_hour = 5", "per_hour = 100")
        .replace("per_day = 20", "per_day = 400");
    let file = tempfile::NamedTempFile::new().expect("temp policy");
    std::fs::write(file.path(), text).expect("write policy");
    file
}

#[actix_web::test]
async fn reports_are_validated_with_the_field_named() {
    let (app, _) = app_with_games(|_| {}).await;
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({ "accused": ["rep"], "reason": "offensive_chat", "game": 1001 }),
            "self_report",
            "accused",
        ),
        (
            json!({ "accused": [], "reason": "offensive_chat", "game": 1001 }),
            "invalid_report",
            "accused",
        ),
        (
            json!({ "accused": ["acc1", "acc2", "acc3", "zed"], "reason": "offensive_chat" }),
            "invalid_report",
            "accused",
        ),
        (
            json!({ "accused": ["acc1"], "reason": "other", "game": 1001, "message": "bad" }),
            "invalid_report",
            "message",
        ),
        (
            json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 99999 }),
            "unknown_game",
            "game",
        ),
        (
            json!({ "accused": ["stranger"], "reason": "offensive_chat", "game": 1001 }),
            "invalid_report",
            "accused",
        ),
        (
            json!({ "accused": ["acc1"], "reason": "prearranged_teaming", "game": 2001 }),
            "reason_not_for_variant",
            "reason",
        ),
    ];
    for (body, code, field) in cases {
        let error = report(&app, "rep", body.clone())
            .await
            .assert_error(422, code);
        assert_eq!(error["details"]["field"], field, "{body} -> {error}");
    }
    // The unknown game and the stranger are named.
    let error = report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 99999 }),
    )
    .await
    .assert_error(422, "unknown_game");
    assert_eq!(error["details"]["game"], 99999);
    assert!(error["message"].as_str().unwrap_or("").contains("99999"));
    let error = report(
        &app,
        "rep",
        json!({ "accused": ["stranger"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await
    .assert_error(422, "invalid_report");
    assert_eq!(
        error["message"],
        "Player stranger did not play in game 1001."
    );
    // A teaming report on a Teams game says why.
    let error = report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "prearranged_teaming", "game": 2001 }),
    )
    .await
    .assert_error(422, "reason_not_for_variant");
    assert!(error["message"].as_str().unwrap_or("").contains("FFA"));
    // Unknown fields and reasons are 400 with the field.
    let error = report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "cheating" }),
    )
    .await
    .assert_error(400, "invalid_json");
    assert_eq!(error["details"]["field"], "reason");
    // Nothing was written.
    assert!(case_of(&app, "acc1", "offensive_chat").is_none());
    assert!(modlog_kinds(&app).is_empty());
}

#[actix_web::test]
async fn a_second_report_merges_and_one_report_joins_a_case_per_accused() {
    let (app, _) = app_with_games(|_| {}).await;
    let first = report(
        &app,
        "rep",
        json!({ "accused": ["acc1", "acc2"], "reason": "offensive_chat", "game": 1001,
                "message": "insults all game" }),
    )
    .await;
    assert_eq!(first.status, 201, "{}", first.text());
    let first = first.json();
    assert_eq!(first["merged"], false);
    assert_eq!(first["report"]["accused"], json!(["acc1", "acc2"]));
    assert_eq!(first["report"]["status"], "open");
    let id = first["report"]["id"].clone();

    let second = report(
        &app,
        "rep",
        json!({ "accused": ["acc1", "acc3"], "reason": "offensive_chat", "game": 1001,
                "supporting_games": [1002], "message": "again in chat" }),
    )
    .await;
    assert_eq!(second.status, 200, "{}", second.text());
    let second = second.json();
    assert_eq!(second["merged"], true);
    assert_eq!(second["report"]["id"], id);
    assert_eq!(second["report"]["supporting_games"], json!([1002]));
    assert_eq!(
        second["report"]["message"],
        "insults all game\n\nagain in chat"
    );
    assert_eq!(second["report"]["accused"], json!(["acc1", "acc2", "acc3"]));

    for accused in ["acc1", "acc2", "acc3"] {
        let (_, status, entries, priority) =
            case_of(&app, accused, "offensive_chat").expect("case per accused");
        assert_eq!(status, "open");
        assert_eq!(entries, 1, "{accused}");
        assert!(priority > 0.0 && priority <= 90.0, "{priority}");
    }
    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await;
    assert_eq!(mine.status, 200, "{}", mine.text());
    let mine = mine.json();
    assert_eq!(mine["items"].as_array().map(Vec::len), Some(1));
    assert_eq!(mine["items"][0]["game"], 1001);
    assert_eq!(mine["items"][0]["outcome"], Value::Null);
    // Another player sees none of it.
    let other = app
        .get("/api/v1/reports/mine", Some(&app.player_token("acc1")))
        .await
        .json();
    assert_eq!(other["items"], json!([]));
    let kinds = modlog_kinds(&app);
    assert_eq!(kinds.iter().filter(|k| *k == "report_filed").count(), 1);
    assert_eq!(kinds.iter().filter(|k| *k == "report_merged").count(), 1);
    assert_eq!(kinds.iter().filter(|k| *k == "case_opened").count(), 3);
}

#[actix_web::test]
async fn concurrent_reporters_end_in_one_case() {
    let (app, _) = app_with_games(|_| {}).await;
    let reporters = ["rep", "acc2", "acc3"];
    let requests = reporters.iter().map(|reporter| {
        report(
            &app,
            reporter,
            json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 }),
        )
    });
    let responses = futures_util::future::join_all(requests).await;
    for response in &responses {
        assert_eq!(response.status, 201, "{}", response.text());
    }
    let (_, _, entries, _) = case_of(&app, "acc1", "offensive_chat").expect("case");
    assert_eq!(entries, 3);
    use arbiter::store::schema::cases;
    let mut conn = app.state.pool.get().expect("connection");
    let open: i64 = cases::table
        .filter(cases::status.eq("open"))
        .count()
        .get_result(&mut *conn)
        .expect("count");
    assert_eq!(open, 1);
}

#[actix_web::test]
async fn the_rate_limit_answers_429_with_retry_after() {
    let (app, _) = app_with_games(|_| {}).await;
    let body = json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 });
    for attempt in 0..5 {
        let response = report(&app, "rep", body.clone()).await;
        assert!(
            response.status == 201 || response.status == 200,
            "attempt {attempt}: {}",
            response.text()
        );
    }
    let refused = report(&app, "rep", body).await;
    let error = refused.assert_error(429, "report_rate_limited");
    let retry: i64 = refused
        .header("retry-after")
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((3500..=3600).contains(&retry), "{retry}");
    assert_eq!(error["details"]["window"], "hour");
    assert!(error["details"]["retry_at"].is_string());
}

pub(crate) async fn claim(app: &TestApp, admin: &str, case: i64) -> TestResponse {
    app.post_json(
        &format!("/api/v1/admin/cases/{case}/claim"),
        Some(admin),
        &json!({}),
    )
    .await
}

pub(crate) async fn decide(app: &TestApp, admin: &str, case: i64, body: Value) -> TestResponse {
    app.post_json(
        &format!("/api/v1/admin/cases/{case}/decision"),
        Some(admin),
        &body,
    )
    .await
}

#[actix_web::test]
async fn claims_conflicts_and_the_several_games_rule() {
    let (app, _) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    let bob = app.token(TokenRole::Admin, "bob");
    let rep_admin = app.token(TokenRole::Admin, "rep");
    report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    let (case, _, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");

    // Deciding needs a claim.
    decide(
        &app,
        &alice,
        case,
        json!({ "decision": "dismiss_not_actionable" }),
    )
    .await
    .assert_error(409, "claim_required");
    // The reporter may not claim their own case.
    let error = claim(&app, &rep_admin, case)
        .await
        .assert_error(403, "conflict_of_interest");
    assert_eq!(error["details"]["conflict"]["code"], "admin_is_reporter");

    let claimed = claim(&app, &alice, case).await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    assert_eq!(claimed.json()["claimed_by"], "alice");
    let error = claim(&app, &bob, case)
        .await
        .assert_error(409, "case_claimed");
    assert_eq!(error["details"]["holder"], "alice");
    assert!(error["message"].as_str().unwrap_or("").contains("alice"));
    assert_eq!(claim(&app, &alice, case).await.json()["outcome"], "renewed");

    // The (*) rule: a habit ground on one game is refused.
    let error = decide(
        &app,
        &alice,
        case,
        json!({ "decision": "warn", "ground": "abusive_language_habit" }),
    )
    .await
    .assert_error(422, "single_game_evidence");
    assert_eq!(error["details"]["field"], "evidence_games");
    decide(&app, &alice, case, json!({ "decision": "warn" }))
        .await
        .assert_error(422, "ground_required");
    decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "harassment",
                "sanction": { "kind": "chat_ban", "minutes": 60 } }),
    )
    .await
    .assert_error(422, "invalid_decision");
    // A second game the accused played satisfies it.
    let decided = decide(
        &app,
        &alice,
        case,
        json!({ "decision": "sanction", "ground": "abusive_language_habit",
                "evidence_games": [1002], "note": "two games of abuse",
                "sanction": { "kind": "chat_ban", "minutes": 1440 } }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let decided = decided.json();
    assert_eq!(decided["kind"], "sanction");
    assert_eq!(decided["report_outcome"], "upheld");
    assert_eq!(decided["sanction"]["kind"], "chat_ban");
    assert_eq!(decided["evidence_games"], json!([1001, 1002]));
    // One chat measure counted: the ladder's second step (24 hours of chat ban).
    assert_eq!(decided["next_step"]["step"], 2);
    assert_eq!(decided["next_step"]["suggestion"]["sanction"], "chat_ban");

    decide(
        &app,
        &alice,
        case,
        json!({ "decision": "warn", "ground": "harassment" }),
    )
    .await
    .assert_error(409, "case_decided");
    let (_, status, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");
    assert_eq!(status, "decided");
    let mine = app
        .get("/api/v1/reports/mine", Some(&app.player_token("rep")))
        .await
        .json();
    assert_eq!(mine["items"][0]["status"], "decided");
    assert_eq!(mine["items"][0]["outcome"], "upheld");
    let kinds = modlog_kinds(&app);
    for kind in ["case_claimed", "decision", "sanction_created"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} missing: {kinds:?}");
    }
    // The sanction shows in standing at once.
    let server = app.token(TokenRole::Server, "eu-2");
    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["may_chat"], false);
    assert_eq!(standing["may_play"], true);
    assert_eq!(standing["chat_until"], decided["sanction"]["effective_end"]);
}

#[actix_web::test]
async fn simultaneous_claims_have_exactly_one_winner() {
    let (app, _) = app_with_games(|_| {}).await;
    report(
        &app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    let (case, _, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");
    const CLAIMERS: usize = 16;
    let mut database = app.state.settings.database.clone();
    database.pool_size = u32::try_from(CLAIMERS).unwrap_or(16);
    let pool = store::connect(&database).expect("pool");
    let policy = app.state.moderation.clone();
    // Admin ids first, so the race is only about the claim.
    let admins: Vec<(PlayerId, String)> = {
        let mut conn = pool.get().expect("connection");
        (0..CLAIMERS)
            .map(|i| {
                let name = format!("admin{i}");
                let id = players::id_or_create(&mut conn, &name, store::now()).expect("id");
                (id, name)
            })
            .collect()
    };
    let barrier = Arc::new(Barrier::new(CLAIMERS));
    let results: Vec<ClaimResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = admins
            .iter()
            .map(|(id, name)| {
                let (pool, barrier, policy) = (pool.clone(), barrier.clone(), policy.clone());
                scope.spawn(move || {
                    let mut conn = pool.get().expect("own connection");
                    barrier.wait();
                    claim_case::claim(&mut conn, CaseId(case), (*id, name), &policy, store::now())
                        .expect("claim")
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("claimer"))
            .collect()
    });
    let winners: Vec<&ClaimResult> = results
        .iter()
        .filter(|r| matches!(r, ClaimResult::Granted { .. }))
        .collect();
    assert_eq!(winners.len(), 1, "{results:?}");
    let holders: Vec<&String> = results
        .iter()
        .filter_map(|r| match r {
            ClaimResult::Held { holder, .. } => Some(holder),
            _ => None,
        })
        .collect();
    assert_eq!(holders.len(), CLAIMERS - 1, "{results:?}");
    assert!(holders.windows(2).all(|w| w[0] == w[1]), "{holders:?}");
    let (_, _, _, _) = case_of(&app, "acc1", "offensive_chat").expect("case");
    let claimed_by: Option<PlayerId> = {
        use arbiter::store::schema::cases;
        let mut conn = app.state.pool.get().expect("connection");
        cases::table
            .find(case)
            .select(cases::claimed_by)
            .first(&mut *conn)
            .expect("case")
    };
    let winner = admins
        .iter()
        .find(|(id, _)| Some(*id) == claimed_by)
        .expect("the winner holds the case");
    assert_eq!(holders[0], &winner.1);
    assert_eq!(
        modlog_kinds(&app)
            .iter()
            .filter(|k| *k == "case_claimed")
            .count(),
        1
    );
}

/// The game the reporter played with `p{i}`.
fn game_with(name: &str) -> i64 {
    3001 + name[1..].parse::<i64>().unwrap_or(0)
}

/// Files one report by `reporter` against each of `accused` (each its own case) and dismisses
/// every case as unjustified.
async fn dismiss_reports(app: &TestApp, admin: &str, reporter: &str, accused: &[&str]) {
    for name in accused {
        let game = game_with(name);
        let response = report(
            app,
            reporter,
            json!({ "accused": [name], "reason": "offensive_chat", "game": game }),
        )
        .await;
        assert_eq!(response.status, 201, "{}", response.text());
        let (case, _, _, _) = case_of(app, name, "offensive_chat").expect("case");
        assert_eq!(claim(app, admin, case).await.status, 200);
        let decided = decide(
            app,
            admin,
            case,
            json!({ "decision": "dismiss_unjustified" }),
        )
        .await;
        assert_eq!(decided.status, 200, "{}", decided.text());
    }
}

#[actix_web::test]
async fn unjustified_reports_earn_escalating_report_timeouts() {
    let policy = generous_policy();
    let path = policy.path().display().to_string();
    let (app, server) = app_with_games(|s| s.moderation.policy_file = path).await;
    let admin = app.token(TokenRole::Admin, "alice");
    // Ten players the reporter played with, in games 3001..=3010.
    let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
    for (i, name) in names.iter().enumerate() {
        let number = 3001 + i64::try_from(i).unwrap_or(0);
        ingest(&app, &server, number, "FFA", ["rep", name, "x1", "x2"]).await;
    }
    let first: Vec<&str> = names[..5].iter().map(String::as_str).collect();
    // Four dismissals: no timeout yet; the fifth crosses the threshold (5 of the last 10).
    dismiss_reports(&app, &admin, "rep", &first[..4]).await;
    let standing = app
        .get("/api/v1/players/rep/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["may_report"], true);
    let response = report(
        &app,
        "rep",
        json!({ "accused": ["p4"], "reason": "offensive_chat", "game": 3005 }),
    )
    .await;
    assert_eq!(response.status, 201);
    let (case, _, _, _) = case_of(&app, "p4", "offensive_chat").expect("case");
    claim(&app, &admin, case).await;
    let decided = decide(
        &app,
        &admin,
        case,
        json!({ "decision": "dismiss_unjustified" }),
    )
    .await
    .json();
    let timeout = &decided["report_timeouts"][0];
    assert_eq!(timeout["player"], "rep");
    assert_eq!(timeout["level"], 1);
    let length = chrono::DateTime::parse_from_rfc3339(timeout["until"].as_str().unwrap_or(""))
        .expect("until")
        - chrono::DateTime::parse_from_rfc3339(timeout["starts_at"].as_str().unwrap_or(""))
            .expect("starts");
    assert_eq!(length.num_days(), 1);

    // Filing is refused with the end time while it runs.
    let error = report(
        &app,
        "rep",
        json!({ "accused": ["p5"], "reason": "offensive_chat", "game": 3006 }),
    )
    .await
    .assert_error(403, "report_timeout");
    assert_eq!(error["details"]["until"], timeout["until"]);
    let standing = app
        .get("/api/v1/players/rep/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["may_report"], false);
    assert_eq!(standing["report_until"], timeout["until"]);

    // Once it is over, five more unjustified reports earn the second step: 7 days. (The
    // clock moves: the first round was decided three days ago, its timeout began two days ago.)
    {
        use arbiter::store::schema::{report_timeouts, reports};
        let mut conn = app.state.pool.get().expect("connection");
        let past = store::now() - chrono::TimeDelta::days(2);
        diesel::update(report_timeouts::table)
            .set((
                report_timeouts::starts_at.eq(past),
                report_timeouts::ends_at.eq(past + chrono::TimeDelta::days(1)),
            ))
            .execute(&mut *conn)
            .expect("move the timeout into the past");
        diesel::update(reports::table)
            .set(reports::decided_at.eq(store::now() - chrono::TimeDelta::days(3)))
            .execute(&mut *conn)
            .expect("move the first decisions into the past");
    }
    let second: Vec<&str> = names[5..].iter().map(String::as_str).collect();
    dismiss_reports(&app, &admin, "rep", &second[..4]).await;
    let response = report(
        &app,
        "rep",
        json!({ "accused": ["p9"], "reason": "offensive_chat", "game": 3010 }),
    )
    .await;
    assert_eq!(response.status, 201, "{}", response.text());
    let (case, _, _, _) = case_of(&app, "p9", "offensive_chat").expect("case");
    claim(&app, &admin, case).await;
    let decided = decide(
        &app,
        &admin,
        case,
        json!({ "decision": "dismiss_unjustified" }),
    )
    .await
    .json();
    let timeout = &decided["report_timeouts"][0];
    assert_eq!(timeout["level"], 2, "{decided}");
    let length = chrono::DateTime::parse_from_rfc3339(timeout["until"].as_str().unwrap_or(""))
        .expect("until")
        - chrono::DateTime::parse_from_rfc3339(timeout["starts_at"].as_str().unwrap_or(""))
            .expect("starts");
    assert_eq!(length.num_days(), 7);
    assert!(modlog_kinds(&app).iter().any(|k| k == "report_timeout"));
}

/// A chat ban on acc1 decided by alice; returns (sanction id, case id).
pub(crate) async fn chat_ban(app: &TestApp, admin: &str, minutes: u32) -> (i64, i64) {
    report(
        app,
        "rep",
        json!({ "accused": ["acc1"], "reason": "offensive_chat", "game": 1001 }),
    )
    .await;
    let (case, _, _, _) = case_of(app, "acc1", "offensive_chat").expect("case");
    claim(app, admin, case).await;
    let decided = decide(
        app,
        admin,
        case,
        json!({ "decision": "sanction", "ground": "harassment", "note": "insults",
                "sanction": { "kind": "chat_ban", "minutes": minutes } }),
    )
    .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    (
        decided.json()["sanction"]["id"]
            .as_i64()
            .expect("sanction id"),
        case,
    )
}

#[actix_web::test]
async fn standing_follows_bans_and_their_expiry() {
    let (app, server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let unknown = app
        .get("/api/v1/players/nobody-ever/standing", Some(&server))
        .await;
    assert_eq!(unknown.status, 200, "{}", unknown.text());
    let unknown = unknown.json();
    for key in ["may_chat", "may_play", "may_report"] {
        assert_eq!(unknown[key], true, "{key}");
    }
    let (sanction, _) = chat_ban(&app, &admin, 10).await;
    let banned = app
        .get("/api/v1/players/acc1/standing", Some(&admin))
        .await
        .json();
    assert_eq!(banned["may_chat"], false);
    assert_eq!(banned["active_sanctions"], json!([sanction]));
    // The ban started 20 minutes ago and lasted 10: over, with no job run.
    {
        use arbiter::store::schema::sanctions;
        let mut conn = app.state.pool.get().expect("connection");
        let start = store::now() - chrono::TimeDelta::minutes(20);
        diesel::update(sanctions::table.find(sanction))
            .set((
                sanctions::starts_at.eq(start),
                sanctions::ends_at.eq(start + chrono::TimeDelta::minutes(10)),
            ))
            .execute(&mut *conn)
            .expect("age the ban");
    }
    let after = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(after["may_chat"], true);
    assert_eq!(after["chat_until"], Value::Null);
    assert_eq!(after["active_sanctions"], json!([]));
}

#[actix_web::test]
async fn appeals_once_and_their_decisions_change_standing() {
    let (app, server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let (sanction, _) = chat_ban(&app, &admin, 1440).await;
    let path = format!("/api/v1/sanctions/{sanction}/appeal");
    let text = json!({ "text": "It was a joke between friends, sorry." });

    app.post_json(&path, Some(&app.player_token("rep")), &text)
        .await
        .assert_error(404, "sanction_not_found");
    let error = app
        .post_json(
            &path,
            Some(&app.player_token("acc1")),
            &json!({ "text": "no" }),
        )
        .await
        .assert_error(422, "invalid_appeal");
    assert_eq!(error["details"]["field"], "text");
    let filed = app
        .post_json(&path, Some(&app.player_token("acc1")), &text)
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    let appeal = filed.json()["id"].as_i64().expect("appeal id");
    assert_eq!(filed.json()["status"], "open");
    app.post_json(&path, Some(&app.player_token("acc1")), &text)
        .await
        .assert_error(409, "already_appealed");

    let decision = format!("/api/v1/admin/appeals/{appeal}/decision");
    // Four eyes: alice imposed the ban, so bob decides the appeal.
    let error = app
        .post_json(&decision, Some(&admin), &json!({ "decision": "lift" }))
        .await
        .assert_error(403, "four_eyes");
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("another admin")));
    let admin = app.token(TokenRole::Admin, "bob");
    app.post_json(&decision, Some(&admin), &json!({ "decision": "reduce" }))
        .await
        .assert_error(422, "invalid_appeal_decision");
    app.post_json(
        &decision,
        Some(&admin),
        &json!({ "decision": "reduce", "minutes": 100000 }),
    )
    .await
    .assert_error(422, "reduction_not_shorter");
    let reduced = app
        .post_json(
            &decision,
            Some(&admin),
            &json!({ "decision": "reduce", "minutes": 60, "note": "first offence" }),
        )
        .await;
    assert_eq!(reduced.status, 200, "{}", reduced.text());
    let reduced = reduced.json();
    assert_eq!(reduced["appeal"]["status"], "reduced");
    assert_eq!(
        reduced["sanction"]["effective_end"],
        reduced["sanction"]["reduced_until"]
    );
    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["chat_until"], reduced["sanction"]["reduced_until"]);
    app.post_json(&decision, Some(&admin), &json!({ "decision": "lift" }))
        .await
        .assert_error(409, "appeal_decided");
    let kinds = modlog_kinds(&app);
    for kind in ["appeal_filed", "appeal_decided", "sanction_reduced"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} missing");
    }
}

#[actix_web::test]
async fn lifting_a_sanction_frees_the_player_at_once() {
    let (app, server) = app_with_games(|_| {}).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let (sanction, _) = chat_ban(&app, &admin, 1440).await;
    let filed = app
        .post_json(
            &format!("/api/v1/sanctions/{sanction}/appeal"),
            Some(&app.player_token("acc1")),
            &json!({ "text": "Somebody else used my account." }),
        )
        .await
        .json();
    let admin = app.token(TokenRole::Admin, "bob");
    let lifted = app
        .post_json(
            &format!("/api/v1/admin/appeals/{}/decision", filed["id"]),
            Some(&admin),
            &json!({ "decision": "lift", "note": "account shared" }),
        )
        .await;
    assert_eq!(lifted.status, 200, "{}", lifted.text());
    assert!(lifted.json()["sanction"]["lifted_at"].is_string());
    let standing = app
        .get("/api/v1/players/acc1/standing", Some(&server))
        .await
        .json();
    assert_eq!(standing["may_chat"], true);
}

#[actix_web::test]
async fn automatic_reports_at_ingest_join_a_case() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pgn4/ffa/cc_game_0016.pgn4"
    ))
    .expect("game record");
    let stored = app
        .post_json(
            "/api/v1/games",
            Some(&server),
            &json!({ "pgn4": game, "chat": [
                { "ply": 10, "sender": "Spaksi", "channel": "game",
                  "text": "shut up and kill yourself idiot" }
            ] }),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    let (case, status, entries, priority) =
        case_of(&app, "Spaksi", "offensive_chat").expect("a case from the automatic report");
    assert_eq!(status, "open");
    assert!(entries >= 1);
    assert!(priority > 0.0);
    use arbiter::store::schema::{case_reports, reports};
    let mut conn = app.state.pool.get().expect("connection");
    let sources: Vec<(String, Option<i64>, Option<f64>)> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq(case))
        .select((
            reports::source,
            reports::automatic_report_id,
            reports::score,
        ))
        .load(&mut *conn)
        .expect("entries");
    assert!(
        sources
            .iter()
            .all(|(s, a, score)| s == "chat_analysis" && a.is_some() && score.is_some()),
        "{sources:?}"
    );
    drop(conn);
    let kinds = modlog_kinds(&app);
    assert!(kinds.iter().any(|k| k == "automatic_report"), "{kinds:?}");
    assert!(kinds.iter().any(|k| k == "case_opened"), "{kinds:?}");
}
