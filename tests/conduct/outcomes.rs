//! Outcomes and qualifiers on real positions from the shared PGN4 games.

use crate::support;

use arbiter::archive::AbortPreset;
use arbiter::conduct::*;
use arbiter::moderation::Variant;
use arbiter::rules::replay::replay;
use support::*;

use GameEventKind::{ClaimWin, Disconnect, Reconnect, Resign, Timeout};
use SeatColor::{Blue, Green, Red, Yellow};

const FFA_EARLY_CHECK: &str = "ffa/cc_game_0078.pgn4";
const TEAMS_RESIGNED: &str = "teams/teams_26780486_yellow_resigned.pgn4";

#[test]
fn the_truncated_position_is_the_real_one() {
    // cc_game_0078 after 6 plies: Yellow is in check, nobody has points, moves 2 2 1 1.
    let r = replay_cut(FFA_EARLY_CHECK, 6);
    assert_eq!(r.plies.len(), 6);
    assert_eq!(r.in_check_at(6, Yellow.seat()), Some(true));
    assert_eq!(r.points_at(6), Some([0; 4]));
    assert_eq!(r.moves_made_at(6), Some([2, 2, 1, 1]));
}

#[test]
fn a_resignation_in_check_is_not_an_abort() {
    let r = replay_cut(FFA_EARLY_CHECK, 6);
    let f = facts(Variant::Ffa, vec![event(Resign, Yellow, 6, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    assert_eq!(out[Yellow.index()].kind, OutcomeKind::Resigned);
    assert!(!out[Yellow.index()].caused_abort);
    let d = out[Yellow.index()].departure.as_ref().expect("departure");
    assert!(d.in_check);
    assert!(d.early);
    assert_eq!(d.moves_made, 1);
    for seat in [Red, Blue, Green] {
        assert_eq!(out[seat.index()].kind, OutcomeKind::Completed);
    }
}

#[test]
fn the_same_resignation_out_of_check_aborts_the_game() {
    let r = replay_cut(FFA_EARLY_CHECK, 6);
    let f = facts(Variant::Ffa, vec![event(Resign, Blue, 6, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    for o in &out {
        assert_eq!(o.kind, OutcomeKind::Aborted);
        assert_eq!(o.caused_abort, o.seat == Blue);
    }
}

#[test]
fn a_timeout_on_move_two_with_nobody_scoring_aborts() {
    let r = replay_cut(FFA_EARLY_CHECK, 5);
    assert_eq!(r.moves_made_at(5), Some([2, 1, 1, 1]));
    let f = facts(Variant::Ffa, vec![event(Timeout, Blue, 5, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    assert!(out[Blue.index()].caused_abort);
    assert_eq!(out[Red.index()].kind, OutcomeKind::Aborted);
    let d = out[Blue.index()].departure.as_ref().expect("departure");
    assert_eq!(d.kind, DepartureKind::TimedOut);
}

/// A real FFA game whose first `plies` plies score nothing and leave `seat` out of check.
fn quiet_opening(plies: usize, seat: SeatColor) -> arbiter::rules::replay::Replay {
    let mut names: Vec<_> = std::fs::read_dir(format!("{DATA}/ffa"))
        .expect("data dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".pgn4"))
        .collect();
    names.sort();
    for name in names {
        let Ok(full) = replay(&read(&format!("ffa/{name}"))) else {
            continue;
        };
        if full.plies.len() > plies
            && full.points_at(plies) == Some([0; 4])
            && full.in_check_at(plies, seat.seat()) == Some(false)
        {
            return replay_cut(&format!("ffa/{name}"), plies);
        }
    }
    panic!("no quiet opening of {plies} plies among the real games");
}

#[test]
fn the_two_written_abort_rules_differ_after_three_moves_each() {
    // 12 plies: every seat has made 3 moves, nobody scored. `Seed001`: no longer abortable.
    // `Seed000`: Red has made 3 < 4 moves, still abortable (docs/rules.md, "Aborted games").
    let r = quiet_opening(12, Red);
    assert_eq!(r.moves_made_at(12), Some([3, 3, 3, 3]));
    let f = facts(Variant::Ffa, vec![event(Resign, Red, 12, 0)]);
    let policy = ConductPolicy::default();
    assert_eq!(
        outcomes(&r, &f, &policy, AbortPreset::Seed001)[0].kind,
        OutcomeKind::Resigned
    );
    let out = outcomes(&r, &f, &policy, AbortPreset::Seed000);
    assert_eq!(out[0].kind, OutcomeKind::Aborted);
    assert!(out[0].caused_abort);
}

#[test]
fn bullet_and_custom_starts_abort_on_the_first_move_only() {
    let r = quiet_opening(4, Red);
    for (tc, custom) in [("1+0", false), ("0.5+0", false), ("1+15D", true)] {
        let mut f = facts(Variant::Ffa, vec![event(Resign, Red, 4, 0)]);
        f.time_control = TimeControl::parse(tc);
        f.custom_start = custom;
        // Red has made one move: past the first move.
        assert_eq!(
            outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001)[0].kind,
            OutcomeKind::Resigned,
            "{tc} custom={custom}"
        );
        // Green has not moved yet: its first move.
        f.events = vec![event(Resign, Green, 3, 0)];
        let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
        assert!(out[Green.index()].caused_abort, "{tc} custom={custom}");
    }
    // The standard 1+15D game: Red after one move still aborts (all players < 3 moves).
    let f = facts(Variant::Ffa, vec![event(Resign, Red, 4, 0)]);
    assert!(outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001)[0].caused_abort);
}

#[test]
fn teams_abort_on_the_first_move_only() {
    let r = replay_cut(TEAMS_RESIGNED, 2);
    let policy = ConductPolicy::default();
    let f = facts(Variant::Teams, vec![event(Resign, Red, 2, 0)]);
    assert_eq!(
        outcomes(&r, &f, &policy, AbortPreset::Seed001)[0].kind,
        OutcomeKind::Resigned
    );
    let f = facts(Variant::Teams, vec![event(Resign, Yellow, 2, 0)]);
    let out = outcomes(&r, &f, &policy, AbortPreset::Seed001);
    assert!(out[Yellow.index()].caused_abort);
    assert!(out.iter().all(|o| o.kind == OutcomeKind::Aborted));
}

#[test]
fn an_early_teams_resignation_with_the_partner_playing() {
    let r = replay_cut(TEAMS_RESIGNED, 20);
    let f = facts(Variant::Teams, vec![event(Resign, Red, 20, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    let red = &out[Red.index()];
    assert_eq!(red.kind, OutcomeKind::Resigned);
    let d = red.departure.as_ref().expect("departure");
    assert_eq!(d.moves_made, 5);
    assert!(d.early);
    assert_eq!(d.partner_still_playing, Some(true));
    assert!(!d.lost_position);
    assert!(red.teams_early_resignation());
    assert!(matches!(d.assessment, PositionAssessment::Teams { .. }));
}

#[test]
fn the_real_teams_resignation_is_judged_by_the_configured_deficit() {
    // Yellow resigned at ply 122, ten points of material behind with a free king.
    let r = replay(&read(TEAMS_RESIGNED)).expect("replays");
    let f = facts(Variant::Teams, vec![]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    let yellow = &out[Yellow.index()];
    assert_eq!(yellow.kind, OutcomeKind::Resigned);
    let d = yellow
        .departure
        .as_ref()
        .expect("departure from the record's marker");
    assert_eq!(
        d.assessment,
        PositionAssessment::Teams {
            team_material: 28,
            opponent_material: 38,
            king_moves: 6
        }
    );
    assert!(!d.lost_position);
    assert!(!yellow.teams_early_resignation(), "30 moves is not early");
    let mut strict = ConductPolicy::default();
    strict.qualifiers.teams_lost_material_deficit = 10;
    let out = outcomes(&r, &f, &strict, AbortPreset::Seed001);
    assert!(out[Yellow.index()].departed_in_lost_position());
}

#[test]
fn an_ffa_timeout_hopelessly_behind_is_a_lost_position() {
    // cc_game_0026: Yellow times out with 40 points, Green has 79, and capturing everything
    // left (31) could not bring Yellow to 79.
    let r = replay(&read("ffa/cc_game_0026.pgn4")).expect("replays");
    let out = outcomes(
        &r,
        &facts(Variant::Ffa, vec![]),
        &ConductPolicy::default(),
        AbortPreset::Seed001,
    );
    let yellow = &out[Yellow.index()];
    assert_eq!(yellow.kind, OutcomeKind::TimedOut);
    let d = yellow.departure.as_ref().expect("departure");
    assert!(d.lost_position);
    assert!(matches!(
        d.assessment,
        PositionAssessment::Points {
            next_above: Some(79),
            ..
        }
    ));
}

#[test]
fn a_leader_resigning_is_not_in_a_lost_position() {
    // cc_game_0016: Red resigns leading with 85 points.
    let r = replay(&read("ffa/cc_game_0016.pgn4")).expect("replays");
    let out = outcomes(
        &r,
        &facts(Variant::Ffa, vec![]),
        &ConductPolicy::default(),
        AbortPreset::Seed001,
    );
    let d = out[Red.index()].departure.as_ref().expect("departure");
    assert!(!d.lost_position);
    assert!(matches!(
        d.assessment,
        PositionAssessment::Points {
            next_above: None,
            ..
        }
    ));
}

#[test]
fn a_timeout_while_disconnected_is_a_forfeit_and_a_reconnect_is_not() {
    let r = replay(&read("ffa/cc_game_0026.pgn4")).expect("replays");
    let policy = ConductPolicy::default();
    let f = facts(
        Variant::Ffa,
        vec![
            event(Disconnect, Yellow, 100, 0),
            event(Reconnect, Yellow, 101, 20),
            event(Disconnect, Yellow, 229, 600),
        ],
    );
    let out = outcomes(&r, &f, &policy, AbortPreset::Seed001);
    let yellow = &out[Yellow.index()];
    assert_eq!(yellow.kind, OutcomeKind::Forfeited);
    assert!(yellow.forfeited_after_disconnect());
    assert_eq!((yellow.disconnects, yellow.reconnects), (2, 1));
    assert!(yellow.departed_in_lost_position());

    let f = facts(
        Variant::Ffa,
        vec![
            event(Disconnect, Yellow, 229, 0),
            event(Reconnect, Yellow, 229, 30),
        ],
    );
    let out = outcomes(&r, &f, &policy, AbortPreset::Seed001);
    assert_eq!(out[Yellow.index()].kind, OutcomeKind::TimedOut);
    assert_eq!(out[Yellow.index()].reconnects, 1);
}

#[test]
fn claimed_wins_from_the_record_and_from_events() {
    // Real games the record ends with a claim ("(Green +20)" while others were still in):
    // the claimer's outcome is a claimed win, everyone else completed or left earlier.
    let mut claims = 0;
    for entry in std::fs::read_dir(format!("{DATA}/ffa"))
        .expect("dir")
        .flatten()
    {
        let Ok(r) = replay(&std::fs::read_to_string(entry.path()).expect("read")) else {
            continue;
        };
        let claimed_against: Vec<SeatColor> = r
            .eliminations()
            .iter()
            .filter(|e| e.cause == arbiter::rules::game::EliminationCause::Claimed)
            .map(|e| SeatColor::from_seat(e.seat))
            .collect();
        if claimed_against.is_empty() {
            continue;
        }
        claims += 1;
        let out = outcomes(
            &r,
            &facts(Variant::Ffa, vec![]),
            &ConductPolicy::default(),
            AbortPreset::Seed001,
        );
        let winners: Vec<SeatColor> = out
            .iter()
            .filter(|o| o.kind == OutcomeKind::ClaimedWin)
            .map(|o| o.seat)
            .collect();
        assert_eq!(winners.len(), 1, "{:?}", entry.path());
        for seat in claimed_against {
            assert_eq!(out[seat.index()].kind, OutcomeKind::Completed);
        }
    }
    assert!(claims > 0, "the real games include claimed wins");

    let r = replay_cut(FFA_EARLY_CHECK, 40);
    let f = facts(Variant::Ffa, vec![event(ClaimWin, Green, 40, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    assert_eq!(out[Green.index()].kind, OutcomeKind::ClaimedWin);
    assert_eq!(out[Red.index()].kind, OutcomeKind::Completed);
}

#[test]
fn rating_change_and_rating_lost_through_an_abort() {
    let r = replay_cut(FFA_EARLY_CHECK, 6);
    let mut f = facts(Variant::Ffa, vec![event(Resign, Blue, 6, 0)]);
    f.seats[Blue.index()].rating_after = Some(1488);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    assert_eq!(out[Blue.index()].rating_change, Some(-12));
    assert_eq!(out[Blue.index()].rating_lost_leaving_early(), 12);
    assert_eq!(out[Red.index()].rating_lost_leaving_early(), 0);
}

#[test]
fn event_plies_beyond_the_record_are_clamped_not_trusted() {
    let r = replay_cut(FFA_EARLY_CHECK, 6);
    let f = facts(Variant::Ffa, vec![event(Resign, Blue, 10_000, 0)]);
    let out = outcomes(&r, &f, &ConductPolicy::default(), AbortPreset::Seed001);
    assert_eq!(out[Blue.index()].departure.as_ref().map(|d| d.ply), Some(6));
}

#[test]
fn outcomes_of_every_real_game_serialise_and_read_back() {
    let policy = ConductPolicy::default();
    let mut seen = 0;
    for dir in ["ffa", "teams"] {
        for entry in std::fs::read_dir(format!("{DATA}/{dir}"))
            .expect("dir")
            .flatten()
        {
            let path = entry.path();
            if path.extension().is_none_or(|x| x != "pgn4") {
                continue;
            }
            let Ok(r) = replay(&std::fs::read_to_string(&path).expect("read")) else {
                continue;
            };
            let variant = if dir == "ffa" {
                Variant::Ffa
            } else {
                Variant::Teams
            };
            let out = outcomes(&r, &facts(variant, vec![]), &policy, AbortPreset::Seed001);
            let json = serde_json::to_string(&out).expect("serialises");
            let back: [SeatOutcome; 4] = serde_json::from_str(&json).expect("reads back");
            assert_eq!(back, out);
            // A finished real game is never an abort: every leaver had played on.
            assert!(
                out.iter().all(|o| o.kind != OutcomeKind::Aborted),
                "{path:?}"
            );
            seen += 1;
        }
    }
    assert!(seen > 100);
}
