//! Perft: count the leaf positions of the legal-move tree, the standard correctness and speed
//! check of a move generator. The last ply is bulk-counted (legal moves are counted, not made).

use super::geometry::Geometry;
use super::position::{Move, MoveList, Position, SetupError};
use super::ruleset::{RuleSet, RuleSetError};
use std::fmt;

/// The perft start position could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PerftSetupError {
    Rules(RuleSetError),
    Setup(SetupError),
}

impl fmt::Display for PerftSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftSetupError::Rules(e) => write!(f, "{e}"),
            PerftSetupError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PerftSetupError {}

/// The ruleset spec used when none is given: the site's Teams rules with its en-passant window
/// (the reference perft table's right-hand column).
pub const DEFAULT_SPEC: &str = "teams EnPassant";

/// Build the position for `arbiter perft DEPTH [--fen4 F] [--ruleset R]`: `ruleset_spec` is a
/// preset name optionally followed by rule variants (`"ffa EnPassant=next"`; `None` means
/// [`DEFAULT_SPEC`]), `setup` is `4PC`, `4PCo`, `Quatro` or a FEN4 text (`None` means the rule
/// set's own start; an empty text is an error, not the standard start).
pub fn start_position(
    ruleset_spec: Option<&str>,
    setup: Option<&str>,
) -> Result<Position, PerftSetupError> {
    let rules =
        RuleSet::from_spec(ruleset_spec.unwrap_or(DEFAULT_SPEC)).map_err(PerftSetupError::Rules)?;
    let setup = setup.unwrap_or(rules.default_setup);
    Position::from_setup(setup, &rules).map_err(PerftSetupError::Setup)
}

/// Number of leaf positions `depth` plies below `position` (1 at depth 0). The position is
/// left unchanged; it is `&mut` so callers can pass their working position.
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    let mut buffers: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_with(position, depth, &mut buffers)
}

fn perft_with(position: &Position, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    position.legal_moves(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = *position;
        child.make(mv);
        total += perft_with(&child, depth - 1, rest);
    }
    total
}

/// Perft split by first move: `(move text, leaf count)` sorted by move text, for comparing two
/// engines line by line (`arbiter perft DEPTH --divide`).
pub fn divide(position: &mut Position, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    let mut buffers: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    let mut result: Vec<(String, u64)> = list
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.make(mv);
            let count = if depth <= 1 {
                1
            } else {
                perft_with(&child, depth - 1, &mut buffers)
            };
            (move_text(mv), count)
        })
        .collect();
    result.sort();
    result
}

fn move_text(mv: Move) -> String {
    match mv.kind {
        super::position::MoveKind::CastleShort | super::position::MoveKind::CastleLong => {
            format!("{} ({})", mv.coordinate_text(), Geometry::name(mv.to))
        }
        _ => mv.coordinate_text(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ruleset::EnPassant;

    fn start(spec: &str) -> Position {
        start_position(Some(spec), None).expect("start position")
    }

    #[test]
    fn shallow_depths_match_the_reference_table() {
        let mut pos = start("teams EnPassant");
        assert_eq!(perft(&mut pos, 1), 20);
        assert_eq!(perft(&mut pos, 2), 395);
        assert_eq!(perft(&mut pos, 3), 7_800);
        assert_eq!(perft(&mut pos, 4), 152_050);
        let mut ffa = start("ffa EnPassant");
        assert_eq!(perft(&mut ffa, 4), 152_050);
    }

    #[test]
    fn depth_five_wide_en_passant_window() {
        let mut pos = start("teams EnPassant");
        assert_eq!(pos.rules().en_passant, EnPassant::UntilPusherMoves);
        assert_eq!(perft(&mut pos, 5), 3_452_310);
    }

    #[test]
    fn depth_five_narrow_en_passant_window() {
        let mut pos = start("teams EnPassant=next");
        assert_eq!(perft(&mut pos, 5), 3_451_520);
    }

    #[test]
    fn depth_six_wide_en_passant_window() {
        let mut pos = start("teams EnPassant");
        assert_eq!(perft(&mut pos, 6), 77_430_383);
    }

    #[test]
    fn depth_six_narrow_en_passant_window() {
        let mut pos = start("teams EnPassant=next");
        assert_eq!(perft(&mut pos, 6), 77_394_666);
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut pos = start("ffa EnPassant");
        let parts = divide(&mut pos, 3);
        assert_eq!(parts.len(), 20);
        assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 7_800);
    }

    #[test]
    fn bad_specs_are_errors() {
        assert!(start_position(Some("nonsense"), None).is_err());
        assert!(start_position(None, Some("R-garbage")).is_err());
    }

    #[test]
    fn an_empty_setup_is_an_error_and_names_are_case_insensitive() {
        for empty in ["", "  "] {
            assert_eq!(
                start_position(None, Some(empty)),
                Err(PerftSetupError::Setup(SetupError::EmptySetup))
            );
        }
        let mut classic = start_position(None, Some("4pco")).expect("4pco");
        assert_eq!(Ok(classic), start_position(None, Some("4PCo")));
        assert_eq!(perft(&mut classic, 1), 20);
    }
}
