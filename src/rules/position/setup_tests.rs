//! Tests of setup text: setup names, empty input, and the kings and pawns a FEN4 may hold.

use super::{Position, SeatStatus, SetupError};
use crate::rules::fen4::{START_4PC, START_4PCO};
use crate::rules::geometry::{Geometry, Seat};
use crate::rules::ruleset::RuleSet;

/// The four kings where the modern start has them.
const KINGS: [(&str, &str); 4] = [("rK", "h1"), ("bK", "a7"), ("yK", "g14"), ("gK", "n8")];

/// A FEN4 on the 4PC board: Red to move, no castling, no points; `dead` in R,B,Y,G order,
/// `extras` written as is (`{...}-` or empty), `pieces` as (cell, square), e.g. `("dbP", "k5")`.
fn fen4(dead: [bool; 4], extras: &str, pieces: &[(&str, &str)]) -> String {
    let g = Geometry::FOUR_PLAYER;
    let flags: Vec<&str> = dead.iter().map(|&d| if d { "1" } else { "0" }).collect();
    let mut rows = Vec::new();
    for rank in (0..14i16).rev() {
        let mut cells = Vec::new();
        let mut run = 0;
        for file in 0..14i16 {
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let cell = if g.contains(file, rank) {
                pieces.iter().find(|(_, sq)| *sq == name).map(|(p, _)| *p)
            } else {
                Some("x")
            };
            match cell {
                Some(cell) => {
                    if run > 0 {
                        cells.push(run.to_string());
                        run = 0;
                    }
                    cells.push(cell.to_string());
                }
                None => run += 1,
            }
        }
        if run > 0 {
            cells.push(run.to_string());
        }
        rows.push(cells.join(","));
    }
    format!(
        "R-{}-0,0,0,0-0,0,0,0-0,0,0,0-0-{extras}{}",
        flags.join(","),
        rows.join("/")
    )
}

/// The four kings, except those on `without`, plus `more`.
fn pieces<'a>(more: &[(&'a str, &'a str)], without: &[&str]) -> Vec<(&'a str, &'a str)> {
    KINGS
        .iter()
        .filter(|(_, sq)| !without.contains(sq))
        .chain(more)
        .copied()
        .collect()
}

fn teams() -> RuleSet {
    RuleSet::teams()
}

#[test]
fn the_helper_writes_a_readable_position() {
    let text = fen4([false; 4], "", &pieces(&[("rP", "e10")], &[]));
    let pos = Position::from_setup(&text, &teams()).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(
        pos.king_square(Seat::Green).map(Geometry::name),
        Some("n8".into())
    );
}

#[test]
fn a_seat_in_play_without_a_king_is_refused() {
    let text = fen4([false; 4], "", &pieces(&[("bP", "b7")], &["a7"]));
    let error = Position::from_setup(&text, &teams()).expect_err("Blue has no king");
    assert_eq!(error, SetupError::MissingKing { seat: Seat::Blue });
    assert_eq!(
        error.to_string(),
        "Blue has no king but is still in play \
         (mark Blue eliminated in the FEN4's dead field if it is out)"
    );
}

#[test]
fn a_second_king_is_refused_naming_both_squares() {
    // Rows are read from the top, so e5 is placed before h1.
    let text = fen4([false; 4], "", &pieces(&[("rK", "e5")], &[]));
    let error = Position::from_setup(&text, &teams()).expect_err("two red kings");
    assert_eq!(
        error.to_string(),
        "Red has more than one king: on e5 and on h1"
    );
    // An eliminated seat may lose its king, not gain one.
    let text = fen4(
        [false, true, false, false],
        "",
        &pieces(&[("dbK", "a8"), ("dbK", "a7")], &["a7"]),
    );
    assert!(matches!(
        Position::from_setup(&text, &teams()),
        Err(SetupError::TwoKings {
            seat: Seat::Blue,
            ..
        })
    ));
}

#[test]
fn an_eliminated_seat_may_have_no_king_or_a_dead_one() {
    let removed = fen4(
        [false, true, false, false],
        "",
        &pieces(&[("dbP", "b7")], &["a7"]),
    );
    let pos = Position::from_setup(&removed, &teams()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.status(Seat::Blue), SeatStatus::Out);
    assert_eq!(pos.king_square(Seat::Blue), None);
    let dead_king = fen4(
        [false, true, false, false],
        "",
        &pieces(&[("dbK", "a7"), ("dbP", "b7")], &["a7"]),
    );
    let pos = Position::from_setup(&dead_king, &teams()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        pos.king_square(Seat::Blue).map(Geometry::name),
        Some("a7".into())
    );
}

#[test]
fn a_walking_king_counts_as_its_seats_king() {
    let resigned = "{'resigned':(false,true,false,false)}-";
    let walking = fen4(
        [false; 4],
        resigned,
        &pieces(&[("dbP", "b7"), ("dbQ", "a8")], &[]),
    );
    let pos = Position::from_setup(&walking, &teams()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.status(Seat::Blue), SeatStatus::Walking);
    let kingless = fen4([false; 4], resigned, &pieces(&[("dbP", "b7")], &["a7"]));
    assert_eq!(
        Position::from_setup(&kingless, &teams()),
        Err(SetupError::MissingKing { seat: Seat::Blue })
    );
}

#[test]
fn a_dead_king_of_a_seat_in_play_is_refused() {
    let text = fen4([false; 4], "", &pieces(&[("dbK", "a7")], &["a7"]));
    let error = Position::from_setup(&text, &teams()).expect_err("Blue's king is dead");
    assert_eq!(
        error,
        SetupError::KingMarkedDead {
            seat: Seat::Blue,
            square: "a7".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "Blue is still in play but its king on a7 is written dead \
         (write it live, or mark Blue eliminated in the FEN4's dead field)"
    );
}

#[test]
fn a_live_pawn_on_its_promotion_rank_is_refused_for_every_seat() {
    // Teams promote on the 11th rank from each seat's own edge: Red's ranks run up the board,
    // Blue's files run right, Yellow's ranks down, Green's files left.
    let cases = [
        (Seat::Red, "rP", "e11"),
        (Seat::Blue, "bP", "k5"),
        (Seat::Yellow, "yP", "e4"),
        (Seat::Green, "gP", "d5"),
    ];
    for (seat, pawn, square) in cases {
        let text = fen4([false; 4], "", &pieces(&[(pawn, square)], &[]));
        assert_eq!(
            Position::from_setup(&text, &teams()),
            Err(SetupError::PawnOnPromotionRank {
                seat,
                square: square.into(),
                rank: 11
            }),
            "{pawn} on {square}"
        );
    }
    let red = fen4([false; 4], "", &pieces(&[("rP", "e11")], &[]));
    assert_eq!(
        Position::from_setup(&red, &teams())
            .expect_err("red pawn")
            .to_string(),
        "Red pawn on e11 stands on its promotion rank (rank 11 from Red's side) \
         and should have promoted"
    );
    let blue = fen4([false; 4], "", &pieces(&[("bP", "k5")], &[]));
    assert_eq!(
        Position::from_setup(&blue, &teams())
            .expect_err("blue pawn")
            .to_string(),
        "Blue pawn on k5 stands on its promotion rank (rank 11 from Blue's side) \
         and should have promoted"
    );
    // The rank is the rule set's: the 8th in FFA, an ordinary rank in Teams.
    let eighth = fen4([false; 4], "", &pieces(&[("rP", "e8")], &[]));
    assert!(Position::from_setup(&eighth, &teams()).is_ok());
    assert!(matches!(
        Position::from_setup(&eighth, &RuleSet::ffa()),
        Err(SetupError::PawnOnPromotionRank { rank: 8, .. })
    ));
}

#[test]
fn a_dead_pawn_of_an_eliminated_seat_on_that_rank_is_accepted() {
    let text = fen4(
        [false, true, false, false],
        "",
        &pieces(&[("dbP", "k5"), ("dbK", "a7")], &["a7"]),
    );
    let pos = Position::from_setup(&text, &teams()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pos.status(Seat::Blue), SeatStatus::Out);
}

#[test]
fn an_empty_setup_is_refused_with_a_clear_message() {
    for setup in ["", " ", "\n\t  "] {
        let error = Position::from_setup(setup, &teams()).expect_err("empty");
        assert_eq!(error, SetupError::EmptySetup, "{setup:?}");
        assert_eq!(
            error.to_string(),
            "empty setup: give a FEN4 or a setup name (4PC, 4PCo, Quatro)"
        );
    }
}

#[test]
fn setup_names_ignore_case_and_surrounding_whitespace() {
    let rules = teams();
    let modern = Position::standard(&rules, false).expect("4PC");
    let classic = Position::standard(&rules, true).expect("4PCo");
    assert_ne!(modern, classic);
    for name in ["4PC", "4pc", "4Pc", " 4PC\n", START_4PC] {
        assert_eq!(Position::from_setup(name, &rules), Ok(modern), "{name:?}");
    }
    for name in ["4PCo", "4PCO", "4pco", "\t4pCo ", START_4PCO] {
        assert_eq!(Position::from_setup(name, &rules), Ok(classic), "{name:?}");
    }
    assert!(matches!(
        Position::from_setup("4PCx", &rules),
        Err(SetupError::UnknownSetup(_))
    ));
}
