//! A whole chat log of one game: every line analysed in order, with the spam tracker over
//! time and the repeated-abuse rule per sender.

use super::analyzer::Analyzer;
use super::conversation::{
    read_in_conversation, Answered, Conversation, ConversationScratch, ReadLine,
    CONVERSATION_WINDOW_MS, EARLIER_LINES,
};
use super::line_analysis::{analyze_line_with, recommend, spam_flag, LineAnalysis, Scratch};
use super::line_context::{Channel, LineContext, Variant};
use super::position_verdict::PositionVerdict;
use super::types::{CategoryGroup, Span};

/// One line of a game's chat log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// The ply the game was at when the line was sent (None before the first move).
    pub ply: Option<u32>,
    /// Milliseconds on any clock that only moves forward within the game.
    pub time_ms: u64,
    pub sender: String,
    pub channel: Channel,
    pub text: String,
}

/// The game a chat log belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChatContext {
    pub variant: Variant,
    pub diplomacy: bool,
    /// The ply at which the game ended, if it has; later lines are post-game talk.
    pub ended_at_ply: Option<u32>,
    /// The time at which the game ended, if known (used when a line has no ply).
    pub ended_at_ms: Option<u64>,
}

/// The analysis of one line of a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLineAnalysis {
    pub index: usize,
    pub sender: String,
    pub analysis: LineAnalysis,
}

/// Per sender: how many lines drew an offensive flag (the guide asks for
/// "frequently or continuously" before reporting ordinary abuse).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SenderSummary {
    pub sender: String,
    pub lines: usize,
    pub offensive_lines: usize,
    pub rule_violating_lines: usize,
    pub spam_lines: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameChatAnalysis {
    pub lines: Vec<GameLineAnalysis>,
    pub senders: Vec<SenderSummary>,
}

/// Offensive lines from one sender in one game from which ordinary abuse becomes
/// report-worthy.
const REPEATED_ABUSE_LINES: usize = 3;

/// Line `earlier` was sent shortly enough before `line` to belong to its conversation.
fn shortly_before(earlier: &ChatLine, line: &ChatLine) -> bool {
    earlier.time_ms + CONVERSATION_WINDOW_MS >= line.time_ms
}

/// The indexes of the lines sent shortly before line `index`, newest first.
fn shortly_before_line(lines: &[ChatLine], index: usize) -> impl Iterator<Item = usize> + '_ {
    let line = &lines[index];
    (0..index)
        .rev()
        .take_while(move |&j| shortly_before(&lines[j], line))
}

/// The sender's lines just before line `index`, oldest first, with their analyses.
fn earlier_lines<'a>(
    lines: &'a [ChatLine],
    analysed: &'a [GameLineAnalysis],
    index: usize,
) -> Vec<ReadLine<'a>> {
    let line = &lines[index];
    let mut earlier: Vec<ReadLine<'a>> = shortly_before_line(lines, index)
        .filter(|&j| lines[j].sender == line.sender && lines[j].channel == line.channel)
        .take(EARLIER_LINES)
        .map(|j| ReadLine {
            text: &lines[j].text,
            analysis: &analysed[j].analysis,
        })
        .collect();
    earlier.reverse();
    earlier
}

/// The line that line `index` answers: the last one someone else wrote in its channel
/// shortly before it.
fn answered_line<'a>(
    lines: &'a [ChatLine],
    analysed: &'a [GameLineAnalysis],
    index: usize,
) -> Option<Answered<'a>> {
    let line = &lines[index];
    shortly_before_line(lines, index)
        .find(|&j| lines[j].channel == line.channel && lines[j].sender != line.sender)
        .map(|j| Answered {
            sender: &lines[j].sender,
            line: ReadLine {
                text: &lines[j].text,
                analysis: &analysed[j].analysis,
            },
        })
}

/// Analyses a whole chat log, with the spam tracker and the repeated-abuse rule.
/// `positions` may give a verdict per line index (same length as `lines`, or empty).
pub fn analyze_game_chat(
    analyzer: &Analyzer,
    game: &GameChatContext,
    lines: &[ChatLine],
    positions: &[Option<PositionVerdict>],
) -> GameChatAnalysis {
    let mut tracker = analyzer.spam_tracker();
    let mut scratch = Scratch::new();
    let mut conversation_scratch = ConversationScratch::default();
    let mut out = GameChatAnalysis::default();
    for (index, chat) in lines.iter().enumerate() {
        let ended = match (chat.ply, game.ended_at_ply) {
            (Some(ply), Some(end)) => ply >= end,
            _ => game.ended_at_ms.is_some_and(|end| chat.time_ms >= end),
        };
        let context = LineContext {
            variant: game.variant,
            channel: chat.channel,
            in_progress: !ended,
            diplomacy: game.diplomacy,
            position: positions.get(index).cloned().flatten(),
        };
        let mut analysis = analyze_line_with(analyzer, &mut scratch, &context, &chat.text);
        let whole = Span::new(0, chat.text.len());
        let line_flags = analysis.flags.len();
        for hit in tracker.observe(&chat.sender, chat.time_ms, scratch.fingerprint()) {
            analysis.flags.push(spam_flag(&hit, whole));
        }
        analyzer.strictness().apply(&mut analysis.flags, line_flags);
        analysis.action = recommend(&analysis.flags);
        let earlier = earlier_lines(lines, &out.lines, index);
        let conversation = Conversation {
            earlier: &earlier,
            answering: answered_line(lines, &out.lines, index),
        };
        read_in_conversation(
            analyzer,
            &mut conversation_scratch,
            &context,
            &chat.text,
            &conversation,
            &mut analysis,
        );

        let at = match out.senders.iter().position(|s| s.sender == chat.sender) {
            Some(i) => i,
            None => {
                out.senders.push(SenderSummary {
                    sender: chat.sender.clone(),
                    lines: 0,
                    offensive_lines: 0,
                    rule_violating_lines: 0,
                    spam_lines: 0,
                });
                out.senders.len() - 1
            }
        };
        let summary = &mut out.senders[at];
        summary.lines += 1;
        let group = |g: CategoryGroup| analysis.flags.iter().any(|f| f.category.group() == g);
        if group(CategoryGroup::Offensive) {
            summary.offensive_lines += 1;
        }
        if analysis
            .flags
            .iter()
            .any(|f| f.category.group() == CategoryGroup::RuleViolating && f.report_worthy)
        {
            summary.rule_violating_lines += 1;
        }
        if group(CategoryGroup::Spam) {
            summary.spam_lines += 1;
        }
        out.lines.push(GameLineAnalysis {
            index,
            sender: chat.sender.clone(),
            analysis,
        });
    }
    // Repeated abuse: every offensive flag of that sender becomes report-worthy.
    for summary in &out.senders {
        if summary.offensive_lines < REPEATED_ABUSE_LINES {
            continue;
        }
        for line in out.lines.iter_mut().filter(|l| l.sender == summary.sender) {
            for flag in &mut line.analysis.flags {
                if flag.category.group() == CategoryGroup::Offensive && !flag.report_worthy {
                    flag.report_worthy = true;
                    flag.explanation.push_str(" (repeated in this game)");
                }
            }
        }
    }
    out
}
