//! Opaque API tokens for the `server` and `admin` roles: `arb_` followed by 32 random bytes
//! in unpadded base64url. Only the SHA-256 hash is stored; the token is shown once.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::rngs::OsRng;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use utoipa::ToSchema;

use crate::archive::player_name::{forbidden_kind, name_problem};
use crate::store::api_tokens::{self, ApiTokenRow, NewApiToken};
use crate::store::{self, DbConnection};

/// Marks a bearer value as an API token (anything else is read as a player JWT).
pub const TOKEN_PREFIX: &str = "arb_";

const TOKEN_RANDOM_BYTES: usize = 32;

/// Longest accepted token name.
pub const MAX_TOKEN_NAME_CHARS: usize = 100;

/// Roles that authenticate with API tokens (players use signed tokens from the game site).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TokenRole {
    Server,
    Admin,
}

impl TokenRole {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenRole::Server => "server",
            TokenRole::Admin => "admin",
        }
    }

    pub fn parse(stored: &str) -> Option<TokenRole> {
        match stored {
            "server" => Some(TokenRole::Server),
            "admin" => Some(TokenRole::Admin),
            _ => None,
        }
    }
}

/// A fresh random token. Not logged anywhere; the caller shows it once.
pub fn generate() -> String {
    let mut bytes = [0u8; TOKEN_RANDOM_BYTES];
    OsRng.fill_bytes(&mut bytes);
    format!("{TOKEN_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Lower-case hex SHA-256, the form stored in `api_tokens.token_hash`.
pub fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Constant-time equality of two hashes, so comparison time does not reveal a prefix match.
pub fn hashes_match(a: &str, b: &str) -> bool {
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    #[error(
        "the token name must be 1 to {MAX_TOKEN_NAME_CHARS} characters, without control, format or \
         invisible characters"
    )]
    InvalidName,
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

/// Checks a token name: trimmed, non-empty, bounded, without control, format or invisible
/// characters (an admin's token carries their player name: see `archive::player_name`).
pub fn valid_name(name: &str) -> Option<&str> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_TOKEN_NAME_CHARS
        && !name.chars().any(|c| forbidden_kind(c).is_some());
    ok.then_some(name)
}

/// Creates a token: returns the stored row and the plain token (the only time it exists).
pub fn issue(
    conn: &mut DbConnection,
    role: TokenRole,
    name: &str,
) -> Result<(ApiTokenRow, String), IssueError> {
    let name = valid_name(name).ok_or(IssueError::InvalidName)?;
    // Admins act under their token's name, so it must be a possible player name.
    if role == TokenRole::Admin && name_problem(name).is_some() {
        return Err(IssueError::InvalidName);
    }
    let token = generate();
    let token_hash = hash(&token);
    let row = api_tokens::insert(
        conn,
        &NewApiToken {
            name,
            role: role.as_str(),
            token_hash: &token_hash,
            created_at: store::now(),
        },
    )?;
    Ok((row, token))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_prefixed_random_and_hash_stably() {
        let a = generate();
        let b = generate();
        assert!(a.starts_with(TOKEN_PREFIX));
        assert_ne!(a, b);
        assert_eq!(a.len(), TOKEN_PREFIX.len() + 43);
        assert_eq!(hash(&a), hash(&a));
        assert_eq!(hash(&a).len(), 64);
        assert!(hashes_match(&hash(&a), &hash(&a)));
        assert!(!hashes_match(&hash(&a), &hash(&b)));
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(valid_name("  ci bot "), Some("ci bot"));
        assert_eq!(valid_name("   "), None);
        assert_eq!(valid_name("a\u{7}b"), None);
        assert_eq!(valid_name(&"x".repeat(MAX_TOKEN_NAME_CHARS + 1)), None);
    }
}
