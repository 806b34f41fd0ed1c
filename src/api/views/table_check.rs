//! The table check's answer: may these players start a game together?

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::{KeptApart, SeatVerdict, TableVerdict};

/// Whether the table may start: every player may play and no separation holds two of them.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableCheckView {
    pub may_start: bool,
    /// Each player in the order given.
    pub players: Vec<TablePlayerView>,
    /// Every pair of these players a separation in force keeps apart.
    pub kept_apart: Vec<KeptApartView>,
    pub at: DateTime<Utc>,
}

/// One player's permission to play now (their standing's `may_play`).
#[derive(Debug, Serialize, ToSchema)]
pub struct TablePlayerView {
    #[schema(example = "Spaksi")]
    pub name: String,
    pub may_play: bool,
    /// Until when they may not play; null when they may, or for ever.
    pub play_until: Option<DateTime<Utc>>,
}

/// Two players a separation keeps apart.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeptApartView {
    /// The two players, in the order given.
    #[schema(example = json!(["Spaksi", "Ally"]))]
    pub players: [String; 2],
    /// The separation (a sanction of kind `separation`).
    pub separation_id: i64,
    /// When the separation ends after appeals; null: permanent.
    pub ends_at: Option<DateTime<Utc>>,
}

impl TableCheckView {
    pub fn new(verdict: TableVerdict, at: DateTime<Utc>) -> TableCheckView {
        TableCheckView {
            may_start: verdict.may_start,
            players: verdict
                .seats
                .into_iter()
                .map(TablePlayerView::from)
                .collect(),
            kept_apart: verdict
                .kept_apart
                .into_iter()
                .map(KeptApartView::from)
                .collect(),
            at,
        }
    }
}

impl From<SeatVerdict> for TablePlayerView {
    fn from(seat: SeatVerdict) -> Self {
        TablePlayerView {
            name: seat.name,
            may_play: seat.may_play,
            play_until: seat.play_until,
        }
    }
}

impl From<KeptApart> for KeptApartView {
    fn from(pair: KeptApart) -> Self {
        KeptApartView {
            players: pair.players,
            separation_id: pair.separation.0,
            ends_at: pair.ends_at,
        }
    }
}
