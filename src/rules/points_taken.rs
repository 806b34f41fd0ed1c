//! Who took points from whom in one replayed game: the points each seat scored off each
//! other seat, by capture and by mate.

use super::game::EliminationCause;
use super::piece::PieceKind;
use super::replay::Replay;

/// `taken[a][b]`: points `a` scored by capturing `b`'s live pieces (a walking king counts as
/// the king's value) and by mating `b`.
pub fn points_taken(replay: &Replay) -> [[i32; 4]; 4] {
    let mut taken = [[0; 4]; 4];
    let mut before = [0i32; 4];
    for ply in &replay.plies {
        let mover = ply.mover.index();
        let gained = ply.points_after[mover] - before[mover];
        if let Some(piece) = ply.captured {
            if !piece.dead && gained > 0 {
                let value = if piece.kind == PieceKind::King {
                    replay.rules.mate_points
                } else {
                    piece.kind.ffa_value()
                };
                taken[mover][piece.seat.index()] += value.min(gained);
            }
        }
        for e in &ply.eliminations {
            if let (EliminationCause::Mated, Some(by)) = (e.cause, e.by) {
                taken[by.index()][e.seat.index()] += replay.rules.mate_points;
            }
        }
        before = ply.points_after;
    }
    taken
}
