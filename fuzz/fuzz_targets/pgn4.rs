//! The PGN4 reader and the replay built on it: no panic, no hang on any bytes; a document that
//! reads also reads back the same (tags, rounds, slots, moves) from its canonical export
//! (which writes each move in its canonical form, so the raw token text may differ).
#![no_main]

use arbiter::rules::pgn4::{self, Pgn4};
use arbiter::rules::replay;
use libfuzzer_sys::fuzz_target;

/// What the export must keep: everything but where each item was found in the text.
fn content(document: &Pgn4) -> (Vec<(&str, &str)>, Vec<(u32, u8, &pgn4::PlyAction)>) {
    let tags = document
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    let plies = document
        .plies
        .iter()
        .map(|p| (p.round, p.index_in_round, &p.action))
        .collect();
    (tags, plies)
}

fuzz_target!(|data: &[u8]| {
    let Ok(document) = pgn4::parse_bytes(data) else {
        return;
    };
    let exported = pgn4::write(&document);
    let again = pgn4::parse(&exported).expect("the canonical export reads back");
    assert_eq!(
        content(&again),
        content(&document),
        "the export changes the document"
    );
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = replay::replay(text);
    }
});
