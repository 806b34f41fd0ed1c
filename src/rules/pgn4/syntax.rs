//! PGN4 as written: tags, move text and the errors of reading them, and how each is written
//! back.

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
