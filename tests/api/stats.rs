//! Workload and response times (docs/moderation.md, "Stats"): hand-built cases and their log
//! lines over a week, rolled by the stats job, read by day and by week, equal the counts
//! worked out by hand; a case that spans days counts where each of its events happened. On
//! both databases. The console's Stats page draws the same answer.

use arbiter::api::auth::tokens::TokenRole;
use arbiter::api::jobs::stats_roller::stats_pass;
use arbiter::moderation::{
    AppealDecision, AppealId, AuditAction, CaseId, DecisionKind, PlayerId, ReportReason, SanctionId,
};
use arbiter::store::modlog::{log_action, LogActor, LogActorKind, LogRefs};
use arbiter::store::schema::{case_reports, cases, stats_days};
use arbiter::usecases::roll_stats::roll_stats_in_pages;
use chrono::{NaiveDate, NaiveDateTime, TimeZone, Utc};
use diesel::prelude::*;
use serde_json::Value;

use crate::console::Browser;
use crate::queue_fixtures::{Fixtures, Report};
use crate::support::TestApp;

fn at(day: u32, hour: u32, minute: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, day)
        .and_then(|d| d.and_hms_opt(hour, minute, 0))
        .expect("time")
}

/// Writes the case rows and the log lines the service would have written.
struct Scene<'a> {
    fx: &'a Fixtures,
}

impl Scene<'_> {
    #[allow(clippy::too_many_arguments)]
    fn case(
        &self,
        id: i64,
        accused: &str,
        reason: ReportReason,
        source: &str,
        opened: NaiveDateTime,
        decided: Option<NaiveDateTime>,
    ) {
        let accused = self.fx.player(accused);
        let reason_name = serde_json::to_value(reason).expect("reason");
        let reason_name = reason_name.as_str().expect("name");
        let report = self.fx.report(Report {
            source,
            reporter: (source == "player").then(|| self.fx.player("watcher")),
            reason: reason_name,
            accused: vec![accused],
            filed_at: opened,
            ..Report::default()
        });
        let mut conn = self.fx.conn();
        diesel::insert_into(cases::table)
            .values((
                cases::id.eq(id),
                cases::accused_id.eq(accused),
                cases::reason.eq(reason_name),
                cases::status.eq(if decided.is_some() { "decided" } else { "open" }),
                cases::opened_at.eq(opened),
                cases::updated_at.eq(opened),
                cases::priority_base.eq(10.0),
                cases::entry_count.eq(1),
                cases::decided_at.eq(decided),
            ))
            .execute(&mut *conn)
            .expect("case");
        diesel::insert_into(case_reports::table)
            .values((
                case_reports::case_id.eq(id),
                case_reports::report_id.eq(report),
            ))
            .execute(&mut *conn)
            .expect("case report");
        drop(conn);
        let action = AuditAction::CaseOpened {
            case: CaseId(id),
            accused: PlayerId(accused),
            reason,
        };
        self.log(opened, None, &action, Some(id), None);
    }

    fn claim(&self, when: NaiveDateTime, admin: &str, case: i64) {
        let action = AuditAction::CaseClaimed {
            case: CaseId(case),
            admin: PlayerId(self.fx.player(admin)),
            until: Utc.from_utc_datetime(&when),
        };
        self.log(when, Some(admin), &action, Some(case), None);
    }

    fn release(&self, when: NaiveDateTime, admin: &str, case: i64) {
        let action = AuditAction::ClaimReleased {
            case: CaseId(case),
            admin: PlayerId(self.fx.player(admin)),
        };
        self.log(when, Some(admin), &action, Some(case), None);
    }

    fn decide(&self, when: NaiveDateTime, admin: &str, case: i64, kind: DecisionKind) {
        let action = AuditAction::Decision {
            case: CaseId(case),
            admin: PlayerId(self.fx.player(admin)),
            kind,
            ground: None,
            evidence_games: Vec::new(),
        };
        self.log(when, Some(admin), &action, Some(case), None);
    }

    fn log(
        &self,
        when: NaiveDateTime,
        admin: Option<&str>,
        action: &AuditAction,
        case: Option<i64>,
        sanction: Option<i64>,
    ) {
        let actor = match admin {
            Some(name) => LogActor {
                kind: LogActorKind::Admin,
                name: Some(name),
            },
            None => LogActor::SYSTEM,
        };
        log_action(
            &mut self.fx.conn(),
            when,
            actor,
            action,
            LogRefs {
                case_id: case.map(CaseId),
                sanction_id: sanction.map(SanctionId),
                ..LogRefs::default()
            },
        )
        .expect("log line");
    }
}

/// Monday 2 and Tuesday 3 November, then Monday 9: four cases, two claims by alice (one
/// released), a decision each by alice and bob, and an appeal that reduces alice's sanction.
fn build(app: &TestApp) {
    let fx = Fixtures::new(app);
    let scene = Scene { fx: &fx };
    // A: a player's report, first claimed after 1 h, released, decided the next day by bob.
    scene.case(
        9001,
        "acc1",
        ReportReason::OffensiveChat,
        "player",
        at(2, 10, 0),
        Some(at(3, 10, 0)),
    );
    scene.claim(at(2, 11, 0), "alice", 9001);
    scene.release(at(2, 11, 30), "alice", 9001);
    scene.claim(at(3, 9, 0), "bob", 9001);
    scene.decide(at(3, 10, 0), "bob", 9001, DecisionKind::Warn);
    // B: the collusion statistics; claimed after 10 min, sanctioned after 1 h by alice.
    scene.case(
        9002,
        "acc2",
        ReportReason::SelfPartnering,
        "collusion_analysis",
        at(2, 12, 0),
        Some(at(2, 13, 0)),
    );
    scene.claim(at(2, 12, 10), "alice", 9002);
    scene.decide(at(2, 13, 0), "alice", 9002, DecisionKind::Sanction);
    let alice = fx.player("alice");
    let sanction = fx.sanction(
        fx.player("acc2"),
        Some(9002),
        "play_ban",
        at(2, 13, 0),
        None,
        alice,
    );
    // Reduced on appeal a week later: counted on the 9th, against alice.
    let appeal = AuditAction::AppealDecided {
        appeal: AppealId(1),
        sanction: SanctionId(sanction),
        decision: AppealDecision::Reduce {
            new_end: Utc.from_utc_datetime(&at(10, 0, 0)),
        },
    };
    scene.log(at(9, 15, 0), Some("carol"), &appeal, None, Some(sanction));
    // C and D stay open.
    scene.case(
        9003,
        "acc3",
        ReportReason::Abandoning,
        "conduct_signal",
        at(3, 8, 0),
        None,
    );
    scene.case(
        9004,
        "acc1",
        ReportReason::OffensiveChat,
        "chat_analysis",
        at(9, 0, 30),
        None,
    );
}

async fn stats(app: &TestApp, admin: &str, query: &str) -> Value {
    let got = app
        .get(&format!("/api/v1/admin/stats?{query}"), Some(admin))
        .await;
    assert_eq!(got.status, 200, "{}", got.text());
    got.json()
}

#[actix_web::test]
async fn stats_equal_a_recount_of_hand_built_cases_by_day_and_by_week() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "carol");
    build(&app);
    let pass = stats_pass(&app.state).await.expect("roll");
    assert!(pass.days_completed >= 8, "{pass:?}");
    // Rolling again changes nothing.
    let by_day = stats(&app, &admin, "from=2026-11-02&to=2026-11-09").await;
    stats_pass(&app.state).await.expect("roll again");
    assert_eq!(
        stats(&app, &admin, "from=2026-11-02&to=2026-11-09").await["buckets"],
        by_day["buckets"]
    );

    let days = by_day["buckets"].as_array().expect("buckets");
    assert_eq!(days.len(), 8);
    let (mon, tue, next_mon) = (&days[0], &days[1], &days[7]);
    assert_eq!(mon["start"], "2026-11-02");
    assert_eq!(mon["opened"], 2);
    assert_eq!(mon["opened_by_reason"]["offensive_chat"], 1);
    assert_eq!(mon["opened_by_reason"]["self_partnering"], 1);
    assert_eq!(mon["opened_by_origin"]["player"], 1);
    assert_eq!(mon["opened_by_origin"]["automatic"], 1);
    assert_eq!(mon["decided"], 1);
    assert_eq!(mon["decided_by_outcome"]["sanction"], 1);
    assert_eq!(mon["to_first_claim"]["cases"], 2);
    assert_eq!(mon["to_decision"]["cases"], 1);
    within(&mon["to_decision"]["median_secs"], 3600);
    assert_eq!(mon["open_at_end"], 1);
    assert_eq!(mon["oldest_open_at"], "2026-11-02T10:00:00Z");
    let alice = &mon["admins"][0];
    assert_eq!(
        (
            alice["admin"].as_str(),
            alice["decisions"].as_i64(),
            alice["claims_dropped"].as_i64()
        ),
        (Some("alice"), Some(1), Some(1))
    );

    // A spans two days: opened on Monday, decided on Tuesday after 24 h; bob's claim is
    // not its first.
    assert_eq!(tue["opened"], 1);
    assert_eq!(tue["opened_by_origin"]["automatic"], 1);
    assert_eq!(tue["decided_by_outcome"]["warn"], 1);
    within(&tue["to_decision"]["median_secs"], 24 * 3600);
    within(
        &tue["to_decision_by_reason"]["offensive_chat"]["median_secs"],
        24 * 3600,
    );
    assert_eq!(tue["to_first_claim"]["cases"], 0);
    assert_eq!(tue["to_first_claim"]["median_secs"], Value::Null);
    assert_eq!(tue["open_at_end"], 1);
    assert_eq!(tue["oldest_open_at"], "2026-11-03T08:00:00Z");
    assert_eq!(tue["admins"][0]["admin"], "bob");

    // The quiet days in between keep the queue as it stood.
    for quiet in &days[2..7] {
        assert_eq!(
            (quiet["opened"].as_i64(), quiet["open_at_end"].as_i64()),
            (Some(0), Some(1))
        );
    }
    assert_eq!(next_mon["opened"], 1);
    assert_eq!(next_mon["open_at_end"], 2);
    assert_eq!(next_mon["oldest_open_at"], "2026-11-03T08:00:00Z");
    assert_eq!(next_mon["admins"][0]["reversed_on_appeal"], 1);

    // The whole range, per admin and per reason.
    let admins = by_day["admins"].as_array().expect("admins");
    assert_eq!(admins.len(), 2);
    assert_eq!(admins[0]["admin"], "alice");
    assert_eq!(
        (
            admins[0]["decisions"].as_i64(),
            admins[0]["claims_dropped"].as_i64(),
            admins[0]["reversed_on_appeal"].as_i64()
        ),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(
        by_day["to_decision_by_reason"]["self_partnering"]["cases"],
        1
    );

    // By ISO week: the 2nd and 3rd in one, the 9th in the next.
    let by_week = stats(&app, &admin, "from=2026-11-02&to=2026-11-09&bucket=week").await;
    let weeks = by_week["buckets"].as_array().expect("weeks");
    assert_eq!(weeks.len(), 2);
    assert_eq!(
        (weeks[0]["start"].as_str(), weeks[0]["end"].as_str()),
        (Some("2026-11-02"), Some("2026-11-08"))
    );
    assert_eq!(
        (weeks[0]["opened"].as_i64(), weeks[0]["decided"].as_i64()),
        (Some(3), Some(2))
    );
    assert_eq!(weeks[0]["to_decision"]["cases"], 2);
    assert_eq!(weeks[0]["open_at_end"], 1);
    assert_eq!(weeks[1]["opened"], 1);

    // Days before the log's first line count nothing, with an empty queue.
    let earlier = stats(&app, &admin, "from=2026-10-31&to=2026-11-02").await;
    let earlier = earlier["buckets"].as_array().expect("buckets");
    assert_eq!(earlier.len(), 3);
    assert_eq!(
        (
            earlier[0]["opened"].as_i64(),
            earlier[0]["open_at_end"].as_i64()
        ),
        (Some(0), Some(0))
    );
    assert_eq!(earlier[2]["opened"], 2);

    // Bad ranges name their field.
    let reversed = app
        .get(
            "/api/v1/admin/stats?from=2026-11-09&to=2026-11-02",
            Some(&admin),
        )
        .await;
    reversed.assert_error(422, "invalid_range");
    assert!(
        reversed.text().contains("\"field\":\"from\""),
        "{}",
        reversed.text()
    );
    let long = app
        .get(
            "/api/v1/admin/stats?from=2024-01-01&to=2026-11-02",
            Some(&admin),
        )
        .await;
    long.assert_error(422, "invalid_range");
    let garbled = app
        .get("/api/v1/admin/stats?from=yesterday", Some(&admin))
        .await;
    assert_eq!(garbled.status, 400, "{}", garbled.text());

    // The console draws it: SVG charts beside tables.
    let mut browser = Browser::new(&app);
    browser.sign_in(&admin).await;
    let page = browser
        .get("/admin/stats?from=2026-11-02&to=2026-11-09")
        .await;
    assert_eq!(page.status, 200, "{}", page.text());
    let page = page.text();
    assert!(page.contains("<svg"), "{page}");
    assert!(
        page.contains("Decisions per admin") && page.contains(">alice<"),
        "{page}"
    );
    assert!(page.contains("Open cases over time"));
}

/// A wait read from the histogram lies within 12.5 % of the exact one.
/// A pass reads a day's log a page at a time: read a line at a time, the days tally the same.
#[actix_web::test]
async fn a_day_read_a_line_at_a_time_tallies_as_read_at_once() {
    let app = TestApp::spawn().await;
    let admin = app.token(TokenRole::Admin, "carol");
    build(&app);
    let fx = Fixtures::new(&app);
    let now = app.state.clock.now();
    roll_stats_in_pages(&mut fx.conn(), now, 1).expect("roll a line at a time");
    let line_by_line = stats(&app, &admin, "from=2026-11-02&to=2026-11-09").await;
    diesel::delete(stats_days::table)
        .execute(&mut fx.conn())
        .expect("forget the rolled days");
    stats_pass(&app.state).await.expect("roll at once");
    let at_once = stats(&app, &admin, "from=2026-11-02&to=2026-11-09").await;
    assert_eq!(line_by_line["buckets"], at_once["buckets"]);
    assert_eq!(line_by_line["buckets"][0]["opened"], 2);
    assert_eq!(line_by_line["buckets"][1]["decided"], 1);
}

fn within(got: &Value, exact: i64) {
    let got = got.as_i64().unwrap_or_else(|| panic!("a wait, not {got}"));
    let ratio = got as f64 / exact as f64;
    assert!(
        (0.875..=1.125).contains(&ratio),
        "{got} s against {exact} s"
    );
}
