//! Closed sets the API itself defines (states and outcomes it reports, filters it takes), as
//! enums so the document lists their values. Sets owned by the pure modules are described
//! in `wire_enums` instead.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

// Case and appeal states are stored, so `moderation` owns them (`wire_enums` documents them).
pub use crate::moderation::{AppealStatus, CaseStatus};

/// Which cases the queue lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaseStatusFilter {
    Open,
    Decided,
    All,
}

/// Which appeals the list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppealStatusFilter {
    Open,
    Upheld,
    Reduced,
    Lifted,
    All,
}

/// A player's own report: `open` until its case is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    Open,
    Decided,
}

/// Who acted, in the moderation log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActorKind {
    Player,
    Admin,
    System,
}

/// A fingerprint's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FingerprintKind {
    Device,
    Network,
}

/// A Teams seat's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TeamResult {
    Win,
    Loss,
    Draw,
}

/// How an archived game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Resignation,
    Timeout,
    Forfeit,
    Claim,
    KingCaptured,
    Draw,
    Unfinished,
}

impl Termination {
    pub const ALL: [Termination; 9] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Resignation,
        Termination::Timeout,
        Termination::Forfeit,
        Termination::Claim,
        Termination::KingCaptured,
        Termination::Draw,
        Termination::Unfinished,
    ];

    pub fn parse(text: &str) -> Option<Termination> {
        serde_json::from_value(serde_json::Value::String(text.to_string())).ok()
    }
}

/// How a seat left an archived game.
// The rules core's causes (`rules::game::EliminationCause`) and `forfeit`, which only the
// connection events show; the document keeps the schema name it has always had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = EliminationCause)]
pub enum ArchivedEliminationCause {
    Mated,
    Stalemated,
    Resigned,
    TimedOut,
    Forfeit,
    Claimed,
    KingCaptured,
}

/// Which sanctions the admin list shows: those in force now (default), or all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SanctionStatusFilter {
    InForce,
    All,
}

/// A webhook delivery: `pending` until the receiver accepts it (`delivered`) or every attempt
/// failed (`failed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    Pending,
    Delivered,
    Failed,
}
