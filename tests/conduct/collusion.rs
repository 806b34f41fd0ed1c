//! Collusion statistics on hand-made FFA games whose answer is known: which captures and
//! checks each player could make and made, the pieces left hanging to one opponent, and how
//! the tallies of many games score a pair.

use arbiter::collusion::interaction::{Moment, MomentKind};
use arbiter::collusion::{interactions, CollusionPolicy, GameInteractions, Ledger, Pattern};
use arbiter::rules::fen4;
use arbiter::rules::geometry::Seat::{self, Blue, Green, Red, Yellow};
use arbiter::rules::piece::PieceKind::{self, Bishop, King, Rook};
use arbiter::rules::position::Position;
use arbiter::rules::replay::replay;
use arbiter::rules::ruleset::RuleSet;

/// An FFA game from a piece list (Red to move) and its plies.
fn game(pieces: &[(Seat, PieceKind, &str)], plies: &str) -> GameInteractions {
    let position = Position::from_pieces(&RuleSet::ffa(), Red, pieces, &[]).expect("position");
    let start = fen4::write(&position.to_fen4());
    let pgn4 = format!(
        "[Variant \"FFA\"]\n[RuleVariants \"EnPassant\"]\n[StartFen4 \"{start}\"]\n\
         [Red \"r\"]\n[Blue \"b\"]\n[Yellow \"y\"]\n[Green \"g\"]\n\n1. {plies}\n"
    );
    let replayed = replay(&pgn4).unwrap_or_else(|e| panic!("{e}\n{pgn4}"));
    interactions(&replayed).expect("an FFA game")
}

const KINGS: [(Seat, PieceKind, &str); 4] = [
    (Red, King, "h1"),
    (Blue, King, "a7"),
    (Yellow, King, "h14"),
    (Green, King, "n8"),
];

fn with_kings(extra: &[(Seat, PieceKind, &str)]) -> Vec<(Seat, PieceKind, &'static str)> {
    let mut all: Vec<(Seat, PieceKind, &'static str)> = KINGS.to_vec();
    for &(seat, kind, square) in extra {
        all.push((seat, kind, Box::leak(square.to_string().into_boxed_str())));
    }
    all
}

#[test]
fn a_free_piece_left_to_one_opponent_is_a_spared_capture() {
    // Red's rook on e5 could take Blue's bishop on e9 or Green's on g5, both undefended, and
    // could check Blue (from e7) or Green (from e8), not Yellow (g5 blocks the way to the h
    // file); it takes Green's bishop.
    let pieces = with_kings(&[
        (Red, Rook, "e5"),
        (Blue, Bishop, "e9"),
        (Green, Bishop, "g5"),
    ]);
    let g = game(&pieces, "Re5xg5 .. Ka7-a8 .. Kh14-i14 .. Kn8-n9");
    let to_blue = g.pair(Red, Blue);
    assert_eq!(
        (to_blue.turns, to_blue.capture_chances, to_blue.captures),
        (1, 1, 0)
    );
    assert_eq!((to_blue.check_chances, to_blue.checks), (1, 0));
    assert_eq!(
        to_blue.moments,
        [Moment {
            ply: 0,
            kind: MomentKind::SparedCapture,
            piece: Bishop
        }]
    );
    let to_green = g.pair(Red, Green);
    assert_eq!((to_green.capture_chances, to_green.captures), (1, 1));
    assert_eq!(to_green.points_taken, 5);
    assert!(to_green.moments.is_empty());
    let to_yellow = g.pair(Red, Yellow);
    assert_eq!((to_yellow.capture_chances, to_yellow.check_chances), (0, 0));
    assert_eq!(to_blue.gifts + to_green.gifts + to_yellow.gifts, 0);
}

#[test]
fn a_piece_moved_where_only_one_opponent_takes_it_is_a_gift_to_that_opponent() {
    // Red's rook goes to e8, checking Green along the rank and hanging to Blue's rook on c8;
    // Blue takes it.
    let pieces = with_kings(&[(Red, Rook, "e5"), (Blue, Rook, "c8")]);
    let g = game(&pieces, "Re5-e8+ .. Rc8xe8 .. Kh14-i14 .. Kn8-n9");
    let red_to_blue = g.pair(Red, Blue);
    assert_eq!(red_to_blue.gifts, 1);
    assert_eq!(red_to_blue.moments[0].kind, MomentKind::Gift);
    assert_eq!(g.pair(Red, Green).gifts, 0);
    assert_eq!(
        (g.pair(Red, Green).check_chances, g.pair(Red, Green).checks),
        (1, 1)
    );
    let blue_to_red = g.pair(Blue, Red);
    assert_eq!((blue_to_red.capture_chances, blue_to_red.captures), (1, 1));
    assert_eq!(blue_to_red.points_taken, 5);
}

#[test]
fn teams_games_have_no_collusion_statistics() {
    let pgn4 =
        "[Variant \"Teams\"]\n[StartFen4 \"4PC\"]\n\n1. h2-h3 .. b7-c7 .. g13-g12 .. m8-l8\n";
    assert!(interactions(&replay(pgn4).expect("teams game")).is_none());
}

#[test]
fn a_pair_that_spares_each_other_in_every_game_is_found_after_enough_games() {
    // In each game Red and Blue leave each other's free bishops alone and take Green's.
    let pieces = with_kings(&[
        (Red, Rook, "e5"),
        (Blue, Bishop, "e9"),
        (Green, Bishop, "g5"),
    ]);
    let spared = game(&pieces, "Re5xg5 .. Ka7-a8 .. Kh14-i14 .. Kn8-n7");
    let honest = game(&pieces, "Re5xe9 .. Ka7-a8 .. Kh14-i14 .. Kn8-n7");
    let policy = CollusionPolicy::default();
    let mut ledger = Ledger::new();
    // Red's baseline: 60 games with other Blues, taking from Blue and Green alike.
    for i in 0..60 {
        let other = format!("blue{i}");
        let table = if i % 2 == 0 { &honest } else { &spared };
        ledger.add_game(["red", &other, "yellow", "green"], table);
    }
    let pair = |ledger: &Ledger| {
        ledger
            .score_all(&policy)
            .into_iter()
            .find(|(key, _)| key == &("blue".to_string(), "red".to_string()))
            .map(|(_, score)| score)
    };
    for _ in 0..4 {
        ledger.add_game(["red", "blue", "yellow", "green"], &spared);
    }
    assert_eq!(pair(&ledger), None, "four games are never judged");
    for _ in 0..36 {
        ledger.add_game(["red", "blue", "yellow", "green"], &spared);
    }
    let score = pair(&ledger).expect("forty games");
    assert_eq!(score.pattern, Pattern::Sparing);
    assert!(score.score >= policy.threshold, "{score:?}");
}
