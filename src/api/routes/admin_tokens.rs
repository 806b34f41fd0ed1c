//! `/api/v1/admin/tokens`: API token management for admins.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::tokens::{self, IssueError, TokenRole};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::tokens::read_tokens;
use crate::api::state::AppState;
use crate::api::views::tokens::{CreatedToken, TokenView};
use crate::store::api_tokens::{self};
use crate::store::{self};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateToken {
    /// What the token is for, e.g. `game-server-eu-1` or an admin's name: 1 to 100
    /// characters (surrounding spaces trimmed), no control characters.
    #[schema(example = "game-server-eu-1", min_length = 1)]
    pub name: String,
    pub role: TokenRole,
}

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
    let page = query.by_id()?;
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
    let CreateToken { name, role } = body.into_inner();
    let (row, token) = state
        .write(move |conn| tokens::issue(conn, role, &name))
        .await?;
    tracing::info!(token_id = row.id, role = role.as_str(), by = %admin.name, "api token created");
    let created = CreatedToken {
        token_info: TokenView::from_row(row)?,
        token,
    };
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
    let id = id.into_inner();
    let revoked = state
        .write(move |conn| api_tokens::revoke(conn, id, store::now()))
        .await?;
    match revoked {
        Some(_) => {
            tracing::info!(token_id = id, by = %admin.name, "api token revoked");
            Ok(HttpResponse::NoContent().finish())
        }
        None => Err(ApiError::not_found(
            "token_not_found",
            format!("No token has id {id}."),
        )),
    }
}

impl From<IssueError> for ApiError {
    fn from(err: IssueError) -> ApiError {
        match err {
            IssueError::InvalidName => ApiError::unprocessable(
                "invalid_name",
                format!(
                    "The token name must be 1 to {} characters, without control characters.",
                    tokens::MAX_TOKEN_NAME_CHARS
                ),
                json!({ "field": "name" }),
            ),
            IssueError::Database(db) => db.into(),
        }
    }
}
