//! Move choice: a one-ply greedy bot. Each legal move is scored by what it captures, checks
//! and mates, minus what it leaves hanging, plus noise (the player's lack of skill); stances
//! toward colluding partners forbid or prefer some moves.

use rand::rngs::StdRng;
use rand::Rng;

use crate::rules::geometry::Seat;
use crate::rules::piece::{Piece, PieceKind};
use crate::rules::position::{Move, MoveList, Position, SeatStatus};

use super::population::{CaptureRule, Stance};

/// What a bot knows about itself when choosing.
pub(super) struct Chooser<'a> {
    pub me: Seat,
    /// Stance toward each seat (its own entry unused).
    pub stances: &'a [Stance; 4],
    pub noise: f64,
    /// This turn, prefer leaving a piece en prise to a partner it feeds.
    pub feed_now: bool,
}

/// Value of a piece for the bot's arithmetic (a live king counts as what capturing it scores).
fn value(kind: PieceKind) -> f64 {
    f64::from(kind.ffa_value())
}

/// One candidate, evaluated.
struct Candidate {
    mv: Move,
    score: f64,
    /// Breaks a stance (captures or checks whom it should not).
    violates: bool,
    gift: bool,
}

impl Chooser<'_> {
    /// Pick a move among `moves` (non-empty, all legal in `pos` for `self.me`).
    pub fn choose(
        &self,
        pos: &Position,
        moves: &[Move],
        scratch: &mut MoveList,
        rng: &mut StdRng,
    ) -> Option<Move> {
        let me = self.me;
        let walking = pos.status(me) == SeatStatus::Walking;
        // Live opponents whose pieces can take back: every other seat still in play.
        let enemies: u8 = pos
            .seats_in_play()
            .filter(|&s| s != me)
            .fold(0, |m, s| m | 1 << s.index());
        let gift_to: u8 = if self.feed_now && !walking {
            Seat::ALL
                .into_iter()
                .filter(|&s| {
                    s != me && self.stances[s.index()].gifts && pos.status(s) == SeatStatus::Active
                })
                .fold(0, |m, s| m | 1 << s.index())
        } else {
            0
        };
        let mut best: Option<Candidate> = None;
        let mut best_allowed: Option<Candidate> = None;
        for &mv in moves {
            let c = self.evaluate(pos, mv, enemies, gift_to, walking, scratch, rng);
            let r = rank(&c);
            let slot = if c.violates {
                &mut best
            } else {
                &mut best_allowed
            };
            if slot.as_ref().is_none_or(|b| r > rank(b)) {
                *slot = Some(c);
            }
        }
        // A stance yields only when every legal move would break it.
        best_allowed.or(best).map(|c| c.mv)
    }

    #[allow(clippy::too_many_arguments)]
    fn evaluate(
        &self,
        pos: &Position,
        mv: Move,
        enemies: u8,
        gift_to: u8,
        walking: bool,
        scratch: &mut MoveList,
        rng: &mut StdRng,
    ) -> Candidate {
        let me = self.me;
        let mine = 1u8 << me.index();
        let mut next = *pos;
        let effect = next.make(mv);
        let moved = effect.piece;
        let mut violates = false;
        let mut score = 0.0;
        // Walking kings move at random and score nothing; they still honour stances.
        let noise = if walking { 10.0 } else { self.noise };
        if let Some((victim, _)) = effect.captured {
            violates |= self.forbidden_capture(&next, victim, mv);
            if !victim.dead {
                score += value(victim.kind);
            }
        }
        let gain = score;
        for seat in Seat::ALL {
            if seat == me || next.status(seat) == SeatStatus::Out {
                continue;
            }
            let Some(king) = next.king_square(seat) else {
                continue;
            };
            if !next.is_attacked_by(king, mine) {
                continue;
            }
            if self.stances[seat.index()].no_check {
                violates = true;
            }
            if next.status(seat) == SeatStatus::Active {
                score += 0.5;
                // Mate now (the site's FFA mates immediately): the move that ends a player.
                if !next.with_turn(seat).has_legal_move_with(scratch) {
                    score += 20.0;
                }
            }
        }
        if mv.promotion != 0 {
            score += 2.0;
        }
        if !walking && moved.kind != PieceKind::King {
            // One-ply safety: moving onto a square a live opponent attacks loses the piece.
            let v = value(moved.kind);
            if v > gain && next.is_attacked_by(mv.to, enemies) {
                score -= 0.9 * v;
            } else if v >= 3.0 && pos.is_attacked_by(mv.from, enemies) {
                // Saving a piece that was attacked.
                score += 0.5 * v;
            }
        }
        let gift = gift_to != 0 && self.leaves_gift(&next, gift_to, enemies);
        score += rng.gen::<f64>() * noise;
        Candidate {
            mv,
            score,
            violates,
            gift,
        }
    }

    /// Whether capturing `victim` breaks the mover's stance toward its owner.
    fn forbidden_capture(&self, after: &Position, victim: Piece, mv: Move) -> bool {
        if victim.seat == self.me {
            return false;
        }
        match self.stances[victim.seat.index()].capture {
            CaptureRule::Any => false,
            CaptureRule::Never => true,
            // A gift is a piece its owner cannot take back.
            CaptureRule::FreeOnly => after.is_attacked_by(mv.to, 1 << victim.seat.index()),
        }
    }

    /// After the move, one of the mover's live pieces worth 3 or more is attacked by a partner
    /// it feeds, by no other opponent, and is not defended: a gift the partner will take.
    fn leaves_gift(&self, after: &Position, gift_to: u8, enemies: u8) -> bool {
        let me = self.me;
        let others = enemies & !gift_to;
        after.pieces_of(me).iter().any(|&sq| {
            after.piece_at(sq).is_some_and(|p| {
                !p.dead
                    && p.kind != PieceKind::King
                    && p.kind.ffa_value() >= 3
                    && after.is_attacked_by(sq, gift_to)
                    && !after.is_attacked_by(sq, others)
                    && !after.is_attacked_by(sq, 1 << me.index())
            })
        })
    }
}

/// Gifts first (on a feeding turn), then score.
fn rank(c: &Candidate) -> (bool, f64) {
    (c.gift, c.score)
}
