//! `[chat]` settings: when the chat analysis at ingest raises an automatic report.

use serde::{Deserialize, Serialize};

use super::types::Severity;
use super::window::WindowRule;

/// When the chat analysis at ingest raises an automatic report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatSettings {
    /// A line with a flag at or above this severity is reported on its own.
    pub report_min_severity: Severity,
    /// This many report-worthy lines by one sender in one game are reported (0 = never).
    pub report_repeat_lines: u32,
    /// The rolling window: how many of a sender's most recent games it holds (0 = off).
    pub window_games: u32,
    /// How many games of the window must hold report-worthy lines of one reason (0 = off).
    pub window_min_games: u32,
    /// How often each instance looks for a change of the admins' word list, in seconds.
    #[serde(default = "default_word_list_check_secs")]
    pub word_list_check_secs: u64,
}

fn default_word_list_check_secs() -> u64 {
    2
}

/// Largest accepted `[chat] window_games`: the window is loaded at every ingest that flags a
/// report-worthy line.
pub const MAX_CHAT_WINDOW_GAMES: u32 = 1000;

impl ChatSettings {
    pub fn window_rule(&self) -> WindowRule {
        WindowRule {
            games: self.window_games,
            min_games: self.window_min_games,
        }
    }
}
