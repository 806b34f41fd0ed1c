//! A finished game as a game server posts it: the wire types of `POST /api/v1/games`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};

use crate::rules::geometry::Seat;

/// Longest player name accepted (fingerprints may be twice as long), wherever a name is taken
/// as input: seats, chat senders, player tokens, reports.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest chat line accepted.
pub const MAX_CHAT_CHARS: usize = 2000;

/// A seat colour as the API writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatColour {
    Red,
    Blue,
    Yellow,
    Green,
}

impl SeatColour {
    pub const ALL: [SeatColour; 4] = [
        SeatColour::Red,
        SeatColour::Blue,
        SeatColour::Yellow,
        SeatColour::Green,
    ];

    pub fn seat(self) -> Seat {
        Seat::from_index(self as usize)
    }

    pub fn from_seat(seat: Seat) -> SeatColour {
        SeatColour::ALL[seat.index()]
    }

    pub fn from_index(i: i16) -> Option<SeatColour> {
        usize::try_from(i)
            .ok()
            .and_then(|i| SeatColour::ALL.get(i).copied())
    }

    pub fn index(self) -> i16 {
        self as i16
    }
}

/// Where a chat line was posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    Game,
    Team,
    Spectator,
}

impl ChatChannel {
    pub const ALL: [ChatChannel; 3] =
        [ChatChannel::Game, ChatChannel::Team, ChatChannel::Spectator];

    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Game => "game",
            ChatChannel::Team => "team",
            ChatChannel::Spectator => "spectator",
        }
    }

    pub fn parse(s: &str) -> Option<ChatChannel> {
        match s {
            "game" => Some(ChatChannel::Game),
            "team" => Some(ChatChannel::Team),
            "spectator" => Some(ChatChannel::Spectator),
            _ => None,
        }
    }
}

/// A connection or game event reported by the game server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Disconnect,
    Reconnect,
    Forfeit,
    Resign,
    Timeout,
    ClaimWin,
}

impl EventKind {
    pub const ALL: [EventKind; 6] = [
        EventKind::Disconnect,
        EventKind::Reconnect,
        EventKind::Forfeit,
        EventKind::Resign,
        EventKind::Timeout,
        EventKind::ClaimWin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Disconnect => "disconnect",
            EventKind::Reconnect => "reconnect",
            EventKind::Forfeit => "forfeit",
            EventKind::Resign => "resign",
            EventKind::Timeout => "timeout",
            EventKind::ClaimWin => "claim_win",
        }
    }

    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One seat as the game server reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInput {
    pub seat: SeatColour,
    pub player: String,
    #[serde(default)]
    pub rating_before: Option<i32>,
    #[serde(default)]
    pub rating_after: Option<i32>,
    /// Opaque hash of the player's device fingerprint.
    #[serde(default)]
    pub device_fp: Option<String>,
    /// Opaque hash of the player's network fingerprint.
    #[serde(default)]
    pub network_fp: Option<String>,
}

/// One chat line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatInput {
    /// Plies played when the line was sent (0 = before the first move).
    pub ply: u32,
    #[serde(default)]
    pub at: Option<DateTime<Utc>>,
    pub sender: String,
    pub channel: ChatChannel,
    pub text: String,
}

/// One connection or game event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventInput {
    pub kind: EventKind,
    pub seat: SeatColour,
    /// Plies played when the event happened.
    pub ply: u32,
    #[serde(default)]
    pub at: Option<DateTime<Utc>>,
}

/// A finished game as a game server posts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// The game's PGN4 text.
    pub pgn4: String,
    /// The site's game number; defaults to the `GameNr` tag (and must agree with it). A
    /// positive whole number without sign or leading zeros, at most 2^53 - 1.
    #[serde(default, deserialize_with = "string_or_number")]
    pub site_game_id: Option<String>,
    /// The four seats; defaults to the PGN4 player and rating tags.
    #[serde(default)]
    pub seats: Vec<SeatInput>,
    #[serde(default)]
    pub started_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub ended_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub chat: Vec<ChatInput>,
    #[serde(default)]
    pub events: Vec<EventInput>,
}

pub(super) fn string_or_number<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Text(String),
        // Any JSON number, so `-5` or `1e30` reach the game-number rule and its 422.
        Number(serde_json::Number),
    }
    Ok(Option::<Id>::deserialize(d)?.map(|id| match id {
        Id::Text(s) => s,
        Id::Number(n) => n.to_string(),
    }))
}

impl Submission {
    /// A bare PGN4 text (no chat, seats from the tags).
    pub fn from_pgn4(text: String) -> Submission {
        Submission {
            pgn4: text,
            site_game_id: None,
            seats: Vec::new(),
            started_at: None,
            ended_at: None,
            chat: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// SHA-256 over the submission as it will be stored (the resolved game number included).
pub(super) fn content_hash(submission: &Submission, site_game_id: &str) -> String {
    let mut canonical = submission.clone();
    canonical.site_game_id = Some(site_game_id.to_string());
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    hex::encode(Sha256::digest(bytes))
}
