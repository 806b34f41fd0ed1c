//! How the learned scorer's reading joins the lexicon's flags on one line. The lexicon keeps
//! its role (named terms, disguises, chess-talk exemptions); the scorer adds a flag where the
//! lexicon found nothing as severe, raises a mild lexicon flag on a line that reads hostile,
//! and lowers a profanity flag on a line that reads friendly ("holy shit what a move").

use super::features::{extract, Feature};
use super::model::{Head, Model, Thresholds, HEADS};
use crate::chat::normalize::NormalizedLine;
use crate::chat::types::{
    Category, CategoryGroup, Flag, LearnedEffect, LearnedEvidence, LearnedHead, Severity, Span,
};

/// A profanity flag is lowered only below this hostile score: the line reads as friendly.
const SOFTEN_BELOW: f32 = 0.05;

/// A line needs this many words for the scorer to read it, or, in a script written without
/// spaces (Chinese, Japanese), this many letters.
const MIN_WORDS: usize = 3;
const MIN_LETTERS_UNSPACED: usize = 4;

/// A reading rests on one word when that word carries this share of what raised the score.
const ONE_WORD_SHARE: f32 = 0.6;

/// A line read with the sender's earlier lines is flagged only when its own words carry this
/// share of what raised the joined score.
const LINE_SHARE: f32 = 0.25;

/// At most this many words are named as carrying a score.
const CARRIERS: usize = 3;

/// Reusable buffers for scoring lines on one thread.
#[derive(Debug, Default)]
pub struct ScorerScratch {
    features: Vec<Feature>,
    chars: Vec<char>,
}

/// Scores `line` (normalised from `text`) and adds, raises or lowers offensive flags in
/// `flags`, which hold the lexicon's flags of the line. `allowed` holds the matching-form
/// ranges of words the lexicon or the admins allow: they are innocent whatever their letters
/// look like ("скипидар"), so their features are not read.
pub fn judge(
    model: &Model,
    line: &NormalizedLine,
    text: &str,
    allowed: &[(u32, u32)],
    scratch: &mut ScorerScratch,
    flags: &mut Vec<Flag>,
) {
    let Some(scores) = read(model, line, allowed, scratch) else {
        return;
    };
    for head in Head::ALL {
        let score = scores[head as usize];
        let severity = severity_of(score, &model.head(head).thresholds)
            .map(|severity| one_word_is_low(model, head, line, scratch, severity));
        match (head, severity, strongest_offensive(flags)) {
            (_, Some(severity), None) => {
                flags.push(added_flag(
                    model, head, score, severity, line, text, scratch,
                ));
            }
            // The lexicon named a word; the scorer does not flag the line again, but a mild
            // word on a line that reads hostile is raised.
            (Head::Hostile, Some(severity), Some(i))
                if flags[i].severity == Severity::Low && severity >= Severity::Medium =>
            {
                let evidence = evidence(model, head, score, line, text, scratch);
                confirm(&mut flags[i], evidence);
            }
            // Hate against a group is its own finding beside a swear word.
            (Head::IdentityHate, Some(severity), Some(_))
                if !flags.iter().any(|f| is_hate_category(f.category)) =>
            {
                flags.push(added_flag(
                    model, head, score, severity, line, text, scratch,
                ));
            }
            (Head::Hostile, None, Some(i))
                if score < SOFTEN_BELOW
                    && flags[i].category == Category::Profanity
                    && flags[i].severity == Severity::Medium =>
            {
                let evidence = evidence(model, head, score, line, text, scratch);
                soften(&mut flags[i], evidence);
            }
            _ => {}
        }
    }
}

/// The head scores of `line`, or None when it is too short to read or has nothing but
/// allowed words.
fn read(
    model: &Model,
    line: &NormalizedLine,
    allowed: &[(u32, u32)],
    scratch: &mut ScorerScratch,
) -> Option<[f32; HEADS]> {
    if !enough_to_read(line) {
        return None;
    }
    extract(
        line,
        model.shape(),
        &mut scratch.features,
        &mut scratch.chars,
    );
    if !allowed.is_empty() {
        let tokens = &line.tokens;
        let is_allowed = |token: u16| {
            let t = &tokens[token as usize];
            allowed.iter().any(|&(s, e)| s < t.end && t.start < e)
        };
        scratch
            .features
            .retain(|f| !is_allowed(f.token) && !f.next_token.is_some_and(is_allowed));
    }
    if scratch.features.is_empty() {
        return None;
    }
    Some(model.score(&scratch.features))
}

/// Reads a line together with the sender's lines just before it (`joined`, normalised from
/// `joined_text`, the earlier lines and the line joined by spaces; the line starts at byte
/// `line_start` of `joined_text`), for a sentence split over several lines ("women" / "belong
/// in the kitchen"). Returns the flag for the line, spanning all of it (`line_len` bytes),
/// when the joined reading is at least medium and the line's own words carry at least a
/// quarter of it: the line took part in what the joined lines say.
pub fn judge_continued(
    model: &Model,
    joined: &NormalizedLine,
    joined_text: &str,
    line_start: usize,
    allowed: &[(u32, u32)],
    scratch: &mut ScorerScratch,
) -> Option<Flag> {
    let scores = read(model, joined, allowed, scratch)?;
    let (head, score, severity) = Head::ALL
        .into_iter()
        .filter_map(|head| {
            let score = scores[head as usize];
            let severity = severity_of(score, &model.head(head).thresholds)?;
            Some((
                head,
                score,
                one_word_is_low(model, head, joined, scratch, severity),
            ))
        })
        .filter(|(_, _, severity)| *severity >= Severity::Medium)
        .max_by_key(|(head, _, severity)| (*severity, *head == Head::IdentityHate))?;
    let parts = model.contributions(head, &scratch.features, joined.tokens.len());
    let in_line = |i: usize| {
        let token = &joined.tokens[i];
        joined
            .original_span(token.start as usize, token.end as usize)
            .0
            >= line_start
    };
    let total: f32 = parts.iter().filter(|p| **p > 0.0).sum();
    let own: f32 = (0..parts.len())
        .filter(|i| in_line(*i))
        .map(|i| parts[i].max(0.0))
        .sum();
    if total <= 0.0 || own / total < LINE_SHARE {
        return None;
    }
    let mut flag = added_flag(model, head, score, severity, joined, joined_text, scratch);
    let learned = flag.learned.as_mut()?;
    learned.effect = LearnedEffect::WithEarlierLines;
    let reading = match head {
        Head::Hostile => "reads as hostile",
        Head::IdentityHate => "reads as hate against a group",
    };
    flag.explanation = format!(
        "{reading} with the sender's line before it ({})",
        describe(learned)
    );
    flag.rule = format!("learned:{}:earlier_lines", head.name());
    flag.span = Span::new(0, joined_text.len() - line_start);
    Some(flag)
}

/// The scorer reads sentences: a line of one or two words ("wtf", "push mid") is left to the
/// lexicon, which knows its words, where the scorer would judge it by a few n-grams. The
/// matching form of Latin-script lines is ASCII; other scripts need four letters instead
/// (Chinese and Japanese are written without spaces, a Korean insult is often two words).
fn enough_to_read(line: &NormalizedLine) -> bool {
    let words = line.tokens.len();
    let letters = line.stats.letters as usize;
    words >= MIN_WORDS || (words >= 1 && letters >= MIN_LETTERS_UNSPACED && !line.text.is_ascii())
}

fn is_hate_category(category: Category) -> bool {
    matches!(category, Category::SlurHate | Category::Harassment)
}

/// A reading that rests on one word is a question for the word lists: it stays low, so it
/// is recorded for admins but warns no one ("pickers", "ugly" were read as hate). The
/// scorer's own ground is meaning spread over several words.
fn one_word_is_low(
    model: &Model,
    head: Head,
    line: &NormalizedLine,
    scratch: &ScorerScratch,
    severity: Severity,
) -> Severity {
    let parts = model.contributions(head, &scratch.features, line.tokens.len());
    let total: f32 = parts.iter().filter(|p| **p > 0.0).sum();
    let top = parts.iter().copied().fold(0f32, f32::max);
    if total > 0.0 && top / total >= ONE_WORD_SHARE {
        Severity::Low
    } else {
        severity
    }
}

fn severity_of(score: f32, thresholds: &Thresholds) -> Option<Severity> {
    if score >= thresholds.high && thresholds.high < 1.0 {
        Some(Severity::High)
    } else if score >= thresholds.medium && thresholds.medium < 1.0 {
        Some(Severity::Medium)
    } else if score >= thresholds.low && thresholds.low < 1.0 {
        Some(Severity::Low)
    } else {
        None
    }
}

/// The most severe offensive flag of the line, if any.
fn strongest_offensive(flags: &[Flag]) -> Option<usize> {
    flags
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            f.category.group() == CategoryGroup::Offensive && f.category != Category::PersonalInfo
        })
        .max_by_key(|(_, f)| f.severity)
        .map(|(i, _)| i)
}

fn learned_head(head: Head) -> LearnedHead {
    match head {
        Head::Hostile => LearnedHead::Hostile,
        Head::IdentityHate => LearnedHead::IdentityHate,
    }
}

/// The score and the words that carried it, strongest first.
fn evidence(
    model: &Model,
    head: Head,
    score: f32,
    line: &NormalizedLine,
    text: &str,
    scratch: &ScorerScratch,
) -> (LearnedEvidence, Span) {
    let parts = model.contributions(head, &scratch.features, line.tokens.len());
    let mut ranked: Vec<(usize, f32)> = parts
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, part)| *part > 0.0)
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(CARRIERS);
    let spans: Vec<Span> = ranked
        .iter()
        .map(|(i, _)| {
            let token = &line.tokens[*i];
            let (start, end) = line.original_span(token.start as usize, token.end as usize);
            Span::new(start, end)
        })
        .collect();
    let carried_by = spans.iter().map(|s| s.slice(text).to_string()).collect();
    let span = spans.first().copied().unwrap_or(Span::new(0, text.len()));
    (
        LearnedEvidence {
            head: learned_head(head),
            score_per_mille: (score * 1000.0).round().clamp(0.0, 1000.0) as u16,
            carried_by,
            effect: LearnedEffect::Added,
        },
        span,
    )
}

fn added_flag(
    model: &Model,
    head: Head,
    score: f32,
    severity: Severity,
    line: &NormalizedLine,
    text: &str,
    scratch: &ScorerScratch,
) -> Flag {
    let (evidence, span) = evidence(model, head, score, line, text, scratch);
    let (category, reading) = match head {
        Head::Hostile => (Category::Insult, "reads as hostile"),
        Head::IdentityHate => (Category::SlurHate, "reads as hate against a group"),
    };
    Flag {
        category,
        severity,
        span,
        rule: format!("learned:{}", head.name()),
        explanation: format!("{reading} ({})", describe(&evidence)),
        report_worthy: head == Head::IdentityHate || severity >= Severity::High,
        evidence: None,
        learned: Some(evidence),
    }
}

fn confirm(flag: &mut Flag, (mut evidence, _): (LearnedEvidence, Span)) {
    evidence.effect = LearnedEffect::Confirmed;
    flag.severity = flag.severity.raise();
    flag.explanation = format!(
        "{}; the line reads as hostile ({})",
        flag.explanation,
        describe(&evidence)
    );
    flag.learned = Some(evidence);
}

fn soften(flag: &mut Flag, (mut evidence, _): (LearnedEvidence, Span)) {
    evidence.effect = LearnedEffect::Softened;
    flag.severity = flag.severity.lower();
    flag.explanation = format!(
        "{}; the line reads as friendly ({})",
        flag.explanation,
        describe(&evidence)
    );
    flag.learned = Some(evidence);
}

/// "learned score 0.91, carried by "trash", "uninstall"": what the case page shows.
fn describe(evidence: &LearnedEvidence) -> String {
    let score = f32::from(evidence.score_per_mille) / 1000.0;
    if evidence.carried_by.is_empty() {
        return format!("learned score {score:.2}");
    }
    let words: Vec<String> = evidence
        .carried_by
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect();
    format!("learned score {score:.2}, carried by {}", words.join(", "))
}

#[cfg(test)]
mod tests {
    use super::super::model::HeadParams;
    use super::super::test_model;
    use super::*;

    /// A model whose hostile head weighs only the features of `phrase`.
    fn model_hostile_to(phrase: &str) -> Model {
        let hostile = HeadParams {
            bias: -4.0,
            scale: 0.03,
            thresholds: Thresholds {
                low: 0.6,
                medium: 0.8,
                high: 0.95,
            },
        };
        test_model::hostile_to(phrase, hostile)
    }

    fn run_allowing(
        model: &Model,
        text: &str,
        allowed_word: Option<&str>,
        mut flags: Vec<Flag>,
    ) -> Vec<Flag> {
        let mut line = NormalizedLine::new();
        line.normalize(text);
        let allowed: Vec<(u32, u32)> = line
            .tokens
            .iter()
            .filter(|t| Some(line.token_text(t)) == allowed_word)
            .map(|t| (t.start, t.end))
            .collect();
        judge(
            model,
            &line,
            text,
            &allowed,
            &mut ScorerScratch::default(),
            &mut flags,
        );
        flags
    }

    fn run(model: &Model, text: &str, flags: Vec<Flag>) -> Vec<Flag> {
        run_allowing(model, text, None, flags)
    }

    fn lexicon_flag(category: Category, severity: Severity) -> Flag {
        Flag {
            category,
            severity,
            span: Span::new(0, 4),
            rule: "lexicon:test:x".into(),
            explanation: "x".into(),
            report_worthy: false,
            evidence: None,
            learned: None,
        }
    }

    #[test]
    fn a_hostile_line_gets_a_flag_naming_its_score_and_words() {
        let model = model_hostile_to("stupid loser");
        let text = "you are a stupid LOSER";
        let flags = run(&model, text, Vec::new());
        assert_eq!(flags.len(), 1, "{flags:?}");
        let flag = &flags[0];
        assert_eq!(flag.rule, "learned:hostile");
        assert_eq!(flag.category, Category::Insult);
        assert!(flag.severity >= Severity::Medium);
        let learned = flag.learned.as_ref().unwrap();
        assert_eq!(learned.carried_by, ["stupid", "LOSER"]);
        assert_eq!(flag.span.slice(text), "stupid");
        assert!(learned.score_per_mille >= 800);
        assert!(
            flag.explanation.contains("\"LOSER\""),
            "{}",
            flag.explanation
        );
    }

    #[test]
    fn a_reading_that_rests_on_one_word_stays_low() {
        let model = model_hostile_to("stupid loser");
        let flags = run(&model, "you are a total loser", Vec::new());
        assert_eq!(flags.len(), 1, "{flags:?}");
        assert_eq!(flags[0].severity, Severity::Low);
    }

    #[test]
    fn an_allowed_word_is_not_read() {
        let model = model_hostile_to("stupid loser");
        let flags = run_allowing(&model, "you are a stupid loser", Some("stupid"), Vec::new());
        let learned = flags[0].learned.as_ref().unwrap();
        assert_eq!(learned.carried_by, ["loser"]);
        assert_eq!(flags[0].severity, Severity::Low);
    }

    #[test]
    fn a_line_of_two_latin_words_is_left_to_the_lexicon() {
        let model = model_hostile_to("stupid loser");
        assert!(run(&model, "stupid loser", Vec::new()).is_empty());
    }

    #[test]
    fn a_friendly_line_gets_nothing() {
        let model = model_hostile_to("stupid loser");
        assert!(run(&model, "good game everyone", Vec::new()).is_empty());
    }

    #[test]
    fn a_mild_lexicon_flag_on_a_hostile_line_is_confirmed() {
        let model = model_hostile_to("stupid loser");
        let flags = run(
            &model,
            "you are a stupid loser",
            vec![lexicon_flag(Category::Profanity, Severity::Low)],
        );
        assert_eq!(flags.len(), 1);
        assert_eq!(flags[0].severity, Severity::Medium);
        assert_eq!(
            flags[0].learned.as_ref().unwrap().effect,
            LearnedEffect::Confirmed
        );
    }

    #[test]
    fn a_profanity_flag_on_a_friendly_line_is_softened() {
        let model = model_hostile_to("stupid loser");
        let flags = run(
            &model,
            "what a move",
            vec![lexicon_flag(Category::Profanity, Severity::Medium)],
        );
        assert_eq!(flags[0].severity, Severity::Low);
        assert_eq!(
            flags[0].learned.as_ref().unwrap().effect,
            LearnedEffect::Softened
        );
        let insult = run(
            &model,
            "what a move",
            vec![lexicon_flag(Category::Insult, Severity::Medium)],
        );
        assert_eq!(insult[0].severity, Severity::Medium, "insults stay");
    }
}
