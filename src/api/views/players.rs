//! A player's archive record and the games two players shared.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::moderation::SanctionKind;

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

/// A sanction restricting a player now, in brief.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionInForce {
    pub id: i64,
    pub kind: SanctionKind,
    /// When it ends after reductions; null while permanent.
    pub ends_at: Option<DateTime<Utc>>,
}

/// A player found by name.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerFoundView {
    pub name: String,
    /// Games the archive holds with the player seated.
    pub games: i64,
    /// Review cases about the player still open.
    pub open_cases: i64,
    pub sanctions_in_force: Vec<SanctionInForce>,
}
