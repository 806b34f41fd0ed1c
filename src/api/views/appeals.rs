//! Appeal responses: an appeal as filed, an appeal in the admins' list with the sanction it
//! contests, and the answer to an admin's decision on it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::AppealStatus;
use crate::api::views::sanctions::{SanctionRecordView, SanctionView};
use crate::store::appeals::{AppealListing, AppealRow};
use crate::store::to_utc;

/// An appeal.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppealView {
    pub id: i64,
    pub sanction_id: i64,
    pub text: String,
    pub filed_at: DateTime<Utc>,
    pub status: AppealStatus,
    pub decided_at: Option<DateTime<Utc>>,
}

impl AppealView {
    pub fn from_row(row: AppealRow) -> Result<AppealView, ApiError> {
        Ok(AppealView {
            id: row.id.0,
            sanction_id: row.sanction_id.0,
            text: row.text,
            filed_at: to_utc(row.filed_at),
            status: row.status,
            decided_at: row.decided_at.map(to_utc),
        })
    }
}

/// The answered appeal and the sanction as it now stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppealDecided {
    pub appeal: AppealView,
    pub sanction: SanctionView,
}

/// An appeal with the sanction it contests.
#[derive(Debug, Serialize, ToSchema)]
pub struct QueuedAppeal {
    pub id: i64,
    /// The appellant (the sanctioned player).
    pub player: String,
    pub text: String,
    pub filed_at: DateTime<Utc>,
    pub status: AppealStatus,
    pub decided_at: Option<DateTime<Utc>>,
    pub note: Option<String>,
    pub sanction: SanctionRecordView,
}

impl QueuedAppeal {
    pub fn from_listing(
        AppealListing {
            appeal,
            sanction,
            player,
        }: AppealListing,
    ) -> Result<QueuedAppeal, ApiError> {
        Ok(QueuedAppeal {
            id: appeal.id.0,
            player,
            text: appeal.text,
            filed_at: to_utc(appeal.filed_at),
            status: appeal.status,
            decided_at: appeal.decided_at.map(to_utc),
            note: appeal.note,
            sanction: SanctionRecordView::from_row(sanction)?,
        })
    }
}
