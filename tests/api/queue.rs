//! The admin read side of moderation: the queue, a case's evidence, appeals, the log.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::moderation::{priority_with_age, ModerationPolicy};
use arbiter::rules::pgn4;
use arbiter::store::modlog::LogActorKind;
use chrono::{DateTime, NaiveDateTime, Utc};
use serde_json::{json, Value};

use crate::queue_fixtures::{hours_ago, minutes_from_now, Case, Fixtures, Report};
use crate::support::TestApp;

fn items(body: &Value) -> Vec<Value> {
    body["items"].as_array().cloned().expect("items")
}

fn ids(body: &Value) -> Vec<i64> {
    items(body)
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
}

fn time(value: &Value) -> DateTime<Utc> {
    value
        .as_str()
        .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| panic!("not a time: {value}"))
}

async fn get_ok(app: &TestApp, path: &str, token: &str) -> Value {
    let response = app.get(path, Some(token)).await;
    assert_eq!(response.status, 200, "{path}: {}", response.text());
    response.json()
}

#[actix_web::test]
async fn the_queue_ranks_by_priority_with_age_and_filters() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let fx = Fixtures::new(&app);
    let holder = fx.player("alice");
    let (p1, p2, p3) = (fx.player("p1"), fx.player("p2"), fx.player("p3"));
    let (p4, p5, p6) = (fx.player("p4"), fx.player("p5"), fx.player("p6"));
    let (r1, r2) = (fx.player("reporter1"), fx.player("reporter2"));
    let report = |reporter: i64, accused: i64| {
        fx.report(Report {
            reporter: Some(reporter),
            accused: vec![accused],
            ..Report::default()
        })
    };
    // Two reports by one reporter and one by another: three entries, two reporters.
    let a_reports = vec![report(r1, p1), report(r1, p1), report(r2, p1)];
    let a = fx.case(Case {
        accused: p1,
        priority_base: 40.0,
        opened_at: hours_ago(1.0),
        reports: a_reports,
        ..Case::default()
    });
    // Older cases overtake louder new ones: 35 + the full age part (10) = 45.
    let b = fx.case(Case {
        accused: p2,
        priority_base: 35.0,
        opened_at: hours_ago(80.0),
        ..Case::default()
    });
    let c = fx.case(Case {
        accused: p3,
        priority_base: 42.0,
        opened_at: hours_ago(0.2),
        ..Case::default()
    });
    // Ties with `b` at 45 and is older: it comes first.
    let d = fx.case(Case {
        accused: p4,
        priority_base: 35.0,
        opened_at: hours_ago(100.0),
        ..Case::default()
    });
    let decided = fx.case(Case {
        accused: p5,
        status: "decided",
        priority_base: 90.0,
        ..Case::default()
    });
    let claimed = fx.case(Case {
        accused: p6,
        reason: "abandoning",
        priority_base: 20.0,
        opened_at: hours_ago(36.0),
        claimed_by: Some(holder),
        claimed_until: Some(minutes_from_now(15)),
        ..Case::default()
    });

    let body = get_ok(&app, "/api/v1/admin/cases", &admin).await;
    assert_eq!(ids(&body), vec![d, b, c, a, claimed]);
    assert!(body["next_cursor"].is_null());
    let all = items(&body);
    let top = &all[0];
    assert_eq!(top["accused"], "p4");
    assert_eq!(top["status"], "open");
    assert_eq!(top["reason"], "offensive_chat");
    assert_eq!(top["priority"]["base"], 35.0);
    assert_eq!(top["priority"]["age"], 10.0);
    assert_eq!(top["priority"]["total"], 45.0);
    let first_a = &all[3];
    assert_eq!(first_a["entry_count"], 3);
    assert_eq!(first_a["reporters"], 2);
    let age = first_a["priority"]["age"].as_f64().expect("age");
    assert!((age - 10.0 / 72.0).abs() < 0.01, "one hour of age: {age}");
    let held = &all[4];
    assert_eq!(held["claimed_by"], "alice");
    assert!((held["priority"]["age"].as_f64().expect("age") - 5.0).abs() < 0.01);
    assert!(time(&held["claimed_until"]) > Utc::now());

    // Filters.
    let only = |query: &'static str| {
        let app = &app;
        let admin = admin.clone();
        async move { ids(&get_ok(app, &format!("/api/v1/admin/cases?{query}"), &admin).await) }
    };
    assert_eq!(only("reason=abandoning").await, vec![claimed]);
    assert_eq!(only("claimed=true").await, vec![claimed]);
    assert_eq!(only("claimed=false").await, vec![d, b, c, a]);
    assert_eq!(only("status=decided").await, vec![decided]);
    assert_eq!(only("status=all").await, vec![decided, d, b, c, a, claimed]);
    assert_eq!(
        only("status=all&reason=abandoning&claimed=true").await,
        vec![claimed]
    );
    assert_eq!(only("accused=p1").await, vec![a]);
    assert_eq!(only("accused=p5&status=all").await, vec![decided]);
    assert_eq!(only("reporter=reporter1").await, vec![a]);
    assert_eq!(only("reporter=reporter2&accused=p1").await, vec![a]);
    assert_eq!(
        only("reporter=reporter2&accused=p2").await,
        Vec::<i64>::new()
    );
    assert_eq!(only("reporter=p1").await, Vec::<i64>::new());
    assert_eq!(only("accused=nobody-known").await, Vec::<i64>::new());

    // Bad input names the field.
    let error = app
        .get("/api/v1/admin/cases?reason=cheating", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "reason");
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("self_partnering")));
    let error = app
        .get("/api/v1/admin/cases?status=closed", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "status");
    app.get("/api/v1/admin/cases?cursor=bm9wZQ", Some(&admin))
        .await
        .assert_error(400, "invalid_cursor");
    app.get("/api/v1/admin/cases?limit=0", Some(&admin))
        .await
        .assert_error(400, "invalid_limit");
    app.get("/api/v1/admin/cases?claimed=maybe", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
}

/// The queue order at `as_of`, computed from the rows with the policy's own function.
fn expected_order(cases: &[(i64, f64, NaiveDateTime)], as_of: DateTime<Utc>) -> Vec<i64> {
    let policy = ModerationPolicy::default();
    let mut ranked: Vec<(f64, NaiveDateTime, i64)> = cases
        .iter()
        .map(|(id, base, opened)| {
            (
                priority_with_age(*base, opened.and_utc(), as_of, &policy),
                *opened,
                *id,
            )
        })
        .collect();
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    ranked.into_iter().map(|(_, _, id)| id).collect()
}

#[actix_web::test]
async fn pages_follow_one_clock_and_never_repeat_or_skip() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let fx = Fixtures::new(&app);
    // 700 cases on a few bases (as real priorities cluster), some with the age part saturated
    // and many sharing a base and an opening time: more than one scan chunk per base.
    let reasons = ["offensive_chat", "abandoning", "self_partnering"];
    let accused: Vec<i64> = (0..240).map(|i| fx.player(&format!("acc{i}"))).collect();
    let bases = [31.25, 35.0, 38.75, 24.0];
    let mut specs = Vec::new();
    for i in 0..700usize {
        let hours = match i % 5 {
            0 => 100.0,
            1 => 0.5 + (i % 37) as f64,
            2 => 72.0 + (i % 11) as f64,
            3 => (i % 7) as f64 * 3.0,
            _ => 5.0,
        };
        specs.push(Case {
            accused: accused[i % 240],
            reason: reasons[(i / 240) % 3],
            priority_base: bases[i % 4],
            opened_at: hours_ago(hours),
            ..Case::default()
        });
    }
    let created = fx.cases(&specs);
    let rows: Vec<(i64, f64, NaiveDateTime)> = created
        .iter()
        .zip(&specs)
        .map(|(id, c)| (*id, c.priority_base, c.opened_at))
        .collect();

    let first = get_ok(&app, "/api/v1/admin/cases?limit=60", &admin).await;
    let as_of = time(&first["as_of"]);
    let mut seen = ids(&first);
    let mut cursor = first["next_cursor"].as_str().map(str::to_string);

    // A case opened after the first page ranks ahead of the cursor: it waits for the next
    // read of the first page instead of shifting the pages being walked.
    let late = fx.case(Case {
        accused: fx.player("latecomer"),
        priority_base: 80.0,
        opened_at: minutes_from_now(0),
        ..Case::default()
    });
    let mut pages = 1;
    while let Some(next) = cursor {
        let page = get_ok(
            &app,
            &format!("/api/v1/admin/cases?limit=60&cursor={next}"),
            &admin,
        )
        .await;
        assert_eq!(time(&page["as_of"]), as_of, "later pages keep the clock");
        seen.extend(ids(&page));
        cursor = page["next_cursor"].as_str().map(str::to_string);
        pages += 1;
    }
    assert_eq!(pages, 12);
    assert_eq!(seen.len(), 700);
    assert_eq!(seen, expected_order(&rows, as_of));
    assert!(!seen.contains(&late));

    // The same walk with a reason filter.
    let mut filtered = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/v1/admin/cases?reason=abandoning&limit=50&cursor={c}"),
            None => "/api/v1/admin/cases?reason=abandoning&limit=50".to_string(),
        };
        let page = get_ok(&app, &path, &admin).await;
        let page_as_of = time(&page["as_of"]);
        filtered.extend(ids(&page));
        cursor = page["next_cursor"].as_str().map(str::to_string);
        if cursor.is_none() {
            let wanted: Vec<(i64, f64, NaiveDateTime)> = rows
                .iter()
                .zip(&specs)
                .filter(|(_, c)| c.reason == "abandoning")
                .map(|(r, _)| *r)
                .collect();
            assert_eq!(filtered, expected_order(&wanted, page_as_of));
            break;
        }
    }

    // A fresh first page sees the newcomer on top.
    let again = get_ok(&app, "/api/v1/admin/cases?limit=1", &admin).await;
    assert_eq!(ids(&again), vec![late]);
}

const FFA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4/ffa/");

fn game_text(name: &str) -> String {
    std::fs::read_to_string(format!("{FFA_DIR}{name}.pgn4")).expect("game record")
}

fn names(text: &str) -> [String; 4] {
    let pgn = pgn4::parse(text).expect("parses");
    ["Red", "Blue", "Yellow", "Green"].map(|c| pgn.tag(c).unwrap_or("").trim().to_string())
}

async fn ingest(app: &TestApp, server: &str, body: &Value) -> i64 {
    let stored = app.post_json("/api/v1/games", Some(server), body).await;
    assert_eq!(stored.status, 201, "{}", stored.text());
    stored.json()["id"].as_i64().expect("id")
}

#[actix_web::test]
async fn a_case_comes_with_its_evidence_gathered() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    // Red (Spaksi) insults at ply 10 between friendly lines.
    let chat = json!([
        { "ply": 1, "sender": "HSCCCB", "channel": "game", "text": "hello all" },
        { "ply": 2, "sender": "Spaksi", "channel": "game", "text": "gl hf" },
        { "ply": 10, "sender": "Spaksi", "channel": "game", "text": "shut up and kill yourself idiot" },
        { "ply": 11, "sender": "HSCCCB", "channel": "game", "text": "reported" },
        { "ply": 12, "sender": "HSCCCB", "channel": "game", "text": "please stop" },
        { "ply": 13, "sender": "HSCCCB", "channel": "game", "text": "ok" },
        { "ply": 14, "sender": "HSCCCB", "channel": "game", "text": "far away" }
    ]);
    let game = ingest(
        &app,
        &server,
        &json!({ "pgn4": game_text("cc_game_0016"), "chat": chat }),
    )
    .await;
    let automatic = arbiter::store::automatic_reports::raised_by_game(
        &mut app.state.pool.get().expect("connection"),
        game,
    )
    .expect("automatic reports");
    let raised = automatic
        .iter()
        .find(|r| r.player == "Spaksi")
        .expect("an automatic report on the insult");
    // The ingest already filed the automatic report into a case of its own; this test builds
    // the case by hand, so that queue entry is removed first.
    {
        use arbiter::store::schema::{case_reports, cases, reports};
        use diesel::prelude::*;
        let mut conn = app.state.pool.get().expect("connection");
        let filed: Vec<i64> = reports::table
            .filter(reports::automatic_report_id.eq(raised.id))
            .select(reports::id)
            .load(&mut *conn)
            .expect("filed automatic report");
        assert_eq!(filed.len(), 1, "the ingest files the automatic report once");
        let case_ids: Vec<i64> = case_reports::table
            .filter(case_reports::report_id.eq_any(&filed))
            .select(case_reports::case_id)
            .load(&mut *conn)
            .expect("its case");
        diesel::delete(case_reports::table.filter(case_reports::case_id.eq_any(&case_ids)))
            .execute(&mut *conn)
            .expect("remove entries");
        diesel::delete(cases::table.filter(cases::id.eq_any(&case_ids)))
            .execute(&mut *conn)
            .expect("remove case");
        diesel::delete(reports::table.filter(reports::id.eq_any(&filed)))
            .execute(&mut *conn)
            .expect("remove report");
    }

    let fx = Fixtures::new(&app);
    let spaksi = fx.player("Spaksi");
    let reporter = fx.player("HSCCCB");
    let admin_id = fx.player("alice");
    // The reporter's record: two upheld, one unjustified, one not actionable.
    let elsewhere = fx.player("someone");
    for outcome in [
        "upheld",
        "upheld",
        "dismissed_unjustified",
        "dismissed_not_actionable",
    ] {
        fx.report(Report {
            reporter: Some(reporter),
            accused: vec![elsewhere],
            outcome: Some(outcome),
            ..Report::default()
        });
    }
    // Spaksi's history: a decided case with a chat ban.
    let old_case = fx.case(Case {
        accused: spaksi,
        status: "decided",
        opened_at: hours_ago(400.0),
        ..Case::default()
    });
    let ban = fx.sanction(
        spaksi,
        Some(old_case),
        "chat_ban",
        hours_ago(390.0),
        Some(hours_ago(366.0)),
        admin_id,
    );
    fx.decision(old_case, admin_id, "sanction", Some(ban));

    let by_player = fx.report(Report {
        reporter: Some(reporter),
        accused: vec![spaksi],
        message: Some("insulted me at move 3"),
        game_id: Some(game),
        filed_at: hours_ago(2.0),
        ..Report::default()
    });
    let by_analysis = fx.report(Report {
        source: "chat_analysis",
        automatic_report_id: Some(raised.id),
        accused: vec![spaksi],
        game_id: Some(game),
        score: Some(raised.score),
        filed_at: hours_ago(3.0),
        ..Report::default()
    });
    let case = fx.case(Case {
        accused: spaksi,
        priority_base: 50.0,
        opened_at: hours_ago(3.0),
        reports: vec![by_analysis, by_player],
        ..Case::default()
    });

    let body = get_ok(&app, &format!("/api/v1/admin/cases/{case}"), &admin).await;
    assert_eq!(body["case"]["id"], case);
    assert_eq!(body["case"]["accused"], "Spaksi");
    assert_eq!(body["case"]["reporters"], 1);
    assert_eq!(body["case"]["entry_count"], 2);

    // Entries oldest first: the automatic report, then the player's.
    let entries = body["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["report_id"], by_analysis);
    assert_eq!(entries[0]["source"], "chat_analysis");
    assert!(entries[0]["reporter"].is_null());
    assert_eq!(entries[0]["automatic"]["id"], raised.id);
    assert_eq!(entries[0]["automatic"]["rule"], raised.rule.as_str());
    assert_eq!(entries[0]["automatic"]["summary"], raised.summary.as_str());
    assert_eq!(entries[0]["games"], json!([game]));
    assert_eq!(entries[1]["report_id"], by_player);
    assert_eq!(entries[1]["message"], "insulted me at move 3");
    assert_eq!(entries[1]["accused"], json!(["Spaksi"]));
    let rep = &entries[1]["reporter"];
    assert_eq!(rep["name"], "HSCCCB");
    assert_eq!(rep["upheld"], 2);
    assert_eq!(rep["dismissed_unjustified"], 1);
    assert_eq!(rep["dismissed_not_actionable"], 1);
    // (2 + 1.5) / (3 + 3)
    let accuracy = rep["accuracy"].as_f64().expect("accuracy");
    assert!((accuracy - 3.5 / 6.0).abs() < 1e-9, "{accuracy}");

    // The flagged line of the accused with three lines either side.
    let lines = body["flagged_lines"].as_array().expect("flagged lines");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert_eq!(line["game_id"], game);
    assert_eq!(line["line_idx"], 2);
    assert_eq!(line["ply"], 10);
    assert_eq!(line["sender"], "Spaksi");
    assert_eq!(line["text"], "shut up and kill yourself idiot");
    let texts = |key: &str| -> Vec<String> {
        line[key]
            .as_array()
            .expect("context")
            .iter()
            .map(|l| l["text"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(texts("before"), ["hello all", "gl hf"]);
    assert_eq!(texts("after"), ["reported", "please stop", "ok"]);
    let flags = line["flags"].as_array().expect("flags");
    assert!(!flags.is_empty());
    assert!(flags.iter().any(|f| f["report_worthy"] == true));

    // The game with its seats.
    let games = body["games"].as_array().expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["id"], game);
    assert_eq!(games[0]["variant"], "FFA");
    let seats = games[0]["seats"].as_array().expect("seats");
    assert_eq!(seats.len(), 4);
    assert_eq!(seats[0]["player"], "Spaksi");

    // History: the earlier case and its ban.
    let earlier = body["history"]["earlier_cases"].as_array().expect("cases");
    assert_eq!(earlier.len(), 1);
    assert_eq!(earlier[0]["id"], old_case);
    assert_eq!(earlier[0]["decision"], "sanction");
    let sanctions = body["history"]["sanctions"].as_array().expect("sanctions");
    assert_eq!(sanctions.len(), 1);
    assert_eq!(sanctions[0]["id"], ban);
    assert_eq!(sanctions[0]["kind"], "chat_ban");
    // Not a pair reason.
    assert_eq!(body["pairs"], json!([]));

    app.get("/api/v1/admin/cases/999999", Some(&admin))
        .await
        .assert_error(404, "case_not_found");
    app.get("/api/v1/admin/cases/abc", Some(&admin))
        .await
        .assert_error(400, "invalid_path");
}

#[actix_web::test]
async fn pair_cases_show_shared_games_and_fingerprints() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    // Vahan and OutlawedGangster met in these games (and others not ingested).
    let mut game_ids = Vec::new();
    for (i, name) in ["cc_game_0052", "cc_game_0053", "cc_game_0055"]
        .iter()
        .enumerate()
    {
        let text = game_text(name);
        let players = names(&text);
        assert!(players.contains(&"Vahan".to_string()), "{name}");
        assert!(players.contains(&"OutlawedGangster".to_string()), "{name}");
        let seats: Vec<Value> = ["red", "blue", "yellow", "green"]
            .iter()
            .zip(&players)
            .map(|(seat, player)| {
                let device = match (player.as_str(), i) {
                    ("Vahan", 0 | 1) | ("OutlawedGangster", 1) => "dev-shared".to_string(),
                    _ => format!("dev-{player}-{i}"),
                };
                let network = if player == "Vahan" || player == "OutlawedGangster" {
                    "net-home".to_string()
                } else {
                    format!("net-{player}")
                };
                json!({ "seat": seat, "player": player, "device_fp": device,
                        "network_fp": network })
            })
            .collect();
        game_ids.push(ingest(&app, &server, &json!({ "pgn4": text, "seats": seats })).await);
    }
    let fx = Fixtures::new(&app);
    let vahan = fx.player("Vahan");
    let partner = fx.player("OutlawedGangster");
    let reporter = fx.player("watcher");
    let report = fx.report(Report {
        reporter: Some(reporter),
        reason: "self_partnering",
        accused: vec![vahan, partner],
        game_id: Some(game_ids[0]),
        further_games: vec![game_ids[1]],
        message: Some("same person on two accounts"),
        ..Report::default()
    });
    let case = fx.case(Case {
        accused: vahan,
        reason: "self_partnering",
        priority_base: 60.0,
        reports: vec![report],
        ..Case::default()
    });

    let body = get_ok(&app, &format!("/api/v1/admin/cases/{case}"), &admin).await;
    assert_eq!(
        body["entries"][0]["games"],
        json!([game_ids[0], game_ids[1]])
    );
    assert_eq!(body["games"].as_array().map(Vec::len), Some(2));
    let pairs = body["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 1);
    let pair = &pairs[0];
    assert_eq!(pair["partner"], "OutlawedGangster");
    assert_eq!(pair["games_together"], 3);
    let recent = pair["recent_games"].as_array().expect("recent games");
    assert_eq!(recent.len(), 3);
    let mut listed: Vec<i64> = recent
        .iter()
        .map(|g| g["game_id"].as_i64().expect("game id"))
        .collect();
    listed.sort_unstable();
    assert_eq!(listed, game_ids);
    for game in recent {
        assert_eq!(game["accused"]["player"], "Vahan");
        assert_eq!(game["partner"]["player"], "OutlawedGangster");
        assert!(game["accused"]["placement"].as_i64().is_some());
    }
    assert!(pair["first_played"].is_string() && pair["last_played"].is_string());
    assert_eq!(
        pair["shared_fingerprints"],
        json!([
            { "kind": "device", "value": "dev-shared", "accused_games": 2, "partner_games": 1 },
            { "kind": "network", "value": "net-home", "accused_games": 3, "partner_games": 3 }
        ])
    );
}

#[actix_web::test]
async fn appeals_are_listed_oldest_first_with_their_sanction() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let fx = Fixtures::new(&app);
    let issuer = fx.player("alice");
    let mut expected = Vec::new();
    for (name, hours, status) in [
        ("late", 1.0, "open"),
        ("early", 30.0, "open"),
        ("done", 50.0, "lifted"),
        ("middle", 10.0, "open"),
    ] {
        let player = fx.player(name);
        let ends = (name != "middle").then(|| minutes_from_now(600));
        let sanction = fx.sanction(
            player,
            None,
            "play_ban",
            hours_ago(hours + 5.0),
            ends,
            issuer,
        );
        let text = format!("{name}: I was disconnected, not quitting");
        let id = fx.appeal(sanction, player, &text, hours_ago(hours), status);
        expected.push((name, id, sanction));
    }
    let id_of = |name: &str| expected.iter().find(|e| e.0 == name).map(|e| e.1);

    let body = get_ok(&app, "/api/v1/admin/appeals", &admin).await;
    let got: Vec<Option<i64>> = ids(&body).into_iter().map(Some).collect();
    assert_eq!(got, vec![id_of("early"), id_of("middle"), id_of("late")]);
    let first = &items(&body)[0];
    assert_eq!(first["player"], "early");
    assert_eq!(first["status"], "open");
    assert_eq!(first["text"], "early: I was disconnected, not quitting");
    assert_eq!(first["sanction"]["kind"], "play_ban");
    assert!(first["sanction"]["ends_at"].is_string());
    assert!(
        items(&body)[1]["sanction"]["ends_at"].is_null(),
        "permanent"
    );

    // Pages of two, then the rest.
    let page = get_ok(&app, "/api/v1/admin/appeals?limit=2", &admin).await;
    assert_eq!(items(&page).len(), 2);
    let cursor = page["next_cursor"].as_str().expect("cursor");
    let rest = get_ok(
        &app,
        &format!("/api/v1/admin/appeals?limit=2&cursor={cursor}"),
        &admin,
    )
    .await;
    assert_eq!(
        ids(&rest).into_iter().map(Some).collect::<Vec<_>>(),
        vec![id_of("late")]
    );
    assert!(rest["next_cursor"].is_null());

    let lifted = get_ok(&app, "/api/v1/admin/appeals?status=lifted", &admin).await;
    assert_eq!(
        ids(&lifted).into_iter().map(Some).collect::<Vec<_>>(),
        vec![id_of("done")]
    );
    let all = get_ok(&app, "/api/v1/admin/appeals?status=all", &admin).await;
    assert_eq!(items(&all).len(), 4);
    let error = app
        .get("/api/v1/admin/appeals?status=pending", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "status");
}

#[actix_web::test]
async fn the_modlog_reads_newest_first_with_filters() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let fx = Fixtures::new(&app);
    let at = |hours: f64| hours_ago(hours);
    fx.log(
        at(5.0),
        LogActorKind::Player,
        Some("bob"),
        "report_filed",
        Some("carol"),
        None,
        Some("insults"),
    );
    fx.log(
        at(4.0),
        LogActorKind::System,
        None,
        "case_opened",
        Some("carol"),
        Some(7),
        None,
    );
    fx.log(
        at(3.0),
        LogActorKind::Admin,
        Some("alice"),
        "case_claimed",
        Some("carol"),
        Some(7),
        None,
    );
    fx.log(
        at(2.0),
        LogActorKind::Admin,
        Some("alice"),
        "decision",
        Some("carol"),
        Some(7),
        Some("warned"),
    );
    fx.log(
        at(1.0),
        LogActorKind::Admin,
        Some("dave"),
        "case_claimed",
        Some("erin"),
        Some(8),
        None,
    );

    let kinds = |body: &Value| -> Vec<String> {
        items(body)
            .iter()
            .map(|i| i["kind"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let body = get_ok(&app, "/api/v1/admin/modlog", &admin).await;
    assert_eq!(
        kinds(&body),
        [
            "case_claimed",
            "decision",
            "case_claimed",
            "case_opened",
            "report_filed"
        ]
    );
    let newest = &items(&body)[0];
    assert_eq!(newest["actor"], "dave");
    assert_eq!(newest["actor_kind"], "admin");
    assert_eq!(newest["details"]["action"], "case_claimed");
    assert_eq!(newest["case_id"], 8);
    assert!(items(&body)[3]["actor"].is_null(), "the system has no name");

    let check = |query: &'static str, want: &'static [&'static str]| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let body = get_ok(app, &format!("/api/v1/admin/modlog?{query}"), &admin).await;
            assert_eq!(kinds(&body), want, "{query}");
        }
    };
    check(
        "player=carol",
        &["decision", "case_claimed", "case_opened", "report_filed"],
    )
    .await;
    check("admin=alice", &["decision", "case_claimed"]).await;
    check("kind=case_claimed", &["case_claimed", "case_claimed"]).await;
    check("case_id=7", &["decision", "case_claimed", "case_opened"]).await;
    check("case_id=7&admin=alice&kind=decision", &["decision"]).await;
    let since = (Utc::now() - chrono::TimeDelta::minutes(150)).to_rfc3339();
    let until = (Utc::now() - chrono::TimeDelta::minutes(90)).to_rfc3339();
    let window = get_ok(
        &app,
        &format!(
            "/api/v1/admin/modlog?since={}&until={}",
            urlencode(&since),
            urlencode(&until)
        ),
        &admin,
    )
    .await;
    assert_eq!(kinds(&window), ["decision"]);

    // Pages of two, newest first, no repeats.
    let mut seen = Vec::new();
    let mut path = "/api/v1/admin/modlog?limit=2".to_string();
    loop {
        let page = get_ok(&app, &path, &admin).await;
        seen.extend(ids(&page));
        match page["next_cursor"].as_str() {
            Some(c) => path = format!("/api/v1/admin/modlog?limit=2&cursor={c}"),
            None => break,
        }
    }
    assert_eq!(seen, ids(&body));

    let error = app
        .get("/api/v1/admin/modlog?kind=case_closed", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "kind");
    let message = error["message"].as_str().unwrap_or_default();
    for kind in arbiter::moderation::AuditAction::KINDS {
        assert!(message.contains(kind), "{message} lacks {kind}");
    }
    let error = app
        .get("/api/v1/admin/modlog?since=yesterday", Some(&admin))
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "since");
    let error = app
        .get(
            "/api/v1/admin/modlog?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z",
            Some(&admin),
        )
        .await
        .assert_error(400, "invalid_query");
    assert_eq!(error["details"]["field"], "until");
}

fn urlencode(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}
