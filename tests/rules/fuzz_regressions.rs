//! Inputs the fuzz targets (`fuzz/`, see docs/fuzzing.md) found to crash or hang, kept as
//! ordinary tests so they stay fixed.

use arbiter::chat::{analyze_line, Analyzer, LineContext};
use arbiter::rules::pgn4;

/// A censored word with dozens of asterisks made the censored-word matcher backtrack
/// through every way of reading them (exponential time: the chat target's hang).
#[test]
fn a_word_of_many_asterisks_is_judged_at_once() {
    let analyzer = Analyzer::shared().expect("embedded chat data");
    let line = format!("f{}k you", "*".repeat(58));
    let analysis = analyze_line(&analyzer, &LineContext::ffa_in_progress(), &line);
    assert!(analysis.flags.iter().all(|f| f.span.end <= line.len()));
    let line = format!("s{}t{}", "*".repeat(30), "*".repeat(30));
    analyze_line(&analyzer, &LineContext::ffa_in_progress(), &line);
}

/// The canonical export of every document that reads must read back the same.
fn round_trips(text: &str) {
    let document = pgn4::parse(text).expect("reads");
    let again = pgn4::parse(&pgn4::write(&document)).expect("the export reads back");
    let values = |d: &pgn4::Pgn4| {
        d.tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(values(&again), values(&document));
    assert_eq!(
        again.plies.iter().map(|p| &p.action).collect::<Vec<_>>(),
        document.plies.iter().map(|p| &p.action).collect::<Vec<_>>()
    );
}

#[test]
fn tag_values_with_carriage_returns_round_trip() {
    round_trips("[Site \"a\r\"]\n\n1. h2-h3\n");
    round_trips("[Site \"a\r\r\n\"]\n");
    round_trips("[Site \"\\\r\n\"]\n");
}
