//! A preset's text filled in: the placeholders (`{player}`, `{reason}`, `{ground}`,
//! `{sanction}`, `{until}`, `{games}`) replaced with the decision's values in the words of a
//! language (`texts`), and the admin's own note after it.

use chrono::{DateTime, TimeDelta, Utc};

use super::decision_action::DecisionAction;
use super::preset::DecisionPreset;
use super::texts::{self, Words};
use super::types::{GameNumber, Ground, ReportReason, SanctionDuration};

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
    use crate::moderation::{DecisionKind, SanctionKind};
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
    fn a_reporter_text_is_filled_in_too() {
        let mut p = preset(DecisionKind::Warn, "x");
        p.reporter_text = Some("Action on {player} ({games}).".into());
        let values = PresetValues {
            player: "Spaksi",
            reason: ReportReason::OffensiveChat,
            ground: None,
            action: DecisionAction::Warn,
            decided_at: at(),
            games: &[GameNumber(7)],
        };
        assert_eq!(
            render_reporter_text(&p, &values).as_deref(),
            Some("Action on Spaksi (7).")
        );
    }
}
