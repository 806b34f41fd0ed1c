//! A game is stored only when its `Result` and `Termination` tags agree with its replay: the
//! stored points, placements and team results come from the moves, so a game whose tags say
//! otherwise would be stored as if they agreed. The HTTP ingest and `arbiter import` both refuse
//! it here, with the same sentence `arbiter replay` prints.
//!
//! What agrees:
//! - a record with moves whose computed points (FFA) or winning team (Teams) are the `Result`'s,
//!   and whose `Termination: Checkmate` shows as a mate;
//! - a record cut short while the game still runs, with `Result "*"` (or none);
//! - a game aborted before any move: no plies, a `Result` that says nothing was won (`*`, none,
//!   or 0 points for every player) and a `Termination` that does not end the game (a claimed
//!   win or a draw read from it would store points, or a winner, nobody played for).

use serde_json::json;

use super::error::IngestError;
use crate::rules::replay::{self, Replay, TagResult};

/// The error code of a game whose tags disagree with its replay.
pub const RESULT_MISMATCH: &str = "result_mismatch";

/// Refuses a game whose tags disagree with its replay, naming every difference.
pub fn check_result(replay: &Replay) -> Result<(), IngestError> {
    let mut differences = replay::tag_mismatches(replay);
    if differences.is_empty() && replay.plies.is_empty() {
        differences.extend(unplayed_difference(replay));
    }
    if differences.is_empty() {
        return Ok(());
    }
    Err(IngestError {
        code: RESULT_MISMATCH,
        message: format!(
            "The game's tags disagree with its moves: {}.",
            differences.join("; ")
        ),
        details: json!({ "field": "pgn4", "mismatches": differences }),
    })
}

/// A record without moves is only a game aborted before its first move: nothing can have
/// been won in it, by the `Result` or by the `Termination`.
fn unplayed_difference(replay: &Replay) -> Option<String> {
    let result = replay.pgn.tag("Result").unwrap_or("").trim();
    let nothing_won = match &replay.tag_result {
        None => true,
        Some(TagResult::Points(points)) => points.iter().all(|&p| p == 0),
        Some(TagResult::Other(text)) => text == "*",
        Some(TagResult::Teams(_)) => false,
    };
    if !nothing_won {
        return Some(format!(
            "no move was played, but Result says \"{result}\" (a game aborted before any move \
             has Result \"*\" or 0 points for every player)"
        ));
    }
    if replay.game.end().is_some() {
        let termination = replay.pgn.tag("Termination").unwrap_or("").trim();
        let scores = replay.standing.scores.map(|s| s.to_string()).join("/");
        return Some(format!(
            "no move was played, but Termination \"{termination}\" ends the game \
             (computed points {scores})"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAGS: &str = "[GameNr \"104000001\"]\n[Variant \"FFA\"]\n\
        [RuleVariants \"DeadKingWalking EnPassant PromoteTo=D\"]\n[StartFen4 \"4PC\"]\n\
        [Red \"r\"]\n[Blue \"b\"]\n[Yellow \"y\"]\n[Green \"g\"]\n";

    fn checked(extra_tags: &str, moves: &str) -> Result<(), IngestError> {
        let text = format!("{TAGS}{extra_tags}\n{moves}\n");
        check_result(&replay::replay(&text).expect("replays"))
    }

    #[test]
    fn an_aborted_game_without_moves_agrees() {
        for result in [
            "",
            "[Result \"*\"]\n",
            "[Result \"r: 0 - b: 0 - y: 0 - g: 0\"]\n",
        ] {
            assert_eq!(checked(result, ""), Ok(()), "{result}");
        }
    }

    #[test]
    fn a_game_without_moves_that_someone_won_is_refused() {
        let e = checked("[Result \"r: 0 - b: 0 - y: 0 - g: 60\"]\n", "").expect_err("won");
        assert_eq!(e.code, RESULT_MISMATCH);
        assert!(e.message.contains("Result says"), "{}", e.message);
        // The claimed win alone would store 60 points for Green.
        let e = checked("[Result \"*\"]\n[Termination \"(Green +20)\"]\n", "").expect_err("claim");
        assert!(e.message.contains("0/0/0/60"), "{}", e.message);
        let e = checked(
            "[Result \"r: 85 - b: 10 - y: 35 - g: 79\"]\n[Termination \"(Green +20)\"]\n",
            "",
        )
        .expect_err("points");
        assert!(
            e.message.contains(
                "points: computed Red 0, Blue 0, Yellow 0, Green 60 \
                 but Result says Red 85, Blue 10, Yellow 35, Green 79"
            ),
            "{}",
            e.message
        );
        assert_eq!(e.details["field"], "pgn4");
    }

    #[test]
    fn a_result_that_disagrees_with_the_moves_is_refused() {
        let moves = "1. h2-h4 .. b4-c4 .. e13-e12 .. m10-l10 2. h4-h5 .. b5-c5 .. d13-d12 .. \
            l10-k10 3. Qg1-j4 .. b10-c10 .. k13-k12 .. k10-j10 4. Qj4xj10 .. c4-d4 .. T\n";
        assert_eq!(
            checked("[Result \"r: 1 - b: 0 - y: 0 - g: 0\"]\n", moves),
            Ok(())
        );
        let e = checked("[Result \"r: 0 - b: 0 - y: 0 - g: 1\"]\n", moves).expect_err("differs");
        assert!(
            e.message.contains(
                "points: computed Red 1, Blue 0, Yellow 0, Green 0 \
                 but Result says Red 0, Blue 0, Yellow 0, Green 1"
            ),
            "{}",
            e.message
        );
        // Cut short while running: no result claimed, nothing to disagree with.
        assert_eq!(checked("[Result \"*\"]\n", moves), Ok(()));
    }
}
