//! What a chat line says about the board: moves, squares, pieces, seats, checks
//! and "mate in N", with spans in the original line, plus a tense judgement.
//! A later position check reads these against the position at the line's ply.

use serde::{Deserialize, Serialize};

use super::normalize::{NormalizedLine, Token};
use super::types::Span;
use crate::rules::geometry::Seat;
use crate::rules::piece::PieceKind;

/// A piece's letter as a player writes it, either case: `K Q R B N P`, and `D` for the FFA
/// 1-point queen.
fn piece_from_letter(letter: u8) -> Option<PieceKind> {
    PieceKind::from_letter(letter.to_ascii_uppercase() as char)
}

/// A square as a player writes it (`e4`): files a..n (0..13), ranks 1..14. The board's own
/// squares are `rules::geometry::Square`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SquareName {
    pub file: u8,
    pub rank: u8,
}

impl std::fmt::Display for SquareName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

/// What kind of board reference a mention is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MentionKind {
    Move {
        piece: Option<PieceKind>,
        from: Option<SquareName>,
        to: SquareName,
        capture: bool,
        captured: Option<PieceKind>,
        promotion: Option<PieceKind>,
    },
    Castle {
        long: bool,
    },
    Square {
        square: SquareName,
    },
    Piece {
        piece: PieceKind,
        owner: Option<Seat>,
        square: Option<SquareName>,
    },
    Seat {
        seat: Seat,
    },
    Check {
        target: Option<Seat>,
    },
    MateIn {
        moves: u8,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mention {
    #[serde(flatten)]
    pub kind: MentionKind,
    pub span: Span,
}

/// Whether a line talks about what happened or about what could happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Tense {
    /// "was", "should have", "missed", "better was", "earlier" ...
    Past,
    #[default]
    Present,
}

/// Parses a square like `e7` or `n14` (files a-n, ranks 1-14).
pub fn parse_square(text: &[u8]) -> Option<(SquareName, usize)> {
    let file = *text.first()?;
    if !(b'a'..=b'n').contains(&file) {
        return None;
    }
    let d1 = *text.get(1)?;
    if !d1.is_ascii_digit() || d1 == b'0' {
        return None;
    }
    let mut rank = d1 - b'0';
    let mut used = 2;
    if let Some(&d2) = text.get(2) {
        if d2.is_ascii_digit() {
            let two = rank * 10 + (d2 - b'0');
            if rank == 1 && two <= 14 {
                rank = two;
                used = 3;
            } else {
                return None;
            }
        }
    }
    Some((
        SquareName {
            file: file - b'a',
            rank,
        },
        used,
    ))
}

/// Parses one word as a move in long or short algebraic notation
/// (`Qe7`, `nxf5`, `Nj1-i3`, `d3xBc4`, `e2-e4`, `h7=D+`); the whole word must parse.
pub fn parse_move(word: &str) -> Option<MentionKind> {
    let bytes = without_check_marks(word.as_bytes())?;
    if let Some(castle) = parse_castle(bytes) {
        return Some(castle);
    }
    let (piece, mut i) = leading_piece(bytes)?;
    let mut capture = false;
    let mut captured = None;
    if piece.is_some() && bytes.get(i) == Some(&b'x') {
        // Short capture without a from-square: "Qxe7", "nxBf5".
        capture = true;
        (captured, i) = captured_piece(bytes, i + 1)?;
    }
    let (first_square, used) = parse_square(&bytes[i..])?;
    i += used;
    let mut from = None;
    let mut to = first_square;
    let separator = bytes.get(i).copied();
    // After a short capture nothing else may follow but promotion.
    if !capture && matches!(separator, Some(b'-' | b'x')) {
        // Long form: "Nj1-i3", "d3xBc4".
        capture = separator == Some(b'x');
        (captured, i) = captured_piece(bytes, i + 1)?;
        let (second, used) = parse_square(&bytes[i..])?;
        i += used;
        from = Some(first_square);
        to = second;
    }
    // Without a piece letter only the long form is a move: a bare square is a square.
    if piece.is_none() && from.is_none() {
        return None;
    }
    let (promotion, end) = promotion_suffix(bytes, i)?;
    if end != bytes.len() {
        return None;
    }
    Some(MentionKind::Move {
        piece,
        from,
        to,
        capture,
        captured,
        promotion,
    })
}

/// The word without the check and annotation marks at its end (`+`, `#`, `!`, `?`); None
/// when nothing else is left.
fn without_check_marks(bytes: &[u8]) -> Option<&[u8]> {
    let core_end = bytes
        .iter()
        .rposition(|b| !matches!(b, b'+' | b'#' | b'!' | b'?'))
        .map(|i| i + 1)?;
    Some(&bytes[..core_end])
}

fn parse_castle(bytes: &[u8]) -> Option<MentionKind> {
    match bytes {
        b"O-O" | b"0-0" | b"o-o" => Some(MentionKind::Castle { long: false }),
        b"O-O-O" | b"0-0-0" | b"o-o-o" => Some(MentionKind::Castle { long: true }),
        _ => None,
    }
}

/// The piece letter a move starts with, if any, and where the rest begins; None for an
/// upper-case letter that names no piece.
fn leading_piece(bytes: &[u8]) -> Option<(Option<PieceKind>, usize)> {
    match bytes.first() {
        Some(&first) if first.is_ascii_uppercase() => Some((Some(piece_from_letter(first)?), 1)),
        // Lower-case piece letters only before a capture ("nxf5").
        Some(&first)
            if matches!(first, b'n' | b'q' | b'k' | b'r') && bytes.get(1) == Some(&b'x') =>
        {
            Some((piece_from_letter(first), 1))
        }
        _ => Some((None, 0)),
    }
}

/// The captured piece's letter at `i` ("xBc4"), if any, and where the square begins.
fn captured_piece(bytes: &[u8], i: usize) -> Option<(Option<PieceKind>, usize)> {
    match bytes.get(i) {
        Some(&c) if c.is_ascii_uppercase() => Some((Some(piece_from_letter(c)?), i + 1)),
        _ => Some((None, i)),
    }
}

/// A promotion at `i` ("=D"), if any, and where the move ends.
fn promotion_suffix(bytes: &[u8], i: usize) -> Option<(Option<PieceKind>, usize)> {
    if bytes.get(i) != Some(&b'=') {
        return Some((None, i));
    }
    let piece = piece_from_letter(*bytes.get(i + 1)?)?;
    Some((Some(piece), i + 2))
}

/// Words of the matching form that name pieces and seats.
#[derive(Clone, Debug)]
pub(crate) struct BoardWords {
    pieces: Vec<(String, PieceKind)>,
    seats: Vec<(String, Seat)>,
    check: Vec<String>,
    mate: String,
    on: Vec<String>,
}

impl BoardWords {
    pub fn new() -> BoardWords {
        let mut line = NormalizedLine::new();
        let mut form = |w: &str| {
            line.normalize(w);
            line.trimmed().to_string()
        };
        let mut pieces = Vec::new();
        for (word, kind) in [
            ("king", PieceKind::King),
            ("queen", PieceKind::Queen),
            ("rook", PieceKind::Rook),
            ("bishop", PieceKind::Bishop),
            ("knight", PieceKind::Knight),
            ("pawn", PieceKind::Pawn),
        ] {
            pieces.push((form(word), kind));
            pieces.push((form(&format!("{word}s")), kind));
        }
        let mut seats = Vec::new();
        for (word, seat) in [
            ("red", Seat::Red),
            ("blue", Seat::Blue),
            ("yellow", Seat::Yellow),
            ("green", Seat::Green),
        ] {
            seats.push((form(word), seat));
            seats.push((form(&format!("{word}s")), seat));
        }
        BoardWords {
            pieces,
            seats,
            check: vec![form("check"), form("checkmate"), form("mate")],
            mate: form("mate"),
            on: vec![form("on"), form("at"), form("to")],
        }
    }

    fn piece(&self, word: &str) -> Option<PieceKind> {
        self.pieces.iter().find(|(w, _)| w == word).map(|(_, k)| *k)
    }

    fn seat(&self, word: &str) -> Option<Seat> {
        self.seats.iter().find(|(w, _)| w == word).map(|(_, s)| *s)
    }
}

/// Extracts the board references of a line (already normalised into `line`).
/// `token_cues` may mark which tokens can name a piece, seat or check (`word_mask`);
/// other tokens are skipped. Pass an empty slice to look at every token.
pub(crate) fn extract(
    words: &BoardWords,
    original: &str,
    line: &NormalizedLine,
    token_cues: &[u64],
    word_mask: u64,
    out: &mut Vec<Mention>,
) {
    out.clear();
    // Notation: only where the line has digits or castling.
    if line.stats.digits > 0 || original.contains("O-O") || original.contains("0-0") {
        extract_notation(original, out);
    }
    // Words: pieces (with owner and square), seats, checks, "mate in N".
    for (index, token) in line.tokens.iter().enumerate() {
        if token_cues
            .get(index)
            .is_some_and(|bits| bits & word_mask == 0)
        {
            continue;
        }
        let word = line.token_text(token);
        if let Some(piece) = words.piece(word) {
            out.push(piece_mention(words, original, line, index, piece));
        } else if let Some(seat) = words.seat(word) {
            let (s, e) = original_of(line, token);
            out.push(Mention {
                kind: MentionKind::Seat { seat },
                span: Span::new(s, e),
            });
        }
        if words.check.iter().any(|w| w == word) {
            out.push(check_mention(words, original, line, index));
        }
    }
}

/// The original byte range of a token.
#[inline]
fn original_of(line: &NormalizedLine, token: &Token) -> (usize, usize) {
    line.original_span(token.start as usize, token.end as usize)
}

/// Moves and squares in notation: every word of the original line that parses as one.
fn extract_notation(original: &str, out: &mut Vec<Mention>) {
    let mut start = None;
    for (i, c) in original
        .char_indices()
        .chain(std::iter::once((original.len(), ' ')))
    {
        let part_of_word = c.is_ascii_alphanumeric() || matches!(c, '-' | '=' | '+' | '#');
        match (part_of_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let word = &original[s..i];
                if let Some(kind) = parse_move(word) {
                    out.push(Mention {
                        kind,
                        span: Span::new(s, i),
                    });
                } else if let Some((square, used)) = parse_square(word.as_bytes()) {
                    if used == word.len() {
                        out.push(Mention {
                            kind: MentionKind::Square { square },
                            span: Span::new(s, i),
                        });
                    }
                }
                start = None;
            }
            _ => {}
        }
    }
}

/// The piece word at token `index`: "red's knight" (the seat right before the piece owns
/// it), "the knight on f4".
#[inline]
fn piece_mention(
    words: &BoardWords,
    original: &str,
    line: &NormalizedLine,
    index: usize,
    piece: PieceKind,
) -> Mention {
    let tokens = &line.tokens;
    let (s, e) = original_of(line, &tokens[index]);
    let owner = index
        .checked_sub(1)
        .and_then(|p| words.seat(line.token_text(&tokens[p])));
    let square = square_after(words, original, line, index);
    let start = if owner.is_some() {
        original_of(line, &tokens[index - 1]).0
    } else {
        s
    };
    Mention {
        kind: MentionKind::Piece {
            piece,
            owner,
            square,
        },
        span: Span::new(start, e),
    }
}

/// The check word at token `index`: "mate in 2", or a check with the seat after it as its
/// target ("check red").
#[inline]
fn check_mention(
    words: &BoardWords,
    original: &str,
    line: &NormalizedLine,
    index: usize,
) -> Mention {
    let tokens = &line.tokens;
    let word = line.token_text(&tokens[index]);
    let (s, e) = original_of(line, &tokens[index]);
    let next = tokens.get(index + 1).map(|t| line.token_text(t));
    if word == words.mate && next == Some("in") {
        if let Some(moves) = mate_in_moves(original, line, index) {
            let end = original_of(line, &tokens[index + 2]).1;
            return Mention {
                kind: MentionKind::MateIn { moves },
                span: Span::new(s, end),
            };
        }
    }
    let target = next.and_then(|n| words.seat(n));
    let end = if target.is_some() {
        original_of(line, &tokens[index + 1]).1
    } else {
        e
    };
    Mention {
        kind: MentionKind::Check { target },
        span: Span::new(s, end),
    }
}

/// The N of "mate in N" after the mate word at token `index`, as written (not zero).
#[inline]
fn mate_in_moves(original: &str, line: &NormalizedLine, index: usize) -> Option<u8> {
    let (a, b) = original_of(line, line.tokens.get(index + 2)?);
    original.get(a..b)?.parse::<u8>().ok().filter(|&n| n > 0)
}

/// "the knight on f4": a square right after "on"/"at"/"to" following the piece word.
fn square_after(
    words: &BoardWords,
    original: &str,
    line: &NormalizedLine,
    index: usize,
) -> Option<SquareName> {
    let tokens = &line.tokens;
    let preposition = tokens.get(index + 1)?;
    if !words.on.iter().any(|w| w == line.token_text(preposition)) {
        return None;
    }
    let square_token = tokens.get(index + 2)?;
    let (a, b) = line.original_span(square_token.start as usize, square_token.end as usize);
    let text = original.get(a..b)?.to_ascii_lowercase();
    match parse_square(text.as_bytes()) {
        Some((square, used)) if used == text.len() => Some(square),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mentions(text: &str) -> Vec<Mention> {
        let words = BoardWords::new();
        let mut line = NormalizedLine::new();
        line.normalize(text);
        let mut out = Vec::new();
        extract(&words, text, &line, &[], 0, &mut out);
        out
    }

    #[test]
    fn squares_and_moves() {
        assert_eq!(
            parse_square(b"n14"),
            Some((SquareName { file: 13, rank: 14 }, 3))
        );
        assert_eq!(parse_square(b"o4"), None);
        assert_eq!(parse_square(b"a15"), None);
        assert!(matches!(
            parse_move("Qe7"),
            Some(MentionKind::Move {
                piece: Some(PieceKind::Queen),
                ..
            })
        ));
        assert!(matches!(
            parse_move("nxf5"),
            Some(MentionKind::Move {
                piece: Some(PieceKind::Knight),
                capture: true,
                ..
            })
        ));
        match parse_move("Nj1-i3") {
            Some(MentionKind::Move { from, to, .. }) => {
                assert_eq!(from.map(|s| s.to_string()).as_deref(), Some("j1"));
                assert_eq!(to.to_string(), "i3");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_move("d3xBc4"),
            Some(MentionKind::Move {
                captured: Some(PieceKind::Bishop),
                ..
            })
        ));
        assert!(matches!(
            parse_move("h7-h8=D+"),
            Some(MentionKind::Move {
                promotion: Some(PieceKind::OnePointQueen),
                ..
            })
        ));
        assert!(parse_move("e7").is_none());
        assert!(parse_move("lol").is_none());
        assert!(parse_move("Hello").is_none());
    }

    #[test]
    fn words_with_spans() {
        let text = "the knight on f4 and red's queen is hanging";
        let m = mentions(text);
        assert!(m.iter().any(|m| matches!(
            m.kind,
            MentionKind::Piece {
                piece: PieceKind::Knight,
                square: Some(SquareName { file: 5, rank: 4 }),
                ..
            }
        )));
        let queen = m
            .iter()
            .find(|m| {
                matches!(
                    m.kind,
                    MentionKind::Piece {
                        piece: PieceKind::Queen,
                        ..
                    }
                )
            })
            .unwrap();
        assert_eq!(queen.span.slice(text), "red's queen");
        let text = "check red";
        let m = mentions(text);
        assert_eq!(
            m.iter()
                .find(|m| matches!(m.kind, MentionKind::Check { .. }))
                .unwrap()
                .kind,
            MentionKind::Check {
                target: Some(Seat::Red)
            }
        );
        let text = "mate in 2";
        let m = mentions(text);
        assert_eq!(m[0].kind, MentionKind::MateIn { moves: 2 });
        assert_eq!(m[0].span.slice(text), "mate in 2");
        let text = "Ne10 was better";
        let m = mentions(text);
        assert_eq!(m[0].span.slice(text), "Ne10");
    }
}
