//! A player's archive record and the games two players shared.

use serde::Serialize;
use utoipa::ToSchema;

use crate::api::views::games::{GameSummary, SeatView};

#[derive(Debug, Serialize, ToSchema)]
pub struct VariantCount {
    pub variant: String,
    pub games: i64,
}

/// Games finished in each place.
#[derive(Debug, Serialize, ToSchema)]
pub struct Placements {
    pub first: i64,
    pub second: i64,
    pub third: i64,
    pub fourth: i64,
}

/// A player's archive record.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerSummaryView {
    pub player: String,
    pub games: i64,
    pub by_variant: Vec<VariantCount>,
    pub placements: Placements,
    /// Games this player aborted (the count the site shows publicly).
    pub aborted: i64,
}

/// One player's side of a shared game.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideView {
    #[serde(flatten)]
    pub seat: SeatView,
    /// Points this player took from the other.
    pub points_taken_from_other: Option<i32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SharedGame {
    pub game: GameSummary,
    pub player: Option<SideView>,
    pub other: Option<SideView>,
}
