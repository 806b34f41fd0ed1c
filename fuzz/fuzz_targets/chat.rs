//! The chat analyser: any text, alone or as a game's log, gives flags whose spans lie on
//! character boundaries inside the line (the API quotes them), without panic or hang.
#![no_main]

use arbiter::chat::{self, Analyzer, Channel, ChatLine, GameChatContext, LineContext, Variant};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn analyzer() -> &'static Arc<Analyzer> {
    static ANALYZER: OnceLock<Arc<Analyzer>> = OnceLock::new();
    ANALYZER.get_or_init(|| Analyzer::shared().expect("the embedded lexicon builds"))
}

fn check_spans(text: &str, flags: &[chat::Flag]) {
    for flag in flags {
        let span = flag.span;
        assert!(
            span.start <= span.end && span.end <= text.len(),
            "span {span:?} outside {text:?}"
        );
        assert!(
            text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
            "span {span:?} splits a character of {text:?}"
        );
    }
}

fuzz_target!(
    // Build the analyser once before the first input, so its start-up is not timed as a unit.
    init: {
        analyzer();
    },
    |data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let variant = [Variant::Ffa, Variant::Teams, Variant::Solo, Variant::Other][usize::from(mode & 3)];
    let channel = [Channel::Game, Channel::Team, Channel::Spectator, Channel::Game][usize::from((mode >> 2) & 3)];
    let context = LineContext {
        variant,
        channel,
        in_progress: mode & 16 == 0,
        diplomacy: mode & 32 != 0,
        position: None,
    };
    let analysis = chat::analyze_line(analyzer(), &context, text);
    check_spans(text, &analysis.flags);

    // The same text as a game's log, one line per text line, so the spam tracker and the
    // repeated-abuse rule see it too.
    let lines: Vec<ChatLine> = text
        .lines()
        .take(64)
        .enumerate()
        .map(|(i, line)| ChatLine {
            ply: Some(i as u32),
            time_ms: i as u64 * 1500,
            sender: format!("seat{}", i % 4),
            channel,
            text: line.to_string(),
        })
        .collect();
    let game = GameChatContext {
        variant,
        diplomacy: context.diplomacy,
        ended_at_ply: Some(48),
        ended_at_ms: None,
    };
    let log = chat::analyze_game_chat(analyzer(), &game, &lines, &[]);
    for (line, analysed) in lines.iter().zip(&log.lines) {
        check_spans(&line.text, &analysed.analysis.flags);
    }
}
);
