//! Why a submission was refused, naming the field.

use serde_json::{json, Value};

use super::submission::{SeatColour, MAX_NAME_CHARS};
use crate::rules::replay::ReplayError;

/// Why a submission was refused: a stable code, a sentence, and details naming the field.
#[derive(Debug, Clone, PartialEq)]
pub struct IngestError {
    pub code: &'static str,
    pub message: String,
    pub details: Value,
}

impl std::fmt::Display for IngestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IngestError {}

pub(super) fn invalid(field: &str, message: impl Into<String>) -> IngestError {
    IngestError {
        code: "invalid_game",
        message: message.into(),
        details: json!({ "field": field }),
    }
}

/// The replay's error as a submission error on `pgn4`.
pub fn replay_error(err: ReplayError) -> IngestError {
    match err {
        ReplayError::Parse(e) => IngestError {
            code: "pgn4_syntax",
            message: format!(
                "PGN4 syntax error at line {}, column {}: expected {}, found {}.",
                e.line, e.column, e.expected, e.found
            ),
            details: json!({ "field": "pgn4", "line": e.line, "column": e.column,
                             "expected": e.expected, "found": e.found }),
        },
        ReplayError::IllegalMove {
            ply,
            round,
            seat,
            text,
            fen4_before,
            reason,
        } => IngestError {
            code: "illegal_move",
            message: format!(
                "Illegal move at ply {ply} (round {round}, {seat}): `{text}`: {reason}."
            ),
            details: json!({ "field": "pgn4", "ply": ply, "round": round,
                             "seat": SeatColour::from_seat(seat), "move": text,
                             "reason": reason, "fen4": fen4_before }),
        },
        ReplayError::Unsupported { what } => IngestError {
            code: "unsupported_game",
            message: format!("The game uses something the rules core does not support: {what}."),
            details: json!({ "field": "pgn4", "unsupported": what }),
        },
        ReplayError::Setup(e) => IngestError {
            code: "invalid_setup",
            message: format!("The start position is invalid: {e}."),
            details: json!({ "field": "pgn4", "reason": e.to_string() }),
        },
    }
}
/// A refused value for a message: quoted, and cut if long (it may be anything).
pub(super) fn shown(value: &str) -> String {
    if value.chars().count() <= MAX_NAME_CHARS {
        format!("{value:?}")
    } else {
        let head: String = value.chars().take(MAX_NAME_CHARS).collect();
        format!("{head:?}...")
    }
}
