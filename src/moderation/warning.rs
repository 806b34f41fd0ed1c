//! Warnings: the ladder's first step must reach the player, or the next offence jumps to a ban
//! they were never warned about. A warning decision gives the player a warning with the text
//! they were sent; until they acknowledge it (when the policy asks), their standing carries
//! it, so a game server shows it before they chat or play again (docs/moderation.md,
//! "Warnings").

use chrono::{DateTime, Utc};

use super::language::Language;
use super::texts::Words;
use super::types::{CaseId, Ground, ReportReason, WarningId};

/// One warning a decision gave a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub id: WarningId,
    pub player: String,
    pub case: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    /// The language the player was told it in (their last known one, else English).
    pub language: Language,
    /// What the player was told: the decision's note to them, in `language`.
    pub text: String,
    /// The same in English.
    pub text_en: String,
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
/// preset and wrote nothing, a plain sentence naming the reason and the ground in `words`'
/// language, so that no player is warned with an empty message.
pub fn warning_text(
    note: Option<&str>,
    reason: ReportReason,
    ground: Option<Ground>,
    words: &Words,
) -> String {
    if let Some(note) = note.map(str::trim).filter(|n| !n.is_empty()) {
        return note.to_string();
    }
    let sentence = match ground {
        Some(ground) => words
            .warning
            .with_ground
            .replace("{ground}", words.ground(ground)),
        None => words.warning.without_ground.clone(),
    };
    sentence.replace("{reason}", words.reason(reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_without_words_still_says_why() {
        let english = crate::moderation::texts::english();
        let text = warning_text(
            None,
            ReportReason::OffensiveChat,
            Some(Ground::Harassment),
            english,
        );
        assert_eq!(
            text,
            "This is a warning from the moderators about offensive chat / spamming \
             (harassment). A further upheld report will lead to a ban."
        );
        assert_eq!(
            warning_text(
                Some("  Mind your words.  "),
                ReportReason::Other,
                None,
                english
            ),
            "Mind your words."
        );
        let blank = warning_text(Some("   "), ReportReason::Other, None, english);
        assert!(blank.contains("about other."), "{blank}");
    }

    #[test]
    fn only_a_warning_needing_it_awaits_acknowledgement() {
        let mut warning = Warning {
            id: WarningId(1),
            player: "Spaksi".into(),
            case: CaseId(2),
            reason: ReportReason::OffensiveChat,
            ground: None,
            language: Language::En,
            text: "t".into(),
            text_en: "t".into(),
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
