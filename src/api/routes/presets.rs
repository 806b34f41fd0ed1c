//! Decision presets (admin role): the messages a decision can send, as configured.

use actix_web::web;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::query_enum;
use crate::api::state::AppState;
use crate::api::views::presets::{PresetList, PresetView};
use crate::moderation::{DecisionKind, ReportReason};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PresetQuery {
    /// Presets for cases of this reason only.
    #[param(value_type = Option<ReportReason>)]
    pub reason: Option<String>,
    /// Presets for this kind of decision only.
    #[param(value_type = Option<DecisionKind>)]
    pub decision: Option<String>,
}

/// The decision presets, in the configured order.
#[utoipa::path(get, path = "/api/v1/admin/presets", tag = "cases",
    security(("bearer" = [])),
    params(PresetQuery),
    responses(
        (status = 200, description = "The presets that match", body = PresetList),
        (status = 400, description = "An unknown reason or decision", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_presets(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<PresetQuery>,
) -> Result<web::Json<PresetList>, ApiError> {
    let reason = query
        .reason
        .as_deref()
        .map(|text| query_enum("reason", text, &ReportReason::ALL))
        .transpose()?;
    let decision = query
        .decision
        .as_deref()
        .map(|text| query_enum("decision", text, &DecisionKind::ALL))
        .transpose()?;
    let items = state
        .presets
        .presets
        .iter()
        .filter(|p| reason.is_none_or(|r| p.reason == r))
        .filter(|p| decision.is_none_or(|d| p.decision == d))
        .map(PresetView::from)
        .collect();
    Ok(web::Json(PresetList { items }))
}
