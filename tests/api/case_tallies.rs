//! Issue #41: a new entry costs a case the same number of statements whatever the case already
//! holds, and the priority kept from running tallies equals the one counted from scratch.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use arbiter::api::auth::tokens::TokenRole;
use arbiter::moderation::{case_priority, CaseId, ReportReason, ReportSource};
use arbiter::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use arbiter::store::schema::{case_reports, cases, games, players, reports};
use arbiter::store::{cases as stored_cases, DbConnection};
use arbiter::usecases::raise_automatic_report;
use chrono::{NaiveDateTime, TimeDelta, Utc};
use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::prelude::*;
use serde_json::json;

use crate::games::SHORT_GAME;
use crate::support::TestApp;

/// Entries the large case holds before the measured one.
const LARGE_CASE: usize = 10_000;

/// Counts the statements a connection starts.
struct StatementCounter(Arc<AtomicUsize>);

impl Instrumentation for StatementCounter {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if matches!(event, InstrumentationEvent::StartQuery { .. }) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Posts the short game and answers its archive id.
async fn stored_game(app: &TestApp) -> i64 {
    let server = app.token(TokenRole::Server, "eu-1");
    let response = app
        .send(
            actix_web::test::TestRequest::post()
                .uri("/api/v1/games")
                .insert_header(("authorization", format!("Bearer {server}")))
                .insert_header(("content-type", "text/plain"))
                .set_payload(SHORT_GAME.to_string()),
        )
        .await;
    assert_eq!(response.status, 201, "{}", response.text());
    let mut conn = app.state.pool.get().expect("connection");
    games::table
        .select(games::id)
        .first(&mut *conn)
        .expect("game id")
}

/// One collusion entry against `player` (with `partner`), as ingest raises it.
fn raise_entry(
    app: &TestApp,
    conn: &mut DbConnection,
    player: &str,
    partner: &str,
    game_id: i64,
    score: f64,
) {
    let partners = [partner];
    let report = NewAutomaticReport {
        source: AutomaticSource::CollusionAnalysis,
        player,
        also_accused: &partners,
        game_id,
        reason: "prearranged_teaming",
        rule: "pair_sparing",
        score,
        summary: "spared each other",
        supporting_games: &[game_id],
        created_at: Utc::now().naive_utc(),
    };
    conn.transaction(|conn| raise_automatic_report::raise(conn, &report, &app.state.moderation))
        .expect("raise");
}

/// The open teaming case of `player`.
fn case_of(conn: &mut DbConnection, player: &str) -> CaseId {
    cases::table
        .inner_join(players::table.on(players::id.eq(cases::accused_id)))
        .filter(players::name.eq(player))
        .filter(cases::reason.eq(ReportReason::PrearrangedTeaming))
        .select(cases::id)
        .first(conn)
        .expect("case")
}

/// Adds `count` collusion entries to a case in bulk, as if raised over months.
fn grow_case(conn: &mut DbConnection, case: CaseId, game_id: i64, count: usize) {
    let filed_at: NaiveDateTime = Utc::now().naive_utc() - TimeDelta::days(30);
    conn.transaction(|conn| {
        for chunk in (0..count).collect::<Vec<_>>().chunks(500) {
            let rows: Vec<_> = chunk
                .iter()
                .map(|i| {
                    (
                        reports::source.eq(ReportSource::CollusionAnalysis),
                        reports::reason.eq(ReportReason::PrearrangedTeaming),
                        reports::game_id.eq(Some(game_id)),
                        reports::score.eq(Some(0.3 + (*i % 5) as f64 / 100.0)),
                        reports::filed_at.eq(filed_at),
                        reports::updated_at.eq(filed_at),
                    )
                })
                .collect();
            match conn {
                DbConnection::Sqlite(c) => diesel::insert_into(reports::table)
                    .values(rows)
                    .execute(c)?,
                DbConnection::Postgres(c) => diesel::insert_into(reports::table)
                    .values(rows)
                    .execute(c)?,
            };
        }
        let linked: Vec<i64> = reports::table
            .left_join(case_reports::table)
            .filter(case_reports::case_id.is_null())
            .select(reports::id)
            .load(conn)?;
        for chunk in linked.chunks(500) {
            let rows: Vec<_> = chunk
                .iter()
                .map(|id| {
                    (
                        case_reports::case_id.eq(case),
                        case_reports::report_id.eq(*id),
                    )
                })
                .collect();
            match conn {
                DbConnection::Sqlite(c) => diesel::insert_into(case_reports::table)
                    .values(rows)
                    .execute(c)?,
                DbConnection::Postgres(c) => diesel::insert_into(case_reports::table)
                    .values(rows)
                    .execute(c)?,
            };
        }
        diesel::update(cases::table.find(case))
            .set(cases::entry_count.eq(cases::entry_count + linked.len() as i32))
            .execute(conn)?;
        diesel::QueryResult::Ok(())
    })
    .expect("grow case");
}

/// Statements one more entry takes on `player`'s case.
fn statements_for_entry(app: &TestApp, player: &str, partner: &str, game_id: i64) -> usize {
    let mut conn = app.state.pool.get().expect("connection");
    let counter = Arc::new(AtomicUsize::new(0));
    conn.set_instrumentation(StatementCounter(counter.clone()));
    raise_entry(app, &mut conn, player, partner, game_id, 0.6);
    conn.set_instrumentation(diesel::connection::get_default_instrumentation());
    counter.load(Ordering::Relaxed)
}

#[actix_web::test]
async fn an_entry_costs_the_same_statements_in_a_case_of_ten_thousand() {
    let app = TestApp::spawn().await;
    let game_id = stored_game(&app).await;
    {
        let mut conn = app.state.pool.get().expect("connection");
        raise_entry(&app, &mut conn, "small", "smallmate", game_id, 0.5);
        raise_entry(&app, &mut conn, "large", "largemate", game_id, 0.5);
        let large = case_of(&mut conn, "large");
        grow_case(&mut conn, large, game_id, LARGE_CASE);
    }
    // Warm the statement caches of both paths alike before counting.
    statements_for_entry(&app, "small", "smallmate", game_id);
    statements_for_entry(&app, "large", "largemate", game_id);
    let small = statements_for_entry(&app, "small", "smallmate", game_id);
    let large = statements_for_entry(&app, "large", "largemate", game_id);
    eprintln!("statements for one entry: case of 3 entries {small}, of {LARGE_CASE} {large}");
    assert_eq!(
        small, large,
        "an entry into a case of {LARGE_CASE} entries took {large} statements, into a case of 3 \
         took {small}"
    );
    assert!(large <= 60, "an entry took {large} statements");

    let mut conn = app.state.pool.get().expect("connection");
    let case = case_of(&mut conn, "large");
    let row = stored_cases::find(&mut conn, case)
        .expect("read")
        .expect("case");
    assert_eq!(row.entry_count as usize, LARGE_CASE + 3);
    let facts =
        stored_cases::case_facts(&mut conn, &row, &app.state.moderation).expect("case facts");
    assert_eq!(facts.entries.len(), LARGE_CASE + 3);
    let recounted = case_priority(&facts, Utc::now(), &app.state.moderation)
        .parts
        .without_age();
    assert!(
        (recounted - row.priority_base).abs() < 1e-9,
        "stored {} recounted {recounted}",
        row.priority_base
    );
}

/// Player reporters, one reporting two players, and a decision that changes a reporter's
/// accuracy: the stored base always equals the base counted from scratch.
#[actix_web::test]
async fn the_running_tally_equals_a_recount_after_reports_and_decisions() {
    let (app, _server) = crate::moderation::app_with_games(|_| {}).await;
    for (reporter, accused) in [
        ("rep", "acc1"),
        ("acc3", "acc1"),
        ("rep", "acc2"),
        ("acc2", "acc1"),
    ] {
        let response = crate::moderation::report(
            &app,
            reporter,
            json!({ "accused": [accused], "reason": "offensive_chat", "game": 1001 }),
        )
        .await;
        assert!(
            response.status == 201 || response.status == 200,
            "{}",
            response.text()
        );
    }
    let admin = app.token(TokenRole::Admin, "alice");
    let mut conn = app.state.pool.get().expect("connection");
    let check = |conn: &mut DbConnection| {
        let open: Vec<CaseId> = cases::table
            .filter(cases::status.eq("open"))
            .select(cases::id)
            .load(conn)
            .expect("cases");
        assert!(!open.is_empty());
        for id in open {
            let row = stored_cases::find(conn, id).expect("read").expect("case");
            let facts = stored_cases::case_facts(conn, &row, &app.state.moderation).expect("facts");
            let recounted = case_priority(&facts, Utc::now(), &app.state.moderation)
                .parts
                .without_age();
            assert!(
                (recounted - row.priority_base).abs() < 1e-9,
                "case {id:?}: stored {} recounted {recounted}",
                row.priority_base
            );
            assert_eq!(row.entry_count as usize, facts.entries.len());
        }
    };
    check(&mut conn);
    drop(conn);
    // Uphold acc2's case: rep's accuracy rises, and acc1's case (which rep reported) re-ranks.
    let mut conn = app.state.pool.get().expect("connection");
    let acc2 = cases::table
        .inner_join(players::table.on(players::id.eq(cases::accused_id)))
        .filter(players::name.eq("acc2"))
        .select(cases::id)
        .first::<CaseId>(&mut conn)
        .expect("acc2 case");
    drop(conn);
    let claimed = crate::moderation::claim(&app, &admin, acc2.0).await;
    assert_eq!(claimed.status, 200, "{}", claimed.text());
    let body =
        json!({ "decision": "warn", "ground": "abusive_language_habit", "evidence_games": [1002] });
    let decided = crate::moderation::decide(&app, &admin, acc2.0, body).await;
    assert!(decided.status < 300, "{}", decided.text());
    let mut conn = app.state.pool.get().expect("connection");
    check(&mut conn);
}
