//! Measuring the analyser on labelled chat: loaders for the CONDA CSV, the FFA
//! probe TSV and a simple `label<TAB>text` format, and precision / recall / F1 per
//! category with a printable report.
//!
//! A probe file may give the situation of a line with a comment line right before it:
//! `#context: key=value key=value ...`, which applies to the next probe line only (several
//! such lines add up). Keys: `variant` (`teams`, `ffa`, `solo`, `other`), `channel`
//! (`game`, `team`, `spectator`), `in_progress`, `diplomacy`, and the position verdict's
//! `ply`, `move_legal_for_other`, `piece_hanging`, `seat_active`, `move_clearly_bad`,
//! `sender_gave_check` (`true`/`false`; any verdict key gives the line a position).

use std::collections::BTreeMap;
use std::fmt;

use super::analyzer::Analyzer;
pub use super::binary_score::Score;
use super::ffa::FfaClass;
use super::line_analysis::{analyze_line_with, Scratch};
use super::line_context::{Channel, LineContext, Variant};
use super::position_verdict::PositionVerdict;
use super::types::CategoryGroup;

/// What a labelled line is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelTask {
    /// Offensive or not (predicted: any offensive-chat flag).
    Offensive,
    /// FFA chat rules (predicted: the FFA class; flagged = a report-worthy violation).
    Ffa,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledLine {
    pub task: LabelTask,
    /// Expected category: `toxic` / `clean` for offensive lines, the probe category for FFA.
    pub category: String,
    /// Whether the line should be flagged.
    pub flagged: bool,
    pub text: String,
    /// The situation the line was written in, when the file gives one (`#context:`).
    pub context: Option<ProbeContext>,
}

/// The situation of one probe line: what it changes in the evaluation's context.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ProbeContext {
    pub variant: Option<Variant>,
    pub channel: Option<Channel>,
    pub in_progress: Option<bool>,
    pub diplomacy: Option<bool>,
    /// What the board showed at the line's ply.
    pub position: Option<PositionVerdict>,
}

impl ProbeContext {
    /// Reads `key=value key=value ...` (the text after `#context:`) into this context.
    pub fn read(&mut self, text: &str) -> Result<(), String> {
        for pair in text.split_whitespace() {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, not {pair:?}"))?;
            let flag = || match value {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!("{key} must be true or false, not {value:?}")),
            };
            match key {
                "variant" => {
                    self.variant = Some(match value {
                        "teams" => Variant::Teams,
                        "ffa" => Variant::Ffa,
                        "solo" => Variant::Solo,
                        "other" => Variant::Other,
                        _ => return Err(format!("unknown variant {value:?}")),
                    })
                }
                "channel" => {
                    self.channel = Some(match value {
                        "game" => Channel::Game,
                        "team" => Channel::Team,
                        "spectator" => Channel::Spectator,
                        _ => return Err(format!("unknown channel {value:?}")),
                    })
                }
                "in_progress" => self.in_progress = Some(flag()?),
                "diplomacy" => self.diplomacy = Some(flag()?),
                "ply" => {
                    self.position.get_or_insert_with(Default::default).ply = value
                        .parse()
                        .map_err(|_| format!("ply must be a number, not {value:?}"))?
                }
                "move_legal_for_other"
                | "piece_hanging"
                | "seat_active"
                | "move_clearly_bad"
                | "sender_gave_check" => {
                    let yes = Some(flag()?);
                    let position = self.position.get_or_insert_with(Default::default);
                    match key {
                        "move_legal_for_other" => position.move_legal_for_other = yes,
                        "piece_hanging" => position.piece_hanging = yes,
                        "seat_active" => position.seat_active = yes,
                        "move_clearly_bad" => position.move_clearly_bad = yes,
                        _ => position.sender_gave_check = yes,
                    }
                }
                _ => return Err(format!("unknown context key {key:?}")),
            }
        }
        Ok(())
    }

    /// `base` with this context's changes.
    pub fn apply(&self, base: &LineContext) -> LineContext {
        LineContext {
            variant: self.variant.unwrap_or(base.variant),
            channel: self.channel.unwrap_or(base.channel),
            in_progress: self.in_progress.unwrap_or(base.in_progress),
            diplomacy: self.diplomacy.unwrap_or(base.diplomacy),
            position: self.position.clone().or_else(|| base.position.clone()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for EvalError {}

/// Splits CSV text into records (RFC 4180: quotes, doubled quotes, newlines in quotes).
fn csv_records(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut records = Vec::new();
    let mut field = String::new();
    let mut record = Vec::new();
    let mut quoted = false;
    let mut line = 1;
    let mut record_line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => {
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => quoted = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push((record_line, std::mem::take(&mut record)));
                line += 1;
                record_line = line;
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push((record_line, record));
    }
    records
}

/// The CONDA format: a CSV with `utterance` and `intentClass` columns;
/// `E` (explicit) and `I` (implicit) are toxic, `A` and `O` are not.
/// Utterances joined with `[SEPA]` are read as separate lines of one message.
pub fn parse_conda(text: &str) -> Result<Vec<LabelledLine>, EvalError> {
    let mut records = csv_records(text).into_iter();
    let (_, header) = records.next().ok_or(EvalError {
        line: 1,
        message: "empty file".into(),
    })?;
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .ok_or(EvalError {
                line: 1,
                message: format!("no {name} column"),
            })
    };
    let (utterance, intent) = (column("utterance")?, column("intentClass")?);
    let mut rows = Vec::new();
    for (line, record) in records {
        if record.len() == 1 && record[0].trim().is_empty() {
            continue;
        }
        let (Some(text), Some(class)) = (record.get(utterance), record.get(intent)) else {
            return Err(EvalError {
                line,
                message: "missing fields".into(),
            });
        };
        let toxic = match class.trim() {
            "E" | "I" => true,
            "A" | "O" => false,
            other => {
                return Err(EvalError {
                    line,
                    message: format!("unknown intentClass {other:?}"),
                })
            }
        };
        rows.push(LabelledLine {
            task: LabelTask::Offensive,
            category: if toxic { "toxic" } else { "clean" }.into(),
            flagged: toxic,
            text: text.replace("[SEPA]", "\n"),
            context: None,
        });
    }
    Ok(rows)
}

/// The FFA probe format: a TSV `category<TAB>expected_flag<TAB>text` with a header;
/// `#` starts a comment line, `#context: ...` gives the next line's situation.
pub fn parse_ffa_probes(text: &str) -> Result<Vec<LabelledLine>, EvalError> {
    let mut rows = Vec::new();
    let mut pending: Option<(usize, ProbeContext)> = None;
    for (index, raw) in text.lines().enumerate() {
        if let Some(spec) = raw.strip_prefix("#context:") {
            let (_, context) = pending.get_or_insert_with(|| (index + 1, ProbeContext::default()));
            context.read(spec).map_err(|message| EvalError {
                line: index + 1,
                message,
            })?;
            continue;
        }
        if index == 0 && raw.starts_with("category")
            || raw.trim().is_empty()
            || raw.starts_with('#')
        {
            continue;
        }
        let mut parts = raw.splitn(3, '\t');
        let (Some(category), Some(flag), Some(line)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(EvalError {
                line: index + 1,
                message: "expected category, flag, text".into(),
            });
        };
        let flagged = match flag.trim() {
            "1" => true,
            "0" => false,
            other => {
                return Err(EvalError {
                    line: index + 1,
                    message: format!("flag must be 0 or 1, not {other:?}"),
                })
            }
        };
        rows.push(LabelledLine {
            task: LabelTask::Ffa,
            category: category.trim().to_string(),
            flagged,
            text: line.to_string(),
            context: pending.take().map(|(_, context)| context),
        });
    }
    if let Some((line, _)) = pending {
        return Err(EvalError {
            line,
            message: "#context: without a probe line after it".into(),
        });
    }
    Ok(rows)
}

/// The simple format: `label<TAB>text`; label `1`/`toxic`/`offensive` or
/// `0`/`clean`/`ok`.
pub fn parse_simple(text: &str) -> Result<Vec<LabelledLine>, EvalError> {
    let mut rows = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let Some((label, line)) = raw.split_once('\t') else {
            return Err(EvalError {
                line: index + 1,
                message: "expected label<TAB>text".into(),
            });
        };
        let flagged = match label.trim().to_ascii_lowercase().as_str() {
            "1" | "toxic" | "offensive" | "true" => true,
            "0" | "clean" | "ok" | "false" => false,
            "label" if index == 0 => continue,
            other => {
                return Err(EvalError {
                    line: index + 1,
                    message: format!("unknown label {other:?}"),
                })
            }
        };
        rows.push(LabelledLine {
            task: LabelTask::Offensive,
            category: if flagged { "toxic" } else { "clean" }.into(),
            flagged,
            text: line.to_string(),
            context: None,
        });
    }
    Ok(rows)
}

/// Picks the format from the first line: a CONDA header, a probe header, or simple.
pub fn parse_any(text: &str) -> Result<Vec<LabelledLine>, EvalError> {
    let first = text.lines().next().unwrap_or("");
    if first.contains("intentClass") {
        parse_conda(text)
    } else if first.starts_with("category\t") {
        parse_ffa_probes(text)
    } else {
        parse_simple(text)
    }
}

/// A line the analyser got wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    pub text: String,
    pub expected: String,
    pub predicted: String,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct EvalReport {
    pub lines: usize,
    /// Flagged or not.
    pub flag: Score,
    /// One-against-the-rest per expected category.
    pub categories: BTreeMap<String, Score>,
    /// Lines whose predicted category equals the expected one.
    pub category_matches: usize,
    /// Up to `MAX_MISTAKES` lines where the category or the flag was wrong.
    pub mistakes: Vec<Mistake>,
}

const MAX_MISTAKES: usize = 50;

/// The category name the FFA probes use for a class.
pub fn ffa_probe_category(class: FfaClass) -> &'static str {
    match class {
        FfaClass::PastMoveDiscussion => "allowed_past_move",
        FfaClass::TurnReminder => "allowed_turn",
        FfaClass::CheckAnnouncement => "allowed_announcement",
        FfaClass::ResignOrClaim => "allowed_resign_claim",
        FfaClass::Neutral => "allowed_misc",
        other => other.name(),
    }
}

/// Runs the analyser on every line in `context` and scores it.
pub fn evaluate(analyzer: &Analyzer, context: &LineContext, rows: &[LabelledLine]) -> EvalReport {
    let mut report = EvalReport::default();
    let mut scratch = Scratch::new();
    let mut predictions = Vec::with_capacity(rows.len());
    for row in rows {
        let own;
        let context = match &row.context {
            Some(probe) => {
                own = probe.apply(context);
                &own
            }
            None => context,
        };
        let analysis = analyze_line_with(analyzer, &mut scratch, context, &row.text);
        let (category, flagged) = match row.task {
            LabelTask::Offensive => {
                let toxic = analysis.is_offensive();
                (if toxic { "toxic" } else { "clean" }.to_string(), toxic)
            }
            LabelTask::Ffa => {
                let class = analysis
                    .ffa
                    .map(ffa_probe_category)
                    .unwrap_or("allowed_misc");
                let flagged = analysis
                    .flags
                    .iter()
                    .any(|f| f.category.group() == CategoryGroup::RuleViolating && f.report_worthy);
                (class.to_string(), flagged)
            }
        };
        report.flag.add(flagged, row.flagged);
        let category_right = category == row.category;
        if category_right {
            report.category_matches += 1;
        }
        if (!category_right || flagged != row.flagged) && report.mistakes.len() < MAX_MISTAKES {
            report.mistakes.push(Mistake {
                text: row.text.clone(),
                expected: format!("{} ({})", row.category, flag_word(row.flagged)),
                predicted: format!("{category} ({})", flag_word(flagged)),
            });
        }
        predictions.push(category);
    }
    report.lines = rows.len();
    let names: std::collections::BTreeSet<&str> = rows
        .iter()
        .map(|r| r.category.as_str())
        .chain(predictions.iter().map(String::as_str))
        .collect();
    for name in names {
        let mut score = Score::default();
        for (row, predicted) in rows.iter().zip(&predictions) {
            score.add(predicted == name, row.category == name);
        }
        report.categories.insert(name.to_string(), score);
    }
    report
}

fn flag_word(flagged: bool) -> &'static str {
    if flagged {
        "flag"
    } else {
        "no flag"
    }
}

impl fmt::Display for EvalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "lines: {}", self.lines)?;
        writeln!(
            f,
            "flagged: precision {:.3}  recall {:.3}  F1 {:.3}  (tp {} fp {} fn {} tn {})",
            self.flag.precision(),
            self.flag.recall(),
            self.flag.f1(),
            self.flag.true_positives,
            self.flag.false_positives,
            self.flag.false_negatives,
            self.flag.true_negatives
        )?;
        writeln!(
            f,
            "category right: {} of {}",
            self.category_matches, self.lines
        )?;
        writeln!(
            f,
            "{:<24} {:>7} {:>9} {:>7} {:>7}",
            "category", "support", "precision", "recall", "F1"
        )?;
        for (name, score) in &self.categories {
            writeln!(
                f,
                "{:<24} {:>7} {:>9.3} {:>7.3} {:>7.3}",
                name,
                score.true_positives + score.false_negatives,
                score.precision(),
                score.recall(),
                score.f1()
            )?;
        }
        if !self.mistakes.is_empty() {
            writeln!(f, "first mistakes:")?;
            for m in &self.mistakes {
                writeln!(
                    f,
                    "  expected {:<28} got {:<28} {}",
                    m.expected,
                    m.predicted,
                    m.text.replace('\n', " / ")
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quotes() {
        let rows =
            parse_conda("Id,utterance,intentClass\n1,\"a, \"\"quoted\"\" line\",E\n2,plain,O\n")
                .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].text, "a, \"quoted\" line");
        assert!(rows[0].flagged);
        assert!(!rows[1].flagged);
    }

    #[test]
    fn simple_and_probe_formats() {
        let rows = parse_any("1\tyou idiot\n0\tgood game\n").unwrap();
        assert_eq!(rows.len(), 2);
        let rows = parse_any("category\texpected_flag\ttext\nbegging\t1\tgive me 2nd\n").unwrap();
        assert_eq!(rows[0].category, "begging");
        assert!(parse_any("maybe\tsomething\n").is_err());
    }

    #[test]
    fn probe_context_lines() {
        let text = "category\texpected_flag\ttext\n\
                    #context: sender_gave_check=true\n\
                    #context: variant=solo\n\
                    allowed_announcement\t0\tcheck\n\
                    move_suggestion\t1\tcheck red\n";
        let rows = parse_ffa_probes(text).unwrap();
        let context = rows[0].context.as_ref().expect("context");
        assert_eq!(context.variant, Some(Variant::Solo));
        let position = context.position.as_ref().expect("position");
        assert_eq!(position.sender_gave_check, Some(true));
        assert_eq!(position.piece_hanging, None);
        let applied = context.apply(&LineContext::ffa_in_progress());
        assert_eq!(applied.variant, Variant::Solo);
        assert!(applied.in_progress && applied.position.is_some());
        // The context is the next line's only.
        assert_eq!(rows[1].context, None);

        let error =
            parse_ffa_probes("category\texpected_flag\ttext\n#context: colour=red\n").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("colour"), "{error}");
        let error = parse_ffa_probes("category\texpected_flag\ttext\n#context: diplomacy=yes\n")
            .unwrap_err();
        assert!(error.message.contains("true or false"), "{error}");
        let error =
            parse_ffa_probes("category\texpected_flag\ttext\n#context: in_progress=false\n")
                .unwrap_err();
        assert!(error.message.contains("without a probe line"), "{error}");
    }

    #[test]
    fn scores() {
        let mut s = Score::default();
        s.add(true, true);
        s.add(true, false);
        s.add(false, true);
        s.add(false, false);
        assert!((s.precision() - 0.5).abs() < 1e-9);
        assert!((s.recall() - 0.5).abs() < 1e-9);
        assert!((s.f1() - 0.5).abs() < 1e-9);
    }
}
