//! A four-player position: padded mailbox board, piece lists per seat, turn, seat status,
//! castling rights, one en-passant field per seat, half-move clock, points and an incremental
//! Zobrist hash. Positions are plain `Copy` data, so search and replay use copy-make.

use std::fmt;

use super::fen4::{Cell, Fen4Record};
use super::geometry::{Geometry, Seat, Square, CELLS, STRIDE};
use super::piece::*;
use super::ruleset::{EnPassant, MoveRules, RuleSet};

/// Most pieces one seat may own (custom positions may exceed the usual 16).
pub const MAX_PIECES: usize = 32;
/// Capacity of a move list (far above any reachable count of legal moves).
pub const MAX_MOVES: usize = 1024;

/// Whether a seat still takes turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeatStatus {
    /// Playing.
    Active,
    /// Resigned or timed out with `DeadKingWalking`: the army is dead, the king still moves
    /// (automatically) and can be captured for points.
    Walking,
    /// Out of the game: skipped in turn order.
    Out,
}

/// What happens to an eliminated player's king.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KingFate {
    /// Stays on the board as an inert piece (the site).
    Dead,
    /// Keeps moving automatically (`DeadKingWalking`).
    Walking,
    /// Leaves the board (seed 002, seed 003).
    Removed,
}

/// Kind of move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    DoublePush,
    EnPassant,
    CastleShort,
    CastleLong,
}

/// A move: from, to, kind and the promotion piece code (0 when none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub promotion: u8,
}

impl Move {
    const NULL: Move = Move {
        from: 0,
        to: 0,
        kind: MoveKind::Normal,
        promotion: 0,
    };

    pub fn promotion_kind(&self) -> Option<PieceKind> {
        PieceKind::from_code(self.promotion)
    }

    /// Long algebraic text without piece letter or capture info: `h2-h3`, `g7-g8=D`, `O-O`.
    pub fn coordinate_text(&self) -> String {
        match self.kind {
            MoveKind::CastleShort => "O-O".into(),
            MoveKind::CastleLong => "O-O-O".into(),
            _ => {
                let mut s = format!("{}-{}", Geometry::name(self.from), Geometry::name(self.to));
                if let Some(k) = self.promotion_kind() {
                    s.push('=');
                    s.push(k.letter());
                }
                s
            }
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.coordinate_text())
    }
}

/// Fixed-capacity move buffer: move generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    fn retain(&mut self, keep: impl FnMut(&Move) -> bool) {
        self.retain_from(0, keep);
    }

    /// Keep the moves from index `start` on that pass `keep` (earlier ones always stay).
    fn retain_from(&mut self, start: usize, mut keep: impl FnMut(&Move) -> bool) {
        let mut w = start;
        for r in start..self.len {
            let mv = self.moves[r];
            if keep(&mv) {
                self.moves[w] = mv;
                w += 1;
            }
        }
        self.len = w;
    }
}

/// What a made move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveEffect {
    pub mover: Seat,
    pub piece: Piece,
    /// The captured piece (as it was: live or dead) and its square.
    pub captured: Option<(Piece, Square)>,
    /// A live king was captured: its seat is now out.
    pub king_captured: Option<Seat>,
}

/// A position could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A piece letter this core cannot play (fairy pieces).
    UnsupportedPiece {
        letter: char,
        square: String,
    },
    /// Walls (`X`) on real squares: custom board shapes are not supported.
    UnsupportedWall {
        square: String,
    },
    BadSeat {
        letter: char,
        square: String,
    },
    RowCount {
        expected: usize,
        found: usize,
    },
    RowLength {
        row: usize,
        expected: usize,
        found: usize,
    },
    PieceOffBoard {
        square: String,
    },
    TooManyPieces {
        seat: Seat,
    },
    TwoKings {
        seat: Seat,
    },
    BadTurn(char),
    BadExtra(String),
    /// The named setup needs an 8-square arm.
    SetupNeedsEightWideArms,
    UnknownSetup(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnsupportedPiece { letter, square } => write!(
                f,
                "unsupported piece type '{letter}' on {square} (supported: P N B R Q K D)"
            ),
            SetupError::UnsupportedWall { square } => write!(
                f,
                "unsupported wall 'X' on {square} (custom board shapes are not supported)"
            ),
            SetupError::BadSeat { letter, square } => {
                write!(f, "unknown player colour '{letter}' on {square}")
            }
            SetupError::RowCount { expected, found } => {
                write!(f, "FEN4 has {found} rows, the board has {expected}")
            }
            SetupError::RowLength {
                row,
                expected,
                found,
            } => write!(
                f,
                "FEN4 row {row} covers {found} squares, the board is {expected} wide"
            ),
            SetupError::PieceOffBoard { square } => {
                write!(f, "piece on {square}, which is not a square of this board")
            }
            SetupError::TooManyPieces { seat } => {
                write!(f, "{seat} has more than {MAX_PIECES} pieces")
            }
            SetupError::TwoKings { seat } => write!(f, "{seat} has more than one king"),
            SetupError::BadTurn(c) => write!(f, "bad side to move '{c}'"),
            SetupError::BadExtra(s) => write!(f, "bad FEN4 extra {s}"),
            SetupError::SetupNeedsEightWideArms => {
                write!(f, "the named setups need arms 8 squares wide")
            }
            SetupError::UnknownSetup(s) => write!(f, "unknown setup '{s}'"),
        }
    }
}

impl std::error::Error for SetupError {}

// ---------------------------------------------------------------------------------------------
// Zobrist keys, built at compile time.

struct Keys {
    piece: [[u64; 64]; CELLS],
    turn: [u64; 4],
    castle: [[u64; 4]; 4],
    ep: [[u64; CELLS]; 4],
    status: [[u64; 3]; 4],
}

const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn build_keys() -> Keys {
    let mut keys = Keys {
        piece: [[0; 64]; CELLS],
        turn: [0; 4],
        castle: [[0; 4]; 4],
        ep: [[0; CELLS]; 4],
        status: [[0; 3]; 4],
    };
    let mut state = 0x4C50_4334_4152_4249u64;
    let mut sq = 0;
    while sq < CELLS {
        let mut code = 0;
        while code < 64 {
            let (s, v) = splitmix(state);
            state = s;
            keys.piece[sq][code] = v;
            code += 1;
        }
        let mut seat = 0;
        while seat < 4 {
            let (s, v) = splitmix(state);
            state = s;
            keys.ep[seat][sq] = v;
            seat += 1;
        }
        sq += 1;
    }
    let mut seat = 0;
    while seat < 4 {
        let (s, v) = splitmix(state);
        state = s;
        keys.turn[seat] = v;
        let mut bits = 1;
        while bits < 4 {
            let (s, v) = splitmix(state);
            state = s;
            keys.castle[seat][bits] = v;
            bits += 1;
        }
        let mut st = 1;
        while st < 3 {
            let (s, v) = splitmix(state);
            state = s;
            keys.status[seat][st] = v;
            st += 1;
        }
        seat += 1;
    }
    keys
}

static KEYS: Keys = build_keys();

// ---------------------------------------------------------------------------------------------

const ORTHOGONAL: [i16; 4] = [1, -1, STRIDE, -STRIDE];
const DIAGONAL: [i16; 4] = [STRIDE + 1, STRIDE - 1, -STRIDE + 1, -STRIDE - 1];
const ALL_DIRECTIONS: [i16; 8] = [
    1,
    -1,
    STRIDE,
    -STRIDE,
    STRIDE + 1,
    STRIDE - 1,
    -STRIDE + 1,
    -STRIDE - 1,
];
const KNIGHT_JUMPS: [i16; 8] = [
    2 * STRIDE + 1,
    2 * STRIDE - 1,
    -2 * STRIDE + 1,
    -2 * STRIDE - 1,
    STRIDE + 2,
    STRIDE - 2,
    -STRIDE + 2,
    -STRIDE - 2,
];

const CASTLE_SHORT: u8 = 1;
const CASTLE_LONG: u8 = 2;

#[inline(always)]
fn step(sq: Square, d: i16) -> Square {
    (sq as i16 + d) as Square
}

/// The two diagonal steps of a pawn of `seat` toward the squares it captures on.
#[inline(always)]
fn pawn_capture_steps(seat: usize) -> [i16; 2] {
    let s = Seat::from_index(seat);
    [s.forward() + s.sideways(), s.forward() - s.sideways()]
}

/// A four-player position.
#[derive(Clone, Copy)]
pub struct Position {
    board: [u8; CELLS],
    pieces: [[Square; MAX_PIECES]; 4],
    piece_count: [u8; 4],
    /// Square of each seat's king (live or dead), 0 when it has none.
    kings: [Square; 4],
    turn: Seat,
    status: [SeatStatus; 4],
    /// `CASTLE_SHORT | CASTLE_LONG` bits per seat.
    castling: [u8; 4],
    /// Rook squares of each seat's short and long castling (0 when none).
    castle_rooks: [[Square; 2]; 4],
    /// Square a seat's last double step skipped (0 when none).
    ep: [Square; 4],
    halfmove: u32,
    points: [i32; 4],
    hash: u64,
    geometry: Geometry,
    rules: MoveRules,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", super::fen4::write(&self.to_fen4()))
    }
}

impl PartialEq for Position {
    /// Same pieces on the same squares, same side to move, rights and status (points and the
    /// half-move clock included).
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry
            && self.turn == other.turn
            && self.status == other.status
            && self.castling == other.castling
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.points == other.points
            && self
                .geometry
                .squares()
                .all(|sq| self.board[sq as usize] == other.board[sq as usize])
    }
}

impl Position {
    fn empty(geometry: Geometry, rules: MoveRules) -> Position {
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

    /// A position from a setup name (`4PC`, `4PCo`) or a full FEN4 text.
    pub fn from_setup(setup: &str, rules: &RuleSet) -> Result<Position, SetupError> {
        match setup.trim() {
            "4PC" | "" => Position::standard(rules, false),
            "4PCo" => Position::standard(rules, true),
            text => {
                let record = super::fen4::parse(text)
                    .map_err(|e| SetupError::UnknownSetup(format!("{text}: {e}")))?;
                Position::from_fen4(&record, rules)
            }
        }
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

    fn put(&mut self, sq: Square, piece: Piece) -> Result<(), SetupError> {
        let seat = piece.seat.index();
        if self.piece_count[seat] as usize >= MAX_PIECES {
            return Err(SetupError::TooManyPieces { seat: piece.seat });
        }
        if piece.kind == PieceKind::King {
            if self.kings[seat] != 0 {
                return Err(SetupError::TwoKings { seat: piece.seat });
            }
            self.kings[seat] = sq;
        }
        self.board[sq as usize] = piece.code();
        self.pieces[seat][self.piece_count[seat] as usize] = sq;
        self.piece_count[seat] += 1;
        Ok(())
    }

    /// Derive castling geometry from where each king stands and compute the hash.
    fn finish_setup(&mut self) {
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

    /// The hash recomputed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = KEYS.turn[self.turn.index()];
        for sq in self.geometry.squares() {
            let code = self.board[sq as usize];
            if is_piece(code) {
                h ^= KEYS.piece[sq as usize][(code & 0x3F) as usize];
            }
        }
        for s in 0..4 {
            h ^= KEYS.castle[s][self.castling[s] as usize];
            if self.ep[s] != 0 {
                h ^= KEYS.ep[s][self.ep[s] as usize];
            }
            h ^= KEYS.status[s][self.status[s] as usize];
        }
        h
    }

    // -----------------------------------------------------------------------------------------
    // Accessors.

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    pub fn rules(&self) -> &MoveRules {
        &self.rules
    }

    /// Replace the movement switches (e.g. to compare Teams and FFA legality).
    pub fn set_rules(&mut self, rules: MoveRules) {
        self.rules = rules;
    }

    pub fn turn(&self) -> Seat {
        self.turn
    }

    pub fn status(&self, seat: Seat) -> SeatStatus {
        self.status[seat.index()]
    }

    pub fn points(&self) -> [i32; 4] {
        self.points
    }

    pub fn add_points(&mut self, seat: Seat, points: i32) {
        self.points[seat.index()] += points;
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn reset_halfmove_clock(&mut self) {
        self.halfmove = 0;
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq as usize >= CELLS {
            return None;
        }
        Piece::from_code(self.board[sq as usize])
    }

    pub fn king_square(&self, seat: Seat) -> Option<Square> {
        match self.kings[seat.index()] {
            0 => None,
            sq => Some(sq),
        }
    }

    /// Squares of all pieces (live and dead) of a seat.
    pub fn pieces_of(&self, seat: Seat) -> &[Square] {
        let s = seat.index();
        &self.pieces[s][..self.piece_count[s] as usize]
    }

    /// Seats still taking turns (active or walking).
    pub fn seats_in_play(&self) -> impl Iterator<Item = Seat> + '_ {
        Seat::ALL
            .into_iter()
            .filter(|s| self.status[s.index()] != SeatStatus::Out)
    }

    pub fn castling_rights(&self, seat: Seat) -> (bool, bool) {
        let c = self.castling[seat.index()];
        (c & CASTLE_SHORT != 0, c & CASTLE_LONG != 0)
    }

    /// Square skipped by `seat`'s last double step, while it may still be taken en passant.
    pub fn en_passant_square(&self, seat: Seat) -> Option<Square> {
        match self.ep[seat.index()] {
            0 => None,
            sq => Some(sq),
        }
    }

    /// Seats whose live pieces attack `seat` (all others; in Teams the two opponents).
    #[inline(always)]
    fn enemy_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            (1 << ((seat + 1) & 3)) | (1 << ((seat + 3) & 3))
        } else {
            0x0F & !(1 << seat)
        }
    }

    /// Seats whose pieces `seat` may not capture (itself and, in Teams, its partner).
    #[inline(always)]
    fn friendly_mask(&self, seat: usize) -> u8 {
        if self.rules.teams {
            (1 << seat) | (1 << ((seat + 2) & 3))
        } else {
            1 << seat
        }
    }

    /// Whether `attacker` and `victim` are opponents (in Teams partners are not).
    pub fn are_opponents(&self, a: Seat, b: Seat) -> bool {
        a != b && (!self.rules.teams || a.partner() != b)
    }

    /// Dead pieces belong to nobody: anyone may take them where the rules allow it, even
    /// their former owner's walking king (real games: `Kd14xd13` onto a dead Yellow pawn in
    /// `ffa/cc_game_0189_4pco`-style records).
    #[inline(always)]
    fn capturable(&self, code: u8, friendly: u8) -> bool {
        is_piece(code)
            && if code & DEAD == 0 {
                (friendly >> seat_of(code)) & 1 == 0
            } else {
                self.rules.dead_capturable
            }
    }

    // -----------------------------------------------------------------------------------------
    // Attacks.

    /// Whether a live piece of a seat in `enemies` (bit mask) attacks `sq`.
    pub fn is_attacked_by(&self, sq: Square, enemies: u8) -> bool {
        let b = &self.board;
        for &j in &KNIGHT_JUMPS {
            let c = b[step(sq, j) as usize];
            if is_live(c) && kind_of(c) == KNIGHT && (enemies >> seat_of(c)) & 1 != 0 {
                return true;
            }
        }
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let mut t = step(sq, d);
            let mut c = b[t as usize];
            if c != EMPTY {
                if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                    let k = kind_of(c);
                    if k == KING
                        || (if orth {
                            slides_orthogonally(k)
                        } else {
                            slides_diagonally(k)
                                || (k == PAWN && pawn_capture_steps(seat_of(c)).contains(&-d))
                        })
                    {
                        return true;
                    }
                }
                continue;
            }
            loop {
                t = step(t, d);
                c = b[t as usize];
                if c != EMPTY {
                    break;
                }
            }
            if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                let k = kind_of(c);
                if if orth {
                    slides_orthogonally(k)
                } else {
                    slides_diagonally(k)
                } {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `seat`'s king is attacked by a live piece of one of its opponents.
    pub fn in_check(&self, seat: Seat) -> bool {
        let k = self.kings[seat.index()];
        k != 0
            && is_live(self.board[k as usize])
            && self.is_attacked_by(k, self.enemy_mask(seat.index()))
    }

    /// Live pieces of `by` attacking `sq` (for checks given by a move).
    pub fn attackers_of_seat(&self, sq: Square, by: Seat) -> Vec<(Square, PieceKind)> {
        let mut found = Vec::new();
        let b = &self.board;
        let s = by.index();
        let live = |c: u8| is_live(c) && seat_of(c) == s;
        for &j in &KNIGHT_JUMPS {
            let t = step(sq, j);
            if live(b[t as usize]) && kind_of(b[t as usize]) == KNIGHT {
                found.push((t, PieceKind::Knight));
            }
        }
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let mut t = step(sq, d);
            let mut dist = 1;
            while b[t as usize] == EMPTY {
                t = step(t, d);
                dist += 1;
            }
            let c = b[t as usize];
            if !live(c) {
                continue;
            }
            let k = kind_of(c);
            let hits = if orth {
                slides_orthogonally(k)
            } else {
                slides_diagonally(k)
            } || (dist == 1
                && (k == KING || (!orth && k == PAWN && pawn_capture_steps(s).contains(&-d))));
            if hits {
                if let Some(kind) = PieceKind::from_code(k) {
                    found.push((t, kind));
                }
            }
        }
        found
    }

    // -----------------------------------------------------------------------------------------
    // Move generation.

    /// All legal moves of the side to move into `out` (cleared first).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out {
            return;
        }
        let king = self.kings[s];
        let enemies = self.enemy_mask(s);
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves(s, out, &[], false);
            return;
        }
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        let checked = self.king_safety(s, king, enemies, &mut pins, &mut pin_count);
        if checked {
            self.pseudo_moves(s, out, &[], false);
            out.retain(|mv| self.leaves_king_safe(*mv, s));
        } else {
            self.pseudo_moves(s, out, &pins[..pin_count], true);
        }
    }

    /// Number of legal moves (perft's last ply).
    pub fn count_legal_moves(&self, buf: &mut MoveList) -> usize {
        self.legal_moves(buf);
        buf.len()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut buf = MoveList::new();
        self.has_legal_move_with(&mut buf)
    }

    /// `has_legal_move` with a caller's buffer (no 1024-entry buffer set-up per call).
    pub fn has_legal_move_with(&self, buf: &mut MoveList) -> bool {
        buf.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out {
            return false;
        }
        let king = self.kings[s];
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves(s, buf, &[], false);
            return !buf.is_empty();
        }
        let enemies = self.enemy_mask(s);
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        if self.king_safety(s, king, enemies, &mut pins, &mut pin_count) {
            // In check: stop at the first pseudo-legal move that gets out of it.
            // King moves first: they are the usual way out.
            self.pseudo_moves(s, buf, &[], false);
            buf.iter()
                .filter(|mv| mv.from == king)
                .chain(buf.iter().filter(|mv| mv.from != king))
                .any(|mv| self.leaves_king_safe(*mv, s))
        } else {
            self.pseudo_moves(s, buf, &pins[..pin_count], true);
            !buf.is_empty()
        }
    }

    /// Whether live pieces of `by` attack `sq`, and if so whether a line piece (bishop, rook,
    /// queen) is among them. No allocation: used after every replayed move.
    pub fn attack_by_seat(&self, sq: Square, by: Seat) -> Option<bool> {
        let b = &self.board;
        let s = by.index();
        let live = |c: u8| is_live(c) && seat_of(c) == s;
        let mut attacked = false;
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let mut t = step(sq, d);
            let mut dist = 1;
            while b[t as usize] == EMPTY {
                t = step(t, d);
                dist += 1;
            }
            let c = b[t as usize];
            if !live(c) {
                continue;
            }
            let k = kind_of(c);
            if (orth && slides_orthogonally(k)) || (!orth && slides_diagonally(k)) {
                return Some(true);
            }
            if dist == 1
                && (k == KING || (!orth && k == PAWN && pawn_capture_steps(s).contains(&-d)))
            {
                attacked = true;
            }
        }
        if !attacked {
            attacked = KNIGHT_JUMPS.iter().any(|&j| {
                let c = b[step(sq, j) as usize];
                live(c) && kind_of(c) == KNIGHT
            });
        }
        attacked.then_some(false)
    }

    /// Look from the king: are we in check, and which own pieces are pinned (square and ray)?
    fn king_safety(
        &self,
        s: usize,
        king: Square,
        enemies: u8,
        pins: &mut [(Square, i16); 8],
        pin_count: &mut usize,
    ) -> bool {
        let b = &self.board;
        for &j in &KNIGHT_JUMPS {
            let c = b[step(king, j) as usize];
            if is_live(c) && kind_of(c) == KNIGHT && (enemies >> seat_of(c)) & 1 != 0 {
                return true;
            }
        }
        let mut checked = false;
        for (i, &d) in ALL_DIRECTIONS.iter().enumerate() {
            let orth = i < 4;
            let slides = |k: u8| {
                if orth {
                    slides_orthogonally(k)
                } else {
                    slides_diagonally(k)
                }
            };
            let mut t = step(king, d);
            let mut dist = 1;
            while b[t as usize] == EMPTY {
                t = step(t, d);
                dist += 1;
            }
            let c = b[t as usize];
            if c == OFF {
                continue;
            }
            if is_live(c) && (enemies >> seat_of(c)) & 1 != 0 {
                let k = kind_of(c);
                if slides(k)
                    || (dist == 1
                        && (k == KING
                            || (!orth
                                && k == PAWN
                                && pawn_capture_steps(seat_of(c)).contains(&-d))))
                {
                    checked = true;
                }
                continue;
            }
            if seat_of(c) == s && c & DEAD == 0 {
                let pinned = t;
                let mut u = step(t, d);
                while b[u as usize] == EMPTY {
                    u = step(u, d);
                }
                let c2 = b[u as usize];
                if is_live(c2) && (enemies >> seat_of(c2)) & 1 != 0 && slides(kind_of(c2)) {
                    pins[*pin_count] = (pinned, d);
                    *pin_count += 1;
                }
            }
        }
        checked
    }

    /// After `mv` by seat `s`, is `s`'s king safe from live opponent pieces?
    fn leaves_king_safe(&self, mv: Move, s: usize) -> bool {
        let mut next = *self;
        next.make_board_only(mv, s);
        let king = next.kings[s];
        king == 0 || !next.is_attacked_by(king, next.enemy_mask(s))
    }

    /// Pseudo-legal moves; with `fast_legal`, pins are honoured and king moves tested, so the
    /// moves are legal (the caller is not in check); en passant is always tested in full.
    fn pseudo_moves(&self, s: usize, out: &mut MoveList, pins: &[(Square, i16)], fast_legal: bool) {
        self.pseudo_moves_of(s, out, pins, fast_legal, None);
    }

    /// As `pseudo_moves`, restricted to the piece on `only` when given.
    fn pseudo_moves_of(
        &self,
        s: usize,
        out: &mut MoveList,
        pins: &[(Square, i16)],
        fast_legal: bool,
        only: Option<Square>,
    ) {
        let b = &self.board;
        let friendly = self.friendly_mask(s);
        let enemies = self.enemy_mask(s);
        let seat = Seat::from_index(s);
        let fwd = seat.forward();
        let side = seat.sideways();
        let promo_rank = self.rules.promotion_rank as i16 - 1;
        let base_rank = self.rules.pawn_base_rank as i16 - 1;
        let pin_of = |sq: Square| -> i16 {
            for &(p, d) in pins {
                if p == sq {
                    return d;
                }
            }
            0
        };
        for i in 0..self.piece_count[s] as usize {
            let from = self.pieces[s][i];
            let code = b[from as usize];
            if code & DEAD != 0 || only.is_some_and(|o| o != from) {
                continue;
            }
            let pin = pin_of(from);
            match kind_of(code) {
                PAWN => {
                    let to = step(from, fwd);
                    let rel_to = self.geometry.relative_rank(seat, to);
                    if b[to as usize] == EMPTY && (pin == 0 || pin == fwd || pin == -fwd) {
                        if rel_to == promo_rank {
                            self.push_promotions(out, from, to);
                        } else {
                            out.push(Move {
                                from,
                                to,
                                kind: MoveKind::Normal,
                                promotion: 0,
                            });
                            let to2 = step(to, fwd);
                            if self.geometry.relative_rank(seat, from) == base_rank
                                && b[to2 as usize] == EMPTY
                            {
                                out.push(Move {
                                    from,
                                    to: to2,
                                    kind: MoveKind::DoublePush,
                                    promotion: 0,
                                });
                            }
                        }
                    }
                    for d in [fwd + side, fwd - side] {
                        if pin != 0 && pin != d && pin != -d {
                            continue;
                        }
                        let to = step(from, d);
                        if self.capturable(b[to as usize], friendly) {
                            if rel_to == promo_rank {
                                self.push_promotions(out, from, to);
                            } else {
                                out.push(Move {
                                    from,
                                    to,
                                    kind: MoveKind::Normal,
                                    promotion: 0,
                                });
                            }
                        }
                    }
                }
                KNIGHT => {
                    if pin != 0 {
                        continue;
                    }
                    for &j in &KNIGHT_JUMPS {
                        let to = step(from, j);
                        let c = b[to as usize];
                        if c == EMPTY || self.capturable(c, friendly) {
                            out.push(Move {
                                from,
                                to,
                                kind: MoveKind::Normal,
                                promotion: 0,
                            });
                        }
                    }
                }
                KING => {
                    for &d in &ALL_DIRECTIONS {
                        let to = step(from, d);
                        let c = b[to as usize];
                        if (c == EMPTY || self.capturable(c, friendly))
                            && (!fast_legal || !self.is_attacked_by(to, enemies))
                        {
                            out.push(Move {
                                from,
                                to,
                                kind: MoveKind::Normal,
                                promotion: 0,
                            });
                        }
                    }
                    if self.castling[s] != 0 && fast_legal {
                        self.castles(s, from, enemies, out);
                    }
                }
                kind => {
                    let dirs: &[i16] = match kind {
                        BISHOP => &DIAGONAL,
                        ROOK => &ORTHOGONAL,
                        _ => &ALL_DIRECTIONS,
                    };
                    for &d in dirs {
                        if pin != 0 && pin != d && pin != -d {
                            continue;
                        }
                        let mut to = step(from, d);
                        loop {
                            let c = b[to as usize];
                            if c == EMPTY {
                                out.push(Move {
                                    from,
                                    to,
                                    kind: MoveKind::Normal,
                                    promotion: 0,
                                });
                                to = step(to, d);
                                continue;
                            }
                            if self.capturable(c, friendly) {
                                out.push(Move {
                                    from,
                                    to,
                                    kind: MoveKind::Normal,
                                    promotion: 0,
                                });
                            }
                            break;
                        }
                    }
                }
            }
        }
        if self.rules.en_passant != EnPassant::Off {
            let before = out.len;
            self.en_passant_moves(s, friendly, fast_legal, out);
            if let Some(o) = only {
                out.retain_from(before, |mv| mv.from == o);
            }
        }
    }

    /// Legal moves of the piece on `from` (side to move), cheaper than generating them all:
    /// what a replay needs to check one written move.
    pub fn legal_moves_from(&self, from: Square, out: &mut MoveList) {
        out.clear();
        let s = self.turn.index();
        if self.status[s] == SeatStatus::Out || from as usize >= CELLS {
            return;
        }
        let king = self.kings[s];
        if king == 0 || !is_live(self.board[king as usize]) {
            self.pseudo_moves_of(s, out, &[], false, Some(from));
            return;
        }
        let enemies = self.enemy_mask(s);
        let mut pins = [(0 as Square, 0i16); 8];
        let mut pin_count = 0;
        if self.king_safety(s, king, enemies, &mut pins, &mut pin_count) {
            self.pseudo_moves_of(s, out, &[], false, Some(from));
            out.retain(|mv| self.leaves_king_safe(*mv, s));
        } else {
            self.pseudo_moves_of(s, out, &pins[..pin_count], true, Some(from));
        }
    }

    fn push_promotions(&self, out: &mut MoveList, from: Square, to: Square) {
        for kind in [
            PieceKind::Queen,
            PieceKind::OnePointQueen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
        ] {
            if self.rules.may_promote_to(kind) {
                out.push(Move {
                    from,
                    to,
                    kind: MoveKind::Normal,
                    promotion: kind as u8,
                });
            }
        }
    }

    fn en_passant_moves(&self, s: usize, friendly: u8, test_legal: bool, out: &mut MoveList) {
        let b = &self.board;
        let seat = Seat::from_index(s);
        for p in 0..4 {
            let target = self.ep[p];
            if target == 0 || (friendly >> p) & 1 != 0 {
                continue;
            }
            let pawn_sq = step(target, Seat::from_index(p).forward());
            let victim = b[pawn_sq as usize];
            if b[target as usize] != EMPTY
                || victim & !DEAD != ((p as u8) << 4 | PAWN)
                || !self.capturable(victim, friendly)
            {
                continue;
            }
            for d in [
                seat.forward() + seat.sideways(),
                seat.forward() - seat.sideways(),
            ] {
                let from = step(target, -d);
                if b[from as usize] != ((s as u8) << 4 | PAWN) {
                    continue;
                }
                let mv = Move {
                    from,
                    to: target,
                    kind: MoveKind::EnPassant,
                    promotion: 0,
                };
                // Promotion by en passant cannot arise: the target is next to a home rank.
                if !test_legal || self.leaves_king_safe(mv, s) {
                    out.push(mv);
                }
            }
        }
    }

    /// Castling from geometry: the king moves two squares toward the rook that stands on an end
    /// of its back rank, the rook lands on the square the king crossed; every square between is
    /// empty and the king does not start on, cross or land on an attacked square.
    fn castles(&self, s: usize, king: Square, enemies: u8, out: &mut MoveList) {
        let b = &self.board;
        for (side, bit, kind) in [
            (0, CASTLE_SHORT, MoveKind::CastleShort),
            (1, CASTLE_LONG, MoveKind::CastleLong),
        ] {
            if self.castling[s] & bit == 0 {
                continue;
            }
            let rook = self.castle_rooks[s][side];
            if rook == 0 || b[rook as usize] & !DEAD != ((s as u8) << 4 | ROOK) {
                continue;
            }
            let Some(d) = direction_between(king, rook) else {
                continue;
            };
            let mut t = step(king, d);
            let mut clear = true;
            let mut between = 0;
            while t != rook {
                if b[t as usize] != EMPTY {
                    clear = false;
                    break;
                }
                between += 1;
                t = step(t, d);
            }
            if !clear || between < 2 {
                continue;
            }
            let cross = step(king, d);
            let land = step(cross, d);
            if self.is_attacked_by(cross, enemies) || self.is_attacked_by(land, enemies) {
                continue;
            }
            out.push(Move {
                from: king,
                to: land,
                kind,
                promotion: 0,
            });
        }
    }

    // -----------------------------------------------------------------------------------------
    // Making moves.

    fn remove_from_list(&mut self, seat: usize, sq: Square) {
        let n = self.piece_count[seat] as usize;
        for i in 0..n {
            if self.pieces[seat][i] == sq {
                self.pieces[seat][i] = self.pieces[seat][n - 1];
                self.piece_count[seat] -= 1;
                return;
            }
        }
    }

    fn relocate_in_list(&mut self, seat: usize, from: Square, to: Square) {
        let n = self.piece_count[seat] as usize;
        for i in 0..n {
            if self.pieces[seat][i] == from {
                self.pieces[seat][i] = to;
                return;
            }
        }
    }

    #[inline(always)]
    fn set_cell(&mut self, sq: Square, code: u8) {
        let old = self.board[sq as usize];
        if is_piece(old) {
            self.hash ^= KEYS.piece[sq as usize][(old & 0x3F) as usize];
        }
        if is_piece(code) {
            self.hash ^= KEYS.piece[sq as usize][(code & 0x3F) as usize];
        }
        self.board[sq as usize] = code;
    }

    fn set_ep(&mut self, seat: usize, sq: Square) {
        if self.ep[seat] != 0 {
            self.hash ^= KEYS.ep[seat][self.ep[seat] as usize];
        }
        self.ep[seat] = sq;
        if sq != 0 {
            self.hash ^= KEYS.ep[seat][sq as usize];
        }
    }

    fn set_castling(&mut self, seat: usize, bits: u8) {
        self.hash ^= KEYS.castle[seat][self.castling[seat] as usize];
        self.castling[seat] = bits;
        self.hash ^= KEYS.castle[seat][bits as usize];
    }

    fn set_status(&mut self, seat: usize, status: SeatStatus) {
        self.hash ^= KEYS.status[seat][self.status[seat] as usize];
        self.status[seat] = status;
        self.hash ^= KEYS.status[seat][status as usize];
    }

    fn set_turn(&mut self, seat: Seat) {
        self.hash ^= KEYS.turn[self.turn.index()];
        self.turn = seat;
        self.hash ^= KEYS.turn[seat.index()];
    }

    /// Board part of a move by seat `s`: pieces, rights, e.p. fields, clock, king capture.
    fn make_board_only(&mut self, mv: Move, s: usize) -> MoveEffect {
        let code = self.board[mv.from as usize];
        let piece =
            Piece::from_code(code).unwrap_or(Piece::new(Seat::from_index(s), PieceKind::Pawn));
        let mut captured = None;
        let mut king_captured = None;
        let capture_sq = if mv.kind == MoveKind::EnPassant {
            (0..4)
                .find(|&p| p != s && self.ep[p] == mv.to)
                .map(|p| step(mv.to, Seat::from_index(p).forward()))
                .unwrap_or(mv.to)
        } else {
            mv.to
        };
        // En-passant window: the mover's own field always ends; with the narrow window every
        // field ends once anyone moves.
        match self.rules.en_passant {
            EnPassant::NextPlayer => {
                for p in 0..4 {
                    self.set_ep(p, 0);
                }
            }
            _ => self.set_ep(s, 0),
        }
        let victim_code = self.board[capture_sq as usize];
        if is_piece(victim_code) {
            let victim_seat = seat_of(victim_code);
            self.remove_from_list(victim_seat, capture_sq);
            self.set_cell(capture_sq, EMPTY);
            if let Some(victim) = Piece::from_code(victim_code) {
                captured = Some((victim, capture_sq));
                if victim.kind == PieceKind::King && self.kings[victim_seat] == capture_sq {
                    self.kings[victim_seat] = 0;
                    if victim_code & DEAD == 0 {
                        king_captured = Some(victim.seat);
                    }
                }
            }
        }
        let placed = if mv.promotion != 0 {
            ((s as u8) << 4) | mv.promotion
        } else {
            code
        };
        self.set_cell(mv.from, EMPTY);
        self.set_cell(mv.to, placed);
        self.relocate_in_list(s, mv.from, mv.to);
        if kind_of(code) == KING {
            self.kings[s] = mv.to;
            if self.castling[s] != 0 {
                self.set_castling(s, 0);
            }
        }
        if matches!(mv.kind, MoveKind::CastleShort | MoveKind::CastleLong) {
            let side = usize::from(mv.kind == MoveKind::CastleLong);
            let rook = self.castle_rooks[s][side];
            if let Some(d) = direction_between(mv.from, rook) {
                let rook_to = step(mv.from, d);
                let rook_code = self.board[rook as usize];
                self.set_cell(rook, EMPTY);
                self.set_cell(rook_to, rook_code);
                self.relocate_in_list(s, rook, rook_to);
            }
        }
        if self.castling.iter().any(|&c| c != 0) {
            for seat in 0..4 {
                for (side, bit) in [(0, CASTLE_SHORT), (1, CASTLE_LONG)] {
                    let r = self.castle_rooks[seat][side];
                    if self.castling[seat] & bit != 0 && (r == mv.from || r == capture_sq) {
                        let bits = self.castling[seat] & !bit;
                        self.set_castling(seat, bits);
                    }
                }
            }
        }
        if mv.kind == MoveKind::DoublePush {
            self.set_ep(s, step(mv.from, Seat::from_index(s).forward()));
        }
        if kind_of(code) == PAWN || captured.is_some() {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if let Some(victim) = king_captured {
            self.eliminate(victim, KingFate::Removed);
        }
        MoveEffect {
            mover: Seat::from_index(s),
            piece,
            captured,
            king_captured,
        }
    }

    /// Play a move of the side to move (assumed legal) and pass the turn to the next seat in
    /// play. Capturing a live king puts its seat out.
    pub fn make(&mut self, mv: Move) -> MoveEffect {
        let s = self.turn.index();
        let effect = self.make_board_only(mv, s);
        self.advance_turn();
        effect
    }

    /// Pass the turn to the next seat (clockwise) that is still in play.
    pub fn advance_turn(&mut self) {
        let s = self.turn.index();
        for i in 1..=4 {
            let next = (s + i) & 3;
            if self.status[next] != SeatStatus::Out {
                self.set_turn(Seat::from_index(next));
                return;
            }
        }
    }

    /// Give the turn to a seat (replay of positions where the turn was decided elsewhere).
    pub fn give_turn(&mut self, seat: Seat) {
        self.set_turn(seat);
    }

    /// Take a player out of play: their army becomes inert (dead); the king stays dead, keeps
    /// walking, or leaves the board.
    pub fn eliminate(&mut self, seat: Seat, king: KingFate) {
        let s = seat.index();
        let status = if king == KingFate::Walking {
            SeatStatus::Walking
        } else {
            SeatStatus::Out
        };
        self.set_status(s, status);
        self.set_ep(s, 0);
        let mut i = 0;
        while i < self.piece_count[s] as usize {
            let sq = self.pieces[s][i];
            let code = self.board[sq as usize];
            if kind_of(code) == KING {
                match king {
                    KingFate::Walking => {}
                    KingFate::Dead => self.set_cell(sq, code | DEAD),
                    KingFate::Removed => {
                        self.set_cell(sq, EMPTY);
                        self.kings[s] = 0;
                        self.remove_from_list(s, sq);
                        continue;
                    }
                }
            } else {
                self.set_cell(sq, code | DEAD);
            }
            i += 1;
        }
        if king != KingFate::Walking && self.castling[s] != 0 {
            self.set_castling(s, 0);
        }
    }

    // -----------------------------------------------------------------------------------------
    // FEN4.

    /// Build a position from a FEN4 record on the rule set's board. Fairy pieces and walls on
    /// real squares are precise errors. Extras understood: `enPassant` (one square per seat,
    /// R,B,Y,G) and `resigned` (walking kings); others are ignored.
    pub fn from_fen4(record: &Fen4Record, rules: &RuleSet) -> Result<Position, SetupError> {
        let g = rules.geometry;
        let size = g.size() as usize;
        let mut pos = Position::empty(g, rules.moves);
        // Piece types first: the most useful error for a custom position is the piece it uses.
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
        if record.rows.len() != size {
            return Err(SetupError::RowCount {
                expected: size,
                found: record.rows.len(),
            });
        }
        for (row_index, row) in record.rows.iter().enumerate() {
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
                        let name = cell_name(file, rank as usize);
                        // A dead piece written without its owner (`dP`) is kept as a dead
                        // piece of Red: owners of dead pieces matter for nothing but display.
                        let seat = if *dead && *seat == Cell::NO_SEAT {
                            Seat::Red
                        } else {
                            Seat::from_letter(*seat).ok_or(SetupError::BadSeat {
                                letter: *seat,
                                square: name.clone(),
                            })?
                        };
                        let kind =
                            PieceKind::from_letter(*kind).ok_or(SetupError::UnsupportedPiece {
                                letter: *kind,
                                square: name.clone(),
                            })?;
                        let sq = g
                            .square(file as i16, rank)
                            .ok_or(SetupError::PieceOffBoard { square: name })?;
                        pos.put(
                            sq,
                            Piece {
                                seat,
                                kind,
                                dead: *dead,
                            },
                        )?;
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
        }
        pos.turn = Seat::from_letter(record.turn).ok_or(SetupError::BadTurn(record.turn))?;
        for s in 0..4 {
            pos.castling[s] = if record.castle_king[s] {
                CASTLE_SHORT
            } else {
                0
            } | if record.castle_queen[s] {
                CASTLE_LONG
            } else {
                0
            };
            if record.dead[s] {
                pos.status[s] = SeatStatus::Out;
            }
        }
        pos.points = record.points;
        pos.halfmove = record.halfmove;
        for (key, value) in &record.extras {
            match key.as_str() {
                "enPassant" => {
                    let items = tuple_items(value);
                    for (s, item) in items.iter().enumerate().take(4) {
                        // Either the skipped square or `skipped:pawn`.
                        let square_text = item.split(':').next().unwrap_or("");
                        if square_text.is_empty() {
                            continue;
                        }
                        let sq = g
                            .parse_square(square_text)
                            .ok_or_else(|| SetupError::BadExtra(format!("{key}:{value}")))?;
                        pos.ep[s] = sq;
                    }
                }
                "resigned" | "flagged" => {
                    let items = tuple_items(value);
                    for (s, item) in items.iter().enumerate().take(4) {
                        if item.eq_ignore_ascii_case("true") && pos.status[s] != SeatStatus::Out {
                            pos.status[s] = SeatStatus::Walking;
                        }
                    }
                }
                _ => {}
            }
        }
        if pos.status[pos.turn.index()] == SeatStatus::Out && pos.seats_in_play().count() > 0 {
            pos.advance_turn();
        }
        pos.finish_setup();
        // finish_setup drops rights that the geometry cannot honour; keep the record's others.
        Ok(pos)
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

    /// Material per seat: (live piece count, FFA value of live pieces excluding the king).
    pub fn material(&self, seat: Seat) -> (usize, i32) {
        let mut count = 0;
        let mut value = 0;
        for &sq in self.pieces_of(seat) {
            if let Some(p) = self.piece_at(sq) {
                if !p.dead {
                    count += 1;
                    if p.kind != PieceKind::King {
                        value += p.kind.ffa_value();
                    }
                }
            }
        }
        (count, value)
    }

    /// Consistency check used by tests: lists match the board, kings match, hash matches.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = 0usize;
        for s in 0..4 {
            for &sq in self.pieces_of(Seat::from_index(s)) {
                let code = self.board[sq as usize];
                if !is_piece(code) || seat_of(code) != s {
                    return Err(format!(
                        "list of seat {s} names {} wrongly",
                        Geometry::name(sq)
                    ));
                }
                if kind_of(code) == KING && self.kings[s] != sq {
                    return Err(format!("king of seat {s} not tracked"));
                }
            }
            seen += self.piece_count[s] as usize;
        }
        let on_board = self
            .geometry
            .squares()
            .filter(|&sq| is_piece(self.board[sq as usize]))
            .count();
        if on_board != seen {
            return Err(format!("{on_board} pieces on the board, {seen} in lists"));
        }
        if self.hash != self.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        Ok(())
    }
}

/// Step from `a` toward `b` if they share a rank or file.
fn direction_between(a: Square, b: Square) -> Option<i16> {
    let (af, ar) = Geometry::file_rank(a);
    let (bf, br) = Geometry::file_rank(b);
    if ar == br && af != bf {
        Some(if bf > af { 1 } else { -1 })
    } else if af == bf && ar != br {
        Some(if br > ar { STRIDE } else { -STRIDE })
    } else {
        None
    }
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
