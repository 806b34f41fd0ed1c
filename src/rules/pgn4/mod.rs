//! PGN4 as the site exports it: syntax only (tags and move text).
//!
//! This layer knows nothing about positions; `replay` gives the moves meaning.
//!
//! Representation choices:
//! - An elimination marker alone in a slot (`R`, `T`, `S`, `#`) is `PlyAction::Eliminated`.
//!   Signs written after such a marker (`R#` occurs once in the real set) stay in `PlyText::raw`
//!   but are not part of the action.
//! - `#S` on a move is `Suffix { mates: 1, stalemate: true, .. }`; the trailing `R`/`T` of a
//!   dead-king-walking automatic move (`Kk1-k2R`, `O-OT`) is `Suffix::auto_move`.
//! - A game result token at the end of the move text (`1-0`, `0-1`, `1/2-1/2`, `*`) is accepted
//!   and dropped: the `Result` tag carries the outcome.
//! - Comments `{ }` and variations `( )` are skipped; comments do not nest (PGN rule). The
//!   clock comments of older exports (`{ date=... clock=178312 }`) are comments like any.
//! - Line breaks mean nothing: a whole game on one line (tags, even written `][`, then the
//!   move text) reads as the same game on many lines. One text is one game; a file of several
//!   (one per line in older exports) is split with [`split_games`]. What older spellings are
//!   read, and which are refused, is in `docs/pgn4.md`.

mod parser;
mod syntax;
#[cfg(test)]
mod tests;

pub use syntax::{Marker, MoveText, ParseError, Pgn4, PlyAction, PlyText, SquareText, Suffix, Tag};

impl SquareText {
    /// Reads a square written `a1`..`n14` (the whole text).
    pub fn parse(text: &str) -> Result<SquareText, ParseError> {
        parser::parse_square_text(text)
    }
}

impl PlyAction {
    /// Reads one ply token (`Nj1-i3`, `O-O-O+`, `Kk1-k2R`, `T`); errors are on line 1.
    pub fn parse(token: &str) -> Result<PlyAction, ParseError> {
        parser::parse_single_ply(token)
    }
}

/// Reads a PGN4 document: tags (optional) then the main line.
pub fn parse(text: &str) -> Result<Pgn4, ParseError> {
    parser::parse_document(text)
}

/// The games of a text holding one or several (older exports: one game per line), each as its
/// text and the line it starts on; read them with [`parse`].
pub fn split_games(text: &str) -> Result<Vec<(u32, &str)>, ParseError> {
    parser::split_documents(text)
}

/// Like [`parse`], for raw bytes: invalid UTF-8 is an error at the first bad byte.
pub fn parse_bytes(bytes: &[u8]) -> Result<Pgn4, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(error) => {
            let valid = &bytes[..error.valid_up_to()];
            // The valid prefix is UTF-8, so this cannot fail; the fallback only avoids a panic.
            let valid = std::str::from_utf8(valid).unwrap_or("");
            let line_start = valid.rfind('\n').map_or(0, |at| at + 1);
            let line = valid.bytes().filter(|&b| b == b'\n').count() + 1;
            let column = valid[line_start..].chars().count() + 1;
            let bad = bytes.get(error.valid_up_to()).copied().unwrap_or(0);
            Err(ParseError {
                line: u32::try_from(line).unwrap_or(u32::MAX),
                column: u32::try_from(column).unwrap_or(u32::MAX),
                expected: "UTF-8 text".to_string(),
                found: format!("invalid byte 0x{bad:02X}"),
            })
        }
    }
}

/// Writes the canonical export: one `[Name "value"]` per line, a blank line, then one line per
/// round `N. ply .. ply .. ply .. ply`. A new line starts when the round number changes, when
/// `index_in_round` does not grow, or after four plies, so the output always reads back with the
/// same rounds and slots.
pub fn write(pgn: &Pgn4) -> String {
    let mut out = String::with_capacity(64 * pgn.tags.len() + 12 * pgn.plies.len() + 16);
    for tag in &pgn.tags {
        out.push('[');
        out.push_str(&tag.name);
        out.push_str(" \"");
        for c in tag.value.chars() {
            if matches!(c, '"' | '\\') {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
    if !pgn.tags.is_empty() {
        out.push('\n');
    }
    let mut current_round: Option<u32> = None;
    let mut plies_on_line = 0usize;
    let mut previous_index: Option<u8> = None;
    for ply in &pgn.plies {
        // A round restarts when its number changes, when it is full, or when the slot index
        // does not grow (the same number written twice in a row).
        let restarts = previous_index.is_none_or(|previous| ply.index_in_round <= previous);
        if current_round != Some(ply.round) || plies_on_line == 4 || restarts {
            if current_round.is_some() {
                out.push('\n');
            }
            out.push_str(&ply.round.to_string());
            out.push_str(". ");
            current_round = Some(ply.round);
            plies_on_line = 0;
        } else {
            out.push_str(" .. ");
        }
        out.push_str(&ply.action.to_string());
        plies_on_line += 1;
        previous_index = Some(ply.index_in_round);
    }
    if current_round.is_some() {
        out.push('\n');
    }
    out
}
