//! An admin opens a case about what they saw themselves (admin role).

use actix_web::{web, HttpResponse};

use crate::api::actions::open_case::{self, AdminEntryBody};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::state::AppState;
use crate::api::views::cases::AdminEntryView;

/// Open a case about a player: the admin's own entry opens the accused's case of that reason
/// or joins the open one. It is decided like any case (claim, the several-games rule for
/// habits, the ladder); its admin is no party to it and may decide it.
#[utoipa::path(post, path = "/api/v1/admin/cases", tag = "cases",
    security(("bearer" = [])),
    request_body = AdminEntryBody,
    responses(
        (status = 201, description = "The entry and its case", body = AdminEntryView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "The entry breaks a reporting rule (unknown game or player, the accused not in a game, a reason for another variant, an empty note); `details.field` names the field", body = ErrorEnvelope),
    ))]
pub async fn open_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<AdminEntryBody>,
) -> Result<HttpResponse, ApiError> {
    let entry = open_case::open(&state, &admin.name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(entry))
}
