//! A banned player back on a new account (docs/moderation.md, "Returning players"): a game
//! whose seat carries a banned player's device fingerprint opens an automatic case about the
//! new account naming both, once per account and ban; a network shared in too few games, or
//! by a crowd, does not. On both databases.

use arbiter::api::auth::tokens::TokenRole;
use serde_json::{json, Value};

use crate::moderation::{app_with_games, case_of, chat_ban, game_text};
use crate::support::TestApp;

/// Posts game `number` with the four players and, per seat, its device and network
/// fingerprints (none where the device is empty).
async fn ingest_with_fingerprints(
    app: &TestApp,
    server: &str,
    number: i64,
    seats: [(&str, &str, &str); 4],
) {
    let text = game_text(number, "FFA", seats.map(|(player, _, _)| player));
    let seats: Vec<Value> = ["red", "blue", "yellow", "green"]
        .iter()
        .zip(seats)
        .map(|(seat, (player, device, network))| {
            let mut seat = json!({ "seat": seat, "player": player });
            if !device.is_empty() {
                seat["device_fp"] = json!(device);
                seat["network_fp"] = json!(network);
            }
            seat
        })
        .collect();
    let stored = app
        .post_json(
            "/api/v1/games",
            Some(server),
            &json!({ "pgn4": text, "seats": seats }),
        )
        .await;
    assert_eq!(stored.status, 201, "{}", stored.text());
}

fn seat(player: &str) -> (&str, &str, &str) {
    (player, "", "")
}

async fn case_json(app: &TestApp, admin: &str, case: i64) -> Value {
    let got = app
        .get(&format!("/api/v1/admin/cases/{case}"), Some(admin))
        .await;
    assert_eq!(got.status, 200, "{}", got.text());
    got.json()
}

#[actix_web::test]
async fn a_banned_players_device_on_a_new_account_opens_one_case_naming_both() {
    let (app, server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    chat_ban(&app, &alice, 24 * 60).await;
    // The banned player still plays (a chat ban), on their device and home network.
    ingest_with_fingerprints(
        &app,
        &server,
        3001,
        [
            seat("rep"),
            ("acc1", "dev-acc1", "net-home"),
            seat("acc2"),
            seat("acc3"),
        ],
    )
    .await;
    assert!(
        case_of(&app, "acc1", "other").is_none(),
        "their own games are no match"
    );

    // A new account on the same device.
    ingest_with_fingerprints(
        &app,
        &server,
        3002,
        [
            seat("rep"),
            seat("acc2"),
            ("fresh-start", "dev-acc1", "net-elsewhere"),
            seat("acc3"),
        ],
    )
    .await;
    let (case, _, entries, _) = case_of(&app, "fresh-start", "other").expect("a case");
    assert_eq!(entries, 1);
    let detail = case_json(&app, &alice, case).await;
    let text = detail.to_string();
    assert!(text.contains("fingerprint_match"), "{text}");
    assert!(
        text.contains("fresh-start carried the device fingerprint of acc1 (chat ban"),
        "{text}"
    );
    // Both accounts' games that carried the device are cited.
    for number in ["3001", "3002"] {
        assert!(text.contains(number), "game {number} cited: {text}");
    }

    // Its next game on that device adds nothing: once per account and ban.
    ingest_with_fingerprints(
        &app,
        &server,
        3003,
        [
            ("fresh-start", "dev-acc1", "net-elsewhere"),
            seat("rep"),
            seat("acc2"),
            seat("acc3"),
        ],
    )
    .await;
    assert_eq!(case_of(&app, "fresh-start", "other").expect("case").2, 1);
}

#[actix_web::test]
async fn a_shared_network_needs_three_games_and_a_small_crowd() {
    let (app, server) = app_with_games(|_| {}).await;
    let alice = app.token(TokenRole::Admin, "alice");
    chat_ban(&app, &alice, 24 * 60).await;
    ingest_with_fingerprints(
        &app,
        &server,
        3001,
        [
            seat("rep"),
            ("acc1", "dev-acc1", "net-home"),
            seat("acc2"),
            seat("acc3"),
        ],
    )
    .await;
    // A housemate on their own device: two games are not enough.
    for number in [3002, 3003] {
        ingest_with_fingerprints(
            &app,
            &server,
            number,
            [
                ("housemate", "dev-h", "net-home"),
                seat("rep"),
                seat("acc2"),
                seat("acc3"),
            ],
        )
        .await;
    }
    assert!(case_of(&app, "housemate", "other").is_none());
    ingest_with_fingerprints(
        &app,
        &server,
        3004,
        [
            ("housemate", "dev-h", "net-home"),
            seat("rep"),
            seat("acc2"),
            seat("acc3"),
        ],
    )
    .await;
    let (case, _, _, _) = case_of(&app, "housemate", "other").expect("the third game");
    let text = case_json(&app, &alice, case).await.to_string();
    assert!(text.contains("network fingerprint of acc1"), "{text}");

    // A cafe: five players behind one address, three games each; nobody is noticed.
    ingest_with_fingerprints(
        &app,
        &server,
        3100,
        [
            seat("rep"),
            ("acc1", "dev-acc1", "net-cafe"),
            seat("acc2"),
            seat("acc3"),
        ],
    )
    .await;
    let mut number = 3101;
    for round in 0..3 {
        for guest in ["g1", "g2", "g3", "g4"] {
            let device = format!("dev-{guest}");
            ingest_with_fingerprints(
                &app,
                &server,
                number,
                [
                    (guest, &device, "net-cafe"),
                    seat("rep"),
                    seat("acc2"),
                    seat("acc3"),
                ],
            )
            .await;
            number += 1;
            if round == 2 {
                assert!(case_of(&app, guest, "other").is_none(), "{guest}");
            }
        }
    }
}
