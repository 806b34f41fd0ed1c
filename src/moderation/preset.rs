//! Decision presets: the message a player receives with a decision, written once by the site
//! (`config/presets.toml`) and chosen by key, so that every admin tells players the same thing
//! in the same words. A preset fits one reason and one kind of decision; its text may name the
//! player, the reason, the ground, the sanction, its end and the games.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::types::{DecisionKind, ReportReason};

/// The built-in presets, embedded so the service runs without a file.
pub const DEFAULT_PRESETS_TOML: &str = include_str!("../../config/presets.toml");

/// The placeholders a text may use, `{name}` each.
pub const PLACEHOLDERS: [&str; 6] = ["player", "reason", "ground", "sanction", "until", "games"];

/// Placeholders that only a sanction has.
const SANCTION_ONLY: [&str; 2] = ["sanction", "until"];

/// One preset as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionPreset {
    /// What a decision names, e.g. `offensive_chat_warn`.
    pub key: String,
    pub reason: ReportReason,
    pub decision: DecisionKind,
    /// A short name for a list of presets.
    pub title: String,
    /// The message to the player, with `{placeholders}`.
    pub text: String,
    /// The message to the reporters of the case's reports, with the same placeholders but
    /// those of a sanction (what reporters learn of a sanction is policy, `[reporters]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reporter_text: Option<String>,
}

/// Every preset of the site.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionPresets {
    #[serde(default, rename = "preset")]
    pub presets: Vec<DecisionPreset>,
}

/// Why a presets file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PresetsError {
    Parse(String),
    EmptyKey { index: usize },
    DuplicateKey { key: String },
    EmptyText { key: String },
    UnknownPlaceholder { key: String, placeholder: String },
    UnclosedPlaceholder { key: String },
    SanctionPlaceholderWithoutSanction { key: String, placeholder: String },
}

impl fmt::Display for PresetsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetsError::Parse(why) => write!(f, "presets: {why}"),
            PresetsError::EmptyKey { index } => write!(f, "preset {index} has an empty key"),
            PresetsError::DuplicateKey { key } => write!(f, "preset key {key:?} is used twice"),
            PresetsError::EmptyText { key } => write!(f, "preset {key:?} has an empty text"),
            PresetsError::UnknownPlaceholder { key, placeholder } => write!(
                f,
                "preset {key:?} uses {{{placeholder}}}; the placeholders are {}",
                PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
            ),
            PresetsError::UnclosedPlaceholder { key } => {
                write!(f, "preset {key:?} has a '{{' without its '}}'")
            }
            PresetsError::SanctionPlaceholderWithoutSanction { key, placeholder } => write!(
                f,
                "preset {key:?} uses {{{placeholder}}} but is not a sanction decision"
            ),
        }
    }
}

impl std::error::Error for PresetsError {}

/// The placeholders of a text in order, or `None` when a `{` is never closed.
pub(crate) fn placeholders(text: &str) -> Option<Vec<&str>> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        found.push(&after[..close]);
        rest = &after[close + 1..];
    }
    Some(found)
}

/// Every placeholder of `text` is known, and a sanction's only where `sanction_allowed`.
fn check_text(key: &str, text: &str, sanction_allowed: bool) -> Result<(), PresetsError> {
    let used =
        placeholders(text).ok_or_else(|| PresetsError::UnclosedPlaceholder { key: key.into() })?;
    for placeholder in used {
        if !PLACEHOLDERS.contains(&placeholder) {
            return Err(PresetsError::UnknownPlaceholder {
                key: key.into(),
                placeholder: placeholder.into(),
            });
        }
        if SANCTION_ONLY.contains(&placeholder) && !sanction_allowed {
            return Err(PresetsError::SanctionPlaceholderWithoutSanction {
                key: key.into(),
                placeholder: placeholder.into(),
            });
        }
    }
    Ok(())
}

impl DecisionPresets {
    /// Parses and checks a presets file: keys present and unique, texts not empty, every
    /// placeholder known and available for the preset's kind of decision.
    pub fn from_toml_str(text: &str) -> Result<DecisionPresets, PresetsError> {
        let presets: DecisionPresets =
            toml::from_str(text).map_err(|e| PresetsError::Parse(e.to_string()))?;
        let mut keys = BTreeSet::new();
        for (index, preset) in presets.presets.iter().enumerate() {
            let key = preset.key.trim();
            if key.is_empty() {
                return Err(PresetsError::EmptyKey { index });
            }
            if !keys.insert(key) {
                return Err(PresetsError::DuplicateKey { key: key.into() });
            }
            if preset.text.trim().is_empty() {
                return Err(PresetsError::EmptyText { key: key.into() });
            }
            check_text(key, &preset.text, preset.decision == DecisionKind::Sanction)?;
            if let Some(reporter_text) = &preset.reporter_text {
                if reporter_text.trim().is_empty() {
                    return Err(PresetsError::EmptyText { key: key.into() });
                }
                check_text(key, reporter_text, false)?;
            }
        }
        Ok(presets)
    }

    /// The built-in presets (`config/presets.toml`).
    pub fn built_in() -> DecisionPresets {
        DecisionPresets::from_toml_str(DEFAULT_PRESETS_TOML).unwrap_or_default()
    }

    pub fn find(&self, key: &str) -> Option<&DecisionPreset> {
        self.presets.iter().find(|p| p.key == key)
    }
}

impl DecisionPreset {
    /// Whether the preset may go with this decision on a case of this reason.
    pub fn fits(&self, reason: ReportReason, kind: DecisionKind) -> bool {
        self.reason == reason && self.decision == kind
    }
}

/// An enum's wire name in words: `abusive_language_habit` → `abusive language habit`.
pub(crate) fn words<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset(decision: DecisionKind, text: &str) -> DecisionPreset {
        DecisionPreset {
            key: "k".into(),
            reason: ReportReason::OffensiveChat,
            decision,
            title: "t".into(),
            text: text.into(),
            reporter_text: None,
        }
    }

    #[test]
    fn the_built_in_presets_load_and_cover_every_reason() {
        let presets = DecisionPresets::from_toml_str(DEFAULT_PRESETS_TOML).expect("built-in");
        for reason in ReportReason::ALL {
            assert!(
                presets.presets.iter().any(|p| p.reason == reason),
                "no preset for {reason:?}"
            );
        }
    }

    #[test]
    fn files_with_mistakes_are_refused_with_the_preset_named() {
        let bad = |text: &str| DecisionPresets::from_toml_str(text).expect_err("refused");
        let one = |decision: &str, text: &str| {
            format!(
                "[[preset]]\nkey = \"a\"\nreason = \"other\"\ndecision = \"{decision}\"\n\
                 title = \"A\"\ntext = \"{text}\"\n"
            )
        };
        assert!(matches!(
            bad(&one("warn", "Hello {name}")),
            PresetsError::UnknownPlaceholder { .. }
        ));
        assert!(matches!(
            bad(&one("warn", "Until {until}")),
            PresetsError::SanctionPlaceholderWithoutSanction { .. }
        ));
        assert!(matches!(
            bad(&one("warn", "Open {player")),
            PresetsError::UnclosedPlaceholder { .. }
        ));
        assert!(matches!(
            bad(&one("warn", "  ")),
            PresetsError::EmptyText { .. }
        ));
        let twice = format!("{}{}", one("warn", "x"), one("warn", "y"));
        assert!(matches!(bad(&twice), PresetsError::DuplicateKey { .. }));
        assert!(matches!(bad(&one("ban", "x")), PresetsError::Parse(_)));
        assert!(DecisionPresets::from_toml_str(&one("sanction", "Until {until}")).is_ok());
    }

    #[test]
    fn a_preset_fits_its_reason_and_decision_only() {
        let p = preset(DecisionKind::Warn, "x");
        assert!(p.fits(ReportReason::OffensiveChat, DecisionKind::Warn));
        assert!(!p.fits(ReportReason::OffensiveChat, DecisionKind::Sanction));
        assert!(!p.fits(ReportReason::Other, DecisionKind::Warn));
    }

    #[test]
    fn a_reporter_text_never_names_the_sanction() {
        let file = |reporter_text: &str| {
            format!(
                "[[preset]]\nkey = \"b\"\nreason = \"offensive_chat\"\ndecision = \"sanction\"\n\
                 title = \"B\"\ntext = \"{{player}}: {{sanction}}\"\nreporter_text = \"{reporter_text}\"\n"
            )
        };
        let loaded = DecisionPresets::from_toml_str(&file("Action on {player} ({games})."))
            .expect("reporter text without sanction placeholders");
        let preset = loaded.find("b").expect("preset b");
        assert_eq!(
            preset.reporter_text.as_deref(),
            Some("Action on {player} ({games}).")
        );
        assert_eq!(
            DecisionPresets::from_toml_str(&file("Banned until {until}.")),
            Err(PresetsError::SanctionPlaceholderWithoutSanction {
                key: "b".into(),
                placeholder: "until".into()
            })
        );
        assert!(DecisionPresets::from_toml_str(&file("  ")).is_err());
    }
}
