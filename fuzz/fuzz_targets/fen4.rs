//! The FEN4 reader: no panic on any text; a record that reads is written and read back equal.
#![no_main]

use arbiter::rules::fen4;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let Ok(record) = fen4::parse(text) else {
        return;
    };
    let written = fen4::write(&record);
    let again = fen4::parse(&written).expect("a written record reads back");
    assert_eq!(again, record, "writing changes the record");
});
