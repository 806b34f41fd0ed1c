//! Pseudo-legal move generation per piece kind, promotions, en passant and castling.

use super::directions::{
    direction_between, step, ALL_DIRECTIONS, DIAGONAL, KNIGHT_JUMPS, ORTHOGONAL,
};
use super::state::{CASTLE_LONG, CASTLE_SHORT};
use super::{Move, MoveKind, MoveList, Position};
use crate::rules::geometry::{Seat, Square};
use crate::rules::piece::*;
use crate::rules::ruleset::EnPassant;

impl Position {
    /// Pseudo-legal moves; with `fast_legal`, pins are honoured and king moves tested, so the
    /// moves are legal (the caller is not in check); en passant is always tested in full.
    pub(super) fn pseudo_moves(
        &self,
        s: usize,
        out: &mut MoveList,
        pins: &[(Square, i16)],
        fast_legal: bool,
    ) {
        self.pseudo_moves_of(s, out, pins, fast_legal, None);
    }

    /// As `pseudo_moves`, restricted to the piece on `only` when given.
    pub(super) fn pseudo_moves_of(
        &self,
        s: usize,
        out: &mut MoveList,
        pins: &[(Square, i16)],
        fast_legal: bool,
        only: Option<Square>,
    ) {
        let friendly = self.friendly_mask(s);
        let enemies = self.enemy_mask(s);
        for i in 0..self.piece_count[s] as usize {
            let from = self.pieces[s][i];
            let code = self.board[from as usize];
            if code & DEAD != 0 || only.is_some_and(|o| o != from) {
                continue;
            }
            let pin = pin_of(pins, from);
            match kind_of(code) {
                PAWN => self.pawn_moves(s, from, pin, friendly, out),
                KNIGHT => {
                    if pin == 0 {
                        self.knight_moves(from, friendly, out);
                    }
                }
                KING => self.king_moves(s, from, friendly, enemies, fast_legal, out),
                BISHOP => self.slider_moves(&DIAGONAL, from, pin, friendly, out),
                ROOK => self.slider_moves(&ORTHOGONAL, from, pin, friendly, out),
                _ => self.slider_moves(&ALL_DIRECTIONS, from, pin, friendly, out),
            }
        }
        if self.rules.en_passant != EnPassant::Off {
            let before = out.len();
            self.en_passant_moves(s, friendly, fast_legal, out);
            if let Some(o) = only {
                out.retain_from(before, |mv| mv.from == o);
            }
        }
    }

    /// Pushes, double pushes and captures of the pawn on `from`, promoting where it lands on
    /// its promotion rank (judged by the square straight ahead; a capture lands on that rank
    /// too) or on an opponent's back rank.
    #[inline]
    fn pawn_moves(&self, s: usize, from: Square, pin: i16, friendly: u8, out: &mut MoveList) {
        let b = &self.board;
        let seat = Seat::from_index(s);
        let fwd = seat.forward();
        let side = seat.sideways();
        let promo_rank = self.rules.promotion_rank as i16 - 1;
        let to = step(from, fwd);
        let rel_to = self.geometry.relative_rank(seat, to);
        if b[to as usize] == EMPTY && pin_allows(pin, fwd) {
            if rel_to == promo_rank || self.on_opponents_back_rank(seat, to) {
                self.push_promotions(out, from, to, MoveKind::Normal);
            } else {
                push_normal(out, from, to);
                self.double_push(seat, from, to, out);
            }
        }
        for d in [fwd + side, fwd - side] {
            if !pin_allows(pin, d) {
                continue;
            }
            let to = step(from, d);
            if self.capturable(b[to as usize], friendly) {
                if rel_to == promo_rank || self.on_opponents_back_rank(seat, to) {
                    self.push_promotions(out, from, to, MoveKind::Normal);
                } else {
                    push_normal(out, from, to);
                }
            }
        }
    }

    /// The two-square push of a pawn still on its base rank, `to` being the empty square it
    /// crosses.
    #[inline(always)]
    fn double_push(&self, seat: Seat, from: Square, to: Square, out: &mut MoveList) {
        let base_rank = self.rules.pawn_base_rank as i16 - 1;
        let to2 = step(to, seat.forward());
        if self.geometry.relative_rank(seat, from) == base_rank && self.board[to2 as usize] == EMPTY
        {
            out.push(Move {
                from,
                to: to2,
                kind: MoveKind::DoublePush,
                promotion: 0,
            });
        }
    }

    /// Jumps of an unpinned knight onto empty or capturable squares.
    #[inline]
    fn knight_moves(&self, from: Square, friendly: u8, out: &mut MoveList) {
        for &j in &KNIGHT_JUMPS {
            let to = step(from, j);
            let c = self.board[to as usize];
            if c == EMPTY || self.capturable(c, friendly) {
                push_normal(out, from, to);
            }
        }
    }

    /// Single steps of the king (onto unattacked squares with `fast_legal`), then castling.
    #[inline]
    fn king_moves(
        &self,
        s: usize,
        from: Square,
        friendly: u8,
        enemies: u8,
        fast_legal: bool,
        out: &mut MoveList,
    ) {
        for &d in &ALL_DIRECTIONS {
            let to = step(from, d);
            let c = self.board[to as usize];
            if (c == EMPTY || self.capturable(c, friendly))
                && (!fast_legal || !self.is_attacked_by(to, enemies))
            {
                push_normal(out, from, to);
            }
        }
        if self.castling[s] != 0 && fast_legal {
            self.castles(s, from, enemies, out);
        }
    }

    /// Rays of a bishop, rook or queen along `dirs` (those its pin allows), over empty
    /// squares up to and including a capturable piece.
    #[inline]
    fn slider_moves(&self, dirs: &[i16], from: Square, pin: i16, friendly: u8, out: &mut MoveList) {
        for &d in dirs {
            if !pin_allows(pin, d) {
                continue;
            }
            let mut to = step(from, d);
            loop {
                let c = self.board[to as usize];
                if c == EMPTY {
                    push_normal(out, from, to);
                    to = step(to, d);
                    continue;
                }
                if self.capturable(c, friendly) {
                    push_normal(out, from, to);
                }
                break;
            }
        }
    }

    /// A square on an opponent's back rank, where the rules let a pawn promote too.
    #[inline(always)]
    fn on_opponents_back_rank(&self, seat: Seat, to: Square) -> bool {
        self.rules.promotes_on_opponents_back_rank
            && Seat::ALL.into_iter().any(|other| {
                self.are_opponents(seat, other) && self.geometry.relative_rank(other, to) == 0
            })
    }

    fn push_promotions(&self, out: &mut MoveList, from: Square, to: Square, kind: MoveKind) {
        for piece in [
            PieceKind::Queen,
            PieceKind::OnePointQueen,
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Knight,
        ] {
            if self.rules.may_promote_to(piece) {
                out.push(Move {
                    from,
                    to,
                    kind,
                    promotion: piece as u8,
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
                if test_legal && !self.leaves_king_safe(mv, s) {
                    continue;
                }
                // A double step past a pawn standing one rank short of its promotion rank (a
                // Red pawn on d10 beside Blue's b11-d11 in Teams) is taken onto that rank.
                let promo_rank = self.rules.promotion_rank as i16 - 1;
                if self.geometry.relative_rank(seat, target) == promo_rank
                    || self.on_opponents_back_rank(seat, target)
                {
                    self.push_promotions(out, from, target, MoveKind::EnPassant);
                } else {
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
}

/// The direction a piece on `sq` is pinned along (either way), or 0 when it is not pinned.
#[inline(always)]
fn pin_of(pins: &[(Square, i16)], sq: Square) -> i16 {
    for &(p, d) in pins {
        if p == sq {
            return d;
        }
    }
    0
}

/// Whether a piece pinned along `pin` (0: not pinned) may step in direction `d`.
#[inline(always)]
fn pin_allows(pin: i16, d: i16) -> bool {
    pin == 0 || pin == d || pin == -d
}

/// A plain move (no promotion, no special kind) from `from` to `to`.
#[inline(always)]
fn push_normal(out: &mut MoveList, from: Square, to: Square) {
    out.push(Move {
        from,
        to,
        kind: MoveKind::Normal,
        promotion: 0,
    });
}
