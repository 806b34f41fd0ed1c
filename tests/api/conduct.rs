//! Conduct tracking at ingest: outcome rows, player records, signals raised as automatic
//! reports, the rebuild, and `GET /api/v1/players/{name}/conduct` per role.

use std::path::Path;
use std::sync::Arc;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::conduct_applier::ConductApplier;
use arbiter::archive::{prepare_with, AbortPreset, Submission};
use arbiter::cli::conduct::rebuild;
use arbiter::conduct::ConductPolicy;
use arbiter::rules::replay::replay;
use arbiter::store::{automatic_reports, conduct, DbConnection};
use arbiter::usecases::{apply_conduct, import_games, ingest_game};
use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use crate::support::TestApp;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4");

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
        .single()
        .expect("date")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(DATA).join(rel)).expect("real game present")
}

fn real_games() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["ffa", "teams"] {
        let mut paths: Vec<_> = std::fs::read_dir(Path::new(DATA).join(dir))
            .expect("real game directory")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pgn4"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).expect("read");
            if replay(&text).is_ok() {
                out.push(text);
            }
        }
    }
    out
}

/// The first `plies` plies of a real game under a new game number and player names, ending
/// with `ending` (`R` resign, `T` timeout, or nothing) for the seat to move.
fn cut(text: &str, plies: usize, number: u64, names: [&str; 4], ending: &str) -> Option<String> {
    let full = replay(text).ok()?;
    if full.plies.len() < plies {
        return None;
    }
    let mut out = format!("[GameNr \"{number}\"]\n");
    for tag in ["TimeControl", "Variant", "RuleVariants", "StartFen4"] {
        if let Some(v) = full.pgn.tag(tag) {
            out.push_str(&format!("[{tag} \"{}\"]\n", v.trim()));
        }
    }
    for (seat, name) in ["Red", "Blue", "Yellow", "Green"].iter().zip(names) {
        out.push_str(&format!("[{seat} \"{name}\"]\n"));
    }
    out.push('\n');
    let mut round = 0;
    for i in 0..plies {
        let ply = &full.plies[i];
        if ply.round != round {
            round = ply.round;
            out.push_str(&format!("\n{round}. "));
        } else {
            out.push_str(" .. ");
        }
        out.push_str(full.ply_text(i)?);
    }
    if !ending.is_empty() {
        if plies.is_multiple_of(4) {
            out.push_str(&format!("\n{}. {ending}", round + 1));
        } else {
            out.push_str(&format!(" .. {ending}"));
        }
    }
    out.push('\n');
    // Only cuts that replay (a real game may have had an elimination before the cut).
    let cut = replay(&out).ok()?;
    (cut.plies.len() >= plies).then_some(out)
}

fn event(kind: &str, seat: &str, ply: usize, at: DateTime<Utc>) -> Value {
    json!({ "kind": kind, "seat": seat, "ply": ply, "at": at })
}

/// Posts a game and lets the conduct applier take it, as it would within an interval.
async fn ingest(app: &TestApp, server: &str, body: &Value) -> i64 {
    let id = post_game(app, server, body).await;
    let expected = usize::from(app.state.settings.conduct.enabled);
    assert_eq!(app.apply_conduct().await, expected, "queued games applied");
    id
}

async fn post_game(app: &TestApp, server: &str, body: &Value) -> i64 {
    let response = app.post_json("/api/v1/games", Some(server), body).await;
    assert_eq!(response.status, 201, "{}", response.text());
    response.json()["id"].as_i64().expect("id")
}

#[actix_web::test]
async fn outcomes_of_real_positions_are_stored_at_ingest() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    let game = read("ffa/cc_game_0078.pgn4");
    let names = ["ann", "bob", "cat", "dan"];

    // After 6 plies Yellow is in check and nobody has points: resigning is not an abort.
    let text = cut(&game, 6, 910_000_001, names, "R").expect("cut");
    let id = ingest(&app, &server, &json!({ "pgn4": text, "ended_at": t0() })).await;
    let mut conn = app.state.pool.get().expect("connection");
    let rows = conduct::outcomes_of_game(&mut conn, id).expect("rows");
    assert_eq!(rows.len(), 4);
    let yellow = &rows[2];
    assert_eq!(
        (yellow.player.as_str(), yellow.kind.as_str()),
        ("cat", "resigned")
    );
    assert!(!yellow.caused_abort);
    assert_eq!(yellow.in_check, Some(true));
    assert_eq!(yellow.moves_made, Some(1));
    assert_eq!(yellow.departure_ply, Some(6));
    assert!(rows
        .iter()
        .filter(|r| r.seat != 2)
        .all(|r| r.kind == "completed"));
    let view = app
        .get(&format!("/api/v1/games/{id}"), Some(&admin))
        .await
        .json();
    assert!(view["aborted"].is_null(), "{view}");

    // After 5 plies Blue times out on its second turn, nobody scored. The real game is bullet
    // (1+0): past the first move, so no abort.
    let text = cut(&game, 5, 910_000_004, names, "T").expect("cut");
    assert!(text.contains("[TimeControl \"1+0\"]"));
    let id = ingest(&app, &server, &json!({ "pgn4": text, "ended_at": t0() })).await;
    let rows = conduct::outcomes_of_game(&mut conn, id).expect("rows");
    assert_eq!(rows[1].kind, "timed_out");
    assert!(rows.iter().all(|r| !r.caused_abort));
    // The same with 1+15D: an abort for everyone, caused by Blue, as the archive says.
    let text = cut(&game, 5, 910_000_002, names, "T")
        .expect("cut")
        .replace("[TimeControl \"1+0\"]", "[TimeControl \"1+15D\"]");
    let id = ingest(&app, &server, &json!({ "pgn4": text, "ended_at": t0() })).await;
    let rows = conduct::outcomes_of_game(&mut conn, id).expect("rows");
    assert!(rows.iter().all(|r| r.kind == "aborted"), "{rows:?}");
    assert_eq!(
        rows.iter()
            .filter(|r| r.caused_abort)
            .map(|r| r.seat)
            .collect::<Vec<_>>(),
        [1]
    );
    assert_eq!(rows[1].departure.as_deref(), Some("timed_out"));
    let view = app
        .get(&format!("/api/v1/games/{id}"), Some(&admin))
        .await
        .json();
    assert_eq!(view["aborted"]["seat"], "blue");

    // A disconnect without reconnect before the timeout is a forfeit; the record counts it.
    let text = cut(&game, 5, 910_000_003, names, "T")
        .expect("cut")
        .replace("[TimeControl \"1+0\"]", "[TimeControl \"1+15D\"]");
    let body = json!({ "pgn4": text, "ended_at": t0() + TimeDelta::hours(1),
        "events": [event("disconnect", "blue", 4, t0())] });
    let id = ingest(&app, &server, &body).await;
    let rows = conduct::outcomes_of_game(&mut conn, id).expect("rows");
    assert_eq!(rows[1].departure.as_deref(), Some("forfeited"));
    assert_eq!(rows[1].disconnects, 1);
    let record = conduct::record(&mut conn, "bob")
        .expect("read")
        .expect("bob's record");
    assert_eq!(record.totals.games, 4);
    assert_eq!(record.totals.aborts_caused, 2);
    assert_eq!(record.totals.forfeits_after_disconnect, 1);
    assert_eq!(record.recent.len(), 4);
}

/// Players of the generated games: a few habitual quitters among honest players.
const POOL: [&str; 10] = [
    "quit_a", "quit_b", "honest_a", "honest_b", "honest_c", "honest_d", "flaky_a", "flaky_b",
    "honest_e", "honest_f",
];

/// `n` cheap games from real openings: cut at random plies, some seat resigns, times out or
/// forfeits after a disconnect, some disconnects reconnect; dates over 60 days; shuffled so
/// they arrive out of played order.
pub(crate) fn generated_games(seed: u64, n: usize, first_number: u64) -> Vec<Value> {
    let games = real_games();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut number = first_number;
    while out.len() < n {
        let text = &games[rng.gen_range(0..games.len())];
        let mut names = [""; 4];
        let mut pool = POOL.to_vec();
        for slot in &mut names {
            *slot = pool.swap_remove(rng.gen_range(0..pool.len()));
        }
        let plies = rng.gen_range(1..48);
        let mover = ["red", "blue", "yellow", "green"][plies % 4];
        let quitter = names[plies % 4].starts_with("quit");
        let ending = match rng.gen_range(0..10) {
            _ if quitter && rng.gen_bool(0.6) => "T",
            0 => "R",
            1 => "T",
            _ => "",
        };
        number += 1;
        let Some(pgn4) = cut(text, plies, number, names, ending) else {
            continue;
        };
        let played = t0() + TimeDelta::minutes(rng.gen_range(0..60 * 24 * 60));
        let mut events = Vec::new();
        for (i, seat) in ["red", "blue", "yellow", "green"].iter().enumerate() {
            if names[i].starts_with("flaky") && rng.gen_bool(0.5) && plies > 1 {
                let ply = rng.gen_range(0..plies);
                events.push(event(
                    "disconnect",
                    seat,
                    ply,
                    played - TimeDelta::minutes(9),
                ));
                events.push(event(
                    "reconnect",
                    seat,
                    ply,
                    played - TimeDelta::minutes(8),
                ));
            }
        }
        if ending == "T" && (quitter || rng.gen_bool(0.3)) {
            events.push(event(
                "disconnect",
                mover,
                plies,
                played - TimeDelta::minutes(1),
            ));
        }
        let ratings: Vec<Value> = ["red", "blue", "yellow", "green"]
            .iter()
            .zip(names)
            .map(|(seat, player)| {
                let before = 1500;
                let after = before + rng.gen_range(-20..20);
                json!({ "seat": seat, "player": player, "rating_before": before,
                        "rating_after": after })
            })
            .collect();
        out.push(json!({ "pgn4": pgn4, "seats": ratings, "ended_at": played, "events": events }));
    }
    out
}

/// Stores [`generated_games`] through the ingest's prepare + store path (queued for conduct).
fn store_generated_games(
    app: &TestApp,
    policy: &Arc<ConductPolicy>,
    seed: u64,
    n: usize,
    first_number: u64,
) {
    let mut conn = app.state.pool.get().expect("connection");
    for body in generated_games(seed, n, first_number) {
        let submission: Submission = serde_json::from_value(body).expect("submission");
        let prepared = prepare_with(submission, AbortPreset::Seed001, None, Some(policy), None)
            .expect("generated game is valid");
        ingest_game::ingest(
            &mut conn,
            &prepared,
            &app.state.moderation,
            arbiter::store::now(),
        )
        .expect("stored");
    }
}

#[actix_web::test]
async fn incremental_records_equal_a_rebuild() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    // The real games over HTTP (tags' players, no events).
    for text in real_games() {
        let response = app
            .post_json("/api/v1/games", Some(&server), &json!({ "pgn4": text }))
            .await;
        assert!(matches!(response.status, 200 | 201), "{}", response.text());
    }
    // Generated games through the same prepare + store path, out of played order.
    let n = if app.db.is_postgres() { 300 } else { 2500 };
    let policy = Arc::new(ConductPolicy::default());
    store_generated_games(&app, &policy, 7, n, 920_000_000);
    let mut conn = app.state.pool.get().expect("connection");
    // The applier takes the queue in batches of any size; each player's record is then read
    // and written once per batch, and must come out as a rebuild in played order.
    assert!(conduct::pending_count(&mut conn).expect("count") >= n as u64);
    loop {
        let done = apply_conduct::apply_pending(
            &mut conn,
            &policy,
            &app.state.moderation,
            97,
            arbiter::store::now(),
        )
        .expect("applied");
        assert!(done.unreadable.is_empty(), "{:?}", done.unreadable);
        if done.taken() == 0 {
            break;
        }
    }
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    let records = conduct::all_records(&mut conn).expect("records");
    let outcomes = conduct::all_outcomes(&mut conn).expect("outcomes");
    assert!(outcomes.len() >= (n + 100) * 4);
    assert!(outcomes.iter().any(|o| o.kind == "aborted"));
    assert!(outcomes
        .iter()
        .any(|o| o.departure.as_deref() == Some("forfeited")));
    let quitter = records.iter().find(|(p, _)| p == "quit_a").expect("quit_a");
    assert!(quitter.1.totals.forfeits_after_disconnect > (n / 300) as u32);

    let report = rebuild(&mut conn, AbortPreset::Seed001, &policy, 333, |_| {}).expect("rebuild");
    assert_eq!(report.games as usize * 4, outcomes.len());
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(
        conduct::all_outcomes(&mut conn).expect("outcomes"),
        outcomes
    );
    assert_eq!(conduct::all_records(&mut conn).expect("records"), records);
}

#[actix_web::test]
async fn habits_raise_one_report_listing_every_supporting_game_once() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let game = read("ffa/cc_game_0078.pgn4");
    let mut conn = app.state.pool.get().expect("connection");
    // "leaver" forfeits after a disconnect in 5 of 8 games on different days (Red, past the
    // abort window: 24 plies, then Red to move); "steady" disconnects in every game but always
    // reconnects and plays on.
    let mut leaver_games = Vec::new();
    for day in 0..8u64 {
        let names = ["leaver", "steady", "other_y", "other_g"];
        let leaves = day % 3 != 1;
        let text = cut(
            &game,
            24,
            930_000_000 + day,
            names,
            if leaves { "T" } else { "" },
        )
        .expect("cut");
        let at = t0() + TimeDelta::days(day as i64);
        let mut events = vec![
            event("disconnect", "blue", 10, at - TimeDelta::minutes(20)),
            event("reconnect", "blue", 10, at - TimeDelta::minutes(19)),
        ];
        if leaves {
            events.push(event("disconnect", "red", 24, at - TimeDelta::minutes(2)));
        }
        let id = ingest(
            &app,
            &server,
            &json!({ "pgn4": text, "ended_at": at, "events": events }),
        )
        .await;
        if leaves {
            leaver_games.push(id);
        }
    }
    assert_eq!(leaver_games.len(), 5);
    let reports = automatic_reports::for_player(&mut conn, "leaver", 10).expect("reports");
    assert_eq!(reports.len(), 1, "{reports:?}");
    let report = &reports[0];
    assert_eq!(
        (
            report.source.as_str(),
            report.reason.as_str(),
            report.rule.as_str()
        ),
        ("conduct_signal", "abandoning", "abandonment")
    );
    assert!(report.score > 0.0 && report.score <= 1.0);
    assert!(
        report.summary.starts_with("abandonment: "),
        "{}",
        report.summary
    );
    let supporting = automatic_reports::supporting_games(&mut conn, report.id).expect("games");
    // Raised when the fourth forfeit made it a habit; those four, each once.
    assert_eq!(supporting, leaver_games[..4].to_vec());
    assert!(automatic_reports::for_player(&mut conn, "steady", 10)
        .expect("reports")
        .is_empty());

    // The endpoint, per role.
    let admin = app.token(TokenRole::Admin, "alice");
    let body = app
        .get("/api/v1/players/leaver/conduct", Some(&admin))
        .await
        .json();
    assert_eq!(body["view"], "admin");
    assert_eq!(body["conduct"]["record"]["totals"]["games"], 8);
    assert_eq!(
        body["conduct"]["record"]["recent"].as_array().map(Vec::len),
        Some(8)
    );
    assert_eq!(
        body["conduct"]["record"]["recent"][0]["game"],
        leaver_games[0]
    );
    let own = app
        .get(
            "/api/v1/players/leaver/conduct",
            Some(&app.player_token("leaver")),
        )
        .await
        .json();
    assert_eq!(own["view"], "player");
    assert_eq!(own["conduct"]["games_recorded"], 8);
    assert!(own["conduct"].get("record").is_none());
    app.get(
        "/api/v1/players/leaver/conduct",
        Some(&app.player_token("steady")),
    )
    .await
    .assert_error(403, "forbidden");
    let served = app
        .get("/api/v1/players/steady/conduct", Some(&server))
        .await
        .json();
    assert_eq!(served["view"], "server");
    assert_eq!(served["conduct"]["signal_active"], false);
    assert_eq!(served["conduct"]["recent_abandonment_rate"], 0.0);
    let error = app
        .get("/api/v1/players/nobody/conduct", Some(&admin))
        .await
        .assert_error(404, "player_not_found");
    assert!(error["message"]
        .as_str()
        .is_some_and(|m| m.contains("nobody")));

    // The automatic report is a case in the queue whose evidence carries the record.
    let queue = app
        .get("/api/v1/admin/cases?reason=abandoning", Some(&admin))
        .await
        .json();
    let cases = queue["items"].as_array().expect("items");
    assert_eq!(cases.len(), 1, "{queue}");
    assert_eq!(cases[0]["accused"], "leaver");
    let case = app
        .get(
            &format!("/api/v1/admin/cases/{}", cases[0]["id"]),
            Some(&admin),
        )
        .await
        .json();
    assert_eq!(case["conduct"]["record"]["totals"]["games"], 8, "{case}");
    assert_eq!(case["conduct"], body["conduct"]);
}

#[actix_web::test]
async fn conduct_tracking_can_be_switched_off() {
    let app = TestApp::spawn_with(|s| s.conduct.enabled = false).await;
    let server = app.token(TokenRole::Server, "eu-1");
    let text = cut(
        &read("ffa/cc_game_0078.pgn4"),
        5,
        940_000_001,
        ["a", "b", "c", "d"],
        "T",
    )
    .expect("cut");
    let id = ingest(&app, &server, &json!({ "pgn4": text })).await;
    let mut conn = app.state.pool.get().expect("connection");
    assert!(conduct::outcomes_of_game(&mut conn, id)
        .expect("rows")
        .is_empty());
    assert!(conduct::record(&mut conn, "b").expect("read").is_none());
}

/// The eight games of [`habits_raise_one_report_listing_every_supporting_game_once`], posted
/// without applying them; returns the leaver's game ids.
async fn post_leaver_games(app: &TestApp, server: &str, first_number: u64) -> Vec<i64> {
    let game = read("ffa/cc_game_0078.pgn4");
    let mut leaver_games = Vec::new();
    for day in 0..8u64 {
        let names = ["leaver", "steady", "other_y", "other_g"];
        let leaves = day % 3 != 1;
        let ending = if leaves { "T" } else { "" };
        let text = cut(&game, 24, first_number + day, names, ending).expect("cut");
        let at = t0() + TimeDelta::days(day as i64);
        let mut events = vec![
            event("disconnect", "blue", 10, at - TimeDelta::minutes(20)),
            event("reconnect", "blue", 10, at - TimeDelta::minutes(19)),
        ];
        if leaves {
            events.push(event("disconnect", "red", 24, at - TimeDelta::minutes(2)));
        }
        let body = json!({ "pgn4": text, "ended_at": at, "events": events });
        let id = post_game(app, server, &body).await;
        if leaves {
            leaver_games.push(id);
        }
    }
    leaver_games
}

#[actix_web::test]
async fn queued_games_wait_for_the_applier_and_one_batch_raises_the_same_report() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let leaver_games = post_leaver_games(&app, &server, 935_000_000).await;
    let mut conn = app.state.pool.get().expect("connection");
    // Stored, queued, not yet applied.
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 8);
    assert!(conduct::record(&mut conn, "leaver")
        .expect("read")
        .is_none());
    assert!(conduct::all_outcomes(&mut conn).expect("rows").is_empty());
    assert!(automatic_reports::for_player(&mut conn, "leaver", 10)
        .expect("reports")
        .is_empty());

    // One batch: the same report as game by game (raised at the fourth forfeit, listing
    // those four), once.
    assert_eq!(app.apply_conduct().await, 8);
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    let record = conduct::record(&mut conn, "leaver")
        .expect("read")
        .expect("record");
    assert_eq!(record.totals.games, 8);
    assert_eq!(record.totals.forfeits_after_disconnect, 5);
    assert_eq!(conduct::all_outcomes(&mut conn).expect("rows").len(), 32);
    let reports = automatic_reports::for_player(&mut conn, "leaver", 10).expect("reports");
    assert_eq!(reports.len(), 1, "{reports:?}");
    let supporting = automatic_reports::supporting_games(&mut conn, reports[0].id).expect("games");
    assert_eq!(supporting, leaver_games[..4].to_vec());
    assert!(automatic_reports::for_player(&mut conn, "steady", 10)
        .expect("reports")
        .is_empty());
    // Nothing is applied twice.
    assert_eq!(app.apply_conduct().await, 0);
    let again = conduct::record(&mut conn, "leaver")
        .expect("read")
        .expect("record");
    assert_eq!(again, record);
}

#[actix_web::test]
async fn a_rebuild_takes_over_queued_games_and_they_are_not_applied_again() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    post_leaver_games(&app, &server, 936_000_000).await;
    let mut conn = app.state.pool.get().expect("connection");
    let policy = ConductPolicy::default();
    let report = rebuild(&mut conn, AbortPreset::Seed001, &policy, 3, |_| {}).expect("rebuild");
    assert_eq!(report.games, 8);
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    assert_eq!(app.apply_conduct().await, 0);
    let rebuilt = conduct::all_records(&mut conn).expect("records");
    assert_eq!(rebuilt.len(), 4);
    assert!(rebuilt.iter().all(|(_, r)| r.totals.games == 8));

    // A game queued while its outcomes are already recorded (a rebuild got there first) is
    // dropped from the queue, not counted twice.
    let id = post_game(
        &app,
        &server,
        &json!({ "pgn4": cut(&read("ffa/cc_game_0078.pgn4"), 24, 936_100_000,
            ["leaver", "steady", "other_y", "other_g"], "").expect("cut"),
            "ended_at": t0() + TimeDelta::days(20) }),
    )
    .await;
    rebuild(&mut conn, AbortPreset::Seed001, &policy, 100, |_| {}).expect("rebuild");
    let seats = conduct::outcomes_of_game(&mut conn, id).expect("rows");
    assert_eq!(seats.len(), 4);
    // Put the game back on the queue as if the applier had not seen the rebuild's work.
    queue_again(&mut conn, id, &arbiter::conduct::stored::encode_seats(&[]));
    let done = apply_conduct::apply_pending(
        &mut conn,
        &policy,
        &app.state.moderation,
        10,
        arbiter::store::now(),
    )
    .expect("applied");
    assert_eq!((done.applied, done.already_recorded), (0, 1));
    let records = conduct::all_records(&mut conn).expect("records");
    assert!(
        records.iter().all(|(_, r)| r.totals.games == 9),
        "{records:?}"
    );
}

#[actix_web::test]
async fn an_unreadable_queued_game_is_dropped_and_the_rest_applied() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    post_leaver_games(&app, &server, 937_000_000).await;
    let mut conn = app.state.pool.get().expect("connection");
    let damaged = damage_first_queued(&mut conn, "s1:!!");
    let done = apply_conduct::apply_pending(
        &mut conn,
        &ConductPolicy::default(),
        &app.state.moderation,
        100,
        arbiter::store::now(),
    )
    .expect("applied");
    assert_eq!(done.applied, 7);
    assert_eq!(done.unreadable.len(), 1);
    assert_eq!(done.unreadable[0].0, damaged);
    assert!(
        done.unreadable[0].1.contains("base64"),
        "{:?}",
        done.unreadable
    );
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    let record = conduct::record(&mut conn, "steady")
        .expect("read")
        .expect("record");
    assert_eq!(record.totals.games, 7);
}

#[actix_web::test]
async fn the_background_applier_brings_records_up_to_date() {
    let app = TestApp::spawn_with(|s| s.conduct.apply_interval_ms = 20).await;
    let server = app.token(TokenRole::Server, "eu-1");
    let applier = arbiter::api::jobs::job::start::<ConductApplier>(&app.state).expect("always");
    post_leaver_games(&app, &server, 938_000_000).await;
    let admin = app.token(TokenRole::Admin, "alice");
    let started = std::time::Instant::now();
    let games = loop {
        let response = app
            .get("/api/v1/players/leaver/conduct", Some(&admin))
            .await;
        let games = (response.status == 200)
            .then(|| response.json()["conduct"]["record"]["totals"]["games"].as_u64())
            .flatten();
        if games == Some(8) || started.elapsed() > std::time::Duration::from_secs(20) {
            break games;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(games, Some(8));
    // The applier counts a batch just after committing it: the count may trail the records.
    let started = std::time::Instant::now();
    let metrics = loop {
        let metrics = app.get("/metrics", None).await.text();
        if metrics.contains("arbiter_conduct_applied_games_total 8")
            || started.elapsed() > std::time::Duration::from_secs(10)
        {
            break metrics;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    applier.abort();
    assert!(
        metrics.contains("arbiter_conduct_applied_games_total 8"),
        "{metrics}"
    );
}

#[actix_web::test]
async fn two_appliers_share_the_queue_and_agree_with_a_rebuild() {
    let app = TestApp::spawn().await;
    let n = if app.db.is_postgres() { 400 } else { 1200 };
    let policy = Arc::new(ConductPolicy::default());
    store_generated_games(&app, &policy, 11, n, 950_000_000);
    // Two appliers on their own connections, small batches, the same ten players throughout:
    // they contend for the same records (PostgreSQL: SKIP LOCKED on the queue, records locked
    // in name order; SQLite: one writer at a time).
    let appliers: Vec<_> = (0..2)
        .map(|_| {
            let (pool, policy) = (app.state.pool.clone(), policy.clone());
            let moderation = app.state.moderation.clone();
            std::thread::spawn(move || {
                let mut conn = pool.get().expect("connection");
                let mut applied = 0;
                loop {
                    let done = apply_conduct::apply_pending(
                        &mut conn,
                        &policy,
                        &moderation,
                        23,
                        arbiter::store::now(),
                    )
                    .expect("applied");
                    applied += done.applied;
                    if done.taken() == 0 {
                        return applied;
                    }
                }
            })
        })
        .collect();
    let applied: usize = appliers
        .into_iter()
        .map(|a| a.join().expect("applier"))
        .sum();
    assert_eq!(applied, n);
    let mut conn = app.state.pool.get().expect("connection");
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    let records = conduct::all_records(&mut conn).expect("records");
    let outcomes = conduct::all_outcomes(&mut conn).expect("outcomes");
    assert_eq!(outcomes.len(), n * 4);
    let report = rebuild(&mut conn, AbortPreset::Seed001, &policy, 250, |_| {}).expect("rebuild");
    assert_eq!(report.games as usize, n);
    assert_eq!(conduct::all_records(&mut conn).expect("records"), records);
    assert_eq!(
        conduct::all_outcomes(&mut conn).expect("outcomes"),
        outcomes
    );
}

/// What the leaver games leave behind once applied exactly once: eight games in each record,
/// 32 outcome rows, one report listing the first four forfeits, an empty queue.
fn assert_leaver_games_applied_once(app: &TestApp, leaver_games: &[i64]) {
    let mut conn = app.state.pool.get().expect("connection");
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    let records = conduct::all_records(&mut conn).expect("records");
    assert_eq!(records.len(), 4);
    assert!(
        records.iter().all(|(_, r)| r.totals.games == 8),
        "{records:?}"
    );
    assert_eq!(conduct::all_outcomes(&mut conn).expect("rows").len(), 32);
    let reports = automatic_reports::for_player(&mut conn, "leaver", 10).expect("reports");
    assert_eq!(reports.len(), 1, "{reports:?}");
    let supporting = automatic_reports::supporting_games(&mut conn, reports[0].id).expect("games");
    assert_eq!(supporting, leaver_games[..4].to_vec());
}

#[actix_web::test]
async fn a_batch_that_fails_before_its_commit_leaves_the_queue_whole() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let leaver_games = post_leaver_games(&app, &server, 939_000_000).await;
    let mut conn = app.state.pool.get().expect("connection");
    // The applier's transaction inside one that then fails: as if the process died between
    // applying the batch and committing it.
    let failed = diesel::Connection::transaction(&mut *conn, |conn| {
        let done = apply_conduct::apply_pending(
            conn,
            &app.state.conduct,
            &app.state.moderation,
            100,
            arbiter::store::now(),
        )?;
        assert_eq!(done.applied, 8);
        Err::<(), _>(diesel::result::Error::RollbackTransaction)
    });
    assert!(failed.is_err());
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 8);
    assert!(conduct::all_outcomes(&mut conn).expect("rows").is_empty());
    let done = apply_conduct::apply_pending(
        &mut conn,
        &app.state.conduct,
        &app.state.moderation,
        100,
        arbiter::store::now(),
    )
    .expect("applied");
    assert_eq!(done.applied, 8);
    drop(conn);
    assert_leaver_games_applied_once(&app, &leaver_games);
}

/// Puts a stored game back on the conduct queue with these encoded seats.
fn queue_again(conn: &mut DbConnection, id: i64, seats: &str) {
    conduct::enqueue(conn, id, t0().naive_utc(), seats).expect("queued again");
}

/// Replaces the encoded seats of the oldest queued game; returns its id.
fn damage_first_queued(conn: &mut DbConnection, seats: &str) -> i64 {
    use arbiter::store::schema::conduct_pending;
    use diesel::prelude::*;
    let first: i64 = conduct_pending::table
        .select(conduct_pending::game_id)
        .order(conduct_pending::game_id.asc())
        .first(conn)
        .expect("queued");
    diesel::update(conduct_pending::table.filter(conduct_pending::game_id.eq(first)))
        .set(conduct_pending::seats.eq(seats))
        .execute(conn)
        .expect("damaged");
    first
}

#[actix_web::test]
async fn games_the_bulk_import_applied_are_passed_over_and_later_games_applied_once() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let policy = Arc::new(ConductPolicy::default());
    let mut conn = app.state.pool.get().expect("connection");
    // Five games through the bulk import path, which applies them in its own transaction.
    let prepared: Vec<_> = generated_games(7, 5, 938_000_000)
        .into_iter()
        .map(|body| {
            let submission: Submission = serde_json::from_value(body).expect("submission");
            prepare_with(submission, AbortPreset::Seed001, None, Some(&policy), None)
                .expect("valid")
        })
        .collect();
    import_games::import_batch(
        &mut conn,
        &prepared,
        &app.state.moderation,
        arbiter::store::now(),
    )
    .expect("imported");
    let imported = conduct::all_outcomes(&mut conn).expect("rows").len();
    assert_eq!(imported, 20);
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    // Then one over HTTP, queued.
    let id = post_game(
        &app,
        &server,
        &json!({ "pgn4": cut(&read("ffa/cc_game_0078.pgn4"), 24, 938_100_000,
            ["p1", "p2", "p3", "p4"], "").expect("cut") }),
    )
    .await;
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 1);
    // Batches of two: the imported games were never queued; the posted game is applied once.
    let mut applied = 0;
    loop {
        let done = apply_conduct::apply_pending(
            &mut conn,
            &policy,
            &app.state.moderation,
            2,
            arbiter::store::now(),
        )
        .expect("applied");
        if done.taken() == 0 {
            break;
        }
        assert_eq!(done.already_recorded, 0);
        applied += done.applied;
    }
    assert_eq!(applied, 1);
    assert_eq!(conduct::pending_count(&mut conn).expect("count"), 0);
    assert_eq!(
        conduct::outcomes_of_game(&mut conn, id)
            .expect("rows")
            .len(),
        4
    );
    assert_eq!(
        conduct::all_outcomes(&mut conn).expect("rows").len(),
        imported + 4
    );
}
