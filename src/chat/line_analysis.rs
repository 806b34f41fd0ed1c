//! One line analysed: normalised once into reusable buffers, then offensive language (the
//! lexicon, then the learned scorer's reading joined to it), personal information, per-line spam and, where they apply, the FFA chat rules (with the
//! board verdict the line's context carries).

use std::cell::RefCell;

use serde::{Deserialize, Serialize};

use super::analyzer::Analyzer;
use super::ffa::{self, FfaClass, FfaOutcome};
use super::line_context::LineContext;
use super::mention::{self, Mention, Tense};
use super::normalize::NormalizedLine;
use super::offensive;
use super::pii;
use super::scorer::{self, ScorerScratch};
use super::spam::{self, LineFingerprint};
use super::types::{Action, Category, CategoryGroup, Flag, Severity, Span};

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

/// Reusable buffers for analysing lines on one thread.
#[derive(Debug, Default)]
pub struct Scratch {
    line: NormalizedLine,
    scan: offensive::ScanScratch,
    patterns: Vec<pii::PatternHit>,
    spam: Vec<spam::SpamHit>,
    mentions: Vec<Mention>,
    ffa: ffa::FfaScratch,
    scorer: ScorerScratch,
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
    scratch.line.normalize(text);
    offensive::scan(&analyzer.lexicon, &scratch.line, &mut scratch.scan);
    let mut analysis = LineAnalysis::default();
    scratch.push_offensive_flags(analyzer, &mut analysis);
    scorer::judge(
        &analyzer.scorer,
        &scratch.line,
        text,
        scratch.scan.allowed(),
        &mut scratch.scorer,
        &mut analysis.flags,
    );
    scratch.push_pii_flags(analyzer, text, &mut analysis.flags);
    scratch.push_spam_flags(analyzer, text, &mut analysis.flags);
    if context.ffa_rules_apply() {
        scratch.apply_ffa_rules(analyzer, context, text, &mut analysis);
    }
    analyzer.strictness.apply(&mut analysis.flags, 0);
    analysis.action = recommend(&analysis.flags);
    analysis
}

/// The steps of [`analyze_line_with`], each reading the line as normalised and scanned.
impl Scratch {
    /// Offensive lexicon hits, and harassment for someone's origin.
    fn push_offensive_flags(&self, analyzer: &Analyzer, analysis: &mut LineAnalysis) {
        for hit in &self.scan.hits {
            analysis.flags.push(lexicon_flag(analyzer, &self.line, hit));
        }
        if !self.scan.hits.is_empty() {
            harassment_by_origin(analyzer, &self.line, &self.scan, analysis);
        }
    }

    /// Personal information and links.
    fn push_pii_flags(&mut self, analyzer: &Analyzer, text: &str, flags: &mut Vec<Flag>) {
        self.patterns.clear();
        analyzer
            .pii
            .scan(text, &self.line.stats, &mut self.patterns);
        for hit in self.patterns.iter() {
            flags.push(Flag {
                category: hit.category,
                severity: hit.severity,
                span: hit.span,
                rule: hit.rule.to_string(),
                explanation: hit.explanation.to_string(),
                report_worthy: hit.category == Category::PersonalInfo,
                evidence: None,
                learned: None,
            });
        }
    }

    /// Spam within the line itself (the whole line is the span).
    fn push_spam_flags(&mut self, analyzer: &Analyzer, text: &str, flags: &mut Vec<Flag>) {
        self.spam.clear();
        spam::line_checks(&analyzer.spam, &self.line, &mut self.spam);
        let whole = Span::new(0, text.len());
        for hit in self.spam.iter() {
            flags.push(spam_flag(hit, whole));
        }
    }

    /// The FFA chat rules: board mentions, the class of the line and its flag.
    fn apply_ffa_rules(
        &mut self,
        analyzer: &Analyzer,
        context: &LineContext,
        text: &str,
        analysis: &mut LineAnalysis,
    ) {
        self.mentions.clear();
        let cues = &analyzer.cues;
        let scan = &self.scan;
        if scan.line_cues & cues.trigger != 0 || self.line.stats.digits > 0 {
            mention::extract(
                &analyzer.board,
                text,
                &self.line,
                &scan.token_cues,
                cues.board_words,
                &mut self.mentions,
            );
        }
        let mut outcome = ffa::classify(
            &mut self.ffa,
            cues,
            &self.line,
            text,
            &scan.token_cues,
            scan.line_cues,
            &self.mentions,
            context.position.as_ref(),
        );
        analyzer.ffa_policy.judge(&mut outcome);
        record_ffa_outcome(&self.line, &outcome, analysis);
        if !self.mentions.is_empty() {
            analysis.mentions = self.mentions.clone();
        }
    }
}

/// The flag of an offensive lexicon hit.
fn lexicon_flag(analyzer: &Analyzer, line: &NormalizedLine, hit: &offensive::Hit) -> Flag {
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
    Flag {
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
        learned: None,
    }
}

/// The tense, the FFA class and, for a class that is a flag category, the flag.
fn record_ffa_outcome(line: &NormalizedLine, outcome: &FfaOutcome, analysis: &mut LineAnalysis) {
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
            learned: None,
        });
    }
    analysis.ffa = Some(outcome.class);
}

pub(super) fn spam_flag(hit: &spam::SpamHit, span: Span) -> Flag {
    Flag {
        category: hit.category,
        severity: hit.severity,
        span,
        rule: hit.rule.to_string(),
        explanation: hit.explanation.clone(),
        // The guide: report spam only when it floods the chat.
        report_worthy: matches!(hit.category, Category::Flooding | Category::Repetition),
        evidence: None,
        learned: None,
    }
}

/// The strictest action any flag asks for.
pub(super) fn recommend(flags: &[Flag]) -> Action {
    flags
        .iter()
        .map(Flag::action)
        .max()
        .unwrap_or(Action::Allow)
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
                learned: None,
            });
            return;
        }
    }
}
