//! Sanction listings: a player's own sanctions (player role) and the sanctions of every player,
//! in force by default (admin role).

use actix_web::web;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::auth::{AdminCaller, PlayerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::{invalid_query, query_enum, query_instant};
use crate::api::pagination::{Page, PageQuery};
use crate::api::state::AppState;
use crate::api::statuses::SanctionStatusFilter;
use crate::api::views::sanctions::SanctionListingView;
use crate::moderation::SanctionKind;
use crate::store::sanction_listing::{self, SanctionFilter};
use crate::store::{self, enum_name, to_utc};

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
    fn filter(self, now: chrono::NaiveDateTime) -> Result<SanctionFilter, ApiError> {
        let kind = self
            .kind
            .as_deref()
            .map(|text| query_enum("kind", text, &SanctionKind::ALL).map(|k| enum_name(&k)))
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

/// Sanctions of every player, newest first: those in force unless `status=all`.
#[utoipa::path(get, path = "/api/v1/admin/sanctions", tag = "sanctions",
    security(("bearer" = [])),
    params(SanctionListQuery, PageQuery),
    responses(
        (status = 200, description = "One page of sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_sanctions(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<SanctionListQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id()?;
    let now = store::now();
    let filter = query.into_inner().filter(now)?;
    list(&state, filter, page).await
}

/// The caller's own sanctions, newest first, in force or not, each with its reason, end,
/// appeal and how long it can still be appealed.
#[utoipa::path(get, path = "/api/v1/sanctions/mine", tag = "sanctions",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the player's sanctions", body = Page<SanctionListingView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
    ))]
pub async fn my_sanctions(
    player: PlayerCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let page = page.by_id()?;
    let filter = SanctionFilter {
        player: Some(player.player),
        ..SanctionFilter::default()
    };
    list(&state, filter, page).await
}

async fn list(
    state: &AppState,
    filter: SanctionFilter,
    page: crate::api::pagination::IdPage,
) -> Result<web::Json<Page<SanctionListingView>>, ApiError> {
    let rows = state
        .read(move |conn| sanction_listing::page(conn, &filter, page.after_id, page.fetch_limit()))
        .await?;
    let now = to_utc(store::now());
    let window_days = state.moderation.appeal.window_days;
    Ok(web::Json(Page::from_rows(
        rows,
        page,
        |row| row.sanction.id,
        |row| SanctionListingView::new(row, now, window_days),
    )))
}
