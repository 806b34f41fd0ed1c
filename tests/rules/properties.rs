//! Property tests: random legal playouts keep the position consistent, FEN4 round-trips.

use arbiter::rules::fen4;
use arbiter::rules::game::Game;
use arbiter::rules::position::{MoveList, Position};
use arbiter::rules::ruleset::RuleSet;
use proptest::prelude::*;

fn rules_for(index: usize) -> RuleSet {
    let spec = [
        "teams EnPassant",
        "ffa EnPassant DeadKingWalking PromoteTo=D",
        "ffa EnPassant=next",
        "quatro",
        "multiplayer",
    ];
    RuleSet::from_spec(spec[index % spec.len()]).expect("spec")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Copy-make keeps lists, kings and the incremental hash consistent, and every position
    /// survives a FEN4 write-then-read unchanged.
    #[test]
    fn random_playouts_stay_consistent(choices in proptest::collection::vec(any::<u16>(), 1..160), preset in 0usize..5) {
        let rules = rules_for(preset);
        let mut position = Position::standard(&rules, preset % 2 == 1).expect("start");
        let mut list = MoveList::new();
        for choice in choices {
            position.validate().map_err(|e| TestCaseError::fail(e.to_string()))?;
            let text = fen4::write(&position.to_fen4());
            let record = fen4::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let again = Position::from_fen4(&record, &rules).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&again, &position);
            prop_assert_eq!(again.hash(), position.hash());
            position.legal_moves(&mut list);
            // Per-piece generation agrees with full generation.
            let mut from_list = MoveList::new();
            for &sq in position.pieces_of(position.turn()) {
                position.legal_moves_from(sq, &mut from_list);
                let expected: Vec<_> = list.iter().filter(|m| m.from == sq).copied().collect();
                prop_assert_eq!(from_list.as_slice(), expected.as_slice());
            }
            prop_assert_eq!(position.has_legal_move(), !list.is_empty());
            if list.is_empty() {
                break;
            }
            let mv = list.as_slice()[choice as usize % list.len()];
            let mover = position.turn();
            let before = position;
            position.make(mv);
            // The mover never leaves its own king attacked.
            prop_assert!(position.king_square(mover).is_none() || !position.in_check(mover));
            // Piece count drops by at most one per move.
            let count = |p: &Position| arbiter::rules::geometry::Seat::ALL.iter().map(|s| p.pieces_of(*s).len()).sum::<usize>();
            prop_assert!(count(&before) - count(&position) <= 1);
        }
    }

    /// A game played through the state machine never panics and its FFA points never go down.
    #[test]
    fn random_games_keep_points_monotone(choices in proptest::collection::vec(any::<u16>(), 1..200)) {
        let rules = rules_for(1);
        let position = Position::standard(&rules, false).expect("start");
        let mut game = Game::new(rules, position);
        let mut last = [0i32; 4];
        for choice in choices {
            if game.end().is_some() {
                break;
            }
            let moves = game.legal_moves();
            if moves.is_empty() {
                let cause = if game.position().in_check(game.to_move()) {
                    arbiter::rules::game::EliminationCause::Mated
                } else {
                    arbiter::rules::game::EliminationCause::Stalemated
                };
                game.no_move(cause).map_err(|e| TestCaseError::fail(e.to_string()))?;
            } else {
                game.play(moves[choice as usize % moves.len()]).map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            let points = game.position().points();
            for i in 0..4 {
                prop_assert!(points[i] >= last[i]);
            }
            last = points;
        }
    }
}

#[test]
fn start_positions_write_the_sites_fen4() {
    let rules = RuleSet::teams();
    let modern = Position::standard(&rules, false).expect("4PC");
    let classic = Position::standard(&rules, true).expect("4PCo");
    assert_eq!(
        fen4::write(&modern.to_fen4()),
        fen4::write(&fen4::parse(fen4::START_4PC).expect("fen"))
    );
    assert_eq!(
        fen4::write(&classic.to_fen4()),
        fen4::write(&fen4::parse(fen4::START_4PCO).expect("fen"))
    );
    let read = Position::from_setup(fen4::START_4PC, &rules).expect("from text");
    assert_eq!(read, modern);
}
