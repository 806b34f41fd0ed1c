//! Collusion detection through the service: simulated FFA games posted as a game server would,
//! a pair who spare each other raise an automatic teaming report in the review queue with its
//! evidence, and honest pairs raise none.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::cli::collusion::submission;
use arbiter::cli::collusion_backfill::backfill;
use arbiter::simulation::{plan, simulate, SimulatedGame, SimulationConfig};
use serde_json::Value;

use crate::support::TestApp;

/// A small population: one pair who spare each other at 20 arranged tables, among honest
/// players who meet at random tables.
fn config() -> SimulationConfig {
    SimulationConfig {
        seed: 25,
        players: 16,
        games: 150,
        sparing_pairs: 1,
        feeding_pairs: 0,
        self_partnering: 0,
        rings: 0,
        arranged_games: vec![20],
        max_rounds: 80,
    }
}

#[actix_web::test]
async fn a_sparing_pair_raises_one_teaming_report_with_evidence_and_honest_pairs_none() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let config = config();
    let colluding = plan(&config).colluding().to_vec();
    assert_eq!(colluding.len(), 1);
    let pair = [colluding[0].first.clone(), colluding[0].second.clone()];
    post_all(&app, &simulate(&config)).await;

    let (queue, accused) = teaming_queue(&app).await;
    let cases = queue["items"].as_array().expect("items");
    let mut expected = pair.to_vec();
    expected.sort();
    assert_eq!(accused, expected, "only the colluding pair: {queue}");
    let none = app
        .get("/api/v1/admin/cases?reason=self_partnering", Some(&admin))
        .await
        .json();
    assert_eq!(none["items"].as_array().map(Vec::len), Some(0), "{none}");

    let case: Value = app
        .get(
            &format!("/api/v1/admin/cases/{}", cases[0]["id"]),
            Some(&admin),
        )
        .await
        .json();
    // Reported at 5, 10 and 20 shared games: each time the evidence doubled.
    let entries = case["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 3, "{case}");
    let entry = entries
        .iter()
        .max_by_key(|e| e["games"].as_array().map_or(0, Vec::len))
        .expect("an entry");
    assert_eq!(entry["source"], "collusion_analysis", "{case}");
    assert_eq!(entry["automatic"]["rule"], "sparing", "{case}");
    let summary = entry["automatic"]["summary"].as_str().expect("summary");
    assert!(
        summary.contains(&pair[0]) && summary.contains(&pair[1]),
        "{summary}"
    );
    assert!(summary.contains("expected"), "{summary}");
    let cited = entry["games"].as_array().map_or(0, Vec::len);
    assert!(cited >= 20, "every shared game is evidence: {cited}");
    // The case shows the pair's history with the partner.
    let partners = case["pairs"].as_array().expect("pairs");
    assert_eq!(partners.len(), 1, "{case}");
    assert!(partners[0]["games_together"].as_i64().unwrap_or(0) >= 20);
}

#[actix_web::test]
async fn a_ring_of_three_is_one_report_naming_all_three() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "alice");
    let config = SimulationConfig {
        sparing_pairs: 0,
        rings: 1,
        ..config()
    };
    let planned = plan(&config);
    let ring = planned.rings();
    assert_eq!(ring.len(), 1);
    let mut members = ring[0].to_vec();
    members.sort();
    post_all(&app, &simulate(&config)).await;

    let (queue, accused) = teaming_queue(&app).await;
    let cases = queue["items"].as_array().expect("items");
    assert_eq!(accused, members, "the ring's three, nobody else: {queue}");
    // Every member's case holds the same ring reports, each naming all three. (A pair may
    // be reported alone first, before a second pair of the ring is flagged.)
    let mut reports_per_case = Vec::new();
    for case in cases {
        let case: Value = app
            .get(&format!("/api/v1/admin/cases/{}", case["id"]), Some(&admin))
            .await
            .json();
        let entries = case["entries"].as_array().expect("entries");
        let mut ids: Vec<i64> = Vec::new();
        for entry in entries.iter().filter(|e| e["automatic"]["rule"] == "ring") {
            let summary = entry["automatic"]["summary"].as_str().expect("summary");
            assert!(
                summary.starts_with(&format!(
                    "Ring of 3 accounts: {}, {}, {};",
                    members[0], members[1], members[2]
                )),
                "{summary}"
            );
            let mut named: Vec<String> = entry["accused"]
                .as_array()
                .expect("accused")
                .iter()
                .map(|a| a.as_str().unwrap_or("").to_string())
                .collect();
            named.sort();
            assert_eq!(named, members, "{case}");
            ids.push(entry["report_id"].as_i64().expect("report_id"));
        }
        ids.sort_unstable();
        assert!(!ids.is_empty(), "no ring report: {case}");
        reports_per_case.push(ids);
    }
    assert!(
        reports_per_case.windows(2).all(|w| w[0] == w[1]),
        "{reports_per_case:?}"
    );
}

/// Posts the games as a game server would.
async fn post_all(app: &TestApp, games: &[SimulatedGame]) {
    let server = app.token(TokenRole::Server, "eu-1");
    for game in games {
        let body = serde_json::to_value(submission(game)).expect("json");
        let response = app.post_json("/api/v1/games", Some(&server), &body).await;
        assert_eq!(response.status, 201, "{}", response.text());
    }
}

/// The teaming queue's first page, and its cases' accused in name order.
async fn teaming_queue(app: &TestApp) -> (Value, Vec<String>) {
    let admin = app.token(TokenRole::Admin, "alice");
    let queue = app
        .get(
            "/api/v1/admin/cases?reason=prearranged_teaming",
            Some(&admin),
        )
        .await
        .json();
    let mut accused: Vec<String> = queue["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|c| c["accused"].as_str().unwrap_or("").to_string())
        .collect();
    accused.sort();
    (queue, accused)
}

/// Every teaming case's accused and its entries' (games cited, summary), sorted.
async fn teaming_cases(app: &TestApp) -> Vec<(String, Vec<(usize, String)>)> {
    cases_of_reason(app, "prearranged_teaming").await
}

/// Every case of `reason`: its accused and its entries' (games cited, summary), sorted.
async fn cases_of_reason(app: &TestApp, reason: &str) -> Vec<(String, Vec<(usize, String)>)> {
    let admin = app.token(TokenRole::Admin, "alice");
    let queue = app
        .get(
            &format!("/api/v1/admin/cases?reason={reason}"),
            Some(&admin),
        )
        .await
        .json();
    let mut out = Vec::new();
    for case in queue["items"].as_array().expect("items") {
        let detail = app
            .get(&format!("/api/v1/admin/cases/{}", case["id"]), Some(&admin))
            .await
            .json();
        let mut entries: Vec<(usize, String)> = detail["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|e| {
                (
                    e["games"].as_array().map_or(0, Vec::len),
                    e["automatic"]["summary"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        entries.sort();
        out.push((case["accused"].as_str().unwrap_or("").to_string(), entries));
    }
    out.sort();
    out
}

/// Games stored while the statistics were off get them from `arbiter collusion backfill`, in
/// played order: the same reports as the same games arriving in that order with the
/// statistics on; a second run changes nothing.
#[actix_web::test]
async fn backfill_gives_games_stored_without_statistics_the_same_reports() {
    let config = config();
    let mut games = simulate(&config);
    games.sort_by_key(|g| (g.ended_at, g.site_game_id));

    let live = TestApp::spawn().await;
    post_all(&live, &games).await;
    let expected = teaming_cases(&live).await;
    let colluding = plan(&config).colluding()[0].clone();
    for member in [&colluding.first, &colluding.second] {
        assert!(
            expected.iter().any(|(accused, _)| accused == member),
            "{expected:?}"
        );
    }

    let app = TestApp::spawn_with(|s| s.collusion.enabled = false).await;
    post_all(&app, &games).await;
    assert!(teaming_cases(&app).await.is_empty());
    let policy = app.state.settings.collusion.policy();
    let run = || {
        let mut conn = app.state.pool.get().expect("connection");
        backfill(&mut conn, &policy, &app.state.moderation, 40, |_| {}).expect("backfill")
    };
    let first = run();
    assert_eq!(first.recorded, games.len() as u64, "{first:?}");
    assert_eq!((first.skipped, first.not_applicable), (0, 0), "{first:?}");
    assert!(first.failed.is_empty(), "{first:?}");
    assert_eq!(teaming_cases(&app).await, expected);

    let second = run();
    assert_eq!(
        (second.recorded, second.skipped, second.reports),
        (0, games.len() as u64, 0),
        "{second:?}"
    );
}

/// Two accounts of one person (shared fingerprints, points flowing one way) are reported as
/// self-partnering with the fingerprints counted. The pair records are sums that can be
/// summed again from the stored games: with every record dropped halfway (as the migration
/// that added the fingerprint counts does), the reports come out the same.
#[actix_web::test]
async fn self_partnering_accounts_are_reported_with_their_shared_fingerprints() {
    let config = SimulationConfig {
        sparing_pairs: 0,
        self_partnering: 1,
        ..config()
    };
    let accounts = plan(&config).colluding()[0].clone();
    let mut games = simulate(&config);
    games.sort_by_key(|g| (g.ended_at, g.site_game_id));

    let live = TestApp::spawn().await;
    post_all(&live, &games).await;
    let expected = cases_of_reason(&live, "self_partnering").await;
    let mut pair = [accounts.first.clone(), accounts.second.clone()];
    pair.sort();
    let accused: Vec<&str> = expected.iter().map(|(a, _)| a.as_str()).collect();
    assert!(accused.contains(&pair[1].as_str()), "{expected:?}");
    let summaries: Vec<&str> = expected
        .iter()
        .flat_map(|(_, entries)| entries.iter().map(|(_, s)| s.as_str()))
        .collect();
    assert!(
        summaries
            .iter()
            .any(|s| s.contains("Same device fingerprint in")
                && !s.contains("Same device fingerprint in 0 ")),
        "{summaries:?}"
    );

    let rebuilt = TestApp::spawn().await;
    let half = games.len() / 2;
    post_all(&rebuilt, &games[..half]).await;
    {
        use diesel::prelude::*;
        let mut conn = rebuilt.state.pool.get().expect("connection");
        let dropped = match &mut *conn {
            arbiter::store::DbConnection::Sqlite(c) => {
                diesel::sql_query("DELETE FROM collusion_pairs").execute(c)
            }
            arbiter::store::DbConnection::Postgres(c) => {
                diesel::sql_query("DELETE FROM collusion_pairs").execute(c)
            }
        }
        .expect("delete");
        assert!(dropped > 0);
    }
    post_all(&rebuilt, &games[half..]).await;
    assert_eq!(cases_of_reason(&rebuilt, "self_partnering").await, expected);
}
