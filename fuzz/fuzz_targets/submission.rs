//! A game server's submission body as `POST /api/v1/games` reads it: JSON into the submission,
//! then validation, replay, chat review and conduct outcomes. Refusals are fine; panics and
//! hangs are not.
#![no_main]

use arbiter::archive::{self, AbortPreset, ChatReview, Submission};
use arbiter::chat::Analyzer;
use arbiter::conduct::ConductPolicy;
use arbiter::config::Settings;
use arbiter::moderation::ModerationPolicy;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

struct Fixture {
    analyzer: Arc<Analyzer>,
    settings: Settings,
    policy: ModerationPolicy,
    conduct: Arc<ConductPolicy>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| Fixture {
        analyzer: Analyzer::shared().expect("the embedded lexicon builds"),
        settings: Settings::defaults().expect("the built-in settings read"),
        policy: ModerationPolicy::default(),
        conduct: Arc::new(ConductPolicy::default()),
    })
}

fuzz_target!(
    // Build the analyser and settings once before the first input (not timed as a unit).
    init: {
        fixture();
    },
    |data: &[u8]| {
    let Ok(submission) = serde_json::from_slice::<Submission>(data) else {
        return;
    };
    let fixture = fixture();
    let review = ChatReview {
        analyzer: &fixture.analyzer,
        settings: &fixture.settings.chat,
        policy: &fixture.policy,
    };
    let preset = if data.len() % 2 == 0 { AbortPreset::Seed000 } else { AbortPreset::Seed001 };
    let _ = archive::prepare_with(
        submission,
        preset,
        Some(&review),
        Some(&fixture.conduct),
        None,
    );
}
);
