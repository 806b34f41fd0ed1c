//! Signals fire on habits and stay silent on single games, honest reconnects and one bad day.

use crate::support;

use arbiter::conduct::*;
use arbiter::moderation::{GameNumber, PlayerId, Variant};
use chrono::{DateTime, TimeDelta, Utc};
use support::*;

const PLAYER: i64 = 5;

/// `good` completed games, one every `good_every_hours`, starting at t0.
fn good_games(good: i64, good_every_hours: i64) -> Vec<SeatOutcome> {
    (0..good)
        .map(|n| {
            synth(
                PLAYER,
                n,
                t0() + TimeDelta::hours(n * good_every_hours),
                OutcomeKind::Completed,
            )
        })
        .collect()
}

fn at_day(day: i64, minute: i64) -> DateTime<Utc> {
    t0() + TimeDelta::days(day) + TimeDelta::minutes(minute)
}

fn forfeit(game: i64, at: DateTime<Utc>, lost: bool) -> SeatOutcome {
    let mut o = synth(PLAYER, game, at, OutcomeKind::Forfeited);
    o.disconnects = 1;
    o.departure = Some(departure(DepartureKind::Forfeited, 30, lost));
    o
}

fn record_of(outcomes: &[SeatOutcome]) -> PlayerRecord {
    PlayerRecord::rebuild(PlayerId(PLAYER), outcomes, &ConductPolicy::default().record)
}

fn now() -> DateTime<Utc> {
    t0() + TimeDelta::days(40)
}

fn kinds(record: &PlayerRecord) -> Vec<SignalKind> {
    signals(record, now(), &ConductPolicy::default())
        .iter()
        .map(|s| s.kind)
        .collect()
}

#[test]
fn habitual_abandonment_fires_and_lists_every_game() {
    // 30 good games over 30 days, and 8 forfeits without reconnecting on 5 days.
    let mut outcomes = good_games(30, 24);
    let forfeits: Vec<i64> = (100..108).collect();
    for (i, &game) in forfeits.iter().enumerate() {
        outcomes.push(forfeit(
            game,
            at_day(2 + (i as i64 % 5) * 6, i as i64),
            false,
        ));
    }
    let record = record_of(&outcomes);
    let found = signals(&record, now(), &ConductPolicy::default());
    let abandonment = found
        .iter()
        .find(|s| s.kind == SignalKind::Abandonment)
        .expect("abandonment signal");
    let mut games = abandonment.supporting_games.clone();
    games.sort();
    assert_eq!(
        games,
        forfeits.iter().map(|&g| GameNumber(g)).collect::<Vec<_>>()
    );
    assert!(abandonment.strength > 0.0 && abandonment.strength <= 1.0);
    assert!(abandonment.explanation.contains("8 of the last 38 games"));
    assert!(server_view(&record, now(), &ConductPolicy::default()).signal_active);
}

#[test]
fn a_single_forfeit_is_never_a_signal() {
    let mut outcomes = good_games(3, 24);
    outcomes.push(forfeit(100, at_day(1, 0), true));
    let record = record_of(&outcomes);
    assert!(kinds(&record).is_empty());
    // Even a player with one game, which was a forfeit in a lost position.
    let record = record_of(&[forfeit(100, at_day(1, 0), true)]);
    assert!(kinds(&record).is_empty());
    let view = server_view(&record, now(), &ConductPolicy::default());
    assert!(!view.signal_active);
    assert_eq!(view.recent_abandonment_rate, 1.0);
}

#[test]
fn an_honest_player_whose_disconnects_mostly_reconnect_is_not_flagged() {
    // A bad connection: 40 games, 6 forfeits on 6 days, but 20 disconnects that came back.
    let mut outcomes = good_games(34, 24);
    for o in outcomes.iter_mut().take(20) {
        o.disconnects = 1;
        o.reconnects = 1;
    }
    for i in 0..6 {
        outcomes.push(forfeit(200 + i, at_day(1 + i * 5, 0), false));
    }
    let record = record_of(&outcomes);
    assert!(!kinds(&record).contains(&SignalKind::Abandonment));
    // The same forfeits without the reconnects would be a habit.
    for o in outcomes.iter_mut() {
        o.reconnects = 0;
    }
    assert!(kinds(&record_of(&outcomes)).contains(&SignalKind::Abandonment));
}

#[test]
fn one_bad_day_among_many_good_games_is_not_flagged() {
    // 60 good games over 30 days, then one evening: 5 forfeits in lost positions, 3 aborts
    // with rating loss, 3 early Teams resignations.
    let mut outcomes = good_games(60, 12);
    for i in 0..5 {
        outcomes.push(forfeit(300 + i, at_day(31, i * 10), true));
    }
    for i in 0..3 {
        let mut o = synth(PLAYER, 400 + i, at_day(31, 100 + i), OutcomeKind::Aborted);
        o.caused_abort = true;
        o.rating_change = Some(-15);
        o.departure = Some(departure(DepartureKind::Resigned, 1, false));
        outcomes.push(o);
    }
    for i in 0..3 {
        outcomes.push(teams_early_resignation(500 + i, at_day(31, 200 + i)));
    }
    let record = record_of(&outcomes);
    assert_eq!(kinds(&record), Vec::<SignalKind>::new());
}

#[test]
fn habitual_quitting_in_lost_positions_fires_but_resigning_them_does_not() {
    let mut outcomes = good_games(20, 24);
    for i in 0..5 {
        let mut o = synth(PLAYER, 600 + i, at_day(3 + i * 4, 0), OutcomeKind::TimedOut);
        o.departure = Some(departure(DepartureKind::TimedOut, 40, true));
        outcomes.push(o);
    }
    let record = record_of(&outcomes);
    let found = signals(&record, now(), &ConductPolicy::default());
    let quitting = found
        .iter()
        .find(|s| s.kind == SignalKind::LostPositionQuitting)
        .expect("lost-position quitting");
    assert_eq!(quitting.supporting_games.len(), 5);

    // The same games resigned: good manners (docs/moderation.md, "Report reasons"), not a
    // signal by default.
    for o in outcomes.iter_mut().filter(|o| o.game.0 >= 600) {
        o.kind = OutcomeKind::Resigned;
        o.departure = Some(departure(DepartureKind::Resigned, 40, true));
    }
    let record = record_of(&outcomes);
    assert!(kinds(&record).is_empty());
    let mut counting = ConductPolicy::default();
    counting.signals.lost_position_quitting.count_resignations = true;
    assert_eq!(signals(&record, now(), &counting).len(), 1);
}

#[test]
fn repeated_aborts_with_rating_loss_are_sandbagging() {
    let mut outcomes = good_games(16, 48);
    for i in 0..5 {
        let mut o = synth(PLAYER, 700 + i, at_day(2 + i * 3, 0), OutcomeKind::Aborted);
        o.caused_abort = true;
        o.rating_change = Some(-9);
        o.departure = Some(departure(DepartureKind::Resigned, 0, false));
        outcomes.push(o);
    }
    let record = record_of(&outcomes);
    let found = signals(&record, now(), &ConductPolicy::default());
    let sandbagging = found
        .iter()
        .find(|s| s.kind == SignalKind::Sandbagging)
        .expect("sandbagging");
    assert_eq!(sandbagging.supporting_games.len(), 5);
    assert!(sandbagging.explanation.contains("losing 45 rating"));
    assert_eq!(
        server_view(&record, now(), &ConductPolicy::default()).aborted_games,
        5
    );
    // Aborts that cost nothing are not sandbagging.
    for o in outcomes.iter_mut() {
        o.rating_change = Some(0);
    }
    assert!(kinds(&record_of(&outcomes)).is_empty());
}

fn teams_early_resignation(game: i64, at: DateTime<Utc>) -> SeatOutcome {
    let mut o = synth(PLAYER, game, at, OutcomeKind::Resigned);
    o.variant = Variant::Teams;
    let mut d = departure(DepartureKind::Resigned, 4, false);
    d.partner_still_playing = Some(true);
    o.departure = Some(d);
    o
}

#[test]
fn early_teams_resignations_with_the_partner_playing_are_spoiling() {
    let mut outcomes = good_games(12, 24);
    for o in outcomes.iter_mut() {
        o.variant = Variant::Teams;
    }
    for i in 0..4 {
        outcomes.push(teams_early_resignation(800 + i, at_day(1 + i * 5, 0)));
    }
    let record = record_of(&outcomes);
    assert_eq!(kinds(&record), vec![SignalKind::TeamsSpoiling]);

    // Resigning lost positions is not spoiling (not report-worthy: docs/moderation.md, "Report
    // reasons").
    for o in outcomes.iter_mut().filter(|o| o.game.0 >= 800) {
        if let Some(d) = o.departure.as_mut() {
            d.lost_position = true;
        }
    }
    assert!(kinds(&record_of(&outcomes)).is_empty());
}

#[test]
fn old_habits_fall_out_of_the_window() {
    let mut outcomes = good_games(30, 24);
    for i in 0..8 {
        outcomes.push(forfeit(900 + i, at_day(1 + i * 3, 0), true));
    }
    let record = record_of(&outcomes);
    let policy = ConductPolicy::default();
    assert!(!signals(&record, now(), &policy).is_empty());
    assert!(signals(&record, now() + TimeDelta::days(120), &policy).is_empty());
}

#[test]
fn the_views_say_what_each_audience_needs() {
    let mut outcomes = good_games(30, 24);
    for i in 0..8 {
        outcomes.push(forfeit(100 + i, at_day(2 + i * 3, 0), false));
    }
    let record = record_of(&outcomes);
    let policy = ConductPolicy::default();
    let mine = player_summary(&record, now(), &policy);
    assert_eq!(mine.games_recorded, 38);
    assert_eq!(mine.recent_games.counts.forfeited, 8);
    assert_eq!(mine.notices.len(), 1);
    assert_eq!(mine.notices[0].games.len(), 8);
    assert_eq!(mine.recent_sequence.len(), 38);
    let admin = admin_view(&record, now(), &policy);
    assert_eq!(admin.record, record);
    assert_eq!(admin.signals.len(), 1);
    let server = server_view(&record, now(), &policy);
    assert_eq!(server.active_signals, vec![SignalKind::Abandonment]);
    assert!((server.recent_abandonment_rate - 8.0 / 38.0).abs() < 1e-9);
    for json in [
        serde_json::to_string(&mine),
        serde_json::to_string(&admin),
        serde_json::to_string(&server),
    ] {
        assert!(json.is_ok());
    }
}
