//! Player look-ups answered from what ingest keeps: a player's summary and a pair's totals
//! equal a recount from the games' seats (and what the migration's backfill computes), and the
//! pages that walk a player's or a pair's games list each game once, newest first.

use std::collections::{BTreeMap, BTreeSet};

use actix_web::test::TestRequest;
use arbiter::api::auth::tokens::TokenRole;
use arbiter::store::archive_pairs::{self, PairTotals};
use arbiter::store::archive_players::{self, PlayerSummary};
use arbiter::store::schema::{archive_pairs as pairs_table, archive_player_variants, game_pairs};
use arbiter::store::schema::{archive_players as players_table, game_seats, games};
use arbiter::store::{migrations, DbConnection};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde_json::{json, Value};

use crate::games::real_games;
use crate::moderation::game_text;
use crate::support::TestApp;

const AGGREGATES_MIGRATION: &str = "20260601000000";

async fn post_game(app: &TestApp, server: &str, body: Value) -> i64 {
    let response = app.post_json("/api/v1/games", Some(server), &body).await;
    assert_eq!(response.status, 201, "{}", response.text());
    response.json()["id"].as_i64().expect("id")
}

/// A short game of `variant` between `seats`, ended at `ended_at`.
async fn ingest_short(
    app: &TestApp,
    server: &str,
    number: i64,
    variant: &str,
    seats: [&str; 4],
    ended_at: &str,
) -> i64 {
    let colours = ["red", "blue", "yellow", "green"];
    let seat_list: Vec<Value> = colours
        .iter()
        .zip(seats)
        .map(|(seat, player)| json!({ "seat": seat, "player": player }))
        .collect();
    let body = json!({
        "pgn4": game_text(number, variant, seats),
        "seats": seat_list,
        "ended_at": ended_at,
    });
    post_game(app, server, body).await
}

/// The first `n` real games of `dir` (`ffa` or `teams`), posted as PGN4 bodies.
async fn ingest_real(app: &TestApp, server: &str, dir: &str, n: usize) {
    let games = real_games()
        .into_iter()
        .filter(|(path, _)| path.parent().is_some_and(|d| d.ends_with(dir)))
        .take(n);
    for (path, text) in games {
        let response = app
            .send(
                TestRequest::post()
                    .uri("/api/v1/games")
                    .insert_header(("authorization", format!("Bearer {server}")))
                    .insert_header(("content-type", "text/plain"))
                    .set_payload(text),
            )
            .await;
        assert_eq!(
            response.status,
            201,
            "{}: {}",
            path.display(),
            response.text()
        );
    }
}

/// Real FFA and Teams games, and short games that make the counting hard: a player seated
/// twice in one game, aborts, three variants, and a pair whose games arrive out of played
/// order. `walker` plays 23 of them (twice seated in one), 9 with `partner`.
async fn archive() -> (TestApp, String) {
    let app = TestApp::spawn().await;
    let server = app.token(TokenRole::Server, "eu-1");
    ingest_real(&app, &server, "ffa", 12).await;
    ingest_real(&app, &server, "teams", 6).await;
    let variants = ["FFA", "Teams", "Solo"];
    for i in 0..22_i64 {
        let variant = variants[(i % 3) as usize];
        let other = format!("p{}", i % 5);
        let seats = match i % 4 {
            0 => ["walker", "partner", "x1", &other],
            1 => ["partner", "walker", &other, "x2"],
            2 => [&other, "x1", "walker", "x3"],
            _ => ["x2", &other, "x3", "walker"],
        };
        let seats = seats.map(|s| s.to_string());
        let seats = [&*seats[0], &*seats[1], &*seats[2], &*seats[3]];
        // Days in an order that is not the order of arrival.
        let day = 1 + (i * 7) % 28;
        ingest_short(
            &app,
            &server,
            900_100 + i,
            variant,
            seats,
            &format!("2026-02-{day:02}T12:00:00Z"),
        )
        .await;
    }
    ingest_short(
        &app,
        &server,
        900_200,
        "FFA",
        ["walker", "partner", "walker", "x1"],
        "2026-01-15T12:00:00Z",
    )
    .await;
    (app, server)
}

/// Each seat with what the recount needs.
type SeatFacts = (i64, i16, String, i16, String, Option<i16>, NaiveDateTime);

fn seats(conn: &mut DbConnection) -> Vec<SeatFacts> {
    game_seats::table
        .inner_join(games::table)
        .select((
            game_seats::game_id,
            game_seats::seat,
            game_seats::player,
            game_seats::placement,
            games::variant,
            games::aborted_seat,
            games::played_at,
        ))
        .load(conn)
        .expect("seats")
}

/// Every player's summary and every pair's totals, counted from the seats.
fn recount(
    rows: &[SeatFacts],
) -> (
    BTreeMap<String, PlayerSummary>,
    BTreeMap<(String, String), PairTotals>,
) {
    // (player, game) -> (best placement, aborted, variant)
    let mut per_game: BTreeMap<(String, i64), (i16, bool, String)> = BTreeMap::new();
    let mut players_of: BTreeMap<i64, (BTreeSet<String>, NaiveDateTime)> = BTreeMap::new();
    for (game, seat, player, placement, variant, aborted_seat, played_at) in rows {
        let entry =
            per_game
                .entry((player.clone(), *game))
                .or_insert((*placement, false, variant.clone()));
        entry.0 = entry.0.min(*placement);
        entry.1 |= *aborted_seat == Some(*seat);
        players_of
            .entry(*game)
            .or_insert_with(|| (BTreeSet::new(), *played_at))
            .0
            .insert(player.clone());
    }
    let mut summaries: BTreeMap<String, PlayerSummary> = BTreeMap::new();
    let mut variants: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
    for ((player, _), (placement, aborted, variant)) in per_game {
        let s = summaries.entry(player.clone()).or_default();
        s.games += 1;
        if (1..=4).contains(&placement) {
            s.placements[(placement - 1) as usize] += 1;
        }
        s.aborted += i64::from(aborted);
        *variants
            .entry(player)
            .or_default()
            .entry(variant)
            .or_default() += 1;
    }
    for (player, by_variant) in variants {
        if let Some(s) = summaries.get_mut(&player) {
            s.by_variant = by_variant.into_iter().collect();
        }
    }
    let mut pairs: BTreeMap<(String, String), PairTotals> = BTreeMap::new();
    for (names, played_at) in players_of.values() {
        let names: Vec<&String> = names.iter().collect();
        for (i, low) in names.iter().enumerate() {
            for high in &names[i + 1..] {
                let t = pairs
                    .entry(((*low).clone(), (*high).clone()))
                    .or_insert(PairTotals {
                        games: 0,
                        first_played_at: *played_at,
                        last_played_at: *played_at,
                    });
                t.games += 1;
                t.first_played_at = t.first_played_at.min(*played_at);
                t.last_played_at = t.last_played_at.max(*played_at);
            }
        }
    }
    (summaries, pairs)
}

type Dump = (
    Vec<(String, String, i64, i64, i64, i64, i64, i64)>,
    Vec<(String, String, i64)>,
    Vec<(String, String, i64, NaiveDateTime, NaiveDateTime)>,
    Vec<(String, String, i64)>,
);

/// Every aggregate row, in key order.
fn dump(conn: &mut DbConnection) -> Dump {
    let players = players_table::table
        .order(players_table::name.asc())
        .select((
            players_table::name,
            players_table::name_folded,
            players_table::games,
            players_table::placed_first,
            players_table::placed_second,
            players_table::placed_third,
            players_table::placed_fourth,
            players_table::aborted,
        ))
        .load(conn)
        .expect("players");
    let variants = archive_player_variants::table
        .order((
            archive_player_variants::player.asc(),
            archive_player_variants::variant.asc(),
        ))
        .load(conn)
        .expect("variants");
    let pairs = pairs_table::table
        .order((
            pairs_table::player_low.asc(),
            pairs_table::player_high.asc(),
        ))
        .load(conn)
        .expect("pairs");
    let pair_games = game_pairs::table
        .order((
            game_pairs::player_low.asc(),
            game_pairs::player_high.asc(),
            game_pairs::game_id.asc(),
        ))
        .load(conn)
        .expect("pair games");
    (players, variants, pairs, pair_games)
}

/// Reverts the migrations down to and including the aggregates' migration.
fn revert_aggregates(conn: &mut DbConnection) {
    use diesel_migrations::MigrationHarness;
    while !migrations::pending(conn)
        .expect("pending")
        .iter()
        .any(|v| v == AGGREGATES_MIGRATION)
    {
        match conn {
            DbConnection::Sqlite(c) => c
                .revert_last_migration(migrations::SQLITE_MIGRATIONS)
                .map(|_| ()),
            DbConnection::Postgres(c) => c
                .revert_last_migration(migrations::POSTGRES_MIGRATIONS)
                .map(|_| ()),
        }
        .expect("revert");
    }
}

#[actix_web::test]
async fn summaries_and_pair_totals_kept_at_ingest_equal_a_recount_and_the_backfill() {
    let (app, _server) = archive().await;
    let mut conn = app.state.pool.get().expect("connection");
    let rows = seats(&mut conn);
    let (summaries, pairs) = recount(&rows);
    assert!(summaries.len() > 20, "{} players", summaries.len());
    for (player, expected) in &summaries {
        let kept = archive_players::summary(&mut conn, player).expect("summary");
        assert_eq!(&kept, expected, "{player}");
    }
    for ((low, high), expected) in &pairs {
        // Either order names the pair.
        let kept = archive_pairs::totals(&mut conn, high, low).expect("totals");
        assert_eq!(kept.as_ref(), Some(expected), "{low} / {high}");
    }
    assert_eq!(
        archive_pairs::totals(&mut conn, "walker", "walker").expect("self"),
        None
    );
    assert_eq!(
        archive_players::summary(&mut conn, "nobody").expect("unknown"),
        PlayerSummary::default()
    );
    // The hard cases are in there: a player seated twice counts the game once, and a pair's
    // first game is the earliest played, not the first to arrive.
    let walker = &summaries["walker"];
    assert_eq!(walker.games, 23);
    assert_eq!(walker.by_variant.len(), 3);
    let together = &pairs[&("partner".to_string(), "walker".to_string())];
    assert_eq!(together.games, 13);
    assert_eq!(
        together.first_played_at.to_string(),
        "2026-01-15 12:00:00",
        "{together:?}"
    );

    // The migration's backfill computes exactly what ingest kept.
    let kept = dump(&mut conn);
    revert_aggregates(&mut conn);
    migrations::run_pending(&mut conn).expect("up again");
    assert_eq!(dump(&mut conn), kept);

    // And the route answers from them.
    let admin = app.token(TokenRole::Admin, "ana");
    let summary = app
        .get("/api/v1/players/walker/summary", Some(&admin))
        .await
        .json();
    assert_eq!(summary["games"], 23);
    let placed: i64 = ["first", "second", "third", "fourth"]
        .iter()
        .map(|k| summary["placements"][k].as_i64().expect("count"))
        .sum();
    assert_eq!(placed, 23);
    assert_eq!(summary["aborted"], walker.aborted);
}

/// Every id a paged listing visits, `limit` at a time.
async fn walk(app: &TestApp, token: &str, path: &str, id_of: fn(&Value) -> i64) -> Vec<i64> {
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let separator = if path.contains('?') { '&' } else { '?' };
    loop {
        let url = match &cursor {
            Some(c) => format!("{path}{separator}limit=4&cursor={c}"),
            None => format!("{path}{separator}limit=4"),
        };
        let page = app.get(&url, Some(token)).await;
        assert_eq!(page.status, 200, "{url}: {}", page.text());
        let page = page.json();
        let items = page["items"].as_array().expect("items");
        assert!(items.len() <= 4);
        seen.extend(items.iter().map(id_of));
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return seen,
        }
    }
}

#[actix_web::test]
async fn player_and_pair_pages_list_each_game_once_newest_first() {
    let (app, _server) = archive().await;
    let admin = app.token(TokenRole::Admin, "ana");
    let rows = {
        let mut conn = app.state.pool.get().expect("connection");
        seats(&mut conn)
    };
    let games_of = |name: &str| -> BTreeSet<i64> {
        rows.iter().filter(|r| r.2 == name).map(|r| r.0).collect()
    };
    let newest_first = |set: BTreeSet<i64>| -> Vec<i64> { set.into_iter().rev().collect() };
    let walker = games_of("walker");
    let partner = games_of("partner");
    let shared: BTreeSet<i64> = walker.intersection(&partner).copied().collect();
    assert_eq!((walker.len(), shared.len()), (23, 13));

    let by_id = |g: &Value| g["id"].as_i64().expect("id");
    let in_pair = |g: &Value| g["game"]["id"].as_i64().expect("id");
    assert_eq!(
        walk(&app, &admin, "/api/v1/games?player=walker", by_id).await,
        newest_first(walker.clone())
    );
    assert_eq!(
        walk(&app, &admin, "/api/v1/players/walker/games", in_pair).await,
        newest_first(walker.clone())
    );
    for path in [
        "/api/v1/games?player=walker&with=partner",
        "/api/v1/games?player=partner&with=walker",
        "/api/v1/games?with=walker&player=partner",
    ] {
        assert_eq!(
            walk(&app, &admin, path, by_id).await,
            newest_first(shared.clone()),
            "{path}"
        );
    }
    assert_eq!(
        walk(
            &app,
            &admin,
            "/api/v1/players/walker/games?with=partner",
            in_pair
        )
        .await,
        newest_first(shared.clone())
    );
    // The same name twice is the player alone.
    assert_eq!(
        walk(
            &app,
            &admin,
            "/api/v1/games?player=walker&with=walker",
            by_id
        )
        .await,
        newest_first(walker.clone())
    );
    // Other filters narrow the walk.
    let teams: BTreeSet<i64> = rows
        .iter()
        .filter(|r| r.2 == "walker" && r.4 == "Teams")
        .map(|r| r.0)
        .collect();
    assert!(!teams.is_empty());
    assert_eq!(
        walk(
            &app,
            &admin,
            "/api/v1/games?player=walker&variant=Teams",
            by_id
        )
        .await,
        newest_first(teams)
    );
    let teams_shared: BTreeSet<i64> = rows
        .iter()
        .filter(|r| r.2 == "walker" && r.4 == "Teams" && shared.contains(&r.0))
        .map(|r| r.0)
        .collect();
    assert_eq!(
        walk(
            &app,
            &admin,
            "/api/v1/games?player=walker&with=partner&variant=Teams",
            by_id
        )
        .await,
        newest_first(teams_shared)
    );
    assert!(walk(
        &app,
        &admin,
        "/api/v1/games?player=walker&with=nobody",
        by_id
    )
    .await
    .is_empty());
}
