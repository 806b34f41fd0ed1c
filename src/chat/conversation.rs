//! A line read with the conversation around it, after it has been read alone:
//!
//! - with the sender's lines just before it, for a sentence split over several lines
//!   ("women" / "belong in the kitchen"): the learned scorer reads them joined;
//! - with the line it answers (the last line someone else wrote in the channel): a retort
//!   ("same to you") returns the insult it answers, and in an FFA game consent ("ok",
//!   "deal") to an offer, a request or an alliance is as forbidden as the offer.
//!
//! The reply phrases are in `config/lexicons/replies.txt` ([`super::replies`]).

use super::analyzer::Analyzer;
use super::ffa::FfaClass;
use super::line_analysis::{analyze_line, recommend, LineAnalysis};
use super::line_context::LineContext;
use super::normalize::NormalizedLine;
use super::offensive;
use super::replies::ReplyKind;
use super::scorer::{self, ScorerScratch};
use super::types::{Category, CategoryGroup, Flag, Severity, Span};

/// At most this many of the sender's earlier lines are read with a line.
pub const EARLIER_LINES: usize = 2;

/// In a game's log, a line belongs to the conversation of a later one sent within this
/// time: a split sentence is typed in quick succession, an answer follows what it answers.
pub const CONVERSATION_WINDOW_MS: u64 = 30_000;

/// An earlier line with what was found in it.
#[derive(Clone, Copy, Debug)]
pub struct ReadLine<'a> {
    pub text: &'a str,
    pub analysis: &'a LineAnalysis,
}

/// The line a line answers: someone else's, just before it in the same channel.
#[derive(Clone, Copy, Debug)]
pub struct Answered<'a> {
    pub sender: &'a str,
    pub line: ReadLine<'a>,
}

/// What came before a line in its game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Conversation<'a> {
    /// The sender's own lines just before this one, oldest first (the last
    /// [`EARLIER_LINES`] are read).
    pub earlier: &'a [ReadLine<'a>],
    pub answering: Option<Answered<'a>>,
}

/// Reusable buffers for reading lines in their conversation.
#[derive(Debug, Default)]
pub struct ConversationScratch {
    line: NormalizedLine,
    key: String,
    joined_text: String,
    joined: NormalizedLine,
    scan: offensive::ScanScratch,
    scorer: ScorerScratch,
}

/// Adds to `analysis` (of `text`, read alone in `context`) what the conversation shows,
/// with the admins' strictness applied to what it adds and the action recomputed.
pub fn read_in_conversation(
    analyzer: &Analyzer,
    scratch: &mut ConversationScratch,
    context: &LineContext,
    text: &str,
    conversation: &Conversation<'_>,
    analysis: &mut LineAnalysis,
) {
    // Each step pushes at most one flag at the end (and the second may drop one before it).
    let mut pushed = 0;
    if let Some(answered) = &conversation.answering {
        pushed += usize::from(read_as_reply(
            analyzer, scratch, context, text, answered, analysis,
        ));
    }
    pushed += usize::from(read_with_earlier_lines(
        analyzer,
        scratch,
        text,
        conversation.earlier,
        analysis,
    ));
    if pushed > 0 {
        let from = analysis.flags.len() - pushed;
        analyzer.strictness.apply(&mut analysis.flags, from);
        analysis.action = recommend(&analysis.flags);
    }
}

/// A retort or consent, read with the line it answers.
fn read_as_reply(
    analyzer: &Analyzer,
    scratch: &mut ConversationScratch,
    context: &LineContext,
    text: &str,
    answered: &Answered<'_>,
    analysis: &mut LineAnalysis,
) -> bool {
    scratch.line.normalize(text);
    let Some(kind) = analyzer.replies.kind_of(&scratch.line, &mut scratch.key) else {
        return false;
    };
    let whole = Span::new(0, text.len());
    let quote = |flag: &Flag| quoted(flag.span.slice(answered.line.text));
    match kind {
        ReplyKind::Echo => {
            if analysis.is_offensive() {
                return false;
            }
            let insult = strongest(answered.line.analysis, |category| {
                matches!(
                    category,
                    Category::Insult | Category::SlurHate | Category::Harassment
                )
            });
            let Some(insult) = insult.filter(|f| f.severity >= Severity::Medium) else {
                return false;
            };
            // Returning an insult is an insult, but no worse than a plain one.
            analysis.flags.push(Flag {
                category: Category::Insult,
                severity: insult.severity.min(Severity::Medium),
                span: whole,
                rule: "conversation:echo".to_string(),
                explanation: format!(
                    "returns the insult it answers ({} wrote {})",
                    answered.sender,
                    quote(insult)
                ),
                report_worthy: false,
                evidence: None,
                learned: None,
            });
            true
        }
        ReplyKind::Agreement => {
            let breaks_rules = analysis
                .flags
                .iter()
                .any(|f| f.category.group() == CategoryGroup::RuleViolating);
            if !context.ffa_rules_apply() || breaks_rules {
                return false;
            }
            let offer = strongest(answered.line.analysis, |category| {
                matches!(
                    category,
                    Category::Offering | Category::Collusion | Category::Begging
                )
            });
            let Some(offer) = offer else {
                return false;
            };
            // Agreeing to give what was begged for is an offer; agreeing to an offer or an
            // alliance is a deal between two players.
            let (category, what) = match offer.category {
                Category::Begging => (Category::Offering, "request"),
                Category::Offering => (Category::Collusion, "offer"),
                _ => (Category::Collusion, "proposal to cooperate"),
            };
            analysis.flags.push(Flag {
                category,
                severity: offer.severity,
                span: whole,
                rule: "conversation:agrees".to_string(),
                explanation: format!("agrees to {}'s {what} {}", answered.sender, quote(offer)),
                report_worthy: offer.report_worthy,
                evidence: None,
                learned: None,
            });
            analysis.ffa = Some(if category == Category::Offering {
                FfaClass::Offering
            } else {
                FfaClass::Collusion
            });
            true
        }
    }
}

/// A line that says nothing offensive alone, read with the sender's lines before it.
fn read_with_earlier_lines(
    analyzer: &Analyzer,
    scratch: &mut ConversationScratch,
    text: &str,
    earlier: &[ReadLine<'_>],
    analysis: &mut LineAnalysis,
) -> bool {
    if earlier.is_empty() || offensive_at_medium(analysis) {
        return false;
    }
    // The unflagged lines just before this one: a flagged line carries its own flag.
    let start = earlier.len().saturating_sub(EARLIER_LINES);
    let mut from = earlier.len();
    while from > start && !offensive_at_medium(earlier[from - 1].analysis) {
        from -= 1;
    }
    let lines = &earlier[from..];
    if lines.is_empty() {
        return false;
    }
    let joined = &mut scratch.joined_text;
    joined.clear();
    for line in lines {
        joined.push_str(line.text);
        joined.push(' ');
    }
    let line_start = joined.len();
    joined.push_str(text);
    scratch.joined.normalize(joined);
    offensive::scan(&analyzer.lexicon, &scratch.joined, &mut scratch.scan);
    let flag = scorer::judge_continued(
        &analyzer.scorer,
        &scratch.joined,
        joined,
        line_start,
        scratch.scan.allowed(),
        &mut scratch.scorer,
    );
    let Some(flag) = flag else {
        return false;
    };
    // The line's own low reading of the same kind gives way to the fuller one.
    analysis
        .flags
        .retain(|f| !(f.learned.is_some() && f.category == flag.category));
    analysis.flags.push(flag);
    true
}

/// Whether the line has an offensive flag (other than personal information) at medium or
/// above: it needs no conversation to be read.
fn offensive_at_medium(analysis: &LineAnalysis) -> bool {
    analysis.flags.iter().any(|f| {
        f.category.group() == CategoryGroup::Offensive
            && f.category != Category::PersonalInfo
            && f.severity >= Severity::Medium
    })
}

/// The most severe flag of `analysis` whose category `wanted` accepts.
fn strongest(analysis: &LineAnalysis, wanted: impl Fn(Category) -> bool) -> Option<&Flag> {
    analysis
        .flags
        .iter()
        .filter(|f| wanted(f.category))
        .max_by_key(|f| f.severity)
}

/// A quotation of at most 60 characters.
fn quoted(text: &str) -> String {
    const LONGEST: usize = 60;
    match text.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("\"{}…\"", &text[..cut]),
        None => format!("\"{text}\""),
    }
}

/// A conversation given as text, as the live check receives it.
#[derive(Clone, Debug, Default)]
pub struct GivenConversation<'a> {
    /// The sender's lines just before this one in the game, oldest first.
    pub earlier: Vec<&'a str>,
    /// The line this one answers and its sender.
    pub answering: Option<(&'a str, &'a str)>,
}

impl GivenConversation<'_> {
    pub fn is_empty(&self) -> bool {
        self.earlier.is_empty() && self.answering.is_none()
    }
}

/// As [`read_in_conversation`], for a conversation given as text: each given line is read
/// alone first, in the same situation (without the board).
pub fn read_in_given_conversation(
    analyzer: &Analyzer,
    context: &LineContext,
    text: &str,
    given: &GivenConversation<'_>,
    analysis: &mut LineAnalysis,
) {
    if given.is_empty() {
        return;
    }
    let mut alone = context.clone();
    alone.position = None;
    let read = |text: &str| analyze_line(analyzer, &alone, text);
    let earlier_analyses: Vec<LineAnalysis> = given.earlier.iter().map(|t| read(t)).collect();
    let earlier: Vec<ReadLine<'_>> = given
        .earlier
        .iter()
        .zip(&earlier_analyses)
        .map(|(text, analysis)| ReadLine { text, analysis })
        .collect();
    let answered_analysis = given.answering.map(|(_, text)| read(text));
    let answering =
        given
            .answering
            .zip(answered_analysis.as_ref())
            .map(|((sender, text), analysis)| Answered {
                sender,
                line: ReadLine { text, analysis },
            });
    let conversation = Conversation {
        earlier: &earlier,
        answering,
    };
    read_in_conversation(
        analyzer,
        &mut ConversationScratch::default(),
        context,
        text,
        &conversation,
        analysis,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::line_context::Variant;
    use crate::chat::scorer::test_model::{feature_count, hostile_to};
    use crate::chat::scorer::{HeadParams, Thresholds};
    use crate::chat::types::LearnedEffect;

    fn analyzer() -> Analyzer {
        match Analyzer::shared() {
            Ok(shared) => (*shared).clone(),
            Err(e) => panic!("{e}"),
        }
    }

    fn alone(analyzer: &Analyzer, context: &LineContext, text: &str) -> LineAnalysis {
        analyze_line(analyzer, context, text)
    }

    fn answering(
        analyzer: &Analyzer,
        context: &LineContext,
        answered: &str,
        text: &str,
    ) -> LineAnalysis {
        let given = GivenConversation {
            earlier: Vec::new(),
            answering: Some(("Spaksi", answered)),
        };
        let mut analysis = alone(analyzer, context, text);
        read_in_given_conversation(analyzer, context, text, &given, &mut analysis);
        analysis
    }

    fn rules(analysis: &LineAnalysis) -> Vec<&str> {
        analysis.flags.iter().map(|f| f.rule.as_str()).collect()
    }

    #[test]
    fn a_retort_to_an_insult_is_an_insult() {
        let analyzer = analyzer();
        let context = LineContext::ffa_in_progress();
        let insult = "you are a fucking idiot";
        assert!(alone(&analyzer, &context, insult).is_offensive());
        assert!(!alone(&analyzer, &context, "same to you").is_offensive());

        let retort = answering(&analyzer, &context, insult, "Same to you!");
        let flag = retort.flags.iter().find(|f| f.rule == "conversation:echo");
        let Some(flag) = flag else {
            panic!("{:?}", rules(&retort))
        };
        assert_eq!(flag.category, Category::Insult);
        assert_eq!(flag.severity, Severity::Medium);
        assert!(
            flag.explanation.contains("Spaksi wrote"),
            "{}",
            flag.explanation
        );
        assert_ne!(retort.action, crate::chat::types::Action::Allow);
    }

    #[test]
    fn the_same_words_answering_kindness_or_swearing_are_nothing() {
        let analyzer = analyzer();
        let context = LineContext::ffa_in_progress();
        for answered in ["good luck have fun", "holy shit what a move"] {
            let reply = answering(&analyzer, &context, answered, "you too");
            assert!(reply.flags.is_empty(), "{answered}: {:?}", rules(&reply));
        }
    }

    #[test]
    fn consent_to_an_alliance_breaks_the_ffa_rules_like_the_offer() {
        let analyzer = analyzer();
        let ffa = LineContext::ffa_in_progress();
        let offer = "wanna team up against red?";
        let proposal = alone(&analyzer, &ffa, offer);
        assert!(
            proposal
                .flags
                .iter()
                .any(|f| f.category.group() == CategoryGroup::RuleViolating),
            "the offer alone: {:?}",
            rules(&proposal)
        );
        assert!(alone(&analyzer, &ffa, "ok").flags.is_empty());

        let consent = answering(&analyzer, &ffa, offer, "ok deal");
        let flag = consent
            .flags
            .iter()
            .find(|f| f.rule == "conversation:agrees");
        let Some(flag) = flag else {
            panic!("{:?}", rules(&consent))
        };
        assert_eq!(flag.category, Category::Collusion);
        assert!(
            flag.explanation.contains("Spaksi's"),
            "{}",
            flag.explanation
        );
        assert_eq!(consent.ffa, Some(FfaClass::Collusion));

        let teams = LineContext {
            variant: Variant::Teams,
            ..LineContext::ffa_in_progress()
        };
        assert!(answering(&analyzer, &teams, offer, "ok deal")
            .flags
            .is_empty());
        assert!(answering(&analyzer, &ffa, "nice move", "ok")
            .flags
            .is_empty());
    }

    /// A model for which "women belong in the kitchen" reads hostile, while its last four
    /// words alone do not. A line whose `n` features are all the phrase's has the logit
    /// `bias + sqrt(n)` (each weighs 100 times the scale 0.01, over the square root of the
    /// count): the bias sits halfway between the two lines.
    fn split_sentence_analyzer() -> Analyzer {
        let whole = (feature_count("women belong in the kitchen") as f32).sqrt();
        let part = (feature_count("belong in the kitchen") as f32).sqrt();
        assert!(whole > part + 0.5, "{whole} {part}");
        let hostile = HeadParams {
            bias: -(whole + part) / 2.0,
            scale: 0.01,
            thresholds: Thresholds {
                low: 0.5,
                medium: 0.5,
                high: 0.9999,
            },
        };
        analyzer().with_scorer(hostile_to("women belong in the kitchen", hostile))
    }

    fn with_earlier(analyzer: &Analyzer, earlier: &[&str], text: &str) -> LineAnalysis {
        let context = LineContext::ffa_in_progress();
        let given = GivenConversation {
            earlier: earlier.to_vec(),
            answering: None,
        };
        let mut analysis = alone(analyzer, &context, text);
        read_in_given_conversation(analyzer, &context, text, &given, &mut analysis);
        analysis
    }

    #[test]
    fn a_sentence_split_over_two_lines_is_read_whole() {
        let analyzer = split_sentence_analyzer();
        let line = "belong in the kitchen";
        assert!(with_earlier(&analyzer, &[], line).flags.is_empty());

        let analysis = with_earlier(&analyzer, &["women"], line);
        assert_eq!(analysis.flags.len(), 1, "{:?}", rules(&analysis));
        let flag = &analysis.flags[0];
        assert_eq!(flag.rule, "learned:hostile:earlier_lines");
        assert_eq!(flag.span, Span::new(0, line.len()));
        let Some(learned) = &flag.learned else {
            panic!("no learned evidence")
        };
        assert_eq!(learned.effect, LearnedEffect::WithEarlierLines);
        assert!(
            flag.explanation.contains("line before it"),
            "{}",
            flag.explanation
        );
    }

    #[test]
    fn a_line_that_adds_nothing_to_what_came_before_is_not_flagged() {
        let analyzer = split_sentence_analyzer();
        // The earlier line says it all (and is flagged itself); "ok then" adds nothing.
        let earlier = "women belong in the kitchen";
        assert!(!with_earlier(&analyzer, &[], earlier).flags.is_empty());
        let analysis = with_earlier(&analyzer, &[earlier], "ok then");
        assert!(analysis.flags.is_empty(), "{:?}", rules(&analysis));
        // Only the last two earlier lines are read.
        let far = with_earlier(
            &analyzer,
            &["women", "hmm", "well"],
            "belong in the kitchen",
        );
        assert!(far.flags.is_empty(), "{:?}", rules(&far));
    }
}
