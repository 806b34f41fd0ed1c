//! FEN4 as the site writes it: syntax only.
//!
//! `Turn-dead-castleK-castleQ-points-halfmove[-{extras}]-rows`; four-value fields in R,B,Y,G
//! order; rows from the top rank down, cells comma-separated. `position` turns a record into a
//! board for a given geometry.

/// One cell of a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// A run of this many empty squares (as written, e.g. `3`).
    Empty(u8),
    /// `X`: a square that does not exist (custom boards).
    Wall,
    /// `rP`, `bK`, `dyQ` (dead), fairy letters kept as written.
    Piece { seat: char, kind: char, dead: bool },
}

/// A parsed FEN4 record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen4Record {
    /// `R`, `B`, `Y` or `G`.
    pub turn: char,
    /// R,B,Y,G order throughout.
    pub dead: [bool; 4],
    pub castle_king: [bool; 4],
    pub castle_queen: [bool; 4],
    pub points: [i32; 4],
    pub halfmove: u32,
    /// `{'key':value, ...}` entries, value text kept raw (e.g. `enPassant`, `pawnsBaseRank`).
    pub extras: Vec<(String, String)>,
    /// Rows from the top of the board down; each row left to right.
    pub rows: Vec<Vec<Cell>>,
}
