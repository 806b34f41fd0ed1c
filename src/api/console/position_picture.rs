//! The board a flagged chat line was judged on, as a picture: the game replayed to the line's
//! ply (the same position the chat check used) with the suggested move the finding names
//! marked by an arrow.

use std::sync::OnceLock;

use regex::Regex;

use super::board_svg::{board_svg, BoardMarks};
use crate::chat::context::position_for;
use crate::rules::geometry::Square;
use crate::rules::position::Position;
use crate::rules::replay::{replay, Replay};

/// The first move the finding calls legal (`"e2-e4 is legal for Blue (...)"`), if any.
pub fn suggested_move(position: &Position, finding: &str) -> Option<(Square, Square)> {
    static MOVE: OnceLock<Option<Regex>> = OnceLock::new();
    let pattern = MOVE
        .get_or_init(|| {
            Regex::new(r"\b([a-n](?:1[0-4]|[1-9]))-([a-n](?:1[0-4]|[1-9]))(?:=[A-Z])? is legal for")
                .ok()
        })
        .as_ref()?;
    let found = pattern.captures(finding)?;
    let geometry = position.geometry();
    let from = geometry.parse_square(found.get(1)?.as_str())?;
    let to = geometry.parse_square(found.get(2)?.as_str())?;
    Some((from, to))
}

/// A replayed game, or why it could not be replayed.
pub fn replayed(pgn4: &str) -> Option<Replay> {
    replay(pgn4).ok()
}

/// The SVG of the position at `ply` with the finding's move marked.
pub fn position_svg(replay: &Replay, ply: u32, finding: Option<&str>, title: &str) -> String {
    let (position, _) = position_for(replay, Some(ply));
    let marks = BoardMarks {
        arrow: finding.and_then(|f| suggested_move(position, f)),
    };
    board_svg(position, &marks, title)
}

/// The SVG of the position after `plies` plies, the last move played marked.
pub fn after_plies_svg(replay: &Replay, plies: usize, title: &str) -> Option<String> {
    let position = replay.position_at(plies)?;
    let last = plies
        .checked_sub(1)
        .and_then(|index| replay.plies.get(index))
        .and_then(|ply| ply.played);
    let marks = BoardMarks {
        arrow: last.map(|mv| (mv.from, mv.to)),
    };
    Some(board_svg(position, &marks, title))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = include_str!("../../../tests/data/pgn4/ffa/cc_game_0016.pgn4");

    #[test]
    fn the_finding_s_move_is_marked_on_the_position_it_was_judged_on() {
        let game = replayed(GAME).expect("the test game replays");
        let (position, _) = position_for(&game, Some(4));
        let marked = suggested_move(position, "h2-h4 is legal for Red (pawn, next to move)");
        let geometry = position.geometry();
        let expected = (geometry.parse_square("h2"), geometry.parse_square("h4"));
        assert_eq!(marked.map(|(a, b)| (Some(a), Some(b))), Some(expected));
        assert_eq!(
            suggested_move(position, "no other player can play Qh5 here"),
            None
        );
        let svg = position_svg(&game, 4, Some("h2-h4 is legal for Red (pawn)"), "Ply 4");
        assert!(svg.contains("<title>Ply 4</title>"));
        assert!(svg.contains("class=\"arrow\""), "an arrow is drawn");
    }
}
