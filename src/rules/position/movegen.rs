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
                        if rel_to == promo_rank || self.on_opponents_back_rank(seat, to) {
                            self.push_promotions(out, from, to, MoveKind::Normal);
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
                            if rel_to == promo_rank || self.on_opponents_back_rank(seat, to) {
                                self.push_promotions(out, from, to, MoveKind::Normal);
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
            let before = out.len();
            self.en_passant_moves(s, friendly, fast_legal, out);
            if let Some(o) = only {
                out.retain_from(before, |mv| mv.from == o);
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
