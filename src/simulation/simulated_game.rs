//! A simulated game as it comes out: its PGN4, its seats and its times.

use chrono::NaiveDateTime;

/// One seat of a simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedSeat {
    pub player: String,
    pub device_fp: String,
    pub network_fp: String,
    pub rating_before: i32,
    pub rating_after: i32,
}

/// One simulated game: its PGN4 export (replays exactly with `rules::replay::check`), seats
/// in Red, Blue, Yellow, Green order, and its times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedGame {
    pub site_game_id: u64,
    pub pgn4: String,
    pub seats: [SimulatedSeat; 4],
    pub started_at: NaiveDateTime,
    pub ended_at: NaiveDateTime,
}
