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
//! - Comments `{ }` and variations `( )` are skipped; comments do not nest (PGN rule).

mod parser;
#[cfg(test)]
mod tests;

use std::fmt;

/// A square as written in move text: file `a`..`n` -> 0..=13, rank `1`..`14` -> 0..=13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareText {
    pub file: u8,
    pub rank: u8,
}

/// How a player left the game, as marked in PGN4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    /// `R`
    Resigned,
    /// `T`
    TimedOut,
    /// `S`
    Stalemated,
    /// `#` standing alone in the player's own slot (Teams: mate takes effect on that turn)
    Mated,
}

/// Everything after the destination square (and promotion) of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Suffix {
    /// Number of `+` signs (kings checked).
    pub checks: u8,
    /// Number of `#` signs (kings mated).
    pub mates: u8,
    /// `S` after the move: it stalemated someone (`#S`).
    pub stalemate: bool,
    /// Trailing `R`/`T` on a dead-king-walking automatic king move (`Kk1-k2R`).
    pub auto_move: Option<Marker>,
}

/// One move as written: `Nj1-i3`, `d3xBc4`, `k11xl10`, `g8-g7=D+`, `Kk1-k2R`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// Letter of the moving piece; `'P'` when no letter is written (pawn).
    /// Any letter the file uses is kept (fairy pieces too); `replay` decides what it supports.
    pub piece: char,
    pub from: SquareText,
    pub to: SquareText,
    /// An `x` was written.
    pub capture: bool,
    /// The letter written after `x`, if any (pawn-takes-pawn names none).
    pub captured: Option<char>,
    /// Letter after `=`.
    pub promotion: Option<char>,
    pub suffix: Suffix,
}

/// What one ply slot holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlyAction {
    Move(MoveText),
    /// `O-O` (short) or `O-O-O` (long); the mover is whoever is to move.
    Castle {
        long: bool,
        suffix: Suffix,
    },
    /// A slot holding only an elimination marker (`R`, `T`, `S`, `#`).
    Eliminated(Marker),
}

/// One ply of the main line, with where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlyText {
    /// The round number written before it (`12.`).
    pub round: u32,
    /// 0-based position within its round as written.
    pub index_in_round: u8,
    /// 1-based line and column of the token's first character.
    pub line: u32,
    pub column: u32,
    /// The token exactly as written (without comments).
    pub raw: String,
    pub action: PlyAction,
}

/// One `[Name "value"]` pair; values may span lines (a full FEN4 in `StartFen4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    pub line: u32,
}

/// A parsed PGN4 document: tags in file order and the main line (comments and variations skipped).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pgn4 {
    pub tags: Vec<Tag>,
    pub plies: Vec<PlyText>,
}

/// A syntax error: where, what was expected, what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub expected: String,
    pub found: String,
}

impl SquareText {
    /// Reads a square written `a1`..`n14` (the whole text).
    pub fn parse(text: &str) -> Result<SquareText, ParseError> {
        parser::parse_square_text(text)
    }
}

impl fmt::Display for SquareText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from_u32(u32::from('a') + u32::from(self.file)).unwrap_or('?');
        write!(f, "{file}{}", u32::from(self.rank) + 1)
    }
}

impl Marker {
    /// The letter (or `#`) that writes this marker.
    pub fn symbol(self) -> char {
        match self {
            Marker::Resigned => 'R',
            Marker::TimedOut => 'T',
            Marker::Stalemated => 'S',
            Marker::Mated => '#',
        }
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.checks {
            f.write_str("+")?;
        }
        for _ in 0..self.mates {
            f.write_str("#")?;
        }
        if self.stalemate {
            f.write_str("S")?;
        }
        if let Some(marker) = self.auto_move {
            write!(f, "{marker}")?;
        }
        Ok(())
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.piece != 'P' {
            write!(f, "{}", self.piece)?;
        }
        write!(f, "{}", self.from)?;
        if self.capture {
            f.write_str("x")?;
            if let Some(captured) = self.captured {
                write!(f, "{captured}")?;
            }
        } else {
            f.write_str("-")?;
        }
        write!(f, "{}", self.to)?;
        if let Some(promotion) = self.promotion {
            write!(f, "={promotion}")?;
        }
        write!(f, "{}", self.suffix)
    }
}

impl fmt::Display for PlyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlyAction::Move(text) => write!(f, "{text}"),
            PlyAction::Castle { long, suffix } => {
                let castle = if *long { "O-O-O" } else { "O-O" };
                write!(f, "{castle}{suffix}")
            }
            PlyAction::Eliminated(marker) => write!(f, "{marker}"),
        }
    }
}

impl PlyAction {
    /// Reads one ply token (`Nj1-i3`, `O-O-O+`, `Kk1-k2R`, `T`); errors are on line 1.
    pub fn parse(token: &str) -> Result<PlyAction, ParseError> {
        parser::parse_single_ply(token)
    }
}

impl Pgn4 {
    /// The value of the first tag with this exact name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|tag| tag.name == name)
            .map(|tag| tag.value.as_str())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: expected {}, found {}",
            self.line, self.column, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseError {}

/// Reads a PGN4 document: tags (optional) then the main line.
pub fn parse(text: &str) -> Result<Pgn4, ParseError> {
    parser::parse_document(text)
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
