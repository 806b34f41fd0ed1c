//! Data-driven measurements of the chat analyser on the shared labelled sets.

use arbiter::chat::eval::{evaluate, parse_conda, parse_ffa_probes, EvalReport};
use arbiter::chat::{analyze_line, Analyzer, Channel, LineContext, Variant};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chat");

fn read(path: &str) -> String {
    let full = format!("{DATA}/{path}");
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// One analyser for all tests of this file (it is built once per process in use too).
fn analyzer() -> &'static Analyzer {
    static ANALYZER: std::sync::OnceLock<Analyzer> = std::sync::OnceLock::new();
    ANALYZER.get_or_init(|| Analyzer::embedded().expect("embedded chat data"))
}

fn conda(file: &str) -> EvalReport {
    let rows = parse_conda(&read(&format!("conda/{file}"))).expect("CONDA file parses");
    let report = evaluate(analyzer(), &LineContext::ffa_in_progress(), &rows);
    println!("{file}\n{report}");
    report
}

#[test]
fn conda_train_scores() {
    let report = conda("CONDA_train.csv");
    assert!(
        report.flag.precision() >= 0.85,
        "{}",
        report.flag.precision()
    );
    assert!(report.flag.f1() >= 0.80, "{}", report.flag.f1());
}

#[test]
fn conda_valid_scores() {
    let report = conda("CONDA_valid.csv");
    assert!(
        report.flag.precision() >= 0.85,
        "{}",
        report.flag.precision()
    );
    assert!(report.flag.f1() >= 0.80, "{}", report.flag.f1());
}

fn lines(path: &str) -> Vec<String> {
    read(path)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn obfuscation_suite() {
    let analyzer = analyzer();
    let context = LineContext::ffa_in_progress();
    let positive = lines("rustrict_tests/test_positive.txt");
    let missed: Vec<&String> = positive
        .iter()
        .filter(|l| !analyze_line(analyzer, &context, l).is_offensive())
        .collect();
    let recall = 1.0 - missed.len() as f64 / positive.len() as f64;
    println!(
        "positive recall {recall:.4} ({} missed of {})",
        missed.len(),
        positive.len()
    );
    for m in missed.iter().take(400) {
        println!("  missed: {m}");
    }
    let negative = lines("rustrict_tests/test_negative.txt");
    let wrongly: Vec<&String> = negative
        .iter()
        .filter(|l| analyze_line(analyzer, &context, l).is_offensive())
        .collect();
    let rate = wrongly.len() as f64 / negative.len() as f64;
    println!(
        "negative flagged {rate:.4} ({} of {})",
        wrongly.len(),
        negative.len()
    );
    for w in &wrongly {
        println!(
            "  flagged: {w}  {:?}",
            analyze_line(analyzer, &context, w)
                .flags
                .iter()
                .map(|f| &f.rule)
                .collect::<Vec<_>>()
        );
    }
    let safe = lines("rustrict_tests/test_safe.txt");
    let unsafe_: Vec<&String> = safe
        .iter()
        .filter(|l| !analyze_line(analyzer, &context, l).flags.is_empty())
        .collect();
    println!("safe flagged: {unsafe_:?}");
    assert!(recall >= 0.95, "recall {recall}");
    assert!(rate <= 0.02, "negative rate {rate}");
    assert!(unsafe_.is_empty());
}

#[test]
fn ffa_probes() {
    let analyzer = analyzer();
    let rows = parse_ffa_probes(&read("ffa_probes.tsv")).expect("probes parse");
    let report = evaluate(analyzer, &LineContext::ffa_in_progress(), &rows);
    println!("{report}");
    assert_eq!(report.category_matches, rows.len(), "{report}");
    assert_eq!(report.flag.false_positives + report.flag.false_negatives, 0);
    let exempt = [
        LineContext {
            variant: Variant::Teams,
            channel: Channel::Team,
            in_progress: true,
            diplomacy: false,
            position: None,
        },
        LineContext {
            in_progress: false,
            ..LineContext::ffa_in_progress()
        },
        LineContext {
            diplomacy: true,
            ..LineContext::ffa_in_progress()
        },
    ];
    for context in &exempt {
        for row in &rows {
            let analysis = analyze_line(analyzer, context, &row.text);
            assert!(
                analysis.flags.is_empty(),
                "{context:?} {:?}: {:?}",
                row.text,
                analysis.flags
            );
        }
    }
}

/// Lines written apart from the probes, before the classifier learnt their phrasings, and
/// never tuned on (`ffa_probes_heldout.tsv`): the goal of issue #20 on lines the project has
/// not seen is precision at least 0.9 and recall at least 0.8 on the flag.
#[test]
fn ffa_heldout_meets_the_goal() {
    let rows = parse_ffa_probes(&read("ffa_probes_heldout.tsv")).expect("held-apart set parses");
    assert!(rows.len() >= 70, "{}", rows.len());
    let report = evaluate(analyzer(), &LineContext::ffa_in_progress(), &rows);
    println!("{report}");
    assert!(report.flag.precision() >= 0.9, "{report}");
    assert!(report.flag.recall() >= 0.8, "{report}");
}

/// Which rules cause false positives on the CONDA training set (run with --ignored).
#[test]
#[ignore]
fn diagnose_conda_false_positives() {
    let analyzer = analyzer();
    let context = LineContext::ffa_in_progress();
    let rows = parse_conda(&read("conda/CONDA_train.csv")).expect("parses");
    let mut false_positive_rules = std::collections::BTreeMap::<String, usize>::new();
    let mut true_positive_rules = std::collections::BTreeMap::<String, usize>::new();
    for row in &rows {
        let analysis = analyze_line(analyzer, &context, &row.text);
        for flag in analysis
            .flags
            .iter()
            .filter(|f| f.category.group() == arbiter::chat::CategoryGroup::Offensive)
        {
            let map = if row.flagged {
                &mut true_positive_rules
            } else {
                &mut false_positive_rules
            };
            *map.entry(flag.rule.clone()).or_default() += 1;
        }
    }
    let mut sorted: Vec<_> = false_positive_rules.into_iter().collect();
    sorted.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (rule, n) in sorted.iter().take(120) {
        println!(
            "{n:5} fp {rule} (tp {})",
            true_positive_rules.get(rule).unwrap_or(&0)
        );
    }
}
