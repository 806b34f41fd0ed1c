//! Stored chat analysis flags, per game and per player.

use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::wire_enums::stored;
use crate::chat::{Category, Severity};
use crate::store::chat_flags::FlagWithText;

/// Where a flag's position check was made.
#[derive(Debug, Serialize, ToSchema)]
pub struct FlagEvidence {
    /// The position at the line's ply, as FEN4.
    pub fen4: String,
    /// What the check found.
    pub finding: Option<String>,
}

/// One finding of the chat analysis on one stored chat line.
#[derive(Debug, Serialize, ToSchema)]
pub struct FlagView {
    pub id: i64,
    pub game_id: i64,
    /// Index of the chat line in the game's chat log.
    pub line_idx: i32,
    /// Plies played when the line was sent.
    pub ply: i32,
    pub sender: String,
    /// The chat line as sent.
    pub text: String,
    pub category: Category,
    pub severity: Severity,
    /// Byte offsets of the matched text in `text`.
    pub span_start: i32,
    pub span_end: i32,
    pub rule: String,
    pub explanation: String,
    pub report_worthy: bool,
    pub evidence: Option<FlagEvidence>,
}

impl FlagView {
    pub(crate) fn from_row((flag, text): FlagWithText) -> Result<FlagView, ApiError> {
        let evidence = flag.evidence_fen4.map(|fen4| FlagEvidence {
            fen4,
            finding: flag.evidence_finding,
        });
        Ok(FlagView {
            id: flag.id,
            game_id: flag.game_id,
            line_idx: flag.line_idx,
            ply: flag.ply,
            sender: flag.sender,
            text,
            category: stored("flag category", &flag.category)?,
            severity: stored("flag severity", &flag.severity)?,
            span_start: flag.span_start,
            span_end: flag.span_end,
            rule: flag.rule,
            explanation: flag.explanation,
            report_worthy: flag.report_worthy,
            evidence,
        })
    }
}

/// The flags of one game.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameFlags {
    pub game_id: i64,
    pub items: Vec<FlagView>,
}
