//! Create and revoke API tokens.

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::tokens::{self, IssueError, TokenRole};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::api::views::tokens::{CreatedToken, TokenView};
use crate::store::{self, api_tokens};

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateToken {
    /// What the token is for, e.g. `game-server-eu-1` or an admin's name: 1 to 100
    /// characters (surrounding spaces trimmed), no control characters.
    #[schema(example = "game-server-eu-1", min_length = 1)]
    pub name: String,
    pub role: TokenRole,
}

impl From<IssueError> for ApiError {
    fn from(err: IssueError) -> ApiError {
        match err {
            IssueError::InvalidName => ApiError::unprocessable(
                "invalid_name",
                format!(
                    "The token name must be 1 to {} characters (an admin's, a player name of at most \
                     64), without control, format or invisible characters.",
                    tokens::MAX_TOKEN_NAME_CHARS
                ),
                json!({ "field": "name" }),
            ),
            IssueError::Database(db) => db.into(),
        }
    }
}

/// `admin` creates a token; the answer holds the token itself, this once.
pub async fn create(
    state: &AppState,
    admin: &str,
    body: CreateToken,
) -> Result<CreatedToken, ApiError> {
    let CreateToken { name, role } = body;
    let (row, token) = state
        .write(move |conn| tokens::issue(conn, role, &name))
        .await?;
    tracing::info!(token_id = row.id, role = role.as_str(), by = %admin, "api token created");
    Ok(CreatedToken {
        token_info: TokenView::from_row(row)?,
        token,
    })
}

/// `admin` revokes token `id`. Revoking an already revoked token succeeds and changes nothing.
pub async fn revoke(state: &AppState, admin: &str, id: i64) -> Result<(), ApiError> {
    let revoked = state
        .write(move |conn| api_tokens::revoke(conn, id, store::now()))
        .await?;
    match revoked {
        Some(_) => {
            tracing::info!(token_id = id, by = %admin, "api token revoked");
            Ok(())
        }
        None => Err(ApiError::not_found(
            "token_not_found",
            format!("No token has id {id}."),
        )),
    }
}
