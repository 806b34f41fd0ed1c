//! The board as an SVG picture, drawn from the rules core's position: the 4PC board (14x14
//! without its 3x3 corners) or the Quatro board (12x12 without 2x2 corners), Red at the
//! bottom, each piece a disc in its seat's colour with its letter (grey once its player is out),
//! and optionally a move marked with an arrow (a chat line's suggestion, the last move played).
//!
//! Colours are presentation attributes, not `style`, so the picture shows under a
//! Content-Security-Policy that allows no inline styles.

use std::fmt::Write;

use crate::rules::geometry::{Geometry, Seat, Square};
use crate::rules::position::Position;

/// Side of one square, in SVG user units.
const CELL: i32 = 32;
/// Room for the file letters and rank numbers.
const MARGIN: i32 = 18;

const LIGHT: &str = "#e8e4d8";
const DARK: &str = "#b9b3a3";
const DEAD: &str = "#8c8c8c";
const MARK: &str = "#1b6ef3";

fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::Red => "#bf3b43",
        Seat::Blue => "#4185bf",
        Seat::Yellow => "#b8901c",
        Seat::Green => "#4e9161",
    }
}

/// What to mark on the board besides the pieces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardMarks {
    /// A move from one square to another, drawn as an arrow.
    pub arrow: Option<(Square, Square)>,
}

/// The picture's top-left corner of a square, in user units.
fn corner_of(geometry: Geometry, sq: Square) -> (i32, i32) {
    let (file, rank) = Geometry::file_rank(sq);
    let top = i32::from(geometry.size()) - 1 - i32::from(rank);
    (MARGIN + i32::from(file) * CELL, top * CELL)
}

fn centre_of(geometry: Geometry, sq: Square) -> (i32, i32) {
    let (x, y) = corner_of(geometry, sq);
    (x + CELL / 2, y + CELL / 2)
}

/// `text` safe inside an SVG (XML) text node or attribute.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The position as a standalone `<svg>` element titled `title` (read out by screen readers).
pub fn board_svg(position: &Position, marks: &BoardMarks, title: &str) -> String {
    let geometry = position.geometry();
    let side = i32::from(geometry.size()) * CELL;
    let mut svg = String::with_capacity(16 * 1024);
    open_svg(&mut svg, side + MARGIN, side + MARGIN, title);
    draw_squares(&mut svg, geometry);
    draw_coordinates(&mut svg, geometry, side);
    draw_pieces(&mut svg, position);
    if let Some((from, to)) = marks.arrow {
        if geometry.is_square(from) && geometry.is_square(to) {
            draw_arrow(&mut svg, geometry, from, to);
        }
    }
    svg.push_str("</svg>");
    svg
}

// Writing to a String cannot fail: the helpers below ignore `write!`'s result.

/// The `<svg>` start tag with its title, and the arrowhead marker the arrow uses.
fn open_svg(svg: &mut String, width: i32, height: i32, title: &str) {
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" role=\"img\" \
         viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\">\
         <title>{}</title>",
        escaped(title)
    );
    let _ = write!(
        svg,
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" \
         markerWidth=\"4\" markerHeight=\"4\" orient=\"auto-start-reverse\">\
         <path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{MARK}\"/></marker></defs>"
    );
}

/// Every square of the board, light and dark, titled with its name.
fn draw_squares(svg: &mut String, geometry: Geometry) {
    for sq in geometry.squares() {
        let (file, rank) = Geometry::file_rank(sq);
        let (x, y) = corner_of(geometry, sq);
        let fill = if (file + rank) % 2 == 0 { DARK } else { LIGHT };
        let _ = write!(
            svg,
            "<rect class=\"square\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" \
             fill=\"{fill}\"><title>{}</title></rect>",
            Geometry::name(sq)
        );
    }
}

/// File letters below the board and rank numbers to its left (`side` is the board's width).
fn draw_coordinates(svg: &mut String, geometry: Geometry, side: i32) {
    let size = i16::from(geometry.size());
    for i in 0..size {
        let offset = i32::from(i) * CELL + CELL / 2;
        let letter = char::from(b'a' + u8::try_from(i).unwrap_or(0));
        let _ = write!(
            svg,
            "<text class=\"coordinate\" x=\"{}\" y=\"{}\" font-size=\"11\" \
             text-anchor=\"middle\" fill=\"#555\">{letter}</text>",
            MARGIN + offset,
            side + MARGIN - 5
        );
        let _ = write!(
            svg,
            "<text class=\"coordinate\" x=\"{}\" y=\"{}\" font-size=\"11\" \
             text-anchor=\"middle\" fill=\"#555\">{}</text>",
            MARGIN / 2,
            side - offset + 4,
            i + 1
        );
    }
}

/// Each piece as a disc in its seat's colour (grey once out) with its letter.
fn draw_pieces(svg: &mut String, position: &Position) {
    let geometry = position.geometry();
    for sq in geometry.squares() {
        let Some(piece) = position.piece_at(sq) else {
            continue;
        };
        let (cx, cy) = centre_of(geometry, sq);
        let fill = if piece.dead {
            DEAD
        } else {
            seat_colour(piece.seat)
        };
        let state = if piece.dead { " (out)" } else { "" };
        let _ = write!(
            svg,
            "<g class=\"piece\"><title>{} {:?} on {}{state}</title>\
             <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\" stroke=\"#222\" \
             stroke-width=\"1\"/><text x=\"{cx}\" y=\"{}\" font-size=\"15\" \
             font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">{}</text></g>",
            piece.seat.name(),
            piece.kind,
            Geometry::name(sq),
            CELL / 2 - 3,
            cy + 5,
            piece.kind.letter()
        );
    }
}

/// An arrow from the centre of `from` to the centre of `to`.
fn draw_arrow(svg: &mut String, geometry: Geometry, from: Square, to: Square) {
    let (x1, y1) = centre_of(geometry, from);
    let (x2, y2) = centre_of(geometry, to);
    let _ = write!(
        svg,
        "<line class=\"arrow\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" \
         stroke=\"{MARK}\" stroke-width=\"5\" stroke-opacity=\"0.85\" \
         marker-end=\"url(#arrowhead)\"><title>{} to {}</title></line>",
        Geometry::name(from),
        Geometry::name(to)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ruleset::RuleSet;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    #[test]
    fn the_four_player_start_has_160_squares_and_64_pieces() {
        let rules = RuleSet::ffa();
        let position = Position::standard(&rules, false).expect("start");
        let svg = board_svg(&position, &BoardMarks::default(), "Start <FFA>");
        assert_eq!(count(&svg, "class=\"square\""), 160);
        assert_eq!(count(&svg, "class=\"piece\""), 64);
        assert_eq!(count(&svg, "class=\"arrow\""), 0);
        assert!(svg.contains("<title>Start &lt;FFA&gt;</title>"));
        // Red's king sits on h1 at the bottom; the corners are not drawn.
        assert!(svg.contains("<title>Red King on h1</title>"));
        assert!(!svg.contains("<title>a1</title>"));
        assert!(svg.contains("<title>d1</title>"));
        assert!(!svg.contains("style="), "no inline styles under the CSP");
    }

    #[test]
    fn quatro_draws_its_own_board() {
        let rules = RuleSet::quatro();
        let position = Position::standard(&rules, false).expect("start");
        let svg = board_svg(&position, &BoardMarks::default(), "Quatro");
        assert_eq!(count(&svg, "class=\"square\""), 128);
        assert!(svg.contains("viewBox=\"0 0 402 402\""));
    }

    #[test]
    fn a_marked_move_is_an_arrow_between_square_centres() {
        let rules = RuleSet::ffa();
        let position = Position::standard(&rules, false).expect("start");
        let geometry = position.geometry();
        let from = geometry.parse_square("h2").expect("h2");
        let to = geometry.parse_square("h4").expect("h4");
        let svg = board_svg(
            &position,
            &BoardMarks {
                arrow: Some((from, to)),
            },
            "suggestion",
        );
        assert_eq!(count(&svg, "class=\"arrow\""), 1);
        // h is the eighth file; rank 2 is the 13th row from the top of 14.
        let x = MARGIN + 7 * CELL + CELL / 2;
        assert!(svg.contains(&format!("x1=\"{x}\" y1=\"{}\"", 12 * CELL + CELL / 2)));
        assert!(svg.contains(&format!("x2=\"{x}\" y2=\"{}\"", 10 * CELL + CELL / 2)));
        assert!(svg.contains("<title>h2 to h4</title>"));
    }
}
