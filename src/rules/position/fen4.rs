//! Conversion between positions and FEN4 records (the text format itself lives in
//! `rules::fen4`).

use super::state::{CASTLE_LONG, CASTLE_SHORT};
use super::{Position, SeatStatus, SetupError};
use crate::rules::fen4::{Cell, Fen4Record};
use crate::rules::geometry::{Geometry, Seat};
use crate::rules::piece::*;
use crate::rules::ruleset::RuleSet;

impl Position {
    /// Build a position from a FEN4 record on the rule set's board. Fairy pieces and walls on
    /// real squares are precise errors. Extras understood: `enPassant` (one square per seat,
    /// R,B,Y,G) and `resigned` (walking kings); others are ignored. The position must be
    /// playable: a king for every seat not marked dead, no live pawn on its promotion rank.
    pub fn from_fen4(record: &Fen4Record, rules: &RuleSet) -> Result<Position, SetupError> {
        let g = rules.geometry;
        let size = g.size() as usize;
        let mut pos = Position::empty(g, rules.moves);
        // Piece types first: the most useful error for a custom position is the piece it uses.
        check_piece_letters(record, size)?;
        if record.rows.len() != size {
            return Err(SetupError::RowCount {
                expected: size,
                found: record.rows.len(),
            });
        }
        for (row_index, row) in record.rows.iter().enumerate() {
            pos.place_row(row_index, row)?;
        }
        pos.turn = Seat::from_letter(record.turn).ok_or(SetupError::BadTurn(record.turn))?;
        pos.apply_record_rights(record);
        pos.points = record.points;
        pos.halfmove = record.halfmove;
        for (key, value) in &record.extras {
            pos.apply_extra(key, value)?;
        }
        pos.check_playable()?;
        if pos.status[pos.turn.index()] == SeatStatus::Out && pos.seats_in_play().count() > 0 {
            pos.advance_turn();
        }
        pos.finish_setup();
        // finish_setup drops rights that the geometry cannot honour; keep the record's others.
        Ok(pos)
    }

    /// Places the pieces of the record's row `row_index` (counted from the top), refusing
    /// walls on real squares and rows that do not span the board.
    fn place_row(&mut self, row_index: usize, row: &[Cell]) -> Result<(), SetupError> {
        let g = self.geometry;
        let size = g.size() as usize;
        let rank = (size - 1 - row_index) as i16;
        let mut file = 0usize;
        for cell in row {
            match cell {
                Cell::Empty(n) => file += *n as usize,
                Cell::Wall => {
                    if g.contains(file as i16, rank) {
                        return Err(SetupError::UnsupportedWall {
                            square: cell_name(file, rank as usize),
                        });
                    }
                    file += 1;
                }
                Cell::Piece { seat, kind, dead } => {
                    self.place_cell_piece(file, rank, *seat, *kind, *dead)?;
                    file += 1;
                }
            }
        }
        if file != size {
            return Err(SetupError::RowLength {
                row: row_index + 1,
                expected: size,
                found: file,
            });
        }
        Ok(())
    }

    /// Puts the piece a record cell describes (seat and kind letters) on `file`, `rank`.
    fn place_cell_piece(
        &mut self,
        file: usize,
        rank: i16,
        seat: char,
        kind: char,
        dead: bool,
    ) -> Result<(), SetupError> {
        let name = cell_name(file, rank as usize);
        // A dead piece written without its owner (`dP`) is kept as a dead piece of Red:
        // owners of dead pieces matter for nothing but display.
        let seat = if dead && seat == Cell::NO_SEAT {
            Seat::Red
        } else {
            Seat::from_letter(seat).ok_or(SetupError::BadSeat {
                letter: seat,
                square: name.clone(),
            })?
        };
        let kind = PieceKind::from_letter(kind).ok_or(SetupError::UnsupportedPiece {
            letter: kind,
            square: name.clone(),
        })?;
        let sq = self
            .geometry
            .square(file as i16, rank)
            .ok_or(SetupError::PieceOffBoard { square: name })?;
        self.put(sq, Piece { seat, kind, dead })
    }

    /// Castling rights and seats marked dead, as the record gives them.
    fn apply_record_rights(&mut self, record: &Fen4Record) {
        for s in 0..4 {
            self.castling[s] = if record.castle_king[s] {
                CASTLE_SHORT
            } else {
                0
            } | if record.castle_queen[s] {
                CASTLE_LONG
            } else {
                0
            };
            if record.dead[s] {
                self.status[s] = SeatStatus::Out;
            }
        }
    }

    /// One extra of the record: en passant squares and resigned (or flagged) seats, whose
    /// kings walk on; others are ignored.
    fn apply_extra(&mut self, key: &str, value: &str) -> Result<(), SetupError> {
        match key {
            "enPassant" => {
                let items = tuple_items(value);
                for (s, item) in items.iter().enumerate().take(4) {
                    // Either the skipped square or `skipped:pawn`.
                    let square_text = item.split(':').next().unwrap_or("");
                    if square_text.is_empty() {
                        continue;
                    }
                    let sq = self
                        .geometry
                        .parse_square(square_text)
                        .ok_or_else(|| SetupError::BadExtra(format!("{key}:{value}")))?;
                    self.ep[s] = sq;
                }
            }
            "resigned" | "flagged" => {
                let items = tuple_items(value);
                for (s, item) in items.iter().enumerate().take(4) {
                    if item.eq_ignore_ascii_case("true") && self.status[s] != SeatStatus::Out {
                        self.status[s] = SeatStatus::Walking;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The position as a FEN4 record (corners written as walls `x`, as the site does).
    pub fn to_fen4(&self) -> Fen4Record {
        let size = self.geometry.size() as i16;
        let mut rows = Vec::with_capacity(size as usize);
        for rank in (0..size).rev() {
            let mut row = Vec::new();
            let mut run = 0u8;
            for file in 0..size {
                if !self.geometry.contains(file, rank) {
                    if run > 0 {
                        row.push(Cell::Empty(run));
                        run = 0;
                    }
                    row.push(Cell::Wall);
                    continue;
                }
                let code = self.board[Geometry::cell(file, rank) as usize];
                match Piece::from_code(code) {
                    Some(p) => {
                        if run > 0 {
                            row.push(Cell::Empty(run));
                            run = 0;
                        }
                        row.push(Cell::Piece {
                            seat: p.seat.letter().to_ascii_lowercase(),
                            kind: p.kind.letter(),
                            dead: p.dead,
                        });
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                row.push(Cell::Empty(run));
            }
            rows.push(row);
        }
        let mut extras = Vec::new();
        if self.ep.iter().any(|&e| e != 0) {
            let items: Vec<String> = self
                .ep
                .iter()
                .map(|&e| {
                    if e == 0 {
                        "''".to_string()
                    } else {
                        format!("'{}'", Geometry::name(e))
                    }
                })
                .collect();
            extras.push(("enPassant".to_string(), format!("({})", items.join(","))));
        }
        if self.status.contains(&SeatStatus::Walking) {
            let items: Vec<&str> = self
                .status
                .iter()
                .map(|&s| {
                    if s == SeatStatus::Walking {
                        "true"
                    } else {
                        "false"
                    }
                })
                .collect();
            extras.push(("resigned".to_string(), format!("({})", items.join(","))));
        }
        Fen4Record {
            turn: self.turn.letter(),
            dead: [0, 1, 2, 3].map(|s| self.status[s] == SeatStatus::Out),
            castle_king: [0, 1, 2, 3].map(|s| self.castling[s] & CASTLE_SHORT != 0),
            castle_queen: [0, 1, 2, 3].map(|s| self.castling[s] & CASTLE_LONG != 0),
            points: self.points,
            halfmove: self.halfmove,
            extras,
            rows,
        }
    }
}

/// Refuses the first cell whose piece letter names no supported piece.
fn check_piece_letters(record: &Fen4Record, size: usize) -> Result<(), SetupError> {
    for (row_index, row) in record.rows.iter().enumerate() {
        let mut file = 0usize;
        for cell in row {
            match cell {
                Cell::Empty(n) => file += *n as usize,
                Cell::Wall => file += 1,
                Cell::Piece { kind, .. } => {
                    if PieceKind::from_letter(*kind).is_none() {
                        return Err(SetupError::UnsupportedPiece {
                            letter: *kind,
                            square: cell_name(file, size.saturating_sub(row_index + 1)),
                        });
                    }
                    file += 1;
                }
            }
        }
    }
    Ok(())
}

fn cell_name(file: usize, rank: usize) -> String {
    let letter = if file < 26 {
        (b'a' + file as u8) as char
    } else {
        '?'
    };
    format!("{letter}{}", rank + 1)
}

/// Items of a FEN4 extra tuple: `('a','',true)` -> `["a", "", "true"]`.
fn tuple_items(value: &str) -> Vec<String> {
    value
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(|s| s.trim().trim_matches('\'').trim_matches('"').to_string())
        .collect()
}
