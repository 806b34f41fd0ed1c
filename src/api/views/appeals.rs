//! Appeal responses: an appeal as filed and the answer to an admin's decision on it.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::statuses::AppealStatus;
use crate::api::views::sanctions::SanctionView;
use crate::store::appeals::AppealRow;
use crate::store::to_utc;

/// An appeal.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppealView {
    pub id: i64,
    pub sanction_id: i64,
    pub text: String,
    pub filed_at: DateTime<Utc>,
    #[schema(value_type = AppealStatus)]
    pub status: String,
    pub decided_at: Option<DateTime<Utc>>,
}

impl From<AppealRow> for AppealView {
    fn from(row: AppealRow) -> Self {
        AppealView {
            id: row.id,
            sanction_id: row.sanction_id,
            text: row.text,
            filed_at: to_utc(row.filed_at),
            status: row.status,
            decided_at: row.decided_at.map(to_utc),
        }
    }
}

/// The answered appeal and the sanction as it now stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppealDecided {
    pub appeal: AppealView,
    pub sanction: SanctionView,
}
