//! Warnings: the ladder's first step must reach the player, or the next offence jumps to a ban
//! they were never warned about. A warning decision gives the player a warning with the text
//! they were sent; until they acknowledge it (when the policy asks), their standing carries
//! it, so a game server shows it before they chat or play again (docs/moderation.md,
//! "Warnings").

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::preset::words;
use super::types::{CaseId, Ground, ReportReason, WarningId};

/// Whether warnings wait for the player's acknowledgement (`config/moderation.toml`,
/// `[warnings]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarningPolicy {
    /// On: a new warning is shown in the player's standing until they acknowledge it.
    pub require_acknowledgement: bool,
}

impl Default for WarningPolicy {
    fn default() -> Self {
        WarningPolicy {
            require_acknowledgement: true,
        }
    }
}

/// One warning a decision gave a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub id: WarningId,
    pub player: String,
    pub case: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    /// What the player was told: the decision's note to them.
    pub text: String,
    pub issued_at: DateTime<Utc>,
    /// Whether the policy asked for an acknowledgement when it was issued.
    pub needs_acknowledgement: bool,
    pub acknowledged_at: Option<DateTime<Utc>>,
}

impl Warning {
    /// Whether the player still has to acknowledge it.
    pub fn awaits_acknowledgement(&self) -> bool {
        self.needs_acknowledgement && self.acknowledged_at.is_none()
    }
}

/// The text of a warning: the decision's note to the player, or, when the admin chose no
/// preset and wrote nothing, a plain sentence naming the reason and the ground, so that no
/// player is warned with an empty message.
pub fn warning_text(note: Option<&str>, reason: ReportReason, ground: Option<Ground>) -> String {
    match note.map(str::trim).filter(|n| !n.is_empty()) {
        Some(note) => note.to_string(),
        None => match ground {
            Some(ground) => format!(
                "This is a warning from the moderators about {} ({}). A further upheld report \
                 will lead to a ban.",
                reason.label(),
                words(&ground)
            ),
            None => format!(
                "This is a warning from the moderators about {}. A further upheld report will \
                 lead to a ban.",
                reason.label()
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_without_words_still_says_why() {
        let text = warning_text(None, ReportReason::OffensiveChat, Some(Ground::Harassment));
        assert!(text.contains("offensive chat"), "{text}");
        assert!(text.contains("harassment"), "{text}");
        assert_eq!(
            warning_text(Some("  Mind your words.  "), ReportReason::Other, None),
            "Mind your words."
        );
        assert!(warning_text(Some("   "), ReportReason::Other, None).contains("other"));
    }

    #[test]
    fn only_a_warning_needing_it_awaits_acknowledgement() {
        let mut warning = Warning {
            id: WarningId(1),
            player: "Spaksi".into(),
            case: CaseId(2),
            reason: ReportReason::OffensiveChat,
            ground: None,
            text: "t".into(),
            issued_at: DateTime::<Utc>::MIN_UTC,
            needs_acknowledgement: true,
            acknowledged_at: None,
        };
        assert!(warning.awaits_acknowledgement());
        warning.acknowledged_at = Some(DateTime::<Utc>::MIN_UTC);
        assert!(!warning.awaits_acknowledgement());
        warning.acknowledged_at = None;
        warning.needs_acknowledgement = false;
        assert!(!warning.awaits_acknowledgement());
    }
}
