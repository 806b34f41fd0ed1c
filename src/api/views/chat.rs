//! The chat check's response: the action, the flags, the position check and the sender.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::chat::context::PositionCheck;
use crate::chat::{
    Action, Category, FfaClass, Flag, LearnedEffect, LearnedHead, LineAnalysis, Severity, Tense,
};

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionName {
    Allow,
    Warn,
    Block,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeverityName {
    Low,
    Medium,
    High,
    Critical,
}

/// Whether the line talks about what happened or about what could happen.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TenseName {
    Past,
    Present,
}

/// Byte offsets into the submitted text.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpanView {
    pub start: usize,
    pub end: usize,
}

/// Where a position check was made.
#[derive(Debug, Serialize, ToSchema)]
pub struct EvidenceView {
    pub ply: u32,
    pub fen4: String,
    pub finding: String,
}

/// One finding on the checked line.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineCheckFlag {
    pub category: Category,
    pub severity: SeverityName,
    pub span: SpanView,
    /// The text the span covers.
    pub matched: String,
    /// The rule or lexicon entry that fired.
    pub rule: String,
    pub explanation: String,
    /// Whether the reporting guide says this alone is worth a report.
    pub report_worthy: bool,
    pub evidence: Option<EvidenceView>,
    /// What the learned scorer read: on its own flags (`rule` `learned:hostile` or
    /// `learned:identity_hate`) and on a lexicon flag it confirmed or softened.
    pub learned: Option<LearnedView>,
}

/// The learned scorer's reading of the line.
#[derive(Debug, Serialize, ToSchema)]
pub struct LearnedView {
    pub head: LearnedHeadName,
    /// The head's score, 0 to 1.
    pub score: f32,
    /// The words that raised the score most, strongest first.
    pub carried_by: Vec<String>,
    pub effect: LearnedEffectName,
}

#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LearnedHeadName {
    /// Hostility toward a person, in any words.
    Hostile,
    /// Hate aimed at a group.
    IdentityHate,
}

/// What the scorer did: `added` a flag of its own, `confirmed` (raised) or `softened`
/// (lowered) a lexicon flag, or added a flag reading the line `with_earlier_lines` of its
/// sender (a sentence split over several lines).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LearnedEffectName {
    Added,
    Confirmed,
    Softened,
    WithEarlierLines,
}

/// What the rules engine found for the line's board mentions.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionView {
    pub ply: u32,
    pub fen4: String,
    pub move_legal_for_other: Option<bool>,
    pub piece_hanging: Option<bool>,
    pub seat_active: Option<bool>,
    pub move_clearly_bad: Option<bool>,
    /// For a bare "check": whether the sender's last move gave check (then it is the
    /// sender's announcement).
    pub sender_gave_check: Option<bool>,
    pub findings: Vec<String>,
}

/// Why a line is blocked whatever it says.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BlockReason {
    /// The sender has a chat ban (or a club ban) in force.
    SenderBanned,
}

/// The sender's chat standing now, as `GET /api/v1/players/{name}/standing` reports it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SenderView {
    pub name: String,
    pub may_chat: bool,
    /// When the sender's chat ban ends; null with `may_chat` false: permanent.
    pub chat_until: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatCheckResponse {
    /// What to do with the line: the strictest action any flag asks for, or `block` for a
    /// chat-banned sender.
    pub action: ActionName,
    /// Set when the line is blocked whatever it says: `sender_banned`.
    pub reason: Option<BlockReason>,
    /// The sender's chat standing, when `sender` was given.
    pub sender: Option<SenderView>,
    pub flags: Vec<LineCheckFlag>,
    /// How the line reads under the FFA chat rules, when they apply.
    pub ffa: Option<FfaClass>,
    pub tense: TenseName,
    /// Present when a PGN4 was given and the line mentions the board.
    pub position: Option<PositionView>,
}

/// The response for an analysed line; `sender` is filled in by the caller.
pub(crate) fn check_response(
    text: &str,
    analysis: LineAnalysis,
    position: Option<PositionCheck>,
) -> ChatCheckResponse {
    ChatCheckResponse {
        action: match analysis.action {
            Action::Allow => ActionName::Allow,
            Action::Warn => ActionName::Warn,
            Action::Block => ActionName::Block,
        },
        reason: None,
        sender: None,
        flags: analysis
            .flags
            .into_iter()
            .map(|f| flag_view(text, f))
            .collect(),
        ffa: analysis.ffa,
        tense: match analysis.tense {
            Tense::Past => TenseName::Past,
            Tense::Present => TenseName::Present,
        },
        position: position.map(|check| PositionView {
            ply: check.verdict.ply,
            fen4: check.verdict.fen4,
            move_legal_for_other: check.verdict.move_legal_for_other,
            piece_hanging: check.verdict.piece_hanging,
            seat_active: check.verdict.seat_active,
            move_clearly_bad: check.verdict.move_clearly_bad,
            sender_gave_check: check.verdict.sender_gave_check,
            findings: check.findings,
        }),
    }
}

fn flag_view(text: &str, flag: Flag) -> LineCheckFlag {
    LineCheckFlag {
        category: flag.category,
        severity: match flag.severity {
            Severity::Low => SeverityName::Low,
            Severity::Medium => SeverityName::Medium,
            Severity::High => SeverityName::High,
            Severity::Critical => SeverityName::Critical,
        },
        matched: flag.span.slice(text).to_string(),
        span: SpanView {
            start: flag.span.start,
            end: flag.span.end,
        },
        rule: flag.rule,
        explanation: flag.explanation,
        report_worthy: flag.report_worthy,
        evidence: flag.evidence.map(|e| EvidenceView {
            ply: e.ply,
            fen4: e.fen4,
            finding: e.finding,
        }),
        learned: flag.learned.map(|l| LearnedView {
            head: match l.head {
                LearnedHead::Hostile => LearnedHeadName::Hostile,
                LearnedHead::IdentityHate => LearnedHeadName::IdentityHate,
            },
            score: f32::from(l.score_per_mille) / 1000.0,
            carried_by: l.carried_by,
            effect: match l.effect {
                LearnedEffect::Added => LearnedEffectName::Added,
                LearnedEffect::Confirmed => LearnedEffectName::Confirmed,
                LearnedEffect::Softened => LearnedEffectName::Softened,
                LearnedEffect::WithEarlierLines => LearnedEffectName::WithEarlierLines,
            },
        }),
    }
}
