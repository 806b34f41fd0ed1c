//! Board geometry as a parameter: a square board of `size` files and ranks with
//! `corner` x `corner` squares missing in each corner (4PC: 14/3 = 160 squares, Quatro:
//! 12/2 = 128 squares).
//!
//! Squares live in a padded mailbox: 16 columns per row (one sentinel column on each side of
//! the widest board, so a step of up to two files never wraps onto a real square) and two
//! sentinel rows above and below (knight jumps). Every off-board cell, corners included, holds
//! the `OFF` marker, so move generation needs no bounds arithmetic.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Index of a cell in the padded mailbox.
pub type Square = u16;

/// Cells per mailbox row.
pub const STRIDE: i16 = 16;
/// Sentinel rows below and above the board.
const PAD_ROWS: i16 = 2;
/// Largest supported board side.
pub const MAX_SIZE: u8 = 14;
/// Mailbox size for the largest board.
pub const CELLS: usize = (STRIDE as usize) * (MAX_SIZE as usize + 2 * PAD_ROWS as usize);

/// One of the four players, in turn order (clockwise from Red).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Red = 0,
    Blue = 1,
    Yellow = 2,
    Green = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::Red, Seat::Blue, Seat::Yellow, Seat::Green];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Seat {
        Seat::ALL[i & 3]
    }

    /// The seat across the board (the partner in Teams).
    pub fn partner(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    /// Letter used in FEN4 and tags: `R`, `B`, `Y`, `G`.
    pub fn letter(self) -> char {
        ['R', 'B', 'Y', 'G'][self.index()]
    }

    pub fn from_letter(c: char) -> Option<Seat> {
        match c.to_ascii_uppercase() {
            'R' => Some(Seat::Red),
            'B' => Some(Seat::Blue),
            'Y' => Some(Seat::Yellow),
            'G' => Some(Seat::Green),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        ["Red", "Blue", "Yellow", "Green"][self.index()]
    }

    /// Mailbox step of this seat's pawns: Red up, Blue right, Yellow down, Green left.
    pub fn forward(self) -> i16 {
        [STRIDE, 1, -STRIDE, -1][self.index()]
    }

    /// A step perpendicular to `forward` (pawn captures go forward plus or minus this).
    pub fn sideways(self) -> i16 {
        [1, STRIDE, 1, STRIDE][self.index()]
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The shape of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    size: u8,
    corner: u8,
}

impl Geometry {
    /// The site's 4PC board: 14x14 minus 3x3 corners (160 squares).
    pub const FOUR_PLAYER: Geometry = Geometry {
        size: 14,
        corner: 3,
    };
    /// Quatro Chess (docs/rules.md, "Quatro Chess"): 12x12 minus 2x2 corners (128 squares).
    pub const QUATRO: Geometry = Geometry {
        size: 12,
        corner: 2,
    };

    /// A board of `size` x `size` with `corner` x `corner` squares cut from each corner.
    pub fn new(size: u8, corner: u8) -> Option<Geometry> {
        if !(4..=MAX_SIZE).contains(&size) || 2 * corner + 2 > size {
            return None;
        }
        Some(Geometry { size, corner })
    }

    pub fn size(self) -> u8 {
        self.size
    }

    pub fn corner(self) -> u8 {
        self.corner
    }

    /// Number of real squares.
    pub fn square_count(self) -> usize {
        let s = self.size as usize;
        let c = self.corner as usize;
        s * s - 4 * c * c
    }

    /// Whether (file, rank), both 0-based, is a real square.
    pub fn contains(self, file: i16, rank: i16) -> bool {
        let s = self.size as i16;
        let c = self.corner as i16;
        if file < 0 || rank < 0 || file >= s || rank >= s {
            return false;
        }
        let file_in_arm_band = file >= c && file < s - c;
        let rank_in_arm_band = rank >= c && rank < s - c;
        file_in_arm_band || rank_in_arm_band
    }

    /// The mailbox cell of (file, rank), if that is a real square.
    pub fn square(self, file: i16, rank: i16) -> Option<Square> {
        if self.contains(file, rank) {
            Some(Self::cell(file, rank))
        } else {
            None
        }
    }

    /// Mailbox cell of (file, rank) without checking that it exists.
    pub(crate) fn cell(file: i16, rank: i16) -> Square {
        ((rank + PAD_ROWS) * STRIDE + file + 1) as Square
    }

    /// (file, rank), 0-based, of a mailbox cell.
    pub fn file_rank(sq: Square) -> (i16, i16) {
        let sq = sq as i16;
        (sq % STRIDE - 1, sq / STRIDE - PAD_ROWS)
    }

    /// Whether a mailbox cell is a real square of this board.
    pub fn is_square(self, sq: Square) -> bool {
        if sq as usize >= CELLS {
            return false;
        }
        let (f, r) = Self::file_rank(sq);
        self.contains(f, r)
    }

    /// All real squares, rank by rank from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let s = self.size as i16;
        (0..s).flat_map(move |r| (0..s).filter_map(move |f| self.square(f, r)))
    }

    /// Algebraic name, `a1`..`n14`.
    pub fn name(sq: Square) -> String {
        let (f, r) = Self::file_rank(sq);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// Parse `a1`..`n14` for this board.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        let (&first, rest) = bytes.split_first()?;
        if !first.is_ascii_lowercase() || rest.is_empty() || rest.len() > 2 {
            return None;
        }
        if !rest.iter().all(u8::is_ascii_digit) || rest[0] == b'0' {
            return None;
        }
        let rank: i16 = std::str::from_utf8(rest).ok()?.parse().ok()?;
        self.square((first - b'a') as i16, rank - 1)
    }

    /// Distance of a square from `seat`'s own edge, 0-based (a pawn's home rank is 1).
    pub fn relative_rank(self, seat: Seat, sq: Square) -> i16 {
        let (f, r) = Self::file_rank(sq);
        let last = self.size as i16 - 1;
        match seat {
            Seat::Red => r,
            Seat::Blue => f,
            Seat::Yellow => last - r,
            Seat::Green => last - f,
        }
    }

    /// The two ends of `seat`'s back rank inside its arm (the rook corners of a standard setup),
    /// and the step from the first end toward the second.
    pub fn back_rank_ends(self, seat: Seat) -> (Square, Square, i16) {
        let c = self.corner as i16;
        let hi = self.size as i16 - 1 - c;
        let last = self.size as i16 - 1;
        match seat {
            Seat::Red => (Self::cell(c, 0), Self::cell(hi, 0), 1),
            Seat::Blue => (Self::cell(0, c), Self::cell(0, hi), STRIDE),
            Seat::Yellow => (Self::cell(c, last), Self::cell(hi, last), 1),
            Seat::Green => (Self::cell(last, c), Self::cell(last, hi), STRIDE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_counts() {
        assert_eq!(Geometry::FOUR_PLAYER.squares().count(), 160);
        assert_eq!(Geometry::FOUR_PLAYER.square_count(), 160);
        assert_eq!(Geometry::QUATRO.squares().count(), 128);
        assert_eq!(Geometry::QUATRO.square_count(), 128);
    }

    #[test]
    fn names_round_trip() {
        let g = Geometry::FOUR_PLAYER;
        for sq in g.squares() {
            assert_eq!(g.parse_square(&Geometry::name(sq)), Some(sq));
        }
        assert_eq!(g.parse_square("a1"), None, "corner");
        assert_eq!(g.parse_square("d1").map(Geometry::name), Some("d1".into()));
        assert_eq!(g.parse_square("n14"), None);
        assert!(g.parse_square("n11").is_some());
        assert_eq!(g.parse_square("o5"), None);
        assert_eq!(g.parse_square("a15"), None);
        assert_eq!(g.parse_square("a05"), None);
        assert_eq!(g.parse_square(""), None);
    }

    #[test]
    fn mailbox_padding_stops_wraps() {
        let g = Geometry::FOUR_PLAYER;
        for sq in g.squares() {
            let (f, r) = Geometry::file_rank(sq);
            for (df, dr) in [(2, 1), (-2, 1), (2, -1), (-2, -1), (1, 2), (-1, -2)] {
                let target = (sq as i16 + df + dr * STRIDE) as Square;
                assert_eq!(g.is_square(target), g.contains(f + df, r + dr));
            }
        }
    }
}
