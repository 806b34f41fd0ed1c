//! FEN4 as the site writes it: syntax only.
//!
//! `Turn-dead-castleK-castleQ-points-halfmove[-{extras}]-rows`; four-value fields in R,B,Y,G
//! order; rows from the top rank down, cells comma-separated. `position` turns a record into a
//! board for a given geometry.
//!
//! Reading tolerates whitespace and line breaks between any two items (the site wraps long FEN4
//! values in tags). Walls are read from `x` or `X` and written `x`, as in the site's standard
//! start positions. Extras keep their value text raw (`('','','','')`); only the quoting of the
//! key is removed. `4PC` and `4PCo` are setup names, not FEN4: see [`START_4PC`] and
//! [`START_4PCO`].

use std::fmt;

#[cfg(test)]
mod tests;

/// The modern 4PC start position (`StartFen4 "4PC"`): Red K h1/Q g1, Blue K a7/Q a8,
/// Yellow K g14/Q h14, Green Q n7/K n8; Red to move, all castling available, no points.
pub const START_4PC: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-\
x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/\
x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/\
x,x,x,8,x,x,x/\
bR,bP,10,gP,gR/\
bN,bP,10,gP,gN/\
bB,bP,10,gP,gB/\
bQ,bP,10,gP,gK/\
bK,bP,10,gP,gQ/\
bB,bP,10,gP,gB/\
bN,bP,10,gP,gN/\
bR,bP,10,gP,gR/\
x,x,x,8,x,x,x/\
x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/\
x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x";

/// The classic 4PCo start position (`StartFen4 "4PCo"`): as [`START_4PC`] but Blue K a8/Q a7
/// and Green Q n8/K n7, so every queen stands on a dark square.
pub const START_4PCO: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-\
x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/\
x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/\
x,x,x,8,x,x,x/\
bR,bP,10,gP,gR/\
bN,bP,10,gP,gN/\
bB,bP,10,gP,gB/\
bK,bP,10,gP,gQ/\
bQ,bP,10,gP,gK/\
bB,bP,10,gP,gB/\
bN,bP,10,gP,gN/\
bR,bP,10,gP,gR/\
x,x,x,8,x,x,x/\
x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/\
x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x";

/// The FEN4 text of a named standard setup (`4PC` or `4PCo`), if `name` is one.
pub fn standard_start(name: &str) -> Option<&'static str> {
    match name {
        "4PC" => Some(START_4PC),
        "4PCo" => Some(START_4PCO),
        _ => None,
    }
}

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

impl Cell {
    /// The `seat` of a dead piece written without its former owner (`dP` rather than `drP`).
    pub const NO_SEAT: char = '-';
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

/// A FEN4 syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fen4Error {
    /// 0-based offset, in characters, from the start of the text.
    pub offset: usize,
    pub expected: String,
    pub found: String,
}

impl fmt::Display for Fen4Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FEN4 character {}: expected {}, found {}",
            self.offset, self.expected, self.found
        )
    }
}

impl std::error::Error for Fen4Error {}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Empty(run) => write!(f, "{run}"),
            Cell::Wall => f.write_str("x"),
            Cell::Piece { seat, kind, dead } => {
                if *dead {
                    f.write_str("d")?;
                }
                if !(*dead && *seat == Cell::NO_SEAT) {
                    write!(f, "{seat}")?;
                }
                write!(f, "{kind}")
            }
        }
    }
}

impl fmt::Display for Fen4Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write(self))
    }
}

/// Reads a FEN4 record.
pub fn parse(text: &str) -> Result<Fen4Record, Fen4Error> {
    Reader::new(text).read_record()
}

/// Writes a record on one line, the way the site writes it.
pub fn write(record: &Fen4Record) -> String {
    fn push_flags(out: &mut String, flags: &[bool; 4]) {
        for (seat, flag) in flags.iter().enumerate() {
            if seat > 0 {
                out.push(',');
            }
            out.push(if *flag { '1' } else { '0' });
        }
        out.push('-');
    }
    let mut out = String::with_capacity(256);
    out.push(record.turn);
    out.push('-');
    push_flags(&mut out, &record.dead);
    push_flags(&mut out, &record.castle_king);
    push_flags(&mut out, &record.castle_queen);
    let points: Vec<String> = record.points.iter().map(i32::to_string).collect();
    out.push_str(&points.join(","));
    out.push('-');
    out.push_str(&record.halfmove.to_string());
    out.push('-');
    if !record.extras.is_empty() {
        out.push('{');
        for (index, (key, value)) in record.extras.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            out.push('\'');
            out.push_str(key);
            out.push_str("':");
            out.push_str(value);
        }
        out.push_str("}-");
    }
    for (index, row) in record.rows.iter().enumerate() {
        if index > 0 {
            out.push('/');
        }
        for (cell_index, cell) in row.iter().enumerate() {
            if cell_index > 0 {
                out.push(',');
            }
            out.push_str(&cell.to_string());
        }
    }
    out
}

/// Seat letters in R,B,Y,G order, as the turn field writes them.
const TURN_LETTERS: [char; 4] = ['R', 'B', 'Y', 'G'];

/// Seat letters as piece cells write them.
fn is_seat_letter(c: char) -> bool {
    matches!(c, 'r' | 'b' | 'y' | 'g')
}

/// Piece kinds are letters other than lowercase ASCII (those are seats, `d` and `x`); fairy
/// letters such as `δ` count.
fn is_kind_letter(c: char) -> bool {
    c.is_alphabetic() && !c.is_ascii_lowercase()
}

struct Reader {
    chars: Vec<char>,
    pos: usize,
}

impl Reader {
    fn new(text: &str) -> Self {
        Reader {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error_here(&self, expected: impl Into<String>) -> Fen4Error {
        Fen4Error {
            offset: self.pos,
            expected: expected.into(),
            found: match self.peek() {
                None => "end of input".to_string(),
                Some('\n') | Some('\r') => "end of line".to_string(),
                Some(c) => format!("'{c}'"),
            },
        }
    }

    /// Skips whitespace, then requires `wanted`.
    fn require(&mut self, wanted: char, expected: &str) -> Result<(), Fen4Error> {
        self.skip_whitespace();
        if self.peek() == Some(wanted) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error_here(expected))
        }
    }

    fn read_record(&mut self) -> Result<Fen4Record, Fen4Error> {
        self.skip_whitespace();
        let turn = match self.peek() {
            Some(letter) if TURN_LETTERS.contains(&letter) => letter,
            _ if self.chars[self.pos..].starts_with(&['4', 'P', 'C']) => {
                return Err(self.error_here(
                    "the side to move R, B, Y or G (4PC and 4PCo are setup names, not FEN4)",
                ))
            }
            _ => return Err(self.error_here("the side to move R, B, Y or G")),
        };
        self.pos += 1;
        self.require('-', "'-' after the side to move")?;
        let dead = self.read_flags("eliminated flags")?;
        self.require('-', "'-' after the eliminated flags")?;
        let castle_king = self.read_flags("king-side castling flags")?;
        self.require('-', "'-' after the king-side castling flags")?;
        let castle_queen = self.read_flags("queen-side castling flags")?;
        self.require('-', "'-' after the queen-side castling flags")?;
        let points = self.read_points()?;
        self.require('-', "'-' after the points")?;
        self.skip_whitespace();
        let halfmove = self.read_number::<u32>("the halfmove clock")?;
        self.require('-', "'-' after the halfmove clock")?;
        self.skip_whitespace();
        let extras = if self.peek() == Some('{') {
            let extras = self.read_extras()?;
            self.require('-', "'-' after the extras")?;
            extras
        } else {
            Vec::new()
        };
        let rows = self.read_rows()?;
        self.skip_whitespace();
        if self.peek().is_some() {
            return Err(self.error_here("',' or '/' between cells, or the end of the FEN4"));
        }
        Ok(Fen4Record {
            turn,
            dead,
            castle_king,
            castle_queen,
            points,
            halfmove,
            extras,
            rows,
        })
    }

    /// Four `0`/`1` values in R,B,Y,G order.
    fn read_flags(&mut self, what: &str) -> Result<[bool; 4], Fen4Error> {
        let mut flags = [false; 4];
        for (seat, flag) in flags.iter_mut().enumerate() {
            if seat > 0 {
                self.require(',', &format!("',' between the four {what}"))?;
            }
            self.skip_whitespace();
            *flag = match self.peek() {
                Some('0') => false,
                Some('1') => true,
                _ => return Err(self.error_here(format!("0 or 1 in the {what}"))),
            };
            self.pos += 1;
        }
        Ok(flags)
    }

    fn read_points(&mut self) -> Result<[i32; 4], Fen4Error> {
        let mut points = [0; 4];
        for (seat, value) in points.iter_mut().enumerate() {
            if seat > 0 {
                self.require(',', "',' between the four point counts")?;
            }
            self.skip_whitespace();
            let negative =
                self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit());
            if negative {
                self.pos += 1;
            }
            let magnitude = self.read_number::<i32>("a point count")?;
            *value = if negative { -magnitude } else { magnitude };
        }
        Ok(points)
    }

    /// Reads decimal digits into `T`, failing on none or on overflow.
    fn read_number<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, Fen4Error> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error_here(what));
        }
        let digits: String = self.chars[start..self.pos].iter().collect();
        digits.parse::<T>().map_err(|_| Fen4Error {
            offset: start,
            expected: format!("{what} small enough to store"),
            found: format!("'{digits}'"),
        })
    }

    /// `{'key':value,...}`; values are kept raw up to a `,` or `}` outside brackets and quotes.
    fn read_extras(&mut self) -> Result<Vec<(String, String)>, Fen4Error> {
        let open = self.pos;
        self.pos += 1;
        let mut extras = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some('}') {
            self.pos += 1;
            return Ok(extras);
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some('\'') {
                return Err(self.error_here("a quoted key such as 'enPassant' in the extras"));
            }
            self.pos += 1;
            let key_start = self.pos;
            while self.peek().is_some_and(|c| c != '\'') {
                self.pos += 1;
            }
            if self.peek().is_none() {
                return Err(self.error_here("\"'\" to close the key"));
            }
            let key: String = self.chars[key_start..self.pos].iter().collect();
            self.pos += 1;
            self.require(':', "':' after the key")?;
            self.skip_whitespace();
            let value_start = self.pos;
            let mut depth: usize = 0;
            let mut quote: Option<char> = None;
            loop {
                let Some(c) = self.peek() else {
                    return Err(Fen4Error {
                        offset: self.pos,
                        expected: format!("'}}' to close the extras opened at character {open}"),
                        found: "end of input".to_string(),
                    });
                };
                match (quote, c) {
                    (Some(open_quote), _) if c == open_quote => quote = None,
                    (Some(_), _) => {}
                    (None, '\'' | '"') => quote = Some(c),
                    (None, ',' | '}') if depth == 0 => break,
                    (None, '(' | '[' | '{') => depth += 1,
                    (None, ')' | ']' | '}') => match depth.checked_sub(1) {
                        Some(outer) => depth = outer,
                        None => return Err(self.error_here("a value without unmatched brackets")),
                    },
                    (None, _) => {}
                }
                self.pos += 1;
            }
            let value: String = self.chars[value_start..self.pos].iter().collect();
            let value = value.trim_end().to_string();
            if value.is_empty() {
                return Err(self.error_here(format!("a value for '{key}'")));
            }
            extras.push((key, value));
            let separator = self.peek();
            self.pos += 1;
            if separator == Some('}') {
                return Ok(extras);
            }
        }
    }

    fn read_rows(&mut self) -> Result<Vec<Vec<Cell>>, Fen4Error> {
        let mut rows = Vec::new();
        let mut row = Vec::new();
        loop {
            self.skip_whitespace();
            row.push(self.read_cell()?);
            self.skip_whitespace();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('/') => {
                    self.pos += 1;
                    rows.push(std::mem::take(&mut row));
                }
                _ => {
                    rows.push(row);
                    return Ok(rows);
                }
            }
        }
    }

    fn read_cell(&mut self) -> Result<Cell, Fen4Error> {
        const EXPECTED_CELL: &str =
            "a cell: a run of empty squares, 'x', or a piece such as 'rP' or 'dyQ'";
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                let run = self.read_number::<u8>("a run of empty squares")?;
                if run == 0 {
                    return Err(Fen4Error {
                        offset: start,
                        expected: "a run of 1 or more empty squares".to_string(),
                        found: "'0'".to_string(),
                    });
                }
                Ok(Cell::Empty(run))
            }
            Some('x' | 'X') => {
                self.pos += 1;
                Ok(Cell::Wall)
            }
            Some('d') => {
                self.pos += 1;
                let seat = match self.peek() {
                    Some(seat) if is_seat_letter(seat) => {
                        self.pos += 1;
                        seat
                    }
                    _ => Cell::NO_SEAT,
                };
                let kind = self.read_kind()?;
                Ok(Cell::Piece {
                    seat,
                    kind,
                    dead: true,
                })
            }
            Some(seat) if is_seat_letter(seat) => {
                self.pos += 1;
                let kind = self.read_kind()?;
                Ok(Cell::Piece {
                    seat,
                    kind,
                    dead: false,
                })
            }
            _ => Err(self.error_here(EXPECTED_CELL)),
        }
    }

    fn read_kind(&mut self) -> Result<char, Fen4Error> {
        match self.peek() {
            Some(kind) if is_kind_letter(kind) => {
                self.pos += 1;
                Ok(kind)
            }
            _ => Err(self.error_here("a piece letter such as P, N, B, R, Q, K or D")),
        }
    }
}
