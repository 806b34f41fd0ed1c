//! Building positions: the standard starts, named setups and piece lists, and the castling
//! geometry derived once the pieces stand.

use super::state::{CASTLE_LONG, CASTLE_SHORT};
use super::{Position, SeatStatus, SetupError, MAX_PIECES};
use crate::rules::geometry::{Geometry, Seat, Square, CELLS};
use crate::rules::piece::*;
use crate::rules::ruleset::{MoveRules, RuleSet};

impl Position {
    pub(super) fn empty(geometry: Geometry, rules: MoveRules) -> Position {
        let mut board = [OFF; CELLS];
        for sq in geometry.squares() {
            board[sq as usize] = EMPTY;
        }
        Position {
            board,
            pieces: [[0; MAX_PIECES]; 4],
            piece_count: [0; 4],
            kings: [0; 4],
            turn: Seat::Red,
            status: [SeatStatus::Active; 4],
            castling: [0; 4],
            castle_rooks: [[0; 2]; 4],
            ep: [0; 4],
            halfmove: 0,
            points: [0; 4],
            hash: 0,
            geometry,
            rules,
        }
    }

    /// The standard start position on the rule set's board: `classic` = `4PCo` (every queen on
    /// a dark square: Blue K a8 / Q a7, Green Q n8 / K n7), otherwise `4PC`.
    pub fn standard(rules: &RuleSet, classic: bool) -> Result<Position, SetupError> {
        let g = rules.geometry;
        let arm = g.size() - 2 * g.corner();
        if arm != 8 {
            return Err(SetupError::SetupNeedsEightWideArms);
        }
        use PieceKind::*;
        let queen_king = [Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook];
        let king_queen = [Rook, Knight, Bishop, King, Queen, Bishop, Knight, Rook];
        let mut pos = Position::empty(g, rules.moves);
        let c = g.corner() as i16;
        let last = g.size() as i16 - 1;
        for seat in Seat::ALL {
            if rules.absent_seats & (1 << seat.index()) != 0 {
                pos.status[seat.index()] = SeatStatus::Out;
                continue;
            }
            let order = match (seat, classic) {
                (Seat::Red, _) => queen_king,
                (Seat::Yellow, _) => king_queen,
                (Seat::Blue, false) | (Seat::Green, true) => king_queen,
                (Seat::Blue, true) | (Seat::Green, false) => queen_king,
            };
            for (i, kind) in order.iter().enumerate() {
                let along = c + i as i16;
                let (back, pawn) = match seat {
                    Seat::Red => ((along, 0), (along, 1)),
                    Seat::Yellow => ((along, last), (along, last - 1)),
                    Seat::Blue => ((0, along), (1, along)),
                    Seat::Green => ((last, along), (last - 1, along)),
                };
                pos.put(Geometry::cell(back.0, back.1), Piece::new(seat, *kind))?;
                pos.put(Geometry::cell(pawn.0, pawn.1), Piece::new(seat, Pawn))?;
            }
            pos.castling[seat.index()] = CASTLE_SHORT | CASTLE_LONG;
        }
        pos.finish_setup();
        Ok(pos)
    }

    /// A position from a setup name (`4PC`, `4PCo`, any case) or a full FEN4 text; surrounding
    /// whitespace is ignored. Empty text is an error: a blank `--fen4` or `StartFen4` is more
    /// likely a mistake than a request for the standard start.
    pub fn from_setup(setup: &str, rules: &RuleSet) -> Result<Position, SetupError> {
        match setup.trim() {
            "" => Err(SetupError::EmptySetup),
            name if name.eq_ignore_ascii_case("4PC") => {
                Position::named_start(rules, "4PC", Geometry::FOUR_PLAYER, false)
            }
            name if name.eq_ignore_ascii_case("4PCo") => {
                Position::named_start(rules, "4PCo", Geometry::FOUR_PLAYER, true)
            }
            name if name.eq_ignore_ascii_case("Quatro") => {
                Position::named_start(rules, "Quatro", Geometry::QUATRO, false)
            }
            text => {
                let record = crate::rules::fen4::parse(text)
                    .map_err(|e| SetupError::UnknownSetup(format!("{text}: {e}")))?;
                Position::from_fen4(&record, rules)
            }
        }
    }

    /// A named start, refused on a board it was not made for.
    fn named_start(
        rules: &RuleSet,
        name: &str,
        board: Geometry,
        classic: bool,
    ) -> Result<Position, SetupError> {
        if rules.geometry != board {
            return Err(SetupError::SetupForOtherBoard {
                setup: name.to_string(),
                setup_squares: board.square_count(),
                rules_squares: rules.geometry.square_count(),
            });
        }
        Position::standard(rules, classic)
    }

    /// A position from a piece list (`(seat, kind, "e4")`), for tests and custom setups: no
    /// castling rights, `out` seats already eliminated (their pieces dead).
    pub fn from_pieces(
        rules: &RuleSet,
        turn: Seat,
        pieces: &[(Seat, PieceKind, &str)],
        out: &[Seat],
    ) -> Result<Position, SetupError> {
        let mut pos = Position::empty(rules.geometry, rules.moves);
        for &(seat, kind, name) in pieces {
            let sq =
                rules
                    .geometry
                    .parse_square(name)
                    .ok_or_else(|| SetupError::PieceOffBoard {
                        square: name.to_string(),
                    })?;
            let dead = out.contains(&seat);
            pos.put(sq, Piece { seat, kind, dead })?;
        }
        for &seat in out {
            pos.status[seat.index()] = SeatStatus::Out;
        }
        pos.turn = turn;
        pos.finish_setup();
        Ok(pos)
    }

    pub(super) fn put(&mut self, sq: Square, piece: Piece) -> Result<(), SetupError> {
        let seat = piece.seat.index();
        if self.piece_count[seat] as usize >= MAX_PIECES {
            return Err(SetupError::TooManyPieces { seat: piece.seat });
        }
        if piece.kind == PieceKind::King {
            if self.kings[seat] != 0 {
                return Err(SetupError::TwoKings {
                    seat: piece.seat,
                    first: Geometry::name(self.kings[seat]),
                    second: Geometry::name(sq),
                });
            }
            self.kings[seat] = sq;
        }
        self.board[sq as usize] = piece.code();
        self.pieces[seat][self.piece_count[seat] as usize] = sq;
        self.piece_count[seat] += 1;
        Ok(())
    }

    /// Derive castling geometry from where each king stands and compute the hash.
    pub(super) fn finish_setup(&mut self) {
        for seat in Seat::ALL {
            let s = seat.index();
            let (a, b, along) = self.geometry.back_rank_ends(seat);
            let king = self.kings[s];
            let on_line = king != 0 && {
                let (kf, kr) = Geometry::file_rank(king);
                let (af, ar) = Geometry::file_rank(a);
                let (bf, br) = Geometry::file_rank(b);
                if along == 1 {
                    kr == ar && kf > af && kf < bf
                } else {
                    kf == af && kr > ar && kr < br
                }
            };
            if on_line {
                let to_a = (king as i16 - a as i16).abs();
                let to_b = (b as i16 - king as i16).abs();
                self.castle_rooks[s] = if to_a < to_b { [a, b] } else { [b, a] };
            } else {
                self.castle_rooks[s] = [0, 0];
                self.castling[s] = 0;
            }
        }
        self.hash = self.compute_hash();
    }
}
