//! A game's chat analysed at ingest: the flags stored with it, the automatic reports it
//! raises, and which senders the store checks against their recent games.

use crate::chat::context::analyze_game_chat_in_context;
use crate::chat::window::{report_reason, WindowRule};
use crate::chat::ChatSettings;
use crate::chat::{
    Analyzer, Category, Channel, ChatLine, GameChatContext, Severity, Variant as ChatVariant,
};
use crate::rules::replay::Replay;
use crate::rules::ruleset::Scoring;

use super::facts::{ChatRow, SeatFacts};
use super::submission::ChatChannel;

/// Which senders of a game the store checks against their recent games, and the rule.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowCheck {
    pub rule: WindowRule,
    /// Seated players with a report-worthy, reportable (non-spam) flag in this game; sorted,
    /// so the store takes its per-player locks in one order.
    pub senders: Vec<String>,
}

pub(super) fn window_check(
    settings: &ChatSettings,
    flags: &[FlagFacts],
    seats: &[SeatFacts],
) -> Option<WindowCheck> {
    let rule = settings.window_rule();
    if !rule.enabled() {
        return None;
    }
    let mut senders: Vec<String> = flags
        .iter()
        .filter(|f| {
            f.report_worthy
                && Category::from_name(f.category).is_some_and(|c| report_reason(c).is_some())
                && seats.iter().any(|s| s.player == f.sender)
        })
        .map(|f| f.sender.clone())
        .collect();
    senders.sort_unstable();
    senders.dedup();
    (!senders.is_empty()).then_some(WindowCheck { rule, senders })
}

/// What the ingest needs to analyse a game's chat: the shared analyser and the report
/// thresholds.
#[derive(Clone, Copy, Debug)]
pub struct ChatReview<'a> {
    pub analyzer: &'a Analyzer,
    pub settings: &'a ChatSettings,
    /// The moderation policy the automatic reports are queued under (case priority).
    pub policy: &'a crate::moderation::ModerationPolicy,
}

/// One `chat_flags` row, without the game id.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagFacts {
    /// Index of the chat line in the submission (as `game_chat.idx`).
    pub line_idx: i32,
    pub ply: i32,
    pub sender: String,
    pub category: &'static str,
    pub severity: &'static str,
    pub span_start: i32,
    pub span_end: i32,
    pub rule: String,
    pub explanation: String,
    pub report_worthy: bool,
    pub evidence_fen4: Option<String>,
    pub evidence_finding: Option<String>,
}

/// One `automatic_reports` row, without id, game id and time.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFacts {
    pub player: String,
    /// `offensive_chat` or `rule_violating_chat` (the review queue's reason codes).
    pub reason: &'static str,
    /// `severe_line` or `repeated_lines` (the window rule is judged by the store, which sees
    /// the player's other games).
    pub rule: &'static str,
    /// 0..1.
    pub score: f64,
    pub summary: String,
}

pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Low => "low",
        Severity::Medium => "medium",
        Severity::High => "high",
        Severity::Critical => "critical",
    }
}

pub(super) fn severity_score(severity: Severity) -> f64 {
    match severity {
        Severity::Low => 0.25,
        Severity::Medium => 0.5,
        Severity::High => 0.75,
        Severity::Critical => 1.0,
    }
}

pub(super) fn chat_context(replay: &Replay, variant: &str, rule_variants: &str) -> GameChatContext {
    let variant = if replay.rules.scoring == Scoring::Teams {
        ChatVariant::Teams
    } else if variant.to_ascii_lowercase().contains("solo") {
        ChatVariant::Solo
    } else {
        ChatVariant::Ffa
    };
    GameChatContext {
        variant,
        diplomacy: rule_variants.to_ascii_lowercase().contains("diplomacy"),
        ended_at_ply: u32::try_from(replay.plies.len()).ok(),
        ended_at_ms: None,
    }
}

/// Spacing given to lines without a timestamp, so the rate rules only see real bursts.
pub(super) const UNTIMED_LINE_GAP_MS: u64 = 60_000;

pub(super) fn review_chat(
    review: &ChatReview<'_>,
    context: &GameChatContext,
    replay: &Replay,
    chat: &[ChatRow],
) -> (Vec<FlagFacts>, Vec<ReportFacts>) {
    let first_at = chat.iter().find_map(|c| c.sent_at);
    let lines: Vec<ChatLine> = chat
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let time_ms = match (c.sent_at, first_at) {
                (Some(at), Some(first)) => {
                    u64::try_from((at - first).num_milliseconds()).unwrap_or(0)
                }
                _ => (i as u64).saturating_mul(UNTIMED_LINE_GAP_MS),
            };
            ChatLine {
                ply: u32::try_from(c.ply).ok(),
                time_ms,
                sender: c.sender.clone(),
                channel: match c.channel {
                    ChatChannel::Game => Channel::Game,
                    ChatChannel::Team => Channel::Team,
                    ChatChannel::Spectator => Channel::Spectator,
                },
                text: c.text.clone(),
            }
        })
        .collect();
    let analysis = analyze_game_chat_in_context(review.analyzer, context, replay, &lines);
    let mut flags = Vec::new();
    for line in &analysis.lines {
        let Some(row) = chat.get(line.index) else {
            continue;
        };
        for flag in &line.analysis.flags {
            flags.push(FlagFacts {
                line_idx: i32::try_from(line.index).unwrap_or(i32::MAX),
                ply: row.ply,
                sender: row.sender.clone(),
                category: flag.category.name(),
                severity: severity_name(flag.severity),
                span_start: i32::try_from(flag.span.start).unwrap_or(i32::MAX),
                span_end: i32::try_from(flag.span.end).unwrap_or(i32::MAX),
                rule: flag.rule.clone(),
                explanation: flag.explanation.clone(),
                report_worthy: flag.report_worthy,
                evidence_fen4: flag.evidence.as_ref().map(|e| e.fen4.clone()),
                evidence_finding: flag.evidence.as_ref().map(|e| e.finding.clone()),
            });
        }
    }
    let reports = automatic_reports(review.settings, &analysis.lines);
    (flags, reports)
}

/// The two report rules: one line with a flag at or above the configured severity, or at
/// least the configured number of report-worthy lines by one sender. At most one report per
/// sender and reason.
pub(super) fn automatic_reports(
    settings: &ChatSettings,
    lines: &[crate::chat::GameLineAnalysis],
) -> Vec<ReportFacts> {
    struct Tally {
        player: String,
        reason: &'static str,
        severe: Option<(Severity, String)>,
        worthy_lines: usize,
    }
    let mut tallies: Vec<Tally> = Vec::new();
    for line in lines {
        let mut counted: Vec<&'static str> = Vec::new();
        for flag in &line.analysis.flags {
            let Some(reason) = report_reason(flag.category) else {
                continue;
            };
            let i = match tallies
                .iter()
                .position(|t| t.player == line.sender && t.reason == reason)
            {
                Some(i) => i,
                None => {
                    tallies.push(Tally {
                        player: line.sender.clone(),
                        reason,
                        severe: None,
                        worthy_lines: 0,
                    });
                    tallies.len() - 1
                }
            };
            let tally = &mut tallies[i];
            if flag.severity >= settings.report_min_severity
                && tally
                    .severe
                    .as_ref()
                    .is_none_or(|(s, _)| flag.severity > *s)
            {
                tally.severe = Some((flag.severity, flag.explanation.clone()));
            }
            if flag.report_worthy && !counted.contains(&reason) {
                counted.push(reason);
                tally.worthy_lines += 1;
            }
        }
    }
    let repeat = usize::try_from(settings.report_repeat_lines).unwrap_or(usize::MAX);
    tallies
        .into_iter()
        .filter_map(|t| {
            let repeated = repeat > 0 && t.worthy_lines >= repeat;
            let (rule, score, summary) = match (&t.severe, repeated) {
                (Some((severity, why)), _) => (
                    "severe_line",
                    severity_score(*severity),
                    format!(
                        "{} chat line: {why} ({} report-worthy line(s) in this game)",
                        severity_name(*severity),
                        t.worthy_lines
                    ),
                ),
                (None, true) => (
                    "repeated_lines",
                    (0.5 + 0.1 * t.worthy_lines as f64).min(1.0),
                    format!("{} report-worthy chat lines in this game", t.worthy_lines),
                ),
                (None, false) => return None,
            };
            Some(ReportFacts {
                player: t.player,
                reason: t.reason,
                rule,
                score,
                summary,
            })
        })
        .collect()
}
