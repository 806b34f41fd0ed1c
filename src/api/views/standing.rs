//! A player's standing.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::views::warnings::WarningNotice;

/// What a player may do now. A `false` permission with a null end time is permanent.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingView {
    pub player: String,
    pub at: DateTime<Utc>,
    pub may_chat: bool,
    pub chat_until: Option<DateTime<Utc>>,
    pub may_play: bool,
    pub play_until: Option<DateTime<Utc>>,
    pub may_report: bool,
    pub report_until: Option<DateTime<Utc>>,
    pub club_banned: bool,
    pub club_until: Option<DateTime<Utc>>,
    /// Ids of the sanctions in force.
    pub active_sanctions: Vec<i64>,
    /// The oldest warning the player has not yet acknowledged (when the site asks warnings to
    /// be acknowledged); null when none. Show it before they chat or play again; it clears
    /// once they acknowledge it.
    pub must_acknowledge: Option<WarningNotice>,
}
