//! The other texts' rule systems as presets (docs/rules.md): 4 Man Chess, Quatro Chess's
//! seatings and the multiplayer chess proposal for three and four players on both boards.
//! Each has its perft figures and a hand-checked game that replays.

use std::path::Path;

use arbiter::rules::draw_reason::DrawReason;
use arbiter::rules::game::{EliminationCause, Game, GameEnd, GameError};
use arbiter::rules::geometry::Seat::{Blue, Green, Red, Yellow};
use arbiter::rules::perft::{perft, start_position};
use arbiter::rules::piece::PieceKind::*;
use arbiter::rules::position::{Position, SeatStatus};
use arbiter::rules::replay;
use arbiter::rules::ruleset::RuleSet;

use crate::support::{custom, play};

const PRESETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn4/presets");

fn moves_from(game: &Game, from: &str) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|m| m.coordinate_text())
        .filter(|m| m.starts_with(&format!("{from}-")))
        .collect();
    moves.sort();
    moves
}

/// Perft from each preset's own start (4 Man Chess on `4PCo`, Quatro on its board). Depth 1 is
/// checked by hand: 16 pawn and 4 knight moves on the 4PC boards; on the Quatro board Red's
/// c- and j-pawns may also take Blue's and Green's nearest pawns (docs/rules.md, "Quatro
/// Chess"), unless that colour is Red's own (two and three players: Blue is).
#[test]
fn every_preset_has_its_perft_figures() {
    let table: [(&str, [u64; 4]); 14] = [
        ("teams", [20, 395, 7_800, 152_050]),
        ("ffa", [20, 395, 7_800, 152_050]),
        ("solo", [20, 395, 7_800, 152_050]),
        ("four-man-team", [20, 399, 7_960, 158_402]),
        ("last-standing", [20, 399, 7_960, 158_402]),
        ("points", [20, 399, 7_960, 158_402]),
        ("quatro", [22, 472, 10_120, 211_312]),
        ("quatro-two-player", [21, 431, 8_799, 175_321]),
        ("quatro-three-player", [21, 431, 9_230, 192_488]),
        ("quatro-teams", [22, 472, 10_120, 211_312]),
        ("multiplayer", [20, 395, 7_800, 152_050]),
        ("multiplayer-three", [20, 395, 7_800, 183_225]),
        ("multiplayer-quatro", [22, 472, 10_120, 211_312]),
        ("multiplayer-quatro-three", [21, 450, 9_198, 218_494]),
    ];
    for (name, counts) in table {
        let mut position = start_position(Some(name), None).expect(name);
        for (depth, expected) in counts.iter().enumerate() {
            let found = perft(&mut position, depth as u32 + 1);
            assert_eq!(found, *expected, "{name} perft({})", depth + 1);
        }
    }
}

fn replayed(file: &str) -> replay::Replay {
    let text = std::fs::read_to_string(Path::new(PRESETS).join(file)).expect("file");
    let check = replay::check(&text);
    assert!(check.ok(), "{file}:\n{check}");
    replay::replay(&text).expect("replays")
}

#[test]
fn four_man_chess_games_replay_from_the_dark_square_queens() {
    // Blue resigns after one round: the team of Red and Yellow wins (`Result` 1-0).
    let game = replayed("four_man_team.pgn4");
    assert_eq!(game.setup, "4PCo");
    assert_eq!(game.game.end(), Some(GameEnd::TeamWin(Yellow)));
    // Blue, Yellow and Green resign: Red is the last player standing.
    let game = replayed("last_standing.pgn4");
    assert_eq!(game.standing.scores, [1.0, 0.0, 0.0, 0.0]);
    // Blue's knight takes a pawn (+1), Red's bishop takes the knight (+3); the `Result` tag.
    let game = replayed("points.pgn4");
    assert_eq!(game.standing.scores, [3.0, 1.0, 0.0, 0.0]);
}

#[test]
fn four_man_chess_promotes_to_a_queen_only() {
    let pieces = [
        (Red, King, "h1"),
        (Red, Pawn, "g7"),
        (Blue, King, "a7"),
        (Yellow, King, "g14"),
        (Green, King, "n8"),
    ];
    let game = custom(RuleSet::points(), Red, &pieces);
    assert_eq!(moves_from(&game, "g7"), ["g7-g8=Q"]);
    let game = custom(RuleSet::ffa(), Red, &pieces);
    assert_eq!(
        moves_from(&game, "g7"),
        ["g7-g8=B", "g7-g8=N", "g7-g8=Q", "g7-g8=R"]
    );
}

#[test]
fn four_man_team_play_also_promotes_on_an_opponents_back_rank() {
    // "If a pawn reaches the 11th rank ... or the end of either side of the opponent's board":
    // a Red pawn taking onto Blue's back rank (the a-file) promotes there.
    let pieces = [
        (Red, King, "h1"),
        (Red, Pawn, "b6"),
        (Blue, King, "a10"),
        (Blue, Knight, "a7"),
        (Yellow, King, "g14"),
        (Green, King, "n8"),
    ];
    let game = custom(RuleSet::four_man_team(), Red, &pieces);
    assert_eq!(moves_from(&game, "b6"), ["b6-a7=Q", "b6-b7"]);
    let game = custom(RuleSet::teams(), Red, &pieces);
    assert_eq!(moves_from(&game, "b6"), ["b6-a7", "b6-b7"]);
}

#[test]
fn a_stalemate_in_the_four_man_points_game_pays_everyone() {
    // Red's lone king on d1 has no move and is not in check: +20 to Red ("stalemating
    // yourself"), +10 to each other remaining player ("stalemating an opponent").
    let mut game = custom(
        RuleSet::points(),
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
    let report = game
        .no_move(EliminationCause::Stalemated)
        .expect("stalemate");
    assert_eq!(report.points_after, [20, 10, 10, 10]);
}

#[test]
fn en_passant_onto_the_promotion_rank_promotes() {
    // Blue's b11-d11 passes c11, Red's 11th rank in Teams: Red's d10 pawn takes it and promotes.
    let mut rules = RuleSet::teams();
    rules.apply_variants("EnPassant").expect("variant");
    let mut game = custom(
        rules,
        Blue,
        &[
            (Red, King, "h1"),
            (Red, Pawn, "d10"),
            (Blue, King, "a7"),
            (Blue, Pawn, "b11"),
            (Yellow, King, "g14"),
            (Green, King, "n8"),
        ],
    );
    play(&mut game, "b11-d11");
    play(&mut game, "g14-g13");
    play(&mut game, "n8-n7");
    assert_eq!(
        moves_from(&game, "d10"),
        ["d10-c11=B", "d10-c11=N", "d10-c11=Q", "d10-c11=R"]
    );
}

#[test]
fn quatro_seatings_replay_and_score_by_side() {
    // Four players: Blue resigns first (0), Green second (2), Yellow third (4), Red 8.
    let game = replayed("quatro.pgn4");
    assert_eq!(game.setup, "Quatro");
    assert!(game.setup_inferred);
    assert_eq!(game.standing.scores, [8.0, 0.0, 4.0, 2.0]);
    // Two players: Yellow (0) and Green (2) resign; Red and Blue share the places left
    // ((4 + 8) / 2 each), so the player of Red and Blue scores 12 and the other 2.
    let game = replayed("quatro_two_player.pgn4");
    assert_eq!(game.game.end(), Some(GameEnd::LastSide(Red)));
    assert_eq!(game.standing.scores, [12.0, 12.0, 2.0, 2.0]);
    assert_eq!(game.standing.placement, [1, 1, 3, 3]);
    // Three players: Green (0), then Yellow (2): Red and Blue share 12.
    let game = replayed("quatro_three_player.pgn4");
    assert_eq!(game.standing.scores, [12.0, 12.0, 2.0, 0.0]);
    // Two teams: Blue (0) and Green (2) resign; Red and Yellow share 12.
    let game = replayed("quatro_teams.pgn4");
    assert_eq!(game.standing.scores, [12.0, 2.0, 12.0, 2.0]);
}

#[test]
fn a_players_two_quatro_colours_never_take_each_other() {
    // Red's c2 pawn may take Blue's b3 pawn when Blue is an opponent, not when Red plays Blue.
    let start = |rules: RuleSet| {
        let position = Position::from_setup("Quatro", &rules).expect("start");
        Game::new(rules, position)
    };
    assert_eq!(
        moves_from(&start(RuleSet::quatro()), "c2"),
        ["c2-b3", "c2-c3", "c2-c4"]
    );
    assert_eq!(
        moves_from(&start(RuleSet::quatro_two_player()), "c2"),
        ["c2-c3", "c2-c4"]
    );
    // The Quatro setup needs the Quatro board.
    let error = Position::from_setup("quatro", &RuleSet::ffa()).expect_err("wrong board");
    assert_eq!(
        error.to_string(),
        "setup 'Quatro' is for the 128-square board, but the rule set plays on the 160-square board"
    );
}

#[test]
fn multiplayer_games_end_on_a_claimed_repetition() {
    for (file, sharing) in [
        ("multiplayer.pgn4", 4),
        ("multiplayer_three.pgn4", 3),
        ("multiplayer_quatro.pgn4", 4),
        ("multiplayer_quatro_three.pgn4", 3),
    ] {
        let game = replayed(file);
        assert_eq!(
            game.game.end(),
            Some(GameEnd::Draw(DrawReason::Repetition)),
            "{file}"
        );
        let share = 1.0 / sharing as f64;
        assert_eq!(
            game.standing.scores.iter().filter(|&&s| s == share).count(),
            sharing,
            "{file}"
        );
    }
}

#[test]
fn multiplayer_draws_wait_for_a_claim() {
    let rules = RuleSet::multiplayer_three();
    let position = Position::from_setup("4PC", &rules).expect("start");
    assert_eq!(position.status(Green), SeatStatus::Out);
    let mut game = Game::new(rules, position);
    let error = game.claim_draw(Red).expect_err("nothing to claim");
    assert_eq!(
        error,
        GameError::NoDrawToClaim(
            "Red claims a draw, but the position has not been repeated three times and only 0 \
             of the 150 plies of the 50-move rule have passed"
                .into()
        )
    );
    // Each player's knight goes out and back: the start comes back every six plies.
    for _ in 0..2 {
        for mv in ["e1-f3", "a5-c6", "e14-f12", "f3-e1", "c6-a5", "f12-e14"] {
            play(&mut game, mv);
        }
    }
    assert_eq!(game.end(), None, "a repetition is not a draw until claimed");
    let report = game.claim_draw(Blue).expect("claims");
    assert_eq!(report.end, Some(GameEnd::Draw(DrawReason::Repetition)));
    assert_eq!(
        game.standing().scores,
        [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0]
    );
}
