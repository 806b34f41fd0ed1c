//! Helpers shared by the rules tests: play a move by its text, set up a position from pieces.

use arbiter::rules::game::{Game, PlyReport};
use arbiter::rules::geometry::Seat;
use arbiter::rules::piece::PieceKind;
use arbiter::rules::position::Position;
use arbiter::rules::ruleset::RuleSet;

/// Plays the legal move written `text` (`e3-g4`, `g7-g8=Q`); panics when it is not legal.
pub fn play(game: &mut Game, text: &str) -> PlyReport {
    let mv = game
        .legal_moves()
        .into_iter()
        .find(|m| m.coordinate_text() == text)
        .unwrap_or_else(|| panic!("{text} is not legal for {}", game.to_move()));
    game.play(mv).expect("legal")
}

/// A game from a piece list, `out` seats already eliminated.
pub fn custom_with_out(
    rules: RuleSet,
    turn: Seat,
    pieces: &[(Seat, PieceKind, &str)],
    out: &[Seat],
) -> Game {
    let position = Position::from_pieces(&rules, turn, pieces, out).expect("position");
    Game::new(rules, position)
}

/// A game from a piece list, every seat in play.
pub fn custom(rules: RuleSet, turn: Seat, pieces: &[(Seat, PieceKind, &str)]) -> Game {
    custom_with_out(rules, turn, pieces, &[])
}
