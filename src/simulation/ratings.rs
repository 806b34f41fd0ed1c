//! Ratings: a simple four-player Elo (each game is three pairwise results per seat, by final
//! points), applied in game order.

use std::collections::HashMap;

use crate::rules::geometry::Seat;

use super::simulated_game::SimulatedGame;

/// K-factor of one game (shared over the three pairwise results).
const K: f64 = 32.0;

/// Rating changes of one game from the ratings before it and the final points.
pub(super) fn elo_deltas(before: [i32; 4], points: [i32; 4]) -> [i32; 4] {
    std::array::from_fn(|i| {
        let mut sum = 0.0;
        for j in 0..4 {
            if i == j {
                continue;
            }
            let expected = 1.0 / (1.0 + 10f64.powf(f64::from(before[j] - before[i]) / 400.0));
            let actual = match points[i].cmp(&points[j]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            sum += actual - expected;
        }
        (K / 3.0 * sum).round() as i32
    })
}

/// `RedElo`, `BlueElo`, ...
pub(super) fn elo_tag(seat: Seat) -> &'static str {
    ["RedElo", "BlueElo", "YellowElo", "GreenElo"][seat.index()]
}

/// The final points of a game, read from its own `Result` tag (written in seat order).
fn points_of(pgn4: &str) -> Option<[i32; 4]> {
    let line = pgn4.lines().find(|l| l.starts_with("[Result \""))?;
    let value = line.strip_prefix("[Result \"")?.strip_suffix("\"]")?;
    let mut points = [0; 4];
    let mut entries = value.split(" - ");
    for p in &mut points {
        *p = entries.next()?.rsplit_once(':')?.1.trim().parse().ok()?;
    }
    Some(points)
}

/// Replace the value of the tag line `[name "..."]`.
fn set_tag(pgn4: &mut String, name: &str, value: &str) {
    let open = format!("[{name} \"");
    if let Some(at) = pgn4.find(&open) {
        let from = at + open.len();
        if let Some(len) = pgn4[from..].find("\"]") {
            pgn4.replace_range(from..from + len, value);
        }
    }
}

/// Rate games in order: each player starts from the rating of their first game (the
/// `rating_before` that `Plan::play` gives, the player's drawn starting rating) and carries
/// it from game to game. Sets every seat's `rating_before`/`rating_after` and the PGN4 `Elo`
/// tags. Games are taken in slice order (`simulate` passes them in played order).
pub fn rate(games: &mut [SimulatedGame]) {
    let mut current: HashMap<String, i32> = HashMap::new();
    for game in games.iter_mut() {
        let before: [i32; 4] = std::array::from_fn(|i| {
            let seat = &game.seats[i];
            *current
                .entry(seat.player.clone())
                .or_insert(seat.rating_before)
        });
        // A game whose Result cannot be read keeps the ratings unchanged.
        let deltas = points_of(&game.pgn4).map_or([0; 4], |p| elo_deltas(before, p));
        for seat in Seat::ALL {
            let i = seat.index();
            let after = before[i] + deltas[i];
            let s = &mut game.seats[i];
            s.rating_before = before[i];
            s.rating_after = after;
            current.insert(s.player.clone(), after);
            set_tag(&mut game.pgn4, elo_tag(seat), &before[i].to_string());
        }
    }
}
