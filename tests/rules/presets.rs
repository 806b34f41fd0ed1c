//! Rules of each preset on small constructed positions.

use arbiter::rules::draw_reason::DrawReason;
use arbiter::rules::game::{EliminationCause, Game, GameEnd};
use arbiter::rules::geometry::Seat::{self, Blue, Green, Red, Yellow};
use arbiter::rules::piece::PieceKind::*;
use arbiter::rules::position::{MoveList, Position, SeatStatus};
use arbiter::rules::ruleset::RuleSet;

use crate::support::{custom_with_out as custom, play};

fn legal(position: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter().map(|m| m.coordinate_text()).collect()
}

fn start(rules: RuleSet) -> Game {
    let position = Position::standard(&rules, false).expect("start");
    Game::new(rules, position)
}

fn with_ep(mut rules: RuleSet) -> RuleSet {
    rules.apply_variants("EnPassant").expect("variant");
    rules
}

// The three depth-7 divergence lines of the reference perft table.

#[test]
fn partner_bishop_does_not_pin_in_teams() {
    let line = ["g2-g3", "b4-c4", "e13-e12", "m10-l10", "f1-m8", "b7-c7"];
    for (rules, legal_there) in [(RuleSet::teams(), true), (RuleSet::ffa(), false)] {
        let mut game = start(with_ep(rules));
        for mv in line {
            play(&mut game, mv);
        }
        let moves = legal(game.position());
        assert_eq!(moves.contains(&"h13-h12".to_string()), legal_there);
    }
}

#[test]
fn partner_queen_cannot_be_captured_in_teams() {
    let line = ["h2-h3", "b8-c8", "g13-g12", "m10-l10", "g1-m7", "a8-b8"];
    for (rules, legal_there) in [(RuleSet::teams(), false), (RuleSet::ffa(), true)] {
        let mut game = start(with_ep(rules));
        for mv in line {
            play(&mut game, mv);
        }
        assert_eq!(game.to_move(), Yellow);
        let moves = legal(game.position());
        assert_eq!(moves.contains(&"f14-m7".to_string()), legal_there);
    }
}

#[test]
fn partner_queen_gives_no_check_in_teams() {
    let line = ["h2-h3", "b7-c7", "g13-g11", "m10-l10", "g1-m7", "a6-h13"];
    for (rules, legal_there) in [(RuleSet::teams(), true), (RuleSet::ffa(), false)] {
        let mut game = start(with_ep(rules));
        for mv in line {
            play(&mut game, mv);
        }
        let moves = legal(game.position());
        assert_eq!(moves.contains(&"g14-g13".to_string()), legal_there);
    }
}

fn back_rank_mate(rules: RuleSet) -> Game {
    custom(
        rules,
        Blue,
        &[
            (Red, King, "h1"),
            (Red, Pawn, "g2"),
            (Red, Pawn, "h2"),
            (Red, Pawn, "i2"),
            (Blue, King, "a7"),
            (Blue, Rook, "e5"),
            (Yellow, King, "h14"),
            (Yellow, Rook, "e14"),
            (Green, King, "n8"),
        ],
        &[],
    )
}

#[test]
fn teams_mate_waits_for_the_mated_players_turn_so_the_partner_can_rescue() {
    let mut game = back_rank_mate(RuleSet::teams());
    let report = play(&mut game, "e5-e1");
    assert_eq!(report.checks, vec![Red]);
    assert!(
        report.eliminations.is_empty(),
        "mate must wait for Red's turn"
    );
    play(&mut game, "e14-e1");
    play(&mut game, "n8-n7");
    assert_eq!(game.to_move(), Red);
    assert!(
        !legal(game.position()).is_empty(),
        "the partner rescued Red"
    );
    assert_eq!(game.end(), None);
}

#[test]
fn teams_mate_takes_effect_on_the_mated_turn() {
    let mut game = back_rank_mate(RuleSet::teams());
    play(&mut game, "e5-e1");
    play(&mut game, "h14-h13");
    play(&mut game, "n8-n7");
    let report = game.no_move(EliminationCause::Mated).expect("Red is mated");
    // `TeamWin(Blue)`: the Blue+Green team.
    assert_eq!(report.end, Some(GameEnd::TeamWin(Blue)));
    assert_eq!(game.standing().team_winner, Some(Blue));
}

#[test]
fn ffa_mate_is_immediate_and_scores_20() {
    let mut game = back_rank_mate(RuleSet::ffa());
    let report = play(&mut game, "e5-e1");
    assert_eq!(report.eliminations.len(), 1);
    assert_eq!(report.eliminations[0].seat, Red);
    assert_eq!(report.eliminations[0].cause, EliminationCause::Mated);
    assert_eq!(report.points_after[Blue.index()], 20);
    assert_eq!(game.to_move(), Yellow);
}

#[test]
fn ffa_triple_check_with_a_queen_scores_5() {
    let mut game = custom(
        RuleSet::ffa(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Queen, "g3"),
            (Blue, King, "d5"),
            (Yellow, King, "g12"),
            (Green, King, "j5"),
        ],
        &[],
    );
    let report = play(&mut game, "g3-g8");
    assert_eq!(report.checks, vec![Blue, Yellow, Green]);
    assert_eq!(report.points_after, [5, 0, 0, 0]);
}

#[test]
fn ffa_capture_values_and_dead_pieces_worth_nothing() {
    let mut game = custom(
        RuleSet::ffa(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Rook, "d4"),
            (Blue, King, "a7"),
            (Blue, Queen, "d10"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
            (Green, Knight, "k4"),
        ],
        &[],
    );
    assert_eq!(play(&mut game, "d4-d10").points_after, [9, 0, 0, 0]);
    game.resign_seat(Green, false).expect("resign");
    // Green's knight is dead now: taking it is worth nothing.
    play(&mut game, "a7-a6");
    play(&mut game, "h14-h13");
    assert_eq!(game.to_move(), Red);
    assert_eq!(play(&mut game, "d10-d4").points_after, [9, 0, 0, 0]);
}

#[test]
fn dead_king_walking_keeps_only_the_king_moving_and_is_worth_20() {
    let mut rules = RuleSet::ffa();
    rules.apply_variants("DeadKingWalking").expect("variant");
    let mut game = custom(
        rules,
        Red,
        &[
            (Red, King, "e4"),
            (Red, Pawn, "d2"),
            (Blue, King, "a7"),
            (Blue, Rook, "e10"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
        &[],
    );
    let report = game.resign(false).expect("resign");
    assert_eq!(report.eliminations[0].cause, EliminationCause::Resigned);
    assert_eq!(game.position().status(Red), SeatStatus::Walking);
    let pawn = game.position().geometry().parse_square("d2").expect("d2");
    assert!(game.position().piece_at(pawn).expect("pawn").dead);
    let report = play(&mut game, "e10-e4");
    assert_eq!(report.points_after[Blue.index()], 20);
    assert_eq!(report.eliminations[0].cause, EliminationCause::KingCaptured);
    assert_eq!(game.position().status(Red), SeatStatus::Out);
}

#[test]
fn walking_king_makes_only_king_moves() {
    let mut rules = RuleSet::ffa();
    rules.apply_variants("DeadKingWalking").expect("variant");
    let mut game = start(rules);
    game.resign(true).expect("timeout");
    for mv in ["b7-c7", "g13-g12", "m8-l8"] {
        play(&mut game, mv);
    }
    assert_eq!(game.to_move(), Red);
    let king = game.position().king_square(Red).expect("king");
    assert!(game.legal_moves().iter().all(|m| m.from == king));
}

#[test]
fn multiplayer_king_caught_in_the_shuffle_is_captured() {
    let mut game = custom(
        RuleSet::multiplayer(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Knight, "c10"),
            (Blue, King, "a7"),
            (Blue, Rook, "a10"),
            (Yellow, King, "e10"),
            (Green, King, "n8"),
        ],
        &[],
    );
    // Red's move is legal for Red, but exposes Yellow's king to Blue's rook.
    play(&mut game, "c10-d8");
    let report = play(&mut game, "a10-e10");
    assert_eq!(report.eliminations[0].seat, Yellow);
    assert_eq!(report.eliminations[0].cause, EliminationCause::KingCaptured);
    assert_eq!(game.to_move(), Green, "Yellow's turn is skipped");
    // Multiplayer proposal scoring: king captured scores 0, the others share (docs/rules.md,
    // "Multiplayer chess proposal").
    game.resign_seat(Green, false).expect("resign");
    game.resign_seat(Red, false).expect("resign");
    assert_eq!(game.standing().scores, [0.0, 1.0, 0.0, 0.0]);
}

fn stalemated_red(out: &[Seat]) -> Game {
    custom(
        RuleSet::last_standing(),
        Red,
        &[
            (Red, King, "d1"),
            (Blue, King, "a7"),
            (Yellow, King, "h14"),
            (Yellow, Rook, "e14"),
            (Yellow, Knight, "f3"),
            (Green, King, "n8"),
        ],
        out,
    )
}

#[test]
fn last_standing_stalemate_removes_the_player() {
    let mut game = stalemated_red(&[]);
    assert!(game.legal_moves().is_empty());
    assert!(
        game.no_move(EliminationCause::Mated).is_err(),
        "not in check"
    );
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemate");
    assert_eq!(report.eliminations[0].seat, Red);
    assert_eq!(report.end, None);
    assert_eq!(game.to_move(), Blue);
}

#[test]
fn last_standing_stalemate_with_two_left_is_a_draw() {
    let mut game = stalemated_red(&[Blue, Green]);
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemate");
    assert_eq!(report.end, Some(GameEnd::Draw(DrawReason::Stalemate)));
    assert_eq!(game.standing().scores, [0.0, 0.0, 1.0, 0.0]);
}

#[test]
fn ffa_self_stalemate_scores_20() {
    let mut game = custom(
        RuleSet::ffa(),
        Red,
        &[
            (Red, King, "d1"),
            (Blue, King, "a7"),
            (Yellow, King, "h14"),
            (Yellow, Rook, "e14"),
            (Yellow, Knight, "f3"),
            (Green, King, "n8"),
        ],
        &[],
    );
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemate");
    assert_eq!(report.points_after[Red.index()], 20);
}

#[test]
fn teams_stalemate_is_a_draw() {
    let mut game = custom(
        RuleSet::teams(),
        Red,
        &[
            (Red, King, "d1"),
            (Blue, King, "a7"),
            (Blue, Rook, "e12"),
            (Blue, Knight, "f3"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
        &[],
    );
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemate");
    assert_eq!(report.end, Some(GameEnd::Draw(DrawReason::Stalemate)));
}

#[test]
fn quatro_scores_0_2_4_8_by_elimination_order() {
    let mut game = start(RuleSet::quatro());
    // 16 pawn moves, 4 knight moves and the two corner pawns' captures of the neighbours'
    // first pawns, which the rules allow (docs/rules.md, "Quatro Chess").
    let moves: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| m.coordinate_text())
        .collect();
    assert_eq!(moves.len(), 22);
    assert!(moves.contains(&"c2-b3".to_string()) && moves.contains(&"j2-k3".to_string()));
    game.resign_seat(Blue, false).expect("out");
    game.resign_seat(Green, false).expect("out");
    game.resign_seat(Yellow, false).expect("out");
    assert_eq!(game.standing().scores, [8.0, 0.0, 4.0, 2.0]);
    assert_eq!(game.standing().placement, [1, 4, 2, 3]);
}

#[test]
fn quatro_statues_cannot_be_captured() {
    let mut game = custom(
        RuleSet::quatro(),
        Red,
        &[
            (Red, King, "f1"),
            (Red, Rook, "d4"),
            (Blue, King, "a6"),
            (Blue, Pawn, "d8"),
            (Yellow, King, "f12"),
            (Green, King, "l6"),
        ],
        &[Blue],
    );
    assert!(!game
        .legal_moves()
        .iter()
        .any(|m| m.coordinate_text() == "d4-d8"));
    assert!(game
        .legal_moves()
        .iter()
        .any(|m| m.coordinate_text() == "d4-d7"));
    play(&mut game, "d4-d7");
}

#[test]
fn solo_is_winner_takes_all() {
    let mut game = custom(
        RuleSet::solo(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Rook, "d4"),
            (Blue, King, "a7"),
            (Blue, Queen, "d10"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
        &[],
    );
    play(&mut game, "d4-d10");
    game.resign_seat(Blue, false).expect("out");
    game.resign_seat(Green, false).expect("out");
    game.resign_seat(Yellow, false).expect("out");
    let standing = game.standing();
    assert_eq!(standing.placement, [1, 2, 2, 2]);
}

#[test]
fn a_rook_left_is_material_enough_to_play_on() {
    let mut game = custom(
        RuleSet::ffa(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Rook, "d4"),
            (Blue, King, "a7"),
            (Blue, Knight, "d10"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
        &[],
    );
    let report = play(&mut game, "d4-d10");
    // Red still has a rook: play goes on.
    assert_eq!(report.end, None);
    assert_eq!(report.points_after, [3, 0, 0, 0]);
}
