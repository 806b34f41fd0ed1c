//! A sanction as a listing shows it: with its player, the deciding admin's note, whether it
//! is in force, and its appeal.

use chrono::{DateTime, TimeDelta, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::views::appeals::AppealView;
use crate::api::views::sanctions::SanctionView;
use crate::moderation::Language;
use crate::store::sanction_listing::SanctionListing;
use crate::store::to_utc;

/// A sanction with its player, the note the deciding admin wrote, whether it is in force, and
/// its appeal.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionListingView {
    pub sanction: SanctionView,
    pub player: String,
    /// The decision's note: why the sanction was imposed, in English.
    pub note: String,
    /// The language the player was told it in (their last known one), else English.
    pub language: Language,
    /// The note as the player was told it, in `language`.
    pub player_note: String,
    /// In force at the moment of the read: started, not lifted, not yet ended.
    pub in_force: bool,
    /// The appeal against it; null if none was filed.
    pub appeal: Option<AppealView>,
    /// Until when it can be appealed; null once appealed, lifted, or past the window.
    pub appeal_until: Option<DateTime<Utc>>,
    /// A separation's members by name (any of them may appeal it); empty for other kinds.
    pub members: Vec<String>,
}

impl SanctionListingView {
    /// The view at `now`, with the policy's appeal window in days.
    pub fn new(
        listing: SanctionListing,
        now: DateTime<Utc>,
        appeal_window_days: u32,
    ) -> Result<Self, ApiError> {
        let in_force = listing.sanction.to_policy().is_active(now);
        let lifted = listing.sanction.lifted_at.is_some();
        let window_end =
            to_utc(listing.sanction.starts_at) + TimeDelta::days(i64::from(appeal_window_days));
        let appeal_until =
            (listing.appeal.is_none() && !lifted && window_end > now).then_some(window_end);
        Ok(SanctionListingView {
            note: listing.sanction.note.clone(),
            language: listing.sanction.language.unwrap_or(Language::En),
            player_note: listing
                .sanction
                .player_note
                .clone()
                .unwrap_or_else(|| listing.sanction.note.clone()),
            sanction: SanctionView::from_row(listing.sanction)?,
            player: listing.player,
            in_force,
            appeal: listing.appeal.map(AppealView::from_row).transpose()?,
            appeal_until,
            members: listing.members,
        })
    }
}
