//! Workload and response times (admin role): cases opened and decided, waits to first claim
//! and to decision, the queue's depth, each admin's work (docs/moderation.md, "Stats").

use actix_web::web;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::read_models::stats::{self, StatsQuery};
use crate::api::state::AppState;
use crate::api::views::stats::StatsView;

/// Workload and response times per day or week: cases opened by reason and origin, decided by
/// outcome, median and p90 waits to first claim and to decision (by reason too), open cases
/// and the oldest one at each bucket's end, and each admin's decisions, dropped claims and
/// decisions reversed on appeal; as of the stats job's last pass (every minute).
#[utoipa::path(get, path = "/api/v1/admin/stats", tag = "admin",
    security(("bearer" = [])),
    params(StatsQuery),
    responses(
        (status = 200, description = "The stats of the range", body = StatsView),
        (status = 400, description = "A date that is not `YYYY-MM-DD`, or an unknown bucket", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "`from` after `to`, or a range over 731 days (`invalid_range`)", body = ErrorEnvelope),
    ))]
pub async fn admin_stats(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<StatsQuery>,
) -> Result<web::Json<StatsView>, ApiError> {
    let (from, to, bucket) = query.resolve(state.clock.now().date())?;
    Ok(web::Json(stats::read(&state, from, to, bucket).await?))
}
