//! Sanction listings: every player's (in force by default) for admins, a player's own for
//! them, each with its player, note, appeal and appeal window.

use chrono::NaiveDateTime;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::error::ApiError;
use crate::api::json::{invalid_query, query_enum, query_instant};
use crate::api::pagination::{IdPage, Page};
use crate::api::state::AppState;
use crate::api::statuses::SanctionStatusFilter;
use crate::api::views::sanction_listing::SanctionListingView;
use crate::moderation::{SanctionId, SanctionKind};
use crate::store::sanction_listing::{self, SanctionFilter};
use crate::store::{to_utc, DbConnection};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SanctionListQuery {
    /// Sanctions of this player, by name.
    pub player: Option<String>,
    /// Sanctions of this kind only.
    #[param(value_type = Option<SanctionKind>)]
    pub kind: Option<String>,
    /// `in_force` (default): started, not lifted, not yet ended; `all`: every sanction.
    #[param(value_type = Option<SanctionStatusFilter>)]
    pub status: Option<String>,
    /// Only sanctions ending (after reductions) before this time, RFC 3339; permanent ones
    /// never do.
    #[param(format = DateTime)]
    pub ending_before: Option<String>,
}

impl SanctionListQuery {
    /// The filter, with "in force" meaning in force at `now`.
    pub fn filter(self, now: NaiveDateTime) -> Result<SanctionFilter, ApiError> {
        let kind = self
            .kind
            .as_deref()
            .map(|text| query_enum("kind", text, &SanctionKind::ALL))
            .transpose()?;
        let in_force_at = match self.status.as_deref() {
            None | Some("in_force") => Some(now),
            Some("all") => None,
            Some(_) => {
                return Err(invalid_query(
                    "status",
                    "`status` must be one of in_force, all.".to_string(),
                ))
            }
        };
        Ok(SanctionFilter {
            player: self.player.filter(|p| !p.trim().is_empty()),
            kind,
            in_force_at,
            ending_before: query_instant("ending_before", self.ending_before.as_deref())?,
        })
    }
}

/// One page of the sanctions `filter` selects, newest first, as they stand at `now`.
pub fn sanctions_page(
    conn: &mut DbConnection,
    filter: &SanctionFilter,
    page: IdPage,
    now: NaiveDateTime,
    appeal_window_days: u32,
) -> Result<Page<SanctionListingView>, ApiError> {
    let rows = sanction_listing::page(
        conn,
        filter,
        page.after_id.map(SanctionId),
        page.fetch_limit(),
    )?;
    Page::try_from_rows(
        rows,
        page,
        |row| row.sanction.id.0,
        |row| SanctionListingView::new(row, to_utc(now), appeal_window_days),
    )
}

/// `sanctions_page` on a pooled connection, now.
pub async fn read_sanctions(
    state: &AppState,
    filter: SanctionFilter,
    page: IdPage,
) -> Result<Page<SanctionListingView>, ApiError> {
    let window_days = state.moderation.appeal.window_days;
    state
        .read(move |conn| sanctions_page(conn, &filter, page, crate::store::now(), window_days))
        .await
}
