//! Decision presets: the message a player receives with a decision, written once by the site
//! (`config/presets.toml`) and chosen by key, so that every admin tells players the same thing
//! in the same words. A preset fits one reason and one kind of decision; its text may name the
//! player, the reason, the ground, the sanction, its end and the games.

use std::collections::BTreeSet;
use std::fmt;

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::decision_action::DecisionAction;
use super::texts::{self, Words};
use super::types::{DecisionKind, GameNumber, Ground, ReportReason, SanctionDuration};

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

/// What a preset's text is filled with.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetValues<'a> {
    pub player: &'a str,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    pub action: DecisionAction,
    pub decided_at: DateTime<Utc>,
    pub games: &'a [GameNumber],
}

/// An enum's wire name in words: `abusive_language_habit` → `abusive language habit`.
pub(crate) fn words<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
        .unwrap_or_default()
}

/// The preset's text with its placeholders filled in, in English (trimmed).
pub fn render_preset(preset: &DecisionPreset, values: &PresetValues<'_>) -> String {
    render_text(&preset.text, values, texts::english())
}

/// The preset's reporter text filled in, in English, if it has one. Its placeholders were
/// checked at load: a sanction's never appear in it.
pub fn render_reporter_text(preset: &DecisionPreset, values: &PresetValues<'_>) -> Option<String> {
    preset
        .reporter_text
        .as_deref()
        .map(|text| render_text(text, values, texts::english()))
}

/// A text (a preset's, or its translation) with its placeholders filled in with `words`
/// (trimmed).
pub fn render_text(text: &str, values: &PresetValues<'_>, words: &Words) -> String {
    let (sanction, until) = match values.action {
        DecisionAction::Sanction { sanction, duration } => match duration {
            SanctionDuration::Permanent => (
                words.sanction(sanction, None),
                words.permanent_until.clone(),
            ),
            SanctionDuration::Temporary { minutes } => (
                words.sanction(sanction, Some(minutes)),
                (values.decided_at + TimeDelta::minutes(i64::from(minutes)))
                    .format("%Y-%m-%d %H:%M UTC")
                    .to_string(),
            ),
        },
        _ => (String::new(), String::new()),
    };
    let games = if values.games.is_empty() {
        words.none_cited.clone()
    } else {
        values
            .games
            .iter()
            .map(|g| g.0.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        match &after[..close] {
            "player" => out.push_str(values.player),
            "reason" => out.push_str(words.reason(values.reason)),
            "ground" => out.push_str(values.ground.map_or("", |g| words.ground(g))),
            "sanction" => out.push_str(&sanction),
            "until" => out.push_str(&until),
            "games" => out.push_str(&games),
            other => {
                out.push('{');
                out.push_str(other);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The note stored with a decision and shown to the player: the rendered preset, then the
/// admin's own words after a blank line; either alone; or nothing.
pub fn compose_note(rendered: Option<String>, admin_note: Option<&str>) -> Option<String> {
    match (rendered, admin_note) {
        (Some(preset), Some(note)) => Some(format!("{preset}\n\n{note}")),
        (Some(preset), None) => Some(preset),
        (None, note) => note.map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::SanctionKind;
    use chrono::TimeZone;

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

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
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
    fn a_sanction_text_is_filled_in() {
        let p = preset(
            DecisionKind::Sanction,
            "{player}: {sanction} for {reason} ({ground}), until {until}; games {games}.",
        );
        let games = [GameNumber(104), GameNumber(105)];
        let text = render_preset(
            &p,
            &PresetValues {
                player: "Spaksi",
                reason: ReportReason::OffensiveChat,
                ground: Some(Ground::AbusiveLanguageHabit),
                action: DecisionAction::Sanction {
                    sanction: SanctionKind::ChatBan,
                    duration: SanctionDuration::Temporary { minutes: 4320 },
                },
                decided_at: at(),
                games: &games,
            },
        );
        assert_eq!(
            text,
            "Spaksi: a chat ban of 3 days for offensive chat / spamming (abusive language \
             habit), until 2026-03-04 12:00 UTC; games 104, 105."
        );
    }

    #[test]
    fn permanent_and_odd_lengths_read_naturally() {
        let english = texts::english();
        assert_eq!(
            english.sanction(SanctionKind::PlayBan, None),
            "a permanent play ban"
        );
        let ban = |minutes| english.sanction(SanctionKind::ChatBan, Some(minutes));
        assert_eq!(ban(60), "a chat ban of 1 hour");
        assert_eq!(ban(90), "a chat ban of 90 minutes");
        assert_eq!(ban(1440), "a chat ban of 1 day");
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
    fn the_note_is_the_preset_then_the_admins_words() {
        assert_eq!(
            compose_note(Some("Warned.".into()), Some("Second time.")),
            Some("Warned.\n\nSecond time.".into())
        );
        assert_eq!(
            compose_note(None, Some("Only mine.")),
            Some("Only mine.".into())
        );
        assert_eq!(compose_note(None, None), None);
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
        let values = PresetValues {
            player: "Spaksi",
            reason: ReportReason::OffensiveChat,
            ground: None,
            action: DecisionAction::Warn,
            decided_at: at(),
            games: &[GameNumber(7)],
        };
        assert_eq!(
            render_reporter_text(preset, &values).as_deref(),
            Some("Action on Spaksi (7).")
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
