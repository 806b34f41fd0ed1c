//! Player authentication. The game site is the identity provider: it signs a short-lived
//! HS256 JWT whose `sub` is the player's name, with the secret shared through
//! `auth.player_token_secret`. Arbiter only verifies: the signature, `exp` and `nbf` (with
//! `auth.clock_skew_secs` of leeway), a lifetime no longer than `auth.max_token_lifetime_secs`,
//! an `iat` not in the future, and a plausible `sub`.

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::api::error::AuthFailure;
use crate::archive::name_problem;
use crate::config::AuthSettings;
use crate::moderation::Language;

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
    /// The player's language on the site (a BCP 47 tag such as `pt-BR`): the texts they are
    /// sent are written in it where Arbiter has it (docs/moderation.md, "Languages").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

/// A verified player token: who, and in which language if it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedPlayer {
    pub name: String,
    pub language: Option<Language>,
}

pub struct PlayerTokenVerifier {
    key: DecodingKey,
    validation: Validation,
    times: TimeLimits,
}

/// The time rules `jsonwebtoken` does not check, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeLimits {
    pub max_lifetime: i64,
    pub clock_skew: i64,
}

impl TimeLimits {
    /// Refuses a token valid for longer than the maximum lifetime from `now`, or issued in the
    /// future; both tolerate the clock skew, as `exp` and `nbf` do.
    pub fn check(&self, claims: &PlayerClaims, now: i64) -> Result<(), AuthFailure> {
        let latest_exp = now
            .saturating_add(self.max_lifetime)
            .saturating_add(self.clock_skew);
        if claims.exp > latest_exp {
            return Err(AuthFailure::LifetimeTooLong);
        }
        if claims
            .iat
            .is_some_and(|iat| iat > now.saturating_add(self.clock_skew))
        {
            return Err(AuthFailure::IssuedInFuture);
        }
        Ok(())
    }
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
        let seconds = |s: u64| i64::try_from(s).unwrap_or(i64::MAX);
        Some(PlayerTokenVerifier {
            key: DecodingKey::from_secret(auth.player_token_secret.as_bytes()),
            validation,
            times: TimeLimits {
                max_lifetime: seconds(auth.max_token_lifetime_secs),
                clock_skew: seconds(auth.clock_skew_secs),
            },
        })
    }

    /// The player name, if the token is genuine, current and names a plausible player.
    pub fn verify(&self, token: &str) -> Result<String, AuthFailure> {
        self.verify_player(token).map(|player| player.name)
    }

    /// The player and the language of their `locale` claim (none when absent or not one the
    /// texts are written in), if the token is genuine, current and names a plausible player.
    pub fn verify_player(&self, token: &str) -> Result<VerifiedPlayer, AuthFailure> {
        let data = jsonwebtoken::decode::<PlayerClaims>(token, &self.key, &self.validation)
            .map_err(|err| match err.kind() {
                ErrorKind::ExpiredSignature => AuthFailure::Expired,
                _ => AuthFailure::Invalid,
            })?;
        self.times
            .check(&data.claims, chrono::Utc::now().timestamp())?;
        let name = data.claims.sub;
        let language = data.claims.locale.as_deref().and_then(Language::from_tag);
        if name_problem(name.trim()).is_none() {
            Ok(VerifiedPlayer { name, language })
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
            max_token_lifetime_secs: 3600,
        })
        .expect("secret set")
    }

    fn claims(sub: &str, exp_from_now: i64) -> PlayerClaims {
        PlayerClaims {
            sub: sub.to_string(),
            exp: chrono::Utc::now().timestamp() + exp_from_now,
            iat: None,
            nbf: None,
            locale: None,
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

    const LIMITS: TimeLimits = TimeLimits {
        max_lifetime: 3600,
        clock_skew: 30,
    };
    const NOW: i64 = 1_800_000_000;

    fn at(exp: i64, iat: Option<i64>) -> PlayerClaims {
        PlayerClaims {
            sub: "alice".into(),
            exp,
            iat,
            nbf: None,
            locale: None,
        }
    }

    #[test]
    fn lifetime_is_bounded_with_the_skew() {
        assert_eq!(LIMITS.check(&at(NOW + 3600, None), NOW), Ok(()));
        assert_eq!(LIMITS.check(&at(NOW + 3630, None), NOW), Ok(()));
        assert_eq!(
            LIMITS.check(&at(NOW + 3631, None), NOW),
            Err(AuthFailure::LifetimeTooLong)
        );
        assert_eq!(
            LIMITS.check(&at(i64::MAX, None), NOW),
            Err(AuthFailure::LifetimeTooLong)
        );
    }

    #[test]
    fn issued_at_may_not_be_in_the_future() {
        assert_eq!(LIMITS.check(&at(NOW + 60, Some(NOW)), NOW), Ok(()));
        assert_eq!(LIMITS.check(&at(NOW + 60, Some(NOW + 30)), NOW), Ok(()));
        assert_eq!(
            LIMITS.check(&at(NOW + 60, Some(NOW + 31)), NOW),
            Err(AuthFailure::IssuedInFuture)
        );
        // Long past is fine: the lifetime is measured from now.
        assert_eq!(LIMITS.check(&at(NOW + 60, Some(0)), NOW), Ok(()));
    }

    #[test]
    fn verify_applies_the_time_limits() {
        let token = sign(SECRET, &claims("alice", 3600 + 120)).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::LifetimeTooLong));
        let mut future = claims("alice", 300);
        future.iat = Some(chrono::Utc::now().timestamp() + 120);
        let token = sign(SECRET, &future).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::IssuedInFuture));
        // The signature is checked first: a forged long-lived token is just invalid.
        let forged = sign(
            "another-secret-another-secret-xx",
            &claims("alice", 1_000_000),
        )
        .expect("sign");
        assert_eq!(verifier().verify(&forged), Err(AuthFailure::Invalid));
    }

    #[test]
    fn rejects_empty_subject() {
        let token = sign(SECRET, &claims(" ", 300)).expect("sign");
        assert_eq!(verifier().verify(&token), Err(AuthFailure::Invalid));
    }
}
