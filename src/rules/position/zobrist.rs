//! Zobrist hashing: the key table (built at compile time), the hash computed from scratch, and
//! the setters that keep the incremental hash in step with every hashed field.

use super::{Position, SeatStatus};
use crate::rules::geometry::{Seat, Square, CELLS};
use crate::rules::piece::is_piece;

/// One key per hashed fact: a piece code on a square, the side to move, a seat's castling
/// bits, its en-passant square and its status (no castling rights and `Active` hash as 0).
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

impl Position {
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

    #[inline(always)]
    pub(super) fn set_cell(&mut self, sq: Square, code: u8) {
        let old = self.board[sq as usize];
        if is_piece(old) {
            self.hash ^= KEYS.piece[sq as usize][(old & 0x3F) as usize];
        }
        if is_piece(code) {
            self.hash ^= KEYS.piece[sq as usize][(code & 0x3F) as usize];
        }
        self.board[sq as usize] = code;
    }

    pub(super) fn set_ep(&mut self, seat: usize, sq: Square) {
        if self.ep[seat] != 0 {
            self.hash ^= KEYS.ep[seat][self.ep[seat] as usize];
        }
        self.ep[seat] = sq;
        if sq != 0 {
            self.hash ^= KEYS.ep[seat][sq as usize];
        }
    }

    pub(super) fn set_castling(&mut self, seat: usize, bits: u8) {
        self.hash ^= KEYS.castle[seat][self.castling[seat] as usize];
        self.castling[seat] = bits;
        self.hash ^= KEYS.castle[seat][bits as usize];
    }

    pub(super) fn set_status(&mut self, seat: usize, status: SeatStatus) {
        self.hash ^= KEYS.status[seat][self.status[seat] as usize];
        self.status[seat] = status;
        self.hash ^= KEYS.status[seat][status as usize];
    }

    pub(super) fn set_turn(&mut self, seat: Seat) {
        self.hash ^= KEYS.turn[self.turn.index()];
        self.turn = seat;
        self.hash ^= KEYS.turn[seat.index()];
    }
}
