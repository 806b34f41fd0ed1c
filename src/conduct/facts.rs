//! What the service knows about a finished game besides its moves: variant, clock, seats and
//! their ratings, and the timeline of connection and departure events.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::moderation::{GameNumber, PlayerId, Variant};
use crate::rules::geometry::Seat;

/// A seat by colour (serialisable twin of the rules core's [`Seat`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatColor {
    Red,
    Blue,
    Yellow,
    Green,
}

impl SeatColor {
    pub const ALL: [SeatColor; 4] = [
        SeatColor::Red,
        SeatColor::Blue,
        SeatColor::Yellow,
        SeatColor::Green,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn seat(self) -> Seat {
        Seat::from_index(self.index())
    }

    pub fn from_seat(seat: Seat) -> SeatColor {
        SeatColor::ALL[seat.index() & 3]
    }

    /// The seat across the board (the Teams partner).
    pub fn partner(self) -> SeatColor {
        SeatColor::ALL[(self.index() + 2) & 3]
    }
}

/// The archive's time control (one type for the abort rule and the conduct facts).
pub use super::abort::TimeControl;

/// One seat of a game: who sat there and the rating before and after (when rated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConductSeat {
    pub player: PlayerId,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameEventKind {
    /// The seat's connection dropped (60 s to reconnect: docs/rules.md, "Disconnects").
    Disconnect,
    /// The seat came back.
    Reconnect,
    /// The server forfeited the seat on time after a disconnect.
    Forfeit,
    Resign,
    Timeout,
    /// The seat claimed the win (or the server auto-claimed it for the seat).
    ClaimWin,
}

/// One event of a game. `ply` is the number of plies played when it happened (the position
/// before ply `ply` of the replay timeline is the position at the event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEvent {
    pub kind: GameEventKind,
    pub seat: SeatColor,
    pub ply: usize,
    pub at: DateTime<Utc>,
}

/// Everything about a game the outcome needs besides the replayed moves.
#[derive(Debug, Clone, PartialEq)]
pub struct ConductFacts {
    pub game: GameNumber,
    pub variant: Variant,
    /// `None` when unknown: the bullet rule then does not apply.
    pub time_control: Option<TimeControl>,
    /// The game started from a custom position (not `4PC` / `4PCo`).
    pub custom_start: bool,
    /// Red, Blue, Yellow, Green.
    pub seats: [ConductSeat; 4],
    pub events: Vec<GameEvent>,
    pub ended_at: DateTime<Utc>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_map_both_ways() {
        for c in SeatColor::ALL {
            assert_eq!(SeatColor::from_seat(c.seat()), c);
        }
        assert_eq!(SeatColor::Red.partner(), SeatColor::Yellow);
        assert_eq!(SeatColor::Green.partner(), SeatColor::Blue);
    }
}
