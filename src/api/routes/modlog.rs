//! The moderation log (admin role): every recorded action, newest first.

use actix_web::web;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::modlog::{read_modlog, ModlogQuery};
use crate::api::state::AppState;
use crate::api::views::modlog::ModlogEntryView;

/// The append-only moderation log, newest first.
#[utoipa::path(get, path = "/api/v1/admin/modlog", tag = "moderation",
    security(("bearer" = [])),
    params(ModlogQuery, PageQuery),
    responses(
        (status = 200, description = "One page of the log", body = Page<ModlogEntryView>),
        (status = 400, description = "Bad filter, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_modlog(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<ModlogQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<ModlogEntryView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let filter = query.into_inner().filter()?;
    Ok(web::Json(read_modlog(&state, filter, page).await?))
}
