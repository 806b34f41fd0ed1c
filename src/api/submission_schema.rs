//! The OpenAPI schema of the game submission body (`POST /api/v1/games`). The archive's
//! `Submission` and its parts stay free of `utoipa`; these mirrors carry the document's
//! descriptions (serde's attributes here only tell the schema which fields are optional and
//! that no others are accepted), and a test holds their fields to the ones the archive reads.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::archive::{ChatChannel, EventKind, SeatColour};

/// A finished game as a game server posts it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Submission)]
#[allow(dead_code)]
pub struct SubmissionSchema {
    /// The game's PGN4 text.
    pgn4: String,
    /// The site's game number; defaults to the `GameNr` tag (and must agree with it). A
    /// positive whole number without sign or leading zeros, at most 2^53 - 1.
    #[schema(value_type = Option<String>, example = "104071136")]
    site_game_id: Option<String>,
    /// The four seats; defaults to the PGN4 player and rating tags.
    #[serde(default)]
    seats: Vec<SeatInputSchema>,
    started_at: Option<DateTime<Utc>>,
    ended_at: Option<DateTime<Utc>>,
    #[serde(default)]
    chat: Vec<ChatInputSchema>,
    #[serde(default)]
    events: Vec<EventInputSchema>,
}

/// One seat as the game server reports it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SeatInput)]
#[allow(dead_code)]
pub struct SeatInputSchema {
    seat: SeatColour,
    player: String,
    rating_before: Option<i32>,
    rating_after: Option<i32>,
    /// Opaque hash of the player's device fingerprint.
    device_fp: Option<String>,
    /// Opaque hash of the player's network fingerprint.
    network_fp: Option<String>,
}

/// One chat line.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ChatInput)]
#[allow(dead_code)]
pub struct ChatInputSchema {
    /// Plies played when the line was sent (0 = before the first move).
    ply: u32,
    at: Option<DateTime<Utc>>,
    sender: String,
    channel: ChatChannel,
    text: String,
}

/// One connection or game event.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = EventInput)]
#[allow(dead_code)]
pub struct EventInputSchema {
    kind: EventKind,
    seat: SeatColour,
    /// Plies played when the event happened.
    ply: u32,
    at: Option<DateTime<Utc>>,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::{json, Value};

    use crate::archive::Submission;

    fn keys(value: &Value) -> BTreeSet<String> {
        value.as_object().expect("object").keys().cloned().collect()
    }

    fn properties<T: utoipa::PartialSchema>() -> BTreeSet<String> {
        keys(&serde_json::to_value(T::schema()).expect("schema")["properties"])
    }

    /// Every field of the archive's submission (all of them filled in) is a property of the
    /// documented schema, and no property is missing from the submission.
    #[test]
    fn the_schemas_have_the_fields_the_archive_reads() {
        let full: Submission = serde_json::from_value(json!({
            "pgn4": "text",
            "site_game_id": "1",
            "seats": [{ "seat": "red", "player": "a", "rating_before": 1, "rating_after": 2,
                        "device_fp": "d", "network_fp": "n" }],
            "started_at": "2026-01-01T00:00:00Z",
            "ended_at": "2026-01-01T00:10:00Z",
            "chat": [{ "ply": 0, "at": "2026-01-01T00:00:00Z", "sender": "a",
                       "channel": "game", "text": "hi" }],
            "events": [{ "kind": "resign", "seat": "red", "ply": 1,
                         "at": "2026-01-01T00:01:00Z" }],
        }))
        .expect("a full submission");
        let written = serde_json::to_value(&full).expect("json");
        assert_eq!(keys(&written), properties::<super::SubmissionSchema>());
        assert_eq!(
            keys(&written["seats"][0]),
            properties::<super::SeatInputSchema>()
        );
        assert_eq!(
            keys(&written["chat"][0]),
            properties::<super::ChatInputSchema>()
        );
        assert_eq!(
            keys(&written["events"][0]),
            properties::<super::EventInputSchema>()
        );
    }
}
