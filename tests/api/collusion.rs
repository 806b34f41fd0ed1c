//! Collusion detection through the service: simulated FFA games posted as a game server would,
//! a pair who spare each other raise an automatic teaming report in the review queue with its
//! evidence, and honest pairs raise none.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::cli::collusion::submission;
use arbiter::simulation::{plan, simulate, SimulationConfig};
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
        arranged_games: vec![20],
        max_rounds: 80,
    }
}

#[actix_web::test]
async fn a_sparing_pair_raises_one_teaming_report_with_evidence_and_honest_pairs_none() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let admin = app.token(TokenRole::Admin, "alice");
    let config = config();
    let colluding = plan(&config).colluding().to_vec();
    assert_eq!(colluding.len(), 1);
    let pair = [colluding[0].first.clone(), colluding[0].second.clone()];
    for game in simulate(&config) {
        let body = serde_json::to_value(submission(&game)).expect("json");
        let response = app.post_json("/api/v1/games", Some(&server), &body).await;
        assert_eq!(response.status, 201, "{}", response.text());
    }

    let queue = app
        .get(
            "/api/v1/admin/cases?reason=prearranged_teaming",
            Some(&admin),
        )
        .await
        .json();
    let cases = queue["items"].as_array().expect("items");
    let mut accused: Vec<String> = cases
        .iter()
        .map(|c| c["accused"].as_str().unwrap_or("").to_string())
        .collect();
    accused.sort();
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
