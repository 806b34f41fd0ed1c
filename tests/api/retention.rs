//! Retention: the job purges the chat text and connection data of games past their period,
//! keeps what an open case cites, and leaves moves, results and newer games alone; a dry run
//! counts without changing anything.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::retention::purge_due;
use arbiter::cli::collusion::submission;
use arbiter::moderation::retention::PersonalData;
use arbiter::simulation::{simulate, SimulatedGame, SimulationConfig};
use arbiter::store::retention::purge_batch;
use arbiter::store::schema::{game_chat, game_events, game_seats, games};
use chrono::{TimeDelta, Utc};
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::moderation::{claim, decide};
use crate::support::TestApp;

fn three_games() -> Vec<SimulatedGame> {
    let games = simulate(&SimulationConfig {
        seed: 7,
        players: 12,
        games: 3,
        sparing_pairs: 0,
        feeding_pairs: 0,
        self_partnering: 0,
        rings: 0,
        arranged_games: vec![],
        max_rounds: 30,
    });
    games.into_iter().take(3).collect()
}

/// The game as the server posts it, with two chat lines and a disconnection; `recent` moves
/// it to yesterday.
fn body(game: &SimulatedGame, recent: bool) -> Value {
    let mut body = serde_json::to_value(submission(game)).expect("json");
    let red = game.seats[0].player.clone();
    body["chat"] = json!([
        {"ply": 0, "sender": red, "channel": "game", "text": "good luck all"},
        {"ply": 1, "sender": game.seats[1].player, "channel": "game", "text": "you too"},
    ]);
    body["events"] = json!([
        {"kind": "disconnect", "seat": "red", "ply": 2},
        {"kind": "reconnect", "seat": "red", "ply": 3},
    ]);
    if recent {
        let end = Utc::now() - TimeDelta::days(1);
        body["started_at"] = json!((end - TimeDelta::minutes(20)).to_rfc3339());
        body["ended_at"] = json!(end.to_rfc3339());
    }
    body
}

/// (chat lines, connection events, seats with a fingerprint, chat purged, connections purged)
fn held(app: &TestApp, site_game_id: u64) -> (i64, i64, i64, bool, bool) {
    let mut conn = app.state.pool.get().expect("connection");
    let (id, chat_purged, connections_purged): (
        i64,
        Option<chrono::NaiveDateTime>,
        Option<chrono::NaiveDateTime>,
    ) = games::table
        .filter(games::site_game_id.eq(site_game_id.to_string()))
        .select((
            games::id,
            games::chat_purged_at,
            games::connections_purged_at,
        ))
        .first(&mut *conn)
        .expect("game");
    let lines = game_chat::table
        .filter(game_chat::game_id.eq(id))
        .count()
        .get_result(&mut *conn)
        .expect("chat");
    let events = game_events::table
        .filter(game_events::game_id.eq(id))
        .count()
        .get_result(&mut *conn)
        .expect("events");
    let fingerprinted = game_seats::table
        .filter(game_seats::game_id.eq(id))
        .filter(
            game_seats::device_fp
                .is_not_null()
                .or(game_seats::network_fp.is_not_null()),
        )
        .count()
        .get_result(&mut *conn)
        .expect("seats");
    (
        lines,
        events,
        fingerprinted,
        chat_purged.is_some(),
        connections_purged.is_some(),
    )
}

#[actix_web::test]
async fn old_personal_data_goes_and_what_a_case_cites_stays() {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    let games = three_games();
    let [old, cited, recent] = [&games[0], &games[1], &games[2]];
    for (game, is_recent) in [(old, false), (cited, false), (recent, true)] {
        let response = app
            .post_json("/api/v1/games", Some(&server), &body(game, is_recent))
            .await;
        assert_eq!(response.status, 201, "{}", response.text());
    }
    let reporter = cited.seats[1].player.clone();
    let filed = app
        .post_json(
            "/api/v1/reports",
            Some(&app.player_token(&reporter)),
            &json!({"accused": [cited.seats[0].player], "reason": "offensive_chat",
                    "game": cited.site_game_id, "message": "rude in chat"}),
        )
        .await;
    assert_eq!(filed.status, 201, "{}", filed.text());
    for game in [old, cited, recent] {
        assert_eq!(held(&app, game.site_game_id), (2, 2, 4, false, false));
    }

    // A dry run counts and changes nothing.
    let dry = {
        let mut conn = app.state.pool.get().expect("connection");
        arbiter::cli::retention::pass(&mut conn, &app.state.settings, true).expect("dry run")
    };
    assert_eq!(
        (dry[0].games, dry[0].held, dry[0].chat_lines),
        (1, 1, 2),
        "{dry:?}"
    );
    assert_eq!(
        (dry[1].games, dry[1].events, dry[1].fingerprinted_seats),
        (1, 2, 4),
        "{dry:?}"
    );
    assert_eq!(held(&app, old.site_game_id), (2, 2, 4, false, false));

    // The job: the old game loses its chat text, connection events and fingerprints; the
    // cited one and yesterday's keep theirs; moves and results stay.
    let done = purge_due(&app.state).await.expect("purged");
    assert_eq!((done[0].games, done[0].held), (1, 1), "{done:?}");
    assert_eq!((done[1].games, done[1].held), (1, 1), "{done:?}");
    assert_eq!(held(&app, old.site_game_id), (0, 0, 0, true, true));
    assert_eq!(held(&app, cited.site_game_id), (2, 2, 4, false, false));
    assert_eq!(held(&app, recent.site_game_id), (2, 2, 4, false, false));
    let admin = app.token(TokenRole::Admin, "alice");
    let game = app
        .get(
            &format!("/api/v1/games/by-number/{}", old.site_game_id),
            Some(&admin),
        )
        .await;
    assert_eq!(game.status, 200, "{}", game.text());
    let game = game.json();
    assert_eq!(game["chat"].as_array().map(Vec::len), Some(0), "{game}");
    assert_eq!(game["seats"].as_array().map(Vec::len), Some(4), "{game}");
    let again = purge_due(&app.state).await.expect("purged");
    assert_eq!((again[0].games, again[0].looked_at), (0, 1), "{again:?}");

    // Once the case is decided, its game's data is kept one more period from then.
    let cases = app.get("/api/v1/admin/cases", Some(&admin)).await.json();
    let case = cases["items"][0]["id"].as_i64().expect("case");
    let claimed = claim(&app, &admin, case).await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let decided = decide(
        &app,
        &admin,
        case,
        json!({"decision": "dismiss_not_actionable"}),
    )
    .await;
    assert!(decided.status < 300, "{}", decided.text());
    let settings = app.state.settings.retention.clone();
    let mut conn = app.state.pool.get().expect("connection");
    let soon = arbiter::store::now() + TimeDelta::days(30);
    let (kept, _) = purge_batch(
        &mut conn,
        &settings,
        PersonalData::ChatText,
        None,
        soon,
        false,
    )
    .expect("batch");
    assert_eq!((kept.games, kept.held), (0, 1), "{kept:?}");
    let later = arbiter::store::now() + TimeDelta::days(i64::from(settings.chat_days) + 1);
    let (purged, _) = purge_batch(
        &mut conn,
        &settings,
        PersonalData::ChatText,
        None,
        later,
        false,
    )
    .expect("batch");
    assert_eq!((purged.games, purged.held), (2, 0), "{purged:?}");
    drop(conn);
    assert_eq!(held(&app, cited.site_game_id), (0, 2, 4, true, false));
}
