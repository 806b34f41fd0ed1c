//! Chat analysis (pure: no I/O, no clock; time is an argument).
//!
//! A line is normalised once into a reusable buffer ([`normalize`]); one
//! Aho-Corasick pass over it finds offensive lexicon entries, allowlisted words
//! and the FFA word cues ([`lexicon`], [`offensive`]); regular expressions for
//! personal information run only behind cheap prefilters ([`pii`]); the FFA
//! classifier ([`ffa`]) reads the cues and the board mentions ([`mention`]), and
//! the FFA policy settings ([`ffa_policy`]) decide where the site's documents disagree;
//! [`spam`] keeps per-sender rates and repeats over a game.

mod confusables_table;
pub mod context;
pub mod eval;
pub mod ffa;
pub mod ffa_policy;
pub mod lexicon;
pub mod mention;
pub mod normalize;
mod offensive;
mod pii;
pub mod settings;
pub mod spam;
pub mod types;
pub mod window;

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

pub use ffa::{FfaClass, FfaOutcome, PositionVerdict};
pub use ffa_policy::{FfaPolicy, ResignTalk};
pub use lexicon::{Lexicon, LexiconError, LexiconSources};
pub use mention::{Mention, MentionKind, PieceKind, Seat, Square, Tense};
pub use normalize::NormalizedLine;
pub use settings::{ChatSettings, MAX_CHAT_WINDOW_GAMES};
pub use spam::{LineFingerprint, SpamSettings, SpamTracker};
pub use types::{Action, Category, CategoryGroup, Flag, PositionEvidence, Severity, Span};

/// Spam thresholds and the FFA policy settings, embedded.
pub const CHAT_SETTINGS_TOML: &str = include_str!("../../config/chat.toml");

/// The game variant a line was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    Teams,
    #[default]
    Ffa,
    Solo,
    Other,
}

/// Where a line was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Channel {
    #[default]
    Game,
    /// Teammates only (Teams games).
    Team,
    Spectator,
}

/// The situation a line was written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineContext {
    pub variant: Variant,
    pub channel: Channel,
    /// The game was still being played when the line was sent.
    pub in_progress: bool,
    /// Diplomacy games allow negotiation: the FFA chat rules do not apply.
    pub diplomacy: bool,
    /// What the rules engine found at the line's ply, when it has looked.
    pub position: Option<PositionVerdict>,
}

impl Default for LineContext {
    fn default() -> Self {
        LineContext::ffa_in_progress()
    }
}

impl LineContext {
    pub fn ffa_in_progress() -> LineContext {
        LineContext {
            variant: Variant::Ffa,
            channel: Channel::Game,
            in_progress: true,
            diplomacy: false,
            position: None,
        }
    }

    /// Whether the FFA chat rules (no begging, offering, suggesting, revealing,
    /// colluding) apply to this line.
    pub fn ffa_rules_apply(&self) -> bool {
        matches!(self.variant, Variant::Ffa | Variant::Solo)
            && self.channel == Channel::Game
            && self.in_progress
            && !self.diplomacy
    }
}

/// Everything found in one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct LineAnalysis {
    pub flags: Vec<Flag>,
    pub action: Action,
    /// How the line reads under the FFA chat rules, when they apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffa: Option<FfaClass>,
    /// Board references, for a position check (only where the FFA rules apply).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<Mention>,
    pub tense: Tense,
}

impl LineAnalysis {
    pub fn has(&self, category: Category) -> bool {
        self.flags.iter().any(|f| f.category == category)
    }

    pub fn is_offensive(&self) -> bool {
        self.flags
            .iter()
            .any(|f| f.category.group() == CategoryGroup::Offensive)
    }
}

/// The analyser could not be built from its data files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyzerError {
    Lexicon(LexiconError),
    Pattern(String),
    Settings(String),
}

impl std::fmt::Display for AnalyzerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyzerError::Lexicon(e) => write!(f, "lexicon: {e}"),
            AnalyzerError::Pattern(e) => write!(f, "pattern: {e}"),
            AnalyzerError::Settings(e) => write!(f, "chat settings: {e}"),
        }
    }
}

impl std::error::Error for AnalyzerError {}

/// Everything compiled from the data files; build once, share across threads.
#[derive(Clone, Debug)]
pub struct Analyzer {
    lexicon: Lexicon,
    pii: pii::PiiPatterns,
    cues: ffa::Cues,
    board: mention::BoardWords,
    spam: SpamSettings,
    ffa_policy: FfaPolicy,
    /// Rule and explanation of each lexicon entry, written once.
    flag_texts: Vec<EntryTexts>,
}

#[derive(Clone, Debug)]
struct EntryTexts {
    rule: String,
    explanation: String,
    censored_explanation: String,
}

impl Analyzer {
    /// From the data embedded in the binary (`config/lexicons/`, `config/chat.toml`).
    pub fn embedded() -> Result<Analyzer, AnalyzerError> {
        Analyzer::from_sources(LexiconSources::default(), CHAT_SETTINGS_TOML)
    }

    pub fn from_sources(
        sources: LexiconSources<'_>,
        settings_toml: &str,
    ) -> Result<Analyzer, AnalyzerError> {
        let lexicon = Lexicon::from_sources(sources).map_err(AnalyzerError::Lexicon)?;
        let cues = ffa::Cues::new(&lexicon.cue_names);
        let flag_texts = lexicon
            .entries
            .iter()
            .map(|entry| {
                let phrase = category_phrase(entry.category);
                EntryTexts {
                    rule: format!("lexicon:{}:{}", entry.source, entry.term),
                    explanation: format!("{phrase} \"{}\"", entry.term),
                    censored_explanation: format!("{phrase} (censored) \"{}\"", entry.term),
                }
            })
            .collect();
        Ok(Analyzer {
            flag_texts,
            lexicon,
            pii: pii::PiiPatterns::new().map_err(|e| AnalyzerError::Pattern(e.to_string()))?,
            cues,
            board: mention::BoardWords::new(),
            spam: SpamSettings::parse(settings_toml).map_err(AnalyzerError::Settings)?,
            ffa_policy: FfaPolicy::parse(settings_toml).map_err(AnalyzerError::Settings)?,
        })
    }

    /// One analyser per process, built from the embedded data on first use and shared
    /// after that (building takes a fraction of a second and tens of megabytes).
    pub fn shared() -> Result<Arc<Analyzer>, AnalyzerError> {
        static SHARED: OnceLock<Result<Arc<Analyzer>, AnalyzerError>> = OnceLock::new();
        SHARED
            .get_or_init(|| Analyzer::embedded().map(Arc::new))
            .clone()
    }

    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    pub fn spam_settings(&self) -> &SpamSettings {
        &self.spam
    }

    /// The FFA policy settings (`[ffa]` of the chat settings).
    pub fn ffa_policy(&self) -> FfaPolicy {
        self.ffa_policy
    }

    /// This analyser with other FFA policy settings.
    pub fn with_ffa_policy(mut self, policy: FfaPolicy) -> Analyzer {
        self.ffa_policy = policy;
        self
    }

    /// A fresh spam tracker for one game, with this analyser's thresholds.
    pub fn spam_tracker(&self) -> SpamTracker {
        SpamTracker::new(self.spam.clone())
    }
}

/// Reusable buffers for analysing lines on one thread.
#[derive(Debug, Default)]
pub struct Scratch {
    line: NormalizedLine,
    scan: offensive::ScanScratch,
    patterns: Vec<pii::PatternHit>,
    spam: Vec<spam::SpamHit>,
    mentions: Vec<Mention>,
    ffa: ffa::FfaScratch,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }

    /// The fingerprint of the line analysed last (for the spam tracker).
    pub fn fingerprint(&self) -> LineFingerprint {
        LineFingerprint::of(&self.line)
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
}

/// Analyses one line: offensive language, personal information, per-line spam and,
/// where they apply, the FFA chat rules.
pub fn analyze_line(analyzer: &Analyzer, context: &LineContext, text: &str) -> LineAnalysis {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => analyze_line_with(analyzer, &mut scratch, context, text),
        Err(_) => analyze_line_with(analyzer, &mut Scratch::new(), context, text),
    })
}

/// As [`analyze_line`], with caller-owned buffers.
pub fn analyze_line_with(
    analyzer: &Analyzer,
    scratch: &mut Scratch,
    context: &LineContext,
    text: &str,
) -> LineAnalysis {
    let Scratch {
        line,
        scan,
        patterns,
        spam: spam_hits,
        mentions,
        ffa: ffa_scratch,
    } = scratch;
    line.normalize(text);
    offensive::scan(&analyzer.lexicon, line, scan);
    let mut analysis = LineAnalysis::default();

    for hit in &scan.hits {
        let entry = &analyzer.lexicon.entries[hit.entry as usize];
        let (start, end) = line.original_span(hit.start as usize, hit.end as usize);
        let category = entry.category;
        let report_worthy = entry.severity >= Severity::High
            || matches!(
                category,
                Category::SlurHate
                    | Category::ThreatSelfHarm
                    | Category::PersonalInfo
                    | Category::Harassment
            );
        let texts = &analyzer.flag_texts[hit.entry as usize];
        analysis.flags.push(Flag {
            category,
            severity: entry.severity,
            span: Span::new(start, end),
            rule: texts.rule.clone(),
            explanation: if hit.censored {
                texts.censored_explanation.clone()
            } else {
                texts.explanation.clone()
            },
            report_worthy,
            evidence: None,
        });
    }
    if !scan.hits.is_empty() {
        harassment_by_origin(analyzer, line, scan, &mut analysis);
    }

    patterns.clear();
    analyzer.pii.scan(text, &line.stats, patterns);
    for hit in patterns.iter() {
        analysis.flags.push(Flag {
            category: hit.category,
            severity: hit.severity,
            span: hit.span,
            rule: hit.rule.to_string(),
            explanation: hit.explanation.to_string(),
            report_worthy: hit.category == Category::PersonalInfo,
            evidence: None,
        });
    }

    spam_hits.clear();
    spam::line_checks(&analyzer.spam, line, spam_hits);
    let whole = Span::new(0, text.len());
    for hit in spam_hits.iter() {
        analysis.flags.push(spam_flag(hit, whole));
    }

    if context.ffa_rules_apply() {
        mentions.clear();
        let cues = &analyzer.cues;
        if scan.line_cues & cues.trigger != 0 || line.stats.digits > 0 {
            mention::extract(
                &analyzer.board,
                text,
                line,
                &scan.token_cues,
                cues.board_words,
                mentions,
            );
        }
        let mut outcome = ffa::classify(
            ffa_scratch,
            cues,
            line,
            text,
            &scan.token_cues,
            scan.line_cues,
            mentions,
            context.position.as_ref(),
        );
        analyzer.ffa_policy.judge(&mut outcome);
        analysis.tense = if outcome.class == FfaClass::PastMoveDiscussion {
            Tense::Past
        } else {
            Tense::Present
        };
        if let Some(category) = outcome.class.category() {
            let (start, end) = line.original_span(outcome.norm_span.0, outcome.norm_span.1);
            analysis.flags.push(Flag {
                category,
                severity: outcome.severity,
                span: Span::new(start, end),
                rule: outcome.rule.to_string(),
                explanation: outcome.explanation.to_string(),
                report_worthy: outcome.report_worthy,
                evidence: outcome.evidence.clone(),
            });
        }
        analysis.ffa = Some(outcome.class);
        if !mentions.is_empty() {
            analysis.mentions = mentions.clone();
        }
    }
    analysis.action = recommend(&analysis.flags);
    analysis
}

fn spam_flag(hit: &spam::SpamHit, span: Span) -> Flag {
    Flag {
        category: hit.category,
        severity: hit.severity,
        span,
        rule: hit.rule.to_string(),
        explanation: hit.explanation.clone(),
        // The guide: report spam only when it floods the chat.
        report_worthy: matches!(hit.category, Category::Flooding | Category::Repetition),
        evidence: None,
    }
}

/// The strictest action any flag asks for.
fn recommend(flags: &[Flag]) -> Action {
    flags
        .iter()
        .map(Flag::action)
        .max()
        .unwrap_or(Action::Allow)
}

fn category_phrase(category: Category) -> &'static str {
    match category {
        Category::Profanity => "profanity",
        Category::Insult => "insult",
        Category::SlurHate => "slur or hate term",
        Category::Sexual => "sexual term",
        Category::ThreatSelfHarm => "threat or self-harm",
        Category::Harassment => "harassment",
        Category::PersonalInfo => "asks for or reveals private information:",
        _ => "flagged term",
    }
}

/// An insult next to a word for a country, people or language is harassment for
/// someone's origin ("stupid russian").
fn harassment_by_origin(
    analyzer: &Analyzer,
    line: &NormalizedLine,
    scan: &offensive::ScanScratch,
    analysis: &mut LineAnalysis,
) {
    for nation in offensive::nationality_tokens(&analyzer.lexicon, line) {
        let near = scan.hits.iter().find(|hit| {
            let entry = &analyzer.lexicon.entries[hit.entry as usize];
            let Some(token) = line.token_at(hit.start as usize) else {
                return false;
            };
            matches!(
                entry.category,
                Category::Insult | Category::Profanity | Category::SlurHate | Category::Harassment
            ) && token.abs_diff(nation) <= 2
        });
        if let Some(hit) = near {
            let tok = &line.tokens[nation];
            let a = hit.start.min(tok.start) as usize;
            let b = hit.end.max(tok.end) as usize;
            let (start, end) = line.original_span(a, b);
            analysis.flags.push(Flag {
                category: Category::Harassment,
                severity: Severity::High,
                span: Span::new(start, end),
                rule: "phrase:insult_near_origin".to_string(),
                explanation: "insults someone for their country or language".to_string(),
                report_worthy: true,
                evidence: None,
            });
            return;
        }
    }
}

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
        for hit in tracker.observe(&chat.sender, chat.time_ms, scratch.fingerprint()) {
            analysis.flags.push(spam_flag(&hit, whole));
        }
        analysis.action = recommend(&analysis.flags);

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
