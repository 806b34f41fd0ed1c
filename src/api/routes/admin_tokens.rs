//! `/api/v1/admin/tokens`: API token management for admins.

use actix_web::{web, HttpResponse};

use crate::api::actions::tokens::{self, CreateToken};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::tokens::read_tokens;
use crate::api::state::AppState;
use crate::api::views::tokens::{CreatedToken, TokenView};

/// Lists API tokens in creation order.
#[utoipa::path(get, path = "/api/v1/admin/tokens", tag = "admin",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of tokens", body = Page<TokenView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_tokens(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    query: web::Query<PageQuery>,
) -> Result<web::Json<Page<TokenView>>, ApiError> {
    let page = query.by_id(&state.cursor_key)?;
    Ok(web::Json(read_tokens(&state, page).await?))
}

/// Creates a token; the response holds the token itself, once.
#[utoipa::path(post, path = "/api/v1/admin/tokens", tag = "admin",
    security(("bearer" = [])),
    request_body = CreateToken,
    responses(
        (status = 201, description = "Created", body = CreatedToken),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "Invalid name", body = ErrorEnvelope),
    ))]
pub async fn create_token(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<CreateToken>,
) -> Result<HttpResponse, ApiError> {
    let created = tokens::create(&state, &admin.name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(created))
}

/// Revokes a token. Revoking an already revoked token succeeds and changes nothing.
#[utoipa::path(delete, path = "/api/v1/admin/tokens/{id}", tag = "admin",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Token id", example = 1)),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such token", body = ErrorEnvelope),
    ))]
pub async fn revoke_token(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    tokens::revoke(&state, &admin.name, id.into_inner()).await?;
    Ok(HttpResponse::NoContent().finish())
}
