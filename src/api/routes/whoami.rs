//! `GET /api/v1/whoami`: who the credentials belong to.

use actix_web::web;

use crate::api::auth::AnyCaller;
use crate::api::error::ErrorEnvelope;
use crate::api::views::whoami::WhoAmI;

/// The authenticated caller's role and name.
#[utoipa::path(get, path = "/api/v1/whoami", tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = WhoAmI),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
    ))]
pub async fn whoami(caller: AnyCaller) -> web::Json<WhoAmI> {
    web::Json(WhoAmI {
        role: caller.role(),
        name: caller.name().to_string(),
    })
}
