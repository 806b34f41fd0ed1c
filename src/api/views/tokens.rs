//! API tokens as listed and as created.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::auth::tokens::TokenRole;
use crate::api::error::ApiError;
use crate::store::api_tokens::ApiTokenRow;
use crate::store::to_utc;

/// A token as listed: never the token itself.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenView {
    pub id: i64,
    pub name: String,
    pub role: TokenRole,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
}

impl TokenView {
    pub fn from_row(row: ApiTokenRow) -> Result<TokenView, ApiError> {
        let role = TokenRole::parse(&row.role).ok_or_else(|| {
            ApiError::internal(format!("token {} has role {:?}", row.id, row.role))
        })?;
        Ok(TokenView {
            id: row.id,
            name: row.name,
            role,
            created_at: to_utc(row.created_at),
            last_used_at: row.last_used_at.map(to_utc),
            revoked_at: row.revoked_at.map(to_utc),
        })
    }
}

/// The new token, shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedToken {
    #[serde(flatten)]
    pub token_info: TokenView,
    /// The bearer token. Store it now: only its hash is kept.
    pub token: String,
}
