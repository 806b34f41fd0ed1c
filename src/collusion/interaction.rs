//! How each player of one replayed FFA or Solo game treated each opponent, turn by turn: the
//! chances to take a piece or give check, how many were taken, and the pieces a player left
//! hanging to one opponent in particular. Colluders spare each other (chances not taken) or
//! feed each other (pieces left hanging to the partner); an honest player's chances and gifts
//! spread over all opponents alike.

use crate::rules::game::EliminationCause;
use crate::rules::geometry::{Seat, Square};
use crate::rules::piece::PieceKind;
use crate::rules::points_taken::points_taken;
use crate::rules::position::{MoveList, Position, SeatStatus};
use crate::rules::replay::Replay;
use crate::rules::ruleset::Scoring;

/// Lowest value of a spared capture or a gift listed as a surprising moment (a bishop or rook).
pub const MOMENT_VALUE: i32 = 5;
/// Surprising moments kept per player, opponent and game.
pub const MOMENTS_KEPT: usize = 8;

/// Where the opponent sits relative to the player, in turn order. The opposite seat
/// interacts less (its pieces start farther away), and a piece left hanging to the next seat
/// is taken before the player can save it, so every baseline is kept per relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeatGeometry {
    /// The opponent moves right after the player.
    Next,
    Opposite,
    /// The opponent moved right before the player.
    Previous,
}

impl SeatGeometry {
    pub const ALL: [SeatGeometry; 3] = [
        SeatGeometry::Next,
        SeatGeometry::Opposite,
        SeatGeometry::Previous,
    ];

    /// Where `b` sits as seen from `a`.
    pub fn of(a: Seat, b: Seat) -> SeatGeometry {
        match (b.index() + 4 - a.index()) % 4 {
            1 => SeatGeometry::Next,
            2 => SeatGeometry::Opposite,
            _ => SeatGeometry::Previous,
        }
    }

    /// Seats from the player to the opponent in turn order: 1, 2 or 3.
    pub fn offset(self) -> i16 {
        self as i16 + 1
    }

    pub fn from_offset(offset: i16) -> Option<SeatGeometry> {
        SeatGeometry::ALL.into_iter().find(|g| g.offset() == offset)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SeatGeometry::Next => "next",
            SeatGeometry::Opposite => "opposite",
            SeatGeometry::Previous => "previous",
        }
    }
}

/// A surprising moment: the ply, and what was spared or given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    pub ply: u32,
    pub kind: MomentKind,
    pub piece: PieceKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MomentKind {
    /// The player could take this undefended (or cheaply attacked) piece of the opponent's and
    /// took nothing of the opponent's.
    SparedCapture,
    /// The player's move left this piece hanging to the opponent.
    Gift,
}

/// What player `a` did toward opponent `b` in one game, over `a`'s moves while both were in
/// play. Every count is of turns: at most one per turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairPlay {
    /// `a`'s moves while `b` was in play.
    pub turns: u32,
    /// Turns on which `a` could legally take a piece of `b`'s that was free: undefended by `b`,
    /// or worth more than `a`'s cheapest attacker of it.
    pub capture_chances: u32,
    /// Of those, turns on which `a` took a piece of `b`'s.
    pub captures: u32,
    /// Turns on which `a` had a legal move giving `b` check.
    pub check_chances: u32,
    /// Of those, turns on which `a` gave `b` check.
    pub checks: u32,
    /// Turns on which `a`'s move left a piece of `a`'s (a knight or more) newly free for `b`.
    pub gifts: u32,
    /// Points `a` scored by taking `b`'s pieces or mating `b`.
    pub points_taken: i32,
    /// The first few spared captures and gifts worth [`MOMENT_VALUE`] or more.
    pub moments: Vec<Moment>,
}

/// One player's standing at the end of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatEnd {
    /// 1-based placement (ties share the better place).
    pub placement: u8,
    pub points: i32,
    /// The player resigned or ran out of time (rather than being mated or stalemated).
    pub left: bool,
}

/// The interactions of one game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameInteractions {
    /// `pairs[a][b]`: what seat `a` did toward seat `b` (the diagonal stays empty).
    pub pairs: [[PairPlay; 4]; 4],
    pub ends: [SeatEnd; 4],
}

impl GameInteractions {
    pub fn pair(&self, a: Seat, b: Seat) -> &PairPlay {
        &self.pairs[a.index()][b.index()]
    }
}

/// Whether a game's rules make collusion a question: every player for themself, scored by
/// points (FFA and Solo). Teams games have partners by design.
pub fn applies_to(replay: &Replay) -> bool {
    replay.rules.scoring == Scoring::Points && !replay.rules.moves.has_partners()
}

/// The interactions of a replayed game; `None` for games [`applies_to`] rejects.
pub fn interactions(replay: &Replay) -> Option<GameInteractions> {
    if !applies_to(replay) {
        return None;
    }
    let mut pairs: [[PairPlay; 4]; 4] = Default::default();
    let mut moves = MoveList::new();
    for (i, ply) in replay.plies.iter().enumerate() {
        let (Some(played), Some(before), Some(after)) =
            (ply.played, replay.position_at(i), replay.position_at(i + 1))
        else {
            continue;
        };
        let a = ply.mover;
        if before.status(a) != SeatStatus::Active {
            continue;
        }
        let opponents: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&b| b != a && before.status(b) == SeatStatus::Active)
            .collect();
        let chances = chances_of(before, a, &mut moves);
        let ply_number = u32::try_from(i).unwrap_or(u32::MAX);
        for &b in &opponents {
            let pair = &mut pairs[a.index()][b.index()];
            pair.turns += 1;
            let took = ply.captured.is_some_and(|p| p.seat == b && !p.dead);
            if let Some(best) = chances.free_capture[b.index()] {
                pair.capture_chances += 1;
                if took {
                    pair.captures += 1;
                } else if best.ffa_value() >= MOMENT_VALUE {
                    note(pair, ply_number, MomentKind::SparedCapture, best);
                }
            }
            if chances.check[b.index()] {
                pair.check_chances += 1;
                if ply.checks.contains(&b) {
                    pair.checks += 1;
                }
            }
            if after.status(b) != SeatStatus::Active {
                continue;
            }
            if let Some(gift) = new_gift(before, after, a, b, played.to) {
                pair.gifts += 1;
                if gift.ffa_value() >= MOMENT_VALUE {
                    note(pair, ply_number, MomentKind::Gift, gift);
                }
            }
        }
    }
    let taken = points_taken(replay);
    for a in 0..4 {
        for b in 0..4 {
            pairs[a][b].points_taken = taken[a][b];
        }
    }
    let points = replay.points_at(replay.plies.len()).unwrap_or([0; 4]);
    let ends = std::array::from_fn(|s| SeatEnd {
        placement: replay.standing.placement[s],
        points: points[s],
        left: replay.eliminations().iter().any(|e| {
            e.seat.index() == s
                && matches!(
                    e.cause,
                    EliminationCause::Resigned | EliminationCause::TimedOut
                )
        }),
    });
    Some(GameInteractions { pairs, ends })
}

fn note(pair: &mut PairPlay, ply: u32, kind: MomentKind, piece: PieceKind) {
    if pair.moments.len() < MOMENTS_KEPT {
        pair.moments.push(Moment { ply, kind, piece });
    }
}

/// What the side to move could do to each opponent.
struct Chances {
    /// The most valuable free piece of each seat the mover could legally take.
    free_capture: [Option<PieceKind>; 4],
    /// Whether the mover had a legal move checking each seat.
    check: [bool; 4],
}

fn chances_of(position: &Position, mover: Seat, moves: &mut MoveList) -> Chances {
    let mut chances = Chances {
        free_capture: [None; 4],
        check: [false; 4],
    };
    moves.clear();
    position.legal_moves(moves);
    let targets: Vec<Seat> = Seat::ALL
        .into_iter()
        .filter(|&b| b != mover && position.status(b) == SeatStatus::Active)
        .collect();
    for mv in moves.iter() {
        if let Some(victim) = position.piece_at(mv.to) {
            let b = victim.seat;
            if !victim.dead
                && b != mover
                && victim.kind != PieceKind::King
                && is_free(position, mv.to, b, mover)
            {
                let best = &mut chances.free_capture[b.index()];
                if best.is_none_or(|k| k.ffa_value() < victim.kind.ffa_value()) {
                    *best = Some(victim.kind);
                }
            }
        }
        if targets.iter().all(|b| chances.check[b.index()]) {
            continue;
        }
        let mut next = *position;
        next.make(*mv);
        for &b in &targets {
            if !chances.check[b.index()] && next.in_check(b) {
                chances.check[b.index()] = true;
            }
        }
    }
    chances
}

/// Whether `owner`'s piece on `sq` is free for `taker`: `owner` does not defend it, or
/// `taker`'s cheapest attacker is worth less than the piece.
fn is_free(position: &Position, sq: Square, owner: Seat, taker: Seat) -> bool {
    let Some(piece) = position.piece_at(sq) else {
        return false;
    };
    let attackers = position.attackers_of_seat(sq, taker);
    let Some(cheapest) = attackers.iter().map(|(_, k)| k.ffa_value()).min() else {
        return false;
    };
    !position.is_attacked_by(sq, 1 << owner.index()) || cheapest < piece.kind.ffa_value()
}

/// The most valuable piece of `a`'s (a knight or more, not the king) free for `b` after `a`'s
/// move and not before it: the moved piece, or one the move uncovered.
fn new_gift(
    before: &Position,
    after: &Position,
    a: Seat,
    b: Seat,
    moved_to: Square,
) -> Option<PieceKind> {
    let mut best: Option<PieceKind> = None;
    for &sq in after.pieces_of(a) {
        let Some(piece) = after.piece_at(sq) else {
            continue;
        };
        if piece.dead || piece.kind == PieceKind::King || piece.kind.ffa_value() < 3 {
            continue;
        }
        if !is_free(after, sq, a, b) {
            continue;
        }
        let was_free =
            sq != moved_to && before.piece_at(sq) == Some(piece) && is_free(before, sq, a, b);
        if !was_free && best.is_none_or(|k| k.ffa_value() < piece.kind.ffa_value()) {
            best = Some(piece.kind);
        }
    }
    best
}

impl MomentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MomentKind::SparedCapture => "spared",
            MomentKind::Gift => "gift",
        }
    }
}

/// Moments as stored: `ply:kind:piece` items joined by spaces (`41:spared:R 57:gift:Q`).
pub fn encode_moments(moments: &[Moment]) -> String {
    moments
        .iter()
        .map(|m| format!("{}:{}:{}", m.ply, m.kind.as_str(), m.piece.letter()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads [`encode_moments`]' text back; items it cannot read are skipped.
pub fn decode_moments(text: &str) -> Vec<Moment> {
    text.split_whitespace()
        .filter_map(|item| {
            let mut parts = item.split(':');
            let ply = parts.next()?.parse().ok()?;
            let kind = match parts.next()? {
                "spared" => MomentKind::SparedCapture,
                "gift" => MomentKind::Gift,
                _ => return None,
            };
            let piece = PieceKind::from_letter(parts.next()?.chars().next()?)?;
            Some(Moment { ply, kind, piece })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_read_back() {
        let moments = [
            Moment {
                ply: 41,
                kind: MomentKind::SparedCapture,
                piece: PieceKind::Rook,
            },
            Moment {
                ply: 57,
                kind: MomentKind::Gift,
                piece: PieceKind::Queen,
            },
        ];
        let text = encode_moments(&moments);
        assert_eq!(text, "41:spared:R 57:gift:Q");
        assert_eq!(decode_moments(&text), moments);
        assert!(decode_moments("x:y bad 3:gift:Z").is_empty());
        assert_eq!(
            SeatGeometry::of(Seat::Red, Seat::Yellow),
            SeatGeometry::Opposite
        );
        assert_eq!(SeatGeometry::of(Seat::Green, Seat::Red), SeatGeometry::Next);
        assert_eq!(
            SeatGeometry::of(Seat::Red, Seat::Green),
            SeatGeometry::Previous
        );
        assert_eq!(SeatGeometry::from_offset(3), Some(SeatGeometry::Previous));
        assert_eq!(SeatGeometry::from_offset(0), None);
    }
}
