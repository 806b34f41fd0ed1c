//! Behaviour of the chat analyser on hand-written lines.

use arbiter::chat::{
    analyze_game_chat, analyze_line, Action, Analyzer, Category, Channel, ChatLine, FfaClass,
    FfaPolicy, GameChatContext, LexiconSources, LineAnalysis, LineContext, MentionKind,
    PositionVerdict, ResignTalk, Severity, Variant, CHAT_SETTINGS_TOML,
};

/// One analyser for all tests of this file (it is built once per process in use too).
fn analyzer() -> &'static Analyzer {
    static ANALYZER: std::sync::OnceLock<Analyzer> = std::sync::OnceLock::new();
    ANALYZER.get_or_init(|| Analyzer::embedded().expect("embedded chat data"))
}

fn line(text: &str) -> LineAnalysis {
    analyze_line(analyzer(), &LineContext::ffa_in_progress(), text)
}

#[test]
fn analyzer_is_shareable() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Analyzer>();
}

/// Every instance holds the automaton, so its size is the service's footprint (issue #44:
/// the full DFA it replaced held about 110 MB).
#[test]
fn the_lexicon_automaton_holds_a_few_megabytes() {
    let bytes = analyzer().lexicon().memory_usage();
    assert!(bytes < 8_000_000, "{bytes} bytes");
}

#[test]
fn obfuscated_words_are_flagged_with_exact_spans() {
    for (text, expected) in [
        ("you f u c k", "f u c k"),
        ("oh f*ck off", "f*ck"),
        ("what f.u.c.k", "f.u.c.k"),
        ("this is sh1t", "sh1t"),
        ("FUUUUCK", "FUUUUCK"),
        ("ｆｕｃｋ you", "ｆｕｃｋ you"),
        ("fu\u{200b}ck", "fu\u{200b}ck"),
        ("βιτ⊂η", "βιτ⊂η"),
    ] {
        let analysis = line(text);
        let flag = analysis
            .flags
            .iter()
            .find(|f| f.category.group() == arbiter::chat::CategoryGroup::Offensive)
            .unwrap_or_else(|| panic!("{text:?} not flagged"));
        assert_eq!(flag.span.slice(text), expected, "{text:?}: {flag:?}");
        assert!(!flag.rule.is_empty() && !flag.explanation.is_empty());
    }
}

#[test]
fn innocent_words_and_cross_word_joins_are_not_flagged() {
    for text in [
        "but treason",
        "push it",
        "assassin",
        "Scunthorpe",
        "a walk on the beach",
        "his position is weak",
        "classic opening",
        "my therapist",
        "side.going",
        "cocktail party",
        "I'm gay",
        "the knight on f4 is pinned",
        "Qxe7 was a blunder",
        "as I said",
        "hello there",
        "nice push it was",
        "is it over",
    ] {
        let analysis = line(text);
        assert!(!analysis.is_offensive(), "{text:?}: {:?}", analysis.flags);
    }
}

#[test]
fn personal_information() {
    for (text, rule) in [
        ("where do you live?", "lexicon:project:where do you live"),
        ("call 0612 345 678 tonight", "pattern:phone_number"),
        ("mail me: someone@example.org", "pattern:email_address"),
        ("i live at 221 Baker Street", "pattern:street_address"),
    ] {
        let analysis = line(text);
        let flag = analysis
            .flags
            .iter()
            .find(|f| f.category == Category::PersonalInfo)
            .unwrap_or_else(|| panic!("{text:?}: {:?}", analysis.flags));
        assert_eq!(flag.rule, rule);
        assert!(flag.report_worthy);
        assert_eq!(analysis.action, Action::Block);
    }
}

#[test]
fn newness_and_origin_harassment() {
    let analysis = line("noob");
    assert!(analysis.has(Category::Harassment));
    let analysis = line("stupid russian idiot");
    let flag = analysis
        .flags
        .iter()
        .find(|f| f.rule == "phrase:insult_near_origin")
        .expect("origin harassment");
    assert_eq!(flag.severity, Severity::High);
}

#[test]
fn heat_of_the_moment_insult_is_not_report_worthy_alone() {
    let analysis = line("idiot");
    assert!(analysis.has(Category::Insult));
    assert!(analysis.flags.iter().all(|f| !f.report_worthy));
    assert_eq!(analysis.action, Action::Warn);
}

#[test]
fn ffa_rules_and_exemptions() {
    let analyzer = analyzer();
    let ffa = LineContext::ffa_in_progress();
    let analysis = analyze_line(analyzer, &ffa, "check red");
    assert_eq!(analysis.ffa, Some(FfaClass::MoveSuggestion));
    assert!(analysis.has(Category::MoveSuggestion));
    assert!(analysis
        .mentions
        .iter()
        .any(|m| matches!(m.kind, MentionKind::Check { .. })));
    let analysis = analyze_line(analyzer, &ffa, "just resign already");
    assert_eq!(analysis.ffa, Some(FfaClass::ResignOrClaim));
    let flag = analysis
        .flags
        .iter()
        .find(|f| f.category == Category::ResignOrClaim)
        .expect("classified");
    assert!(!flag.report_worthy);
    assert_eq!(analysis.action, Action::Allow);
    let analysis = analyze_line(analyzer, &ffa, "your queen was hanging for 3 moves");
    assert_eq!(analysis.ffa, Some(FfaClass::PastMoveDiscussion));
    assert!(analysis.flags.is_empty());

    let solo_spectator = LineContext {
        variant: Variant::Solo,
        channel: Channel::Spectator,
        ..ffa.clone()
    };
    assert!(analyze_line(analyzer, &solo_spectator, "check red")
        .flags
        .is_empty());
    let teams_game = LineContext {
        variant: Variant::Teams,
        ..ffa.clone()
    };
    assert!(analyze_line(analyzer, &teams_game, "check red")
        .flags
        .is_empty());
}

#[test]
fn position_verdict_raises_or_lowers() {
    let analyzer = analyzer();
    let with = |verdict: PositionVerdict| LineContext {
        position: Some(verdict),
        ..LineContext::ffa_in_progress()
    };
    let confirmed = analyze_line(
        analyzer,
        &with(PositionVerdict {
            ply: 41,
            fen4: "R-0,0,0,0-...".into(),
            piece_hanging: Some(true),
            ..PositionVerdict::default()
        }),
        "the knight is hanging",
    );
    let flag = confirmed
        .flags
        .iter()
        .find(|f| f.category == Category::MoveSuggestion)
        .expect("suggestion");
    assert_eq!(flag.severity, Severity::Critical);
    assert_eq!(flag.evidence.as_ref().map(|e| e.ply), Some(41));

    let refuted = analyze_line(
        analyzer,
        &with(PositionVerdict {
            ply: 41,
            piece_hanging: Some(false),
            ..PositionVerdict::default()
        }),
        "the knight is hanging",
    );
    let flag = refuted
        .flags
        .iter()
        .find(|f| f.category == Category::MoveSuggestion)
        .expect("still classified");
    assert!(!flag.report_worthy);
    assert_eq!(flag.severity, Severity::Low);

    // Phrased as the past, but the position shows the piece still hangs.
    let still_live = analyze_line(
        analyzer,
        &with(PositionVerdict {
            ply: 41,
            piece_hanging: Some(true),
            ..PositionVerdict::default()
        }),
        "your queen was hanging",
    );
    assert_eq!(still_live.ffa, Some(FfaClass::MoveSuggestion));
}

fn chat(time_ms: u64, ply: u32, sender: &str, text: &str) -> ChatLine {
    ChatLine {
        ply: Some(ply),
        time_ms,
        sender: sender.into(),
        channel: Channel::Game,
        text: text.into(),
    }
}

#[test]
fn game_chat_spam_post_game_and_repeated_abuse() {
    let analyzer = analyzer();
    let game = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: Some(100),
        ended_at_ms: None,
    };
    let mut lines = Vec::new();
    for i in 0..8 {
        lines.push(chat(
            i * 500,
            10,
            "spammer",
            &format!("message number {i} {}", "!".repeat(i as usize)),
        ));
    }
    for i in 0..3 {
        lines.push(chat(20_000 + i * 10_000, 20, "parrot", "join my club"));
    }
    lines.push(chat(60_000, 30, "rude", "idiot"));
    lines.push(chat(61_000, 31, "rude", "you suck"));
    lines.push(chat(62_000, 32, "rude", "trash player"));
    lines.push(chat(
        90_000,
        120,
        "red",
        "you missed mate in 2, check red would have won",
    ));
    let result = analyze_game_chat(analyzer, &game, &lines, &[]);
    assert_eq!(result.lines.len(), lines.len());
    assert!(result.lines[7].analysis.has(Category::Flooding));
    assert!(!result.lines[3].analysis.has(Category::Flooding));
    assert!(result.lines[10].analysis.has(Category::Repetition));
    for line in &result.lines[11..14] {
        assert!(
            line.analysis.flags.iter().all(|f| f.report_worthy),
            "{line:?}"
        );
    }
    // After the game: move talk is fine.
    assert!(result.lines[14].analysis.flags.is_empty());
    assert_eq!(result.lines[14].analysis.ffa, None);
    let rude = result
        .senders
        .iter()
        .find(|s| s.sender == "rude")
        .expect("summary");
    assert_eq!(rude.offensive_lines, 3);
}

/// In a game's log a reply is read with the line it answers: the last line someone else
/// wrote in the channel within 30 seconds.
#[test]
fn game_chat_reads_replies_with_the_line_they_answer() {
    let analyzer = analyzer();
    let game = GameChatContext {
        variant: Variant::Ffa,
        diplomacy: false,
        ended_at_ply: Some(100),
        ended_at_ms: None,
    };
    let lines = vec![
        chat(1_000, 10, "blue", "wanna team up against red?"),
        chat(5_000, 10, "yellow", "ok deal"),
        chat(20_000, 12, "green", "you are a fucking idiot"),
        chat(22_000, 12, "red", "same to you"),
        // Long after the offer: consent to nothing in view.
        chat(200_000, 40, "blue", "nice move"),
        chat(300_000, 44, "yellow", "ok"),
    ];
    let result = analyze_game_chat(analyzer, &game, &lines, &[]);
    let consent = &result.lines[1].analysis;
    assert!(consent.has(Category::Collusion), "{consent:?}");
    assert_eq!(consent.ffa, Some(FfaClass::Collusion));
    let flag = consent
        .flags
        .iter()
        .find(|f| f.rule == "conversation:agrees")
        .expect("consent flag");
    assert!(flag.explanation.contains("blue's"), "{}", flag.explanation);
    let retort = &result.lines[3].analysis;
    assert!(retort.has(Category::Insult), "{retort:?}");
    assert!(result.lines[5].analysis.flags.is_empty());
    let yellow = result
        .senders
        .iter()
        .find(|s| s.sender == "yellow")
        .expect("summary");
    assert_eq!(yellow.rule_violating_lines, 1);

    // In a diplomacy game, negotiation is allowed, and so is consent.
    let diplomacy = GameChatContext {
        diplomacy: true,
        ..game
    };
    let result = analyze_game_chat(analyzer, &diplomacy, &lines[..2], &[]);
    assert!(result.lines[1].analysis.flags.is_empty());
}

#[test]
fn results_round_trip_as_json() {
    let analysis = line("f*ck you, check red");
    let json = serde_json::to_string(&analysis).expect("serialises");
    assert!(json.contains("\"category\":\"profanity\"") || json.contains("\"category\""));
    let back: LineAnalysis = serde_json::from_str(&json).expect("deserialises");
    assert_eq!(back, analysis);
}

/// Arbitrary Unicode never panics, and every span lies on character boundaries.
#[test]
fn arbitrary_input_never_panics() {
    let analyzer = analyzer();
    let contexts = [
        LineContext::ffa_in_progress(),
        LineContext {
            variant: Variant::Teams,
            channel: Channel::Team,
            ..LineContext::ffa_in_progress()
        },
    ];
    let alphabet: Vec<char> = "aAbfkKuUcC *.!_-|\\/()[]<>@$#%^&+=0123456789 \n\t'\"ßẞİıΣσςфЖ漢字🖕🍆🇬🅵\u{200b}\u{202e}\u{301}\u{fe0f}ﷺﱠ⑩ǅﬃ\u{10FFFF}"
        .chars()
        .collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let text: String = (0..len)
            .map(|_| {
                let r = next();
                if r % 5 == 0 {
                    char::from_u32((r >> 8) as u32 % 0x11_0000).unwrap_or('x')
                } else {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                }
            })
            .collect();
        for context in &contexts {
            let analysis = analyze_line(analyzer, context, &text);
            for flag in &analysis.flags {
                assert!(flag.span.start <= flag.span.end && flag.span.end <= text.len());
                assert!(
                    text.is_char_boundary(flag.span.start) && text.is_char_boundary(flag.span.end)
                );
            }
            for mention in &analysis.mentions {
                assert!(mention.span.end <= text.len());
            }
        }
    }
}

/// The help page lists "Resign!" and "Don't resign" among the prohibited phrases; the
/// reporting guide says not to report them. `[ffa] resign_talk` decides.
#[test]
fn resign_talk_follows_the_policy_setting() {
    // The built-in setting is the reporting guide's reading.
    assert_eq!(analyzer().ffa_policy().resign_talk, ResignTalk::Allowed);
    assert!(CHAT_SETTINGS_TOML.contains("resign_talk = \"allowed\""));
    let ffa = LineContext::ffa_in_progress();
    let lines = [
        "Resign!",
        "Don't resign",
        "just resign blue",
        "claim the win",
    ];
    for text in lines {
        let analysis = analyze_line(analyzer(), &ffa, text);
        assert_eq!(analysis.ffa, Some(FfaClass::ResignOrClaim), "{text}");
        assert!(
            analysis.flags.iter().all(|f| !f.report_worthy),
            "{text}: {analysis:#?}"
        );
        assert_eq!(analysis.action, Action::Allow, "{text}");
    }

    // The help page's reading, from the settings text as a deployment would write it.
    let settings =
        CHAT_SETTINGS_TOML.replace("resign_talk = \"allowed\"", "resign_talk = \"prohibited\"");
    let strict = Analyzer::from_sources(LexiconSources::default(), &settings).expect("builds");
    assert_eq!(strict.ffa_policy().resign_talk, ResignTalk::Prohibited);
    for text in lines {
        let analysis = analyze_line(&strict, &ffa, text);
        let flag = analysis
            .flags
            .iter()
            .find(|f| f.category == Category::ResignOrClaim)
            .unwrap_or_else(|| panic!("{text}: {analysis:#?}"));
        assert!(flag.report_worthy, "{text}");
        assert_eq!(flag.severity, Severity::High, "{text}");
        assert_eq!(flag.rule, "ffa:resign_or_claim_prohibited");
        assert_eq!(analysis.action, Action::Block, "{text}");
    }
    // Announcing one's own resignation is not resign talk under either setting; the rules
    // do not apply after the game or in Teams games.
    for analyzer in [analyzer().clone(), strict.clone()] {
        let analysis = analyze_line(&analyzer, &ffa, "i resign, gg");
        assert!(analysis.flags.is_empty(), "{analysis:#?}");
        let over = LineContext {
            in_progress: false,
            ..LineContext::ffa_in_progress()
        };
        assert!(analyze_line(&analyzer, &over, "Resign!").flags.is_empty());
    }
    // The same switch, set in code.
    let strict = analyzer().clone().with_ffa_policy(FfaPolicy {
        resign_talk: ResignTalk::Prohibited,
    });
    assert!(analyze_line(&strict, &ffa, "Resign!")
        .flags
        .iter()
        .any(|f| f.report_worthy));
    // A value that is neither is refused when the analyser is built.
    let bad = CHAT_SETTINGS_TOML.replace("resign_talk = \"allowed\"", "resign_talk = \"never\"");
    assert!(Analyzer::from_sources(LexiconSources::default(), &bad).is_err());
}

/// The phrasings of issue #20, one per rule (the probe files hold many more).
#[test]
fn ffa_phrasings_players_really_write() {
    for (text, class) in [
        ("can i have your rook?", FfaClass::Begging),
        ("leave my knight alone pls", FfaClass::Begging),
        ("the bishop is yours", FfaClass::Offering),
        ("u can have it", FfaClass::Offering),
        ("green your queen is attacked", FfaClass::MoveSuggestion),
        ("red take green's rook", FfaClass::MoveSuggestion),
        ("truce?", FfaClass::Collusion),
        ("peace blue?", FfaClass::Collusion),
        ("im going after red", FfaClass::Intention),
    ] {
        let analysis = line(text);
        assert_eq!(analysis.ffa, Some(class), "{text}: {analysis:#?}");
        assert!(
            analysis.flags.iter().any(|f| f.report_worthy),
            "{text}: {analysis:#?}"
        );
    }
    for (text, class) in [
        ("can i have a rematch?", FfaClass::Neutral),
        ("the game is yours, gg", FfaClass::Neutral),
        ("rematch?", FfaClass::Neutral),
        ("is this teams?", FfaClass::Neutral),
        ("check", FfaClass::CheckAnnouncement),
        ("kill the king", FfaClass::CheckAnnouncement),
        ("yellow move pls", FfaClass::TurnReminder),
    ] {
        let analysis = line(text);
        assert_eq!(analysis.ffa, Some(class), "{text}: {analysis:#?}");
        assert!(analysis.flags.is_empty(), "{text}: {analysis:#?}");
    }
}
