//! Player authentication. The game site is the identity provider: it signs a short-lived
//! HS256 JWT whose `sub` is the player's name, with the secret shared through
//! `auth.player_token_secret`. Arbiter only verifies.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::api::error::AuthFailure;
use crate::config::AuthSettings;

/// Longest accepted player name (`sub`).
pub const MAX_PLAYER_NAME_CHARS: usize = 64;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayerClaims {
    /// The player's name on the game site.
    pub sub: String,
    /// Expiry, seconds since the Unix epoch. Required.
    pub exp: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iat: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<i64>,
}

pub struct PlayerTokenVerifier {
    key: DecodingKey,
    validation: Validation,
}

impl PlayerTokenVerifier {
    /// None when no secret is configured.
    pub fn from_settings(auth: &AuthSettings) -> Option<PlayerTokenVerifier> {
        if auth.player_token_secret.is_empty() {
            return None;
        }
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = auth.clock_skew_secs;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Some(PlayerTokenVerifier {
            key: DecodingKey::from_secret(auth.player_token_secret.as_bytes()),
            validation,
        })
    }

    /// The player name, if the token is genuine, current and names a plausible player.
    pub fn verify(&self, token: &str) -> Result<String, AuthFailure> {
        let data = jsonwebtoken::decode::<PlayerClaims>(token, &self.key, &self.validation)
            .map_err(|err| match err.kind() {
                ErrorKind::ExpiredSignature => AuthFailure::Expired,
                _ => AuthFailure::Invalid,
            })?;
        let name = data.claims.sub;
        let plausible = !name.trim().is_empty()
            && name.chars().count() <= MAX_PLAYER_NAME_CHARS
            && !name.chars().any(char::is_control);
        if plausible {
            Ok(name)
        } else {
            Err(AuthFailure::Invalid)
        }
    }
}

/// Signs a player token as the game site would (for tests and local tooling).
pub fn sign(secret: &str, claims: &PlayerClaims) -> Result<String, jsonwebtoken::errors::Error> {
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    fn verifier() -> PlayerTokenVerifier {
        PlayerTokenVerifier::from_settings(&AuthSettings {
            player_token_secret: SECRET.to_string(),
            clock_skew_secs: 30,
            last_used_resolution_secs: 60,
        })
        .expect("secret set")
    }

    fn claims(sub: &str, exp_from_now: i64) -> PlayerClaims {
        PlayerClaims {
            sub: sub.to_string(),
            exp: chrono::Utc::now().timestamp() + exp_from_now,
            iat: None,
            nbf: None,
        }
    }

    #[test]
    fn accepts_valid_token() {
        let token = sign(SECRET, &claims("alice", 300)).expect("sign");
        assert_eq!(verifier().verify(&token), Ok("alice".to_string()));
    }

    #[test]
    fn skew_tolerated_then_expired() {
        let token = sign(SECRET, &claims("alice", -10)).expect("sign");
        assert!(verifier().verify(&token).is_ok());
        let token = sign(SECRET, &claims("alice", -120)).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::Expired));
    }

    #[test]
    fn rejects_wrong_secret_and_missing_exp() {
        let token = sign("another-secret-another-secret-xx", &claims("alice", 300)).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::Invalid));
        let no_exp = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &serde_json::json!({ "sub": "alice" }),
            &EncodingKey::from_secret(SECRET.as_bytes()),
        )
        .expect("sign");
        assert_eq!(verifier().verify(&no_exp), Err(AuthFailure::Invalid));
        assert_eq!(verifier().verify("garbage"), Err(AuthFailure::Invalid));
    }

    #[test]
    fn rejects_empty_subject() {
        let token = sign(SECRET, &claims(" ", 300)).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::Invalid));
    }
}
