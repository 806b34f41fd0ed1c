//! Warnings as players, game servers and admins read them.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::{Ground, Language, ReportReason, Warning};

/// One warning a decision gave a player.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningView {
    #[schema(example = 1)]
    pub id: i64,
    #[schema(example = "Spaksi")]
    pub player: String,
    /// The case decided with the warning.
    pub case_id: i64,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    /// The language of `text`: the player's last known one (their token's `locale`, or
    /// `Accept-Language`), else English.
    pub language: Language,
    /// What the player was told, in `language`.
    pub text: String,
    /// The same in English.
    pub text_en: String,
    pub issued_at: DateTime<Utc>,
    /// True while the player still has to acknowledge it: the standing carries it until then.
    pub must_acknowledge: bool,
    /// When the player acknowledged it; null if not (yet), or if it never needed it.
    pub acknowledged_at: Option<DateTime<Utc>>,
}

impl From<Warning> for WarningView {
    fn from(warning: Warning) -> Self {
        WarningView {
            must_acknowledge: warning.awaits_acknowledgement(),
            id: warning.id.0,
            player: warning.player,
            case_id: warning.case.0,
            reason: warning.reason,
            ground: warning.ground,
            language: warning.language,
            text: warning.text,
            text_en: warning.text_en,
            issued_at: warning.issued_at,
            acknowledged_at: warning.acknowledged_at,
        }
    }
}

/// The warning a player must acknowledge before the game server lets them chat or play on.
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningNotice {
    /// Acknowledge with `POST /api/v1/warnings/{id}/acknowledgement` (the player's token).
    #[schema(example = 1)]
    pub id: i64,
    /// The language of `text` (the player's last known one, else English).
    pub language: Language,
    /// What the player was told; show it to them.
    pub text: String,
    /// The same in English.
    pub text_en: String,
    pub issued_at: DateTime<Utc>,
}

impl From<Warning> for WarningNotice {
    fn from(warning: Warning) -> Self {
        WarningNotice {
            id: warning.id.0,
            language: warning.language,
            text: warning.text,
            text_en: warning.text_en,
            issued_at: warning.issued_at,
        }
    }
}
