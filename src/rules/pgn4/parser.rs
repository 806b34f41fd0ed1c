//! The PGN4 reader: one forward pass over the bytes, no recursion, so no input can exhaust the
//! stack, and every loop advances the cursor, so every input terminates.

use super::syntax::{
    Marker, MoveText, ParseError, Pgn4, PlyAction, PlyText, SquareText, Suffix, Tag,
};

/// Reads a whole document: tags, then the main line.
pub(super) fn parse_document(text: &str) -> Result<Pgn4, ParseError> {
    let mut reader = Reader::new(text);
    reader.skip_byte_order_mark();
    let mut pgn = Pgn4::default();
    reader.read_tags(&mut pgn.tags)?;
    reader.read_movetext(&mut pgn.plies, Games::One)?;
    Ok(pgn)
}

/// Splits a text holding several games (the site's older exports wrote one game per line, and
/// a file may hold many): each game's text and the line it starts on. A new game starts where
/// a tag follows move text (or a result token); every game is read as [`parse_document`] reads
/// one, so a syntax error anywhere fails the whole text, at its line and column.
pub(super) fn split_documents(text: &str) -> Result<Vec<(u32, &str)>, ParseError> {
    let mut reader = Reader::new(text);
    reader.skip_byte_order_mark();
    let mut games = Vec::new();
    loop {
        reader.skip_whitespace();
        if reader.peek().is_none() {
            return Ok(games);
        }
        let (start, line) = (reader.pos, reader.line);
        let mut tags = Vec::new();
        let mut plies = Vec::new();
        reader.read_tags(&mut tags)?;
        reader.read_movetext(&mut plies, Games::Several)?;
        games.push((line, reader.slice(start, reader.pos).trim_end()));
    }
}

/// Whether the text read holds one game, or may hold several one after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Games {
    One,
    Several,
}

/// Reads a single ply token such as `Nj1-i3`, `O-O+` or `T`.
pub(super) fn parse_single_ply(token: &str) -> Result<PlyAction, ParseError> {
    let error_at = |offset: usize, expected: &str, found: String| ParseError {
        line: 1,
        column: column_after(1, token.get(..offset).unwrap_or("")),
        expected: expected.to_string(),
        found,
    };
    if token.is_empty() {
        return Err(error_at(0, "a move", describe(None)));
    }
    if let Some(offset) = token.bytes().position(is_token_end) {
        return Err(error_at(
            offset,
            "the end of the move",
            describe(token.get(offset..).and_then(|rest| rest.chars().next())),
        ));
    }
    parse_ply_token(token).map_err(|error| {
        let found = error
            .found
            .unwrap_or_else(|| describe(token.get(error.offset..).and_then(|s| s.chars().next())));
        error_at(error.offset, error.expected, found)
    })
}

/// Reads one square (`a1`..`n14`) that must make up the whole text.
pub(super) fn parse_square_text(text: &str) -> Result<SquareText, ParseError> {
    let mut at = 0;
    let result = parse_square(text.as_bytes(), &mut at).and_then(|square| {
        if at == text.len() {
            Ok(square)
        } else {
            Err(TokenError::new(at, "the end of the square"))
        }
    });
    result.map_err(|error| ParseError {
        line: 1,
        column: column_after(1, text.get(..error.offset).unwrap_or("")),
        expected: error.expected.to_string(),
        found: error
            .found
            .unwrap_or_else(|| describe(text.get(error.offset..).and_then(|s| s.chars().next()))),
    })
}

/// How a character (or the end of input) is named in error messages.
pub(super) fn describe(found: Option<char>) -> String {
    match found {
        None => "end of input".to_string(),
        Some('\n') | Some('\r') => "end of line".to_string(),
        Some('\t') => "a tab".to_string(),
        Some(c) => format!("'{c}'"),
    }
}

/// The 1-based column reached after reading `text` from `start_column` on one line.
fn column_after(start_column: u32, text: &str) -> u32 {
    let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
    start_column.saturating_add(chars)
}

/// Bytes that end a move token: whitespace and the brackets of comments and variations.
fn is_token_end(byte: u8) -> bool {
    byte.is_ascii_whitespace() || matches!(byte, b'{' | b'}' | b'(' | b')')
}

/// Piece letters are any letter except the lowercase ASCII ones (files and the `x` of captures);
/// fairy letters such as `δ` count.
fn is_piece_letter(c: char) -> bool {
    c.is_alphabetic() && !c.is_ascii_lowercase()
}

/// Where the reader stands between plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Nothing read yet: a round number must come first.
    Start,
    /// Just after `12.`.
    AfterRoundNumber,
    /// Just after `..`.
    AfterSeparator,
    /// Just after a ply.
    AfterPly,
}

/// The most plies a round can hold: one per seat.
const PLIES_PER_ROUND: u8 = 4;

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// 1-based line of the byte at `pos`.
    line: u32,
    /// 1-based column (in characters) of the character at `pos`.
    column: u32,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos.saturating_add(ahead)).copied()
    }

    fn current_char(&self) -> Option<char> {
        self.text
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
    }

    /// Moves past one byte, keeping line and column (columns count characters, so UTF-8
    /// continuation bytes do not move the column).
    fn bump(&mut self) {
        if let Some(&byte) = self.bytes.get(self.pos) {
            self.pos += 1;
            if byte == b'\n' {
                self.line = self.line.saturating_add(1);
                self.column = 1;
            } else if byte & 0xC0 != 0x80 {
                self.column = self.column.saturating_add(1);
            }
        }
    }

    fn advance_to(&mut self, end: usize) {
        let end = end.min(self.bytes.len());
        while self.pos < end {
            self.bump();
        }
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    fn error_here(&self, expected: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            column: self.column,
            expected: expected.into(),
            found: describe(self.current_char()),
        }
    }

    fn skip_byte_order_mark(&mut self) {
        if self.text.starts_with('\u{FEFF}') {
            // The mark is not part of the text: columns start after it.
            self.pos = '\u{FEFF}'.len_utf8();
        }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(byte) if byte.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// Skips whitespace, `{ comments }` and `( variations )`.
    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(byte) if byte.is_ascii_whitespace() => self.bump(),
                Some(b'{') => self.skip_comment()?,
                Some(b'(') => self.skip_variation()?,
                _ => return Ok(()),
            }
        }
    }

    /// Skips a `{ ... }` comment. As in PGN, comments do not nest: the first `}` closes it.
    fn skip_comment(&mut self) -> Result<(), ParseError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let rest = &self.bytes[self.pos..];
        match rest.iter().position(|&byte| byte == b'}') {
            Some(offset) => {
                self.advance_to(self.pos + offset + 1);
                Ok(())
            }
            None => {
                self.advance_to(self.bytes.len());
                Err(self.error_here(format!(
                    "'}}' to close the comment opened at line {line}, column {column}"
                )))
            }
        }
    }

    /// Skips a `( ... )` variation, nested ones and comments inside included, with a depth
    /// counter instead of recursion.
    fn skip_variation(&mut self) -> Result<(), ParseError> {
        let (line, column) = (self.line, self.column);
        let mut depth: usize = 0;
        loop {
            match self.peek() {
                None => {
                    return Err(self.error_here(format!(
                        "')' to close the variation opened at line {line}, column {column}"
                    )))
                }
                Some(b'(') => {
                    depth += 1;
                    self.bump();
                }
                Some(b')') => {
                    depth -= 1;
                    self.bump();
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'{') => self.skip_comment()?,
                Some(_) => self.bump(),
            }
        }
    }

    fn read_tags(&mut self, tags: &mut Vec<Tag>) -> Result<(), ParseError> {
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b'[') => tags.push(self.read_tag()?),
                None => return Ok(()),
                Some(byte) if byte.is_ascii_digit() || byte == b'*' => return Ok(()),
                Some(byte) if byte.is_ascii_alphabetic() => {
                    // Most likely a tag line that lost its `[`.
                    return Err(self.error_here("'[' to start a tag"));
                }
                Some(_) => {
                    return Err(
                        self.error_here("'[' to start a tag, or a round number such as '1.'")
                    )
                }
            }
        }
    }

    fn read_tag(&mut self) -> Result<Tag, ParseError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        self.skip_whitespace();
        let name_start = self.pos;
        while let Some(byte) = self.peek() {
            if byte.is_ascii_whitespace() || matches!(byte, b'"' | b'[' | b']' | b'{' | b'}') {
                break;
            }
            self.bump();
        }
        if self.pos == name_start {
            return Err(self.error_here("a tag name"));
        }
        let name = self.slice(name_start, self.pos).to_string();
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.error_here(format!("'\"' to start the value of tag {name}")));
        }
        self.bump();
        let mut value = String::new();
        let mut segment_start = self.pos;
        loop {
            match self.peek() {
                None => {
                    return Err(self.error_here(format!(
                        "'\"' to close the value of tag {name} (tag opened at line {line}, column {column})"
                    )))
                }
                Some(b'"') => {
                    value.push_str(self.slice(segment_start, self.pos));
                    self.bump();
                    break;
                }
                Some(b'\\') => match self.peek_at(1) {
                    Some(escaped @ (b'"' | b'\\')) => {
                        value.push_str(self.slice(segment_start, self.pos));
                        value.push(char::from(escaped));
                        self.bump();
                        self.bump();
                        segment_start = self.pos;
                    }
                    // Any other backslash is kept as written.
                    _ => self.bump(),
                },
                Some(b'\r') => {
                    // Carriage returns are dropped: CRLF inside a value reads as LF, so both line
                    // endings give the same value, and a stray CR cannot make the export read back
                    // differently ("a\r\r\n" would become "a\r\n" and then "a\n").
                    value.push_str(self.slice(segment_start, self.pos));
                    self.bump();
                    segment_start = self.pos;
                }
                Some(_) => self.bump(),
            }
        }
        self.skip_whitespace();
        if self.peek() != Some(b']') {
            return Err(self.error_here(format!("']' to close tag {name}")));
        }
        self.bump();
        Ok(Tag { name, value, line })
    }

    /// Length of a game result token (`1-0`, `0-1`, `1/2-1/2`, `*`) at the cursor, if any.
    fn result_token_len(&self) -> Option<usize> {
        let rest = &self.bytes[self.pos..];
        ["1/2-1/2", "1-0", "0-1", "*"]
            .iter()
            .map(|token| token.as_bytes())
            .find(|token| {
                rest.starts_with(token) && rest.get(token.len()).is_none_or(|&b| is_token_end(b))
            })
            .map(|token| token.len())
    }

    /// Reads the main line up to the end of the text or, with `Games::Several`, up to the
    /// tags of the next game.
    fn read_movetext(&mut self, plies: &mut Vec<PlyText>, games: Games) -> Result<(), ParseError> {
        let mut slot = Slot::Start;
        let mut round: u32 = 0;
        let mut index_in_round: u8 = 0;
        loop {
            self.skip_trivia()?;
            let Some(byte) = self.peek() else {
                break;
            };
            if let Some(len) = self.result_token_len() {
                if matches!(slot, Slot::AfterRoundNumber | Slot::AfterSeparator) {
                    return Err(self.error_here("a move"));
                }
                self.advance_to(self.pos + len);
                self.skip_trivia()?;
                return match self.peek() {
                    None => Ok(()),
                    Some(b'[') if games == Games::Several => Ok(()),
                    Some(_) => Err(self.error_here("the end of the game after the result")),
                };
            }
            match byte {
                b'[' if games == Games::Several && slot == Slot::AfterPly => return Ok(()),
                b'[' if slot == Slot::AfterPly => {
                    return Err(self.error_here(
                        "'..' before the next ply, or the next round number \
                         (a second game's tags? one game per text)",
                    ))
                }
                b'0'..=b'9' => {
                    if matches!(slot, Slot::AfterRoundNumber | Slot::AfterSeparator) {
                        return Err(self.error_here("a move"));
                    }
                    round = self.read_round_number()?;
                    index_in_round = 0;
                    slot = Slot::AfterRoundNumber;
                }
                b'.' => {
                    if self.peek_at(1) != Some(b'.') {
                        return Err(self.error_here(expected_in(slot)));
                    }
                    match slot {
                        Slot::Start | Slot::AfterSeparator => {
                            return Err(self.error_here(expected_in(slot)))
                        }
                        // A `..` right after the round number is tolerated (`1. .. b4-c4`).
                        Slot::AfterRoundNumber => {}
                        Slot::AfterPly if index_in_round >= PLIES_PER_ROUND => {
                            return Err(self.error_here(
                                "a round number such as '1.' (a round holds at most four plies)",
                            ))
                        }
                        Slot::AfterPly => {}
                    }
                    self.bump();
                    self.bump();
                    slot = Slot::AfterSeparator;
                }
                b')' | b'}' | b'[' | b']' => return Err(self.error_here(expected_in(slot))),
                _ => {
                    if matches!(slot, Slot::Start | Slot::AfterPly) {
                        return Err(self.error_here(expected_in(slot)));
                    }
                    plies.push(self.read_ply(round, index_in_round)?);
                    index_in_round += 1;
                    slot = Slot::AfterPly;
                }
            }
        }
        if matches!(slot, Slot::AfterRoundNumber | Slot::AfterSeparator) {
            return Err(self.error_here("a move"));
        }
        Ok(())
    }

    /// Reads `12.`.
    fn read_round_number(&mut self) -> Result<u32, ParseError> {
        let (line, column) = (self.line, self.column);
        let start = self.pos;
        let mut number: Option<u32> = Some(0);
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            number = number
                .and_then(|n| n.checked_mul(10))
                .and_then(|n| n.checked_add(u32::from(digit - b'0')));
            self.bump();
        }
        let Some(number) = number else {
            return Err(ParseError {
                line,
                column,
                expected: "a round number below 4294967296".to_string(),
                found: format!("'{}'", self.slice(start, self.pos)),
            });
        };
        if self.peek() != Some(b'.') {
            return Err(self.error_here("'.' after the round number"));
        }
        self.bump();
        Ok(number)
    }

    fn read_ply(&mut self, round: u32, index_in_round: u8) -> Result<PlyText, ParseError> {
        let (line, column) = (self.line, self.column);
        let start = self.pos;
        let end = self.bytes[start..]
            .iter()
            .position(|&byte| is_token_end(byte))
            .map_or(self.bytes.len(), |offset| start + offset);
        let raw = self.slice(start, end);
        match parse_ply_token(raw) {
            Ok(action) => {
                self.advance_to(end);
                Ok(PlyText {
                    round,
                    index_in_round,
                    line,
                    column,
                    raw: raw.to_string(),
                    action,
                })
            }
            Err(error) => {
                let found = error.found.unwrap_or_else(|| {
                    describe(
                        self.text
                            .get(start + error.offset..)
                            .and_then(|rest| rest.chars().next()),
                    )
                });
                Err(ParseError {
                    line,
                    column: column_after(column, raw.get(..error.offset).unwrap_or("")),
                    expected: error.expected.to_string(),
                    found,
                })
            }
        }
    }
}

/// What may come next in a given slot, for error messages.
fn expected_in(slot: Slot) -> &'static str {
    match slot {
        Slot::Start => "a round number such as '1.'",
        Slot::AfterRoundNumber | Slot::AfterSeparator => "a move",
        Slot::AfterPly => "'..' before the next ply, or the next round number",
    }
}

/// A problem inside one token: byte offset into it and what was expected there.
#[derive(Debug)]
struct TokenError {
    offset: usize,
    expected: &'static str,
    /// Set when the character at `offset` alone would not show the problem (`15`).
    found: Option<String>,
}

impl TokenError {
    fn new(offset: usize, expected: &'static str) -> Self {
        TokenError {
            offset,
            expected,
            found: None,
        }
    }
}

fn marker_for(letter: char) -> Option<Marker> {
    match letter {
        'R' => Some(Marker::Resigned),
        'T' => Some(Marker::TimedOut),
        'S' => Some(Marker::Stalemated),
        '#' => Some(Marker::Mated),
        _ => None,
    }
}

/// Parses one ply token; the token holds no whitespace or brackets.
fn parse_ply_token(token: &str) -> Result<PlyAction, TokenError> {
    let bytes = token.as_bytes();
    if let Some(after) = token.strip_prefix("O-O") {
        let (long, mut at) = if after.starts_with("-O") {
            (true, 5)
        } else {
            (false, 3)
        };
        let suffix = parse_suffix(bytes, &mut at)?;
        expect_move_end(bytes, at)?;
        return Ok(PlyAction::Castle { long, suffix });
    }
    let Some(first) = token.chars().next() else {
        return Err(TokenError::new(0, "a move"));
    };
    if let Some(marker) = marker_for(first) {
        let names_square = matches!(bytes.get(1), Some(b'a'..=b'n'));
        if first == '#' || !names_square {
            // A slot holding only a marker. Signs after it (`R#` is seen once) are kept in
            // `raw` but carry nothing the action could hold.
            let mut at = 1;
            while matches!(bytes.get(at), Some(b'+' | b'#')) {
                at += 1;
            }
            if at < bytes.len() {
                return Err(TokenError::new(at, "the end of the elimination marker"));
            }
            return Ok(PlyAction::Eliminated(marker));
        }
    }
    let mut at = 0;
    let piece = if is_piece_letter(first) {
        at += first.len_utf8();
        first
    } else if first.is_ascii_lowercase() && matches!(first, 'a'..='n') {
        'P'
    } else {
        return Err(TokenError::new(
            0,
            "a move (piece letter or square), 'O-O', or an elimination marker R, T, S or #",
        ));
    };
    let from = parse_square(bytes, &mut at)?;
    let capture = match bytes.get(at) {
        Some(b'-') => false,
        Some(b'x') => true,
        _ => return Err(TokenError::new(at, "'-' or 'x' after the origin square")),
    };
    at += 1;
    let captured = if capture {
        read_piece_letter(token, &mut at)
    } else {
        None
    };
    let to = parse_square(bytes, &mut at)?;
    let promotion = if bytes.get(at) == Some(&b'=') {
        at += 1;
        match read_piece_letter(token, &mut at) {
            Some(letter) => Some(letter),
            None => return Err(TokenError::new(at, "a piece letter to promote to")),
        }
    } else {
        None
    };
    let suffix = parse_suffix(bytes, &mut at)?;
    expect_move_end(bytes, at)?;
    Ok(PlyAction::Move(MoveText {
        piece,
        from,
        to,
        capture,
        captured,
        promotion,
        suffix,
    }))
}

fn read_piece_letter(token: &str, at: &mut usize) -> Option<char> {
    let letter = token
        .get(*at..)
        .and_then(|rest| rest.chars().next())
        .filter(|&c| is_piece_letter(c))?;
    *at += letter.len_utf8();
    Some(letter)
}

fn expect_move_end(bytes: &[u8], at: usize) -> Result<(), TokenError> {
    if at < bytes.len() {
        Err(TokenError::new(
            at,
            "a suffix ('+', '#', 'S', 'R' or 'T') or the end of the move",
        ))
    } else {
        Ok(())
    }
}

/// Reads `+`/`#` signs, then an optional `S`, then an optional `R`/`T`.
fn parse_suffix(bytes: &[u8], at: &mut usize) -> Result<Suffix, TokenError> {
    let mut suffix = Suffix::default();
    loop {
        let count = match bytes.get(*at) {
            Some(b'+') => &mut suffix.checks,
            Some(b'#') => &mut suffix.mates,
            _ => break,
        };
        *count = count
            .checked_add(1)
            .ok_or_else(|| TokenError::new(*at, "at most 255 '+' or '#' signs"))?;
        *at += 1;
    }
    if bytes.get(*at) == Some(&b'S') {
        suffix.stalemate = true;
        *at += 1;
    }
    suffix.auto_move = match bytes.get(*at) {
        Some(b'R') => Some(Marker::Resigned),
        Some(b'T') => Some(Marker::TimedOut),
        _ => None,
    };
    if suffix.auto_move.is_some() {
        *at += 1;
    }
    Ok(suffix)
}

/// Reads a square `a1`..`n14` at `at`.
fn parse_square(bytes: &[u8], at: &mut usize) -> Result<SquareText, TokenError> {
    let file = match bytes.get(*at) {
        Some(&letter @ b'a'..=b'n') => letter - b'a',
        _ => return Err(TokenError::new(*at, "a file letter a..n")),
    };
    *at += 1;
    let rank_start = *at;
    let first_digit = match bytes.get(*at) {
        Some(&digit @ b'1'..=b'9') => digit - b'0',
        _ => return Err(TokenError::new(*at, "a rank 1..14")),
    };
    *at += 1;
    let rank = match bytes.get(*at) {
        Some(&digit @ b'0'..=b'4') if first_digit == 1 => {
            *at += 1;
            10 + (digit - b'0')
        }
        Some(b'0'..=b'9') => {
            let digits_end = bytes[rank_start..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(bytes.len(), |offset| rank_start + offset);
            let digits = String::from_utf8_lossy(&bytes[rank_start..digits_end]);
            return Err(TokenError {
                offset: rank_start,
                expected: "a rank 1..14",
                found: Some(format!("'{digits}'")),
            });
        }
        _ => first_digit,
    };
    Ok(SquareText {
        file,
        rank: rank - 1,
    })
}
