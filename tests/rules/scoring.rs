//! One test per scoring rule of the points games (docs/rules.md, "Site FFA rules" and "4 Man
//! Chess"; values in docs/scoring.md), each on a small constructed position, checking the
//! points and the rule the award names.

use arbiter::rules::award::ScoringRule;
use arbiter::rules::draw_reason::DrawReason;
use arbiter::rules::game::{EliminationCause, Game, GameEnd};
use arbiter::rules::geometry::Seat::{self, Blue, Green, Red, Yellow};
use arbiter::rules::piece::PieceKind::*;
use arbiter::rules::position::{Position, SeatStatus};
use arbiter::rules::ruleset::{ReducedCheckBonus, RuleSet};

use crate::support::{custom, play};

/// The site's FFA with its usual `DeadKingWalking` variant.
fn site() -> RuleSet {
    let mut rules = RuleSet::ffa();
    rules.apply_variants("DeadKingWalking").expect("variant");
    rules
}

/// The rule as the site's rules texts write it and as the site scored in 2022
/// (docs/scoring.md, "Multiple checks").
fn classic() -> RuleSet {
    let mut rules = site();
    rules.multi_check_points.reduced_when = ReducedCheckBonus::WhenAQueenChecks;
    rules
}

/// The rules of the awards made at the last ply, per seat.
fn last_awards(game: &Game) -> Vec<(Seat, i32, ScoringRule)> {
    let last = game.awards().last().expect("an award").ply;
    game.awards()
        .iter()
        .filter(|a| a.ply == last)
        .map(|a| (a.seat, a.points, a.rule))
        .collect()
}

/// Red's knight e3-g4 forks Blue (f6) and Green (h6).
fn knight_fork(rules: RuleSet) -> Game {
    custom(
        rules,
        Red,
        &[
            (Red, King, "h1"),
            (Red, Knight, "e3"),
            (Blue, King, "f6"),
            (Yellow, King, "h13"),
            (Green, King, "h6"),
        ],
    )
}

#[test]
fn the_site_scores_a_knights_double_check_one_point() {
    // `ffa/cc_game_0091` ply 361, `Nh7-g9++` by a player without a queen: +1.
    let mut game = knight_fork(site());
    let report = play(&mut game, "e3-g4");
    assert_eq!(report.checks, vec![Blue, Green]);
    assert_eq!(report.points_after, [1, 0, 0, 0]);
    let rule = ScoringRule::MultiCheck {
        kings: 2,
        reduced: true,
    };
    assert_eq!(last_awards(&game), vec![(Red, 1, rule)]);
}

#[test]
fn the_classic_rule_scores_a_knights_double_check_five() {
    // `ffa/cc_game_0222_4pco` ply 278 (2022), `Ng10-h12++`: +5.
    let mut game = knight_fork(classic());
    assert_eq!(play(&mut game, "e3-g4").points_after, [5, 0, 0, 0]);
    // 4 Man Chess reduces only a queen's multiple check.
    let mut game = knight_fork(RuleSet::points());
    assert_eq!(play(&mut game, "e3-g4").points_after, [5, 0, 0, 0]);
}

/// Red's queen g3-g8 checks Blue (d5) and Green (j5); Yellow's king is out of reach on h14.
fn queen_double_check(rules: RuleSet) -> Game {
    custom(
        rules,
        Red,
        &[
            (Red, King, "h1"),
            (Red, Queen, "g3"),
            (Blue, King, "d5"),
            (Yellow, King, "h14"),
            (Green, King, "j5"),
        ],
    )
}

#[test]
fn a_queens_double_check_scores_one_point_under_every_rule() {
    for rules in [site(), classic(), RuleSet::points()] {
        let name = rules.name.clone();
        let mut game = queen_double_check(rules);
        let report = play(&mut game, "g3-g8");
        assert_eq!(report.checks, vec![Blue, Green], "{name}");
        assert_eq!(report.points_after, [1, 0, 0, 0], "{name}");
    }
}

/// Red's knight e3-g4 forks Blue (f6) and Green (h6) and uncovers the rook e1 on Yellow (e12).
fn triple_check_without_a_queen(rules: RuleSet) -> Game {
    custom(
        rules,
        Red,
        &[
            (Red, King, "h1"),
            (Red, Rook, "e1"),
            (Red, Knight, "e3"),
            (Blue, King, "f6"),
            (Yellow, King, "e12"),
            (Green, King, "h6"),
        ],
    )
}

#[test]
fn a_triple_check_without_a_queen_scores_twenty_by_the_classic_rule() {
    let mut game = triple_check_without_a_queen(classic());
    let report = play(&mut game, "e3-g4");
    assert_eq!(report.checks, vec![Blue, Yellow, Green]);
    assert_eq!(report.points_after, [20, 0, 0, 0]);
    let rule = ScoringRule::MultiCheck {
        kings: 3,
        reduced: false,
    };
    assert_eq!(last_awards(&game), vec![(Red, 20, rule)]);
    // The site reduces it like every multiple check.
    let mut game = triple_check_without_a_queen(site());
    assert_eq!(play(&mut game, "e3-g4").points_after, [5, 0, 0, 0]);
}

#[test]
fn a_check_of_an_active_and_a_walking_king_scores_nothing() {
    // `ffa/cc_game_0040` ply 254: `Qf7-d9++` on an active and a walking king.
    let mut game = queen_double_check(classic());
    game.resign_seat(Blue, false).expect("resigns");
    assert_eq!(game.position().status(Blue), SeatStatus::Walking);
    let report = play(&mut game, "g3-g8");
    assert_eq!(report.checks, vec![Blue, Green]);
    assert_eq!(report.points_after, [0, 0, 0, 0]);
}

#[test]
fn claiming_the_win_collects_twenty_for_every_other_king_in_play() {
    // `ffa/cc_game_0243` "(Red +40)": one opponent active, one king walking.
    let mut game = queen_double_check(site());
    game.resign_seat(Yellow, false).expect("resigns");
    game.resign_seat(Green, true).expect("times out");
    let report = game.claim_win(Red).expect("claims");
    assert_eq!(report.end, Some(GameEnd::LastPlayer(Some(Red))));
    assert_eq!(report.points_after, [60, 0, 0, 0]);
    assert_eq!(
        last_awards(&game),
        vec![(Red, 60, ScoringRule::ClaimedWin(3))]
    );
}

#[test]
fn the_fifty_move_rule_gives_ten_to_each_active_player() {
    let rules = site();
    let game = queen_double_check(rules.clone());
    // 50 moves of each of the four players in play: 200 plies; one quiet ply short.
    let mut record = game.position().to_fen4();
    record.halfmove = 199;
    let position = Position::from_fen4(&record, &rules).expect("position");
    let mut game = Game::new(rules, position);
    let report = play(&mut game, "h1-i1");
    assert_eq!(report.end, Some(GameEnd::Draw(DrawReason::FiftyMoves)));
    assert_eq!(report.points_after, [10, 10, 10, 10]);
    let draw = ScoringRule::Draw(DrawReason::FiftyMoves);
    assert_eq!(
        last_awards(&game),
        vec![
            (Red, 10, draw),
            (Blue, 10, draw),
            (Yellow, 10, draw),
            (Green, 10, draw)
        ]
    );
}

#[test]
fn a_walking_king_left_at_a_draw_is_shared_among_the_active_players() {
    // `ffa/human_4pc_game_97969768`: insufficient material with a king walking.
    let mut game = custom(
        site(),
        Blue,
        &[
            (Red, King, "h1"),
            (Red, Rook, "a8"),
            (Blue, King, "a7"),
            (Yellow, King, "h14"),
            (Yellow, Pawn, "h13"),
            (Green, King, "n8"),
        ],
    );
    game.resign_seat(Yellow, false).expect("resigns");
    let report = play(&mut game, "a7-a8");
    assert_eq!(
        report.end,
        Some(GameEnd::Draw(DrawReason::InsufficientMaterial))
    );
    // 20 shared by three, rounded: 7 each (`ffa/cc_game_0088` rounds the same way).
    assert_eq!(report.points_after, [17, 22, 0, 17]);
    assert!(last_awards(&game).contains(&(Green, 7, ScoringRule::WalkingKingsAtDraw(1))));
}

/// Red has a king and a knight; Blue and Green lone kings; Yellow's king walks.
fn king_and_knight_against_lone_kings() -> Game {
    let mut game = custom(
        site(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Knight, "e3"),
            (Blue, King, "a7"),
            (Yellow, King, "h14"),
            (Yellow, Pawn, "h13"),
            (Green, King, "n8"),
        ],
    );
    game.resign_seat(Yellow, true).expect("times out");
    game
}

#[test]
fn a_king_and_a_minor_piece_against_an_active_king_plays_on() {
    // The site plays on here (`ffa/cc_game_0091` from ply 442, `cc_game_0192_4pco` ply 212).
    let mut game = king_and_knight_against_lone_kings();
    game.resign_seat(Green, false).expect("resigns");
    assert!(!game.insufficient_material());
    assert_eq!(game.end(), None);
}

#[test]
fn a_resignation_leaving_a_king_and_a_minor_piece_is_a_draw_with_the_walking_kings_bonus() {
    // `ffa/cc_game_0091`: "(insuff. material; Red +30, Green +10)", Blue's king walking since
    // its time-out; Green resigns. The resigner's own king is not counted.
    let mut game = king_and_knight_against_lone_kings();
    game.resign_seat(Green, false).expect("resigns");
    let report = game.resign_seat(Blue, false).expect("resigns");
    assert!(game.insufficient_material());
    assert_eq!(
        report.end,
        Some(GameEnd::Draw(DrawReason::InsufficientMaterial))
    );
    assert_eq!(report.points_after, [50, 10, 0, 0]);
    let draw = ScoringRule::Draw(DrawReason::InsufficientMaterial);
    assert_eq!(
        last_awards(&game),
        vec![
            (Blue, 10, draw),
            (Red, 10, draw),
            (Red, 40, ScoringRule::WalkingKingsAtDraw(2)),
        ]
    );
}

#[test]
fn lone_kings_everywhere_are_insufficient_material() {
    let mut game = custom(
        site(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Knight, "e3"),
            (Blue, King, "f6"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
    );
    assert!(!game.insufficient_material());
    // Blue's king walks to the knight and takes it while Red shuffles its king.
    for line in [
        ["h1-i1", "f6-e5", "h14-h13", "n8-n7"],
        ["i1-h1", "e5-e4", "h13-h14", "n7-n8"],
    ] {
        for mv in line {
            assert_eq!(play(&mut game, mv).end, None);
        }
    }
    play(&mut game, "h1-i1");
    let report = play(&mut game, "e4-e3");
    assert_eq!(
        report.end,
        Some(GameEnd::Draw(DrawReason::InsufficientMaterial))
    );
    assert!(game.insufficient_material());
}

#[test]
fn a_capture_names_the_piece_taken() {
    let mut game = custom(
        site(),
        Red,
        &[
            (Red, King, "h1"),
            (Red, Rook, "d4"),
            (Blue, King, "a7"),
            (Blue, Queen, "d10"),
            (Yellow, King, "h14"),
            (Green, King, "n8"),
        ],
    );
    play(&mut game, "d4-d10");
    assert_eq!(
        last_awards(&game),
        vec![(Red, 9, ScoringRule::Capture(Queen))]
    );
}

#[test]
fn a_stalemated_walking_king_is_shared_among_the_active_players() {
    // `ffa/cc_game_0088` ply 204: 20 shared by three, 7 each.
    let mut game = custom(
        site(),
        Red,
        &[
            (Red, King, "d1"),
            (Blue, King, "a7"),
            (Blue, Rook, "e5"),
            (Yellow, King, "g14"),
            (Green, King, "n8"),
            (Green, Bishop, "f4"),
        ],
    );
    game.resign(false).expect("resigns");
    assert_eq!(game.position().status(Red), SeatStatus::Walking);
    for mv in ["e5-e6", "g14-g13", "n8-n7"] {
        play(&mut game, mv);
    }
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemated");
    assert_eq!(report.points_after, [0, 7, 7, 7]);
    assert!(last_awards(&game).contains(&(Blue, 7, ScoringRule::WalkingKingStalemated(Red))));
}

#[test]
fn the_last_player_collects_twenty_for_every_walking_king() {
    let mut game = queen_double_check(site());
    for seat in [Blue, Yellow, Green] {
        game.resign_seat(seat, false).expect("resigns");
    }
    assert_eq!(game.end(), Some(GameEnd::LastPlayer(Some(Red))));
    assert_eq!(game.position().points(), [60, 0, 0, 0]);
    assert_eq!(
        last_awards(&game),
        vec![(Red, 60, ScoringRule::WalkingKingsToLastPlayer(3))]
    );
}
