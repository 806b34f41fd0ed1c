//! The admins' word list over the built-in lexicons: added terms with their disguises, a term
//! replacing a built-in one, allowed words winning over every term, and strictness per
//! category on lines and whole logs. Built with the small automaton (same matches, faster
//! to build).

use arbiter::chat::{
    analyze_game_chat, analyze_line, Action, AddedTerm, Analyzer, Category, Channel, ChatLine,
    GameChatContext, LineAnalysis, LineContext, MatchMode, Severity, Strictness, Variant, WordList,
};

fn term(text: &str, category: Category, severity: Severity, mode: MatchMode) -> AddedTerm {
    AddedTerm {
        term: text.to_string(),
        category,
        severity,
        mode,
    }
}

fn with(list: &WordList) -> Analyzer {
    Analyzer::with_word_list(list).expect("builds")
}

fn line(analyzer: &Analyzer, text: &str) -> LineAnalysis {
    analyze_line(analyzer, &LineContext::ffa_in_progress(), text)
}

fn rules(analysis: &LineAnalysis) -> Vec<&str> {
    analysis.flags.iter().map(|f| f.rule.as_str()).collect()
}

#[test]
fn an_added_term_is_found_in_its_disguises() {
    let mut list = WordList::default();
    list.terms.push(term(
        "glorbnik",
        Category::Insult,
        Severity::High,
        MatchMode::Word,
    ));
    list.terms.push(term(
        "go glorb",
        Category::Harassment,
        Severity::Medium,
        MatchMode::Phrase,
    ));
    let analyzer = with(&list);
    for text in [
        "you glorbnik",
        "GL0RBN1K",
        "glorbniks everywhere",
        "g l o r b n i k",
        "gl*rbnik",
        "glooorbnik",
    ] {
        let analysis = line(&analyzer, text);
        assert_eq!(rules(&analysis), ["lexicon:admin:glorbnik"], "{text}");
        assert_eq!(analysis.action, Action::Block, "{text}");
    }
    // A whole word: not inside another word.
    assert!(line(&analyzer, "glorbnikovich").flags.is_empty());
    assert_eq!(
        rules(&line(&analyzer, "just go glorb now")),
        ["lexicon:admin:go glorb"]
    );
}

#[test]
fn an_added_term_replaces_a_built_in_one_spelled_the_same() {
    let built_in = Analyzer::embedded().expect("embedded");
    let before = line(&built_in, "what trash");
    assert_eq!(before.action, Action::Warn);
    let mut list = WordList::default();
    list.terms.push(term(
        "trash",
        Category::Insult,
        Severity::Low,
        MatchMode::Word,
    ));
    let after = line(&with(&list), "what trash");
    assert_eq!(rules(&after), ["lexicon:admin:trash"]);
    assert_eq!(after.action, Action::Allow);
}

#[test]
fn an_allowed_word_wins_over_every_term() {
    let mut list = WordList::default();
    list.terms.push(term(
        "glorbnik",
        Category::Insult,
        Severity::High,
        MatchMode::Word,
    ));
    list.allowed = vec!["trash".into(), "glorbnik".into(), "glencunty".into()];
    let built_in = Analyzer::embedded().expect("embedded");
    assert!(!line(&built_in, "I live in glencunty").flags.is_empty());
    let analyzer = with(&list);
    for text in [
        "what trash",
        "what tr4sh",
        "tr*sh",
        "you glorbnik",
        "I live in glencunty",
    ] {
        let analysis = line(&analyzer, text);
        assert!(analysis.flags.is_empty(), "{text}: {:?}", analysis.flags);
    }
    // Only the allowed words: the term inside them still counts elsewhere.
    assert!(!line(&analyzer, "you cunt").flags.is_empty());
}

#[test]
fn strictness_moves_what_a_category_does() {
    let mut list = WordList::default();
    list.strictness.set(Category::Insult, Strictness::High);
    list.strictness.set(Category::Flooding, Strictness::Off);
    list.strictness.set(Category::Profanity, Strictness::Low);
    let analyzer = with(&list);
    let insult = line(&analyzer, "you idiot");
    assert_eq!(insult.action, Action::Block, "{insult:?}");
    assert!(insult.flags[0].report_worthy);
    assert!(insult.flags[0]
        .explanation
        .ends_with("(insult strictness high)"));
    let profanity = line(&analyzer, "oh shit");
    assert_eq!(profanity.action, Action::Allow, "{profanity:?}");
    assert_eq!(profanity.flags[0].severity, Severity::Low);

    // Over a whole log the spam tracker's flooding flags are dropped too.
    let flood: Vec<ChatLine> = (0..10)
        .map(|i| ChatLine {
            ply: Some(i),
            time_ms: u64::from(i) * 100,
            sender: "Spaksi".into(),
            channel: Channel::Game,
            text: format!("line number {i}"),
        })
        .collect();
    let game = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: None,
        ended_at_ms: None,
    };
    let built_in = Analyzer::embedded().expect("embedded");
    let flooded = |a: &Analyzer| {
        analyze_game_chat(a, &game, &flood, &[])
            .lines
            .iter()
            .any(|l| {
                l.analysis
                    .flags
                    .iter()
                    .any(|f| f.category == Category::Flooding)
            })
    };
    assert!(flooded(&built_in));
    assert!(!flooded(&analyzer));
}
