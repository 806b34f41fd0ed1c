//! A sanction as stored, and as a listing shows it (with its player and appeal).

use chrono::{DateTime, TimeDelta, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::views::appeals::AppealView;
use crate::moderation::{Ground, ReportReason, SanctionKind};
use crate::store::sanction_listing::SanctionListing;
use crate::store::sanctions::SanctionRow;
use crate::store::to_utc;

/// A sanction as stored, with its end after appeals.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionView {
    pub id: i64,
    pub case_id: Option<i64>,
    #[schema(value_type = SanctionKind)]
    pub kind: String,
    #[schema(value_type = ReportReason)]
    pub reason: String,
    #[schema(value_type = Ground)]
    pub ground: String,
    pub starts_at: DateTime<Utc>,
    /// The planned end; null for a permanent sanction.
    pub ends_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    /// When it ends after appeals (null: never).
    pub effective_end: Option<DateTime<Utc>>,
}

impl From<SanctionRow> for SanctionView {
    fn from(row: SanctionRow) -> Self {
        let effective_end = row.to_policy().ok().and_then(|s| s.effective_end());
        SanctionView {
            id: row.id,
            case_id: row.case_id,
            kind: row.kind,
            reason: row.reason,
            ground: row.ground,
            starts_at: to_utc(row.starts_at),
            ends_at: row.ends_at.map(to_utc),
            reduced_until: row.reduced_until.map(to_utc),
            lifted_at: row.lifted_at.map(to_utc),
            effective_end,
        }
    }
}

/// A sanction with its player, the note the deciding admin wrote, whether it is in force, and
/// its appeal.
#[derive(Debug, Serialize, ToSchema)]
pub struct SanctionListingView {
    pub sanction: SanctionView,
    pub player: String,
    /// The decision's note: why the sanction was imposed.
    pub note: String,
    /// In force at the moment of the read: started, not lifted, not yet ended.
    pub in_force: bool,
    /// The appeal against it; null if none was filed.
    pub appeal: Option<AppealView>,
    /// Until when it can be appealed; null once appealed, lifted, or past the window.
    pub appeal_until: Option<DateTime<Utc>>,
}

impl SanctionListingView {
    /// The view at `now`, with the policy's appeal window in days.
    pub fn new(listing: SanctionListing, now: DateTime<Utc>, appeal_window_days: u32) -> Self {
        let policy = listing.sanction.to_policy().ok();
        let in_force = policy.as_ref().is_some_and(|s| s.is_active(now));
        let lifted = listing.sanction.lifted_at.is_some();
        let window_end =
            to_utc(listing.sanction.starts_at) + TimeDelta::days(i64::from(appeal_window_days));
        let appeal_until =
            (listing.appeal.is_none() && !lifted && window_end > now).then_some(window_end);
        SanctionListingView {
            note: listing.sanction.note.clone(),
            sanction: listing.sanction.into(),
            player: listing.player,
            in_force,
            appeal: listing.appeal.map(AppealView::from),
            appeal_until,
        }
    }
}
