//! Callers and their roles. Each handler states who may call it by the extractor it takes:
//! `ServerCaller`, `AdminCaller`, `PlayerCaller`, or `AnyCaller` for every authenticated role.
//! No credentials -> 401; valid credentials of another role -> 403.

pub mod player;
pub mod tokens;

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use chrono::{Duration, NaiveDateTime};
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{ApiError, AuthFailure};
use super::state::AppState;
use crate::moderation::Language;
use crate::store::{self, api_tokens, DbConnection};
use player::VerifiedPlayer;
use tokens::TokenRole;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Server,
    Admin,
    Player,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Server => "server",
            Role::Admin => "admin",
            Role::Player => "player",
        }
    }
}

impl From<TokenRole> for Role {
    fn from(role: TokenRole) -> Role {
        match role {
            TokenRole::Server => Role::Server,
            TokenRole::Admin => Role::Admin,
        }
    }
}

/// A game server, authenticated by an API token.
#[derive(Debug, Clone)]
pub struct ServerCaller {
    pub token_id: i64,
    pub name: String,
}

/// A volunteer admin, authenticated by an API token.
#[derive(Debug, Clone)]
pub struct AdminCaller {
    pub token_id: i64,
    pub name: String,
}

/// A player, authenticated by a token signed by the game site.
#[derive(Debug, Clone)]
pub struct PlayerCaller {
    pub player: String,
    /// Their language: the token's `locale` claim, else the request's `Accept-Language`;
    /// `None` when neither names one the texts are written in.
    pub language: Option<Language>,
}

impl PlayerCaller {
    fn of(req: &HttpRequest, verified: VerifiedPlayer) -> PlayerCaller {
        let accepted = || {
            req.headers()
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(Language::from_accept_language)
        };
        PlayerCaller {
            player: verified.name,
            language: verified.language.or_else(accepted),
        }
    }
}

/// Any authenticated caller.
#[derive(Debug, Clone)]
pub enum AnyCaller {
    Server(ServerCaller),
    Admin(AdminCaller),
    Player(PlayerCaller),
}

impl AnyCaller {
    pub fn role(&self) -> Role {
        match self {
            AnyCaller::Server(_) => Role::Server,
            AnyCaller::Admin(_) => Role::Admin,
            AnyCaller::Player(_) => Role::Player,
        }
    }

    /// The token's name for servers and admins, the player's name for players.
    pub fn name(&self) -> &str {
        match self {
            AnyCaller::Server(c) => &c.name,
            AnyCaller::Admin(c) => &c.name,
            AnyCaller::Player(c) => &c.player,
        }
    }

    /// Authenticates once per request; later extractors reuse the result.
    async fn authenticate(req: &HttpRequest) -> Result<AnyCaller, ApiError> {
        if let Some(caller) = req.extensions().get::<AnyCaller>() {
            return Ok(caller.clone());
        }
        let state = req
            .app_data::<web::Data<AppState>>()
            .ok_or_else(|| ApiError::internal("application state missing"))?
            .clone();
        let bearer = bearer_token(req)?;
        let caller = if bearer.starts_with(tokens::TOKEN_PREFIX) {
            api_token_caller(&state, tokens::hash(&bearer)).await?
        } else {
            let verifier = state
                .player_tokens
                .as_ref()
                .ok_or(ApiError::Unauthorized(AuthFailure::Invalid))?;
            let verified = verifier
                .verify_player(&bearer)
                .map_err(ApiError::Unauthorized)?;
            let player = PlayerCaller::of(req, verified);
            if let Some(language) = player.language {
                state.remember_language(&player.player, language).await;
            }
            AnyCaller::Player(player)
        };
        record_caller(&caller);
        req.extensions_mut().insert(caller.clone());
        Ok(caller)
    }

    fn forbidden(&self, allowed: &'static [&'static str]) -> ApiError {
        ApiError::Forbidden {
            allowed,
            actual: self.role().as_str(),
        }
    }
}

pub(crate) fn bearer_token(req: &HttpRequest) -> Result<String, ApiError> {
    let value = req
        .headers()
        .get(header::AUTHORIZATION)
        .ok_or(ApiError::Unauthorized(AuthFailure::Missing))?;
    let value = value
        .to_str()
        .map_err(|_| ApiError::Unauthorized(AuthFailure::Malformed))?;
    let (scheme, token) = value
        .split_once(' ')
        .ok_or(ApiError::Unauthorized(AuthFailure::Malformed))?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(ApiError::Unauthorized(AuthFailure::Malformed));
    }
    Ok(token.to_string())
}

async fn api_token_caller(state: &AppState, presented_hash: String) -> Result<AnyCaller, ApiError> {
    let resolution = last_used_resolution(state);
    state
        .read(move |conn| resolve_api_token(conn, &presented_hash, resolution))
        .await
}

fn last_used_resolution(state: &AppState) -> Duration {
    Duration::seconds(
        i64::try_from(state.settings.auth.last_used_resolution_secs).unwrap_or(i64::MAX / 1000),
    )
}

/// Looks up an API token by the hash of the presented one: unknown 401, revoked 401, else
/// its caller; refreshes `last_used_at` at most once per `resolution`.
fn resolve_api_token(
    conn: &mut DbConnection,
    presented_hash: &str,
    resolution: Duration,
) -> Result<AnyCaller, ApiError> {
    let (caller, touch) = look_up_api_token(conn, presented_hash, resolution)?;
    if let Some(touch) = touch {
        touch.apply(conn)?;
    }
    Ok(caller)
}

/// The read half of `resolve_api_token`: the caller, and the `last_used_at` refresh that is
/// due, if any.
fn look_up_api_token(
    conn: &mut DbConnection,
    presented_hash: &str,
    resolution: Duration,
) -> Result<(AnyCaller, Option<TokenTouch>), ApiError> {
    let row = api_tokens::find_by_hash(conn, presented_hash)?
        .filter(|row| tokens::hashes_match(&row.token_hash, presented_hash))
        .ok_or(ApiError::Unauthorized(AuthFailure::Invalid))?;
    if row.revoked_at.is_some() {
        return Err(ApiError::Unauthorized(AuthFailure::Revoked));
    }
    let role = TokenRole::parse(&row.role)
        .ok_or_else(|| ApiError::internal(format!("token {} has role {:?}", row.id, row.role)))?;
    let now = store::now();
    let stale_before = now - resolution;
    let touch = row
        .last_used_at
        .is_none_or(|used| used < stale_before)
        .then_some(TokenTouch {
            token_id: row.id,
            at: now,
            stale_before,
        });
    let caller = match role {
        TokenRole::Server => AnyCaller::Server(ServerCaller {
            token_id: row.id,
            name: row.name,
        }),
        TokenRole::Admin => AnyCaller::Admin(AdminCaller {
            token_id: row.id,
            name: row.name,
        }),
    };
    Ok((caller, touch))
}

/// A due refresh of a token's `last_used_at`.
#[derive(Debug)]
pub struct TokenTouch {
    token_id: i64,
    at: NaiveDateTime,
    stale_before: NaiveDateTime,
}

impl TokenTouch {
    fn apply(&self, conn: &mut DbConnection) -> Result<(), ApiError> {
        api_tokens::touch_last_used(conn, self.token_id, self.at, self.stale_before)?;
        Ok(())
    }

    /// Applies the refresh on the blocking pool after the answer has gone, so a read-only
    /// hot path never waits for the write lock. A failure is logged: the timestamp is
    /// bookkeeping, never a reason to fail a request.
    pub fn apply_later(self, state: &AppState) {
        let state = state.clone();
        actix_web::rt::spawn(async move {
            if let Err(error) = state.write_bulk(move |conn| self.apply(conn)).await {
                tracing::warn!(%error, "could not record a token's last use");
            }
        });
    }
}

/// A request's credentials, read but not yet looked up. For the hot paths game servers call
/// before every game and chat line: the handler resolves them on the same pooled connection,
/// in the same trip, as its own queries. Failures are the same as `AnyCaller`'s: 401 for
/// missing, malformed, unknown or revoked credentials.
#[derive(Debug)]
pub enum Credentials {
    /// Already known: a player token (verified in process) or an earlier extractor's result.
    Known(AnyCaller),
    /// An API token to look up by its hash.
    ApiToken { hash: String, resolution: Duration },
}

impl Credentials {
    fn read(req: &HttpRequest) -> Result<Credentials, ApiError> {
        if let Some(caller) = req.extensions().get::<AnyCaller>() {
            return Ok(Credentials::Known(caller.clone()));
        }
        let state = req
            .app_data::<web::Data<AppState>>()
            .ok_or_else(|| ApiError::internal("application state missing"))?;
        let bearer = bearer_token(req)?;
        if bearer.starts_with(tokens::TOKEN_PREFIX) {
            return Ok(Credentials::ApiToken {
                hash: tokens::hash(&bearer),
                resolution: last_used_resolution(state),
            });
        }
        let verifier = state
            .player_tokens
            .as_ref()
            .ok_or(ApiError::Unauthorized(AuthFailure::Invalid))?;
        let verified = verifier
            .verify_player(&bearer)
            .map_err(ApiError::Unauthorized)?;
        Ok(Credentials::Known(AnyCaller::Player(PlayerCaller::of(
            req, verified,
        ))))
    }

    /// The caller, read-only: a due `last_used_at` refresh is handed back for the handler to
    /// pass to `TokenTouch::apply_later` (with `record_caller` for the request span).
    pub fn resolve_read_only(
        self,
        conn: &mut DbConnection,
    ) -> Result<(AnyCaller, Option<TokenTouch>), ApiError> {
        match self {
            Credentials::Known(caller) => Ok((caller, None)),
            Credentials::ApiToken { hash, resolution } => {
                look_up_api_token(conn, &hash, resolution)
            }
        }
    }
}

/// Notes the caller on the current request span (its `caller` field).
pub fn record_caller(caller: &AnyCaller) {
    tracing::Span::current().record(
        "caller",
        format!("{}:{}", caller.role().as_str(), caller.name()),
    );
}

impl FromRequest for Credentials {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Credentials, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Credentials::read(req))
    }
}

type ExtractFuture<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

impl FromRequest for AnyCaller {
    type Error = ApiError;
    type Future = ExtractFuture<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { AnyCaller::authenticate(&req).await })
    }
}

/// A caller of one role: the generic extractor below accepts that role and answers 403
/// naming it to every other authenticated caller.
pub trait OneRole: Sized + 'static {
    const ROLE: &'static str;
    /// The caller as this role, or the caller back when it has another role.
    fn from_any(caller: AnyCaller) -> Result<Self, AnyCaller>;
}

impl OneRole for ServerCaller {
    const ROLE: &'static str = "server";
    fn from_any(caller: AnyCaller) -> Result<Self, AnyCaller> {
        match caller {
            AnyCaller::Server(server) => Ok(server),
            other => Err(other),
        }
    }
}

impl OneRole for AdminCaller {
    const ROLE: &'static str = "admin";
    fn from_any(caller: AnyCaller) -> Result<Self, AnyCaller> {
        match caller {
            AnyCaller::Admin(admin) => Ok(admin),
            other => Err(other),
        }
    }
}

impl OneRole for PlayerCaller {
    const ROLE: &'static str = "player";
    fn from_any(caller: AnyCaller) -> Result<Self, AnyCaller> {
        match caller {
            AnyCaller::Player(player) => Ok(player),
            other => Err(other),
        }
    }
}

/// The one role extractor: authenticates, then keeps callers of the role `R`.
fn extract_role<R: OneRole>(req: &HttpRequest) -> ExtractFuture<R> {
    let req = req.clone();
    Box::pin(async move {
        R::from_any(AnyCaller::authenticate(&req).await?)
            .map_err(|other| other.forbidden(&[R::ROLE]))
    })
}

macro_rules! extract_as_role {
    ($($caller:ty),*) => {$(
        impl FromRequest for $caller {
            type Error = ApiError;
            type Future = ExtractFuture<Self>;

            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                extract_role::<Self>(req)
            }
        }
    )*};
}

extract_as_role!(ServerCaller, AdminCaller, PlayerCaller);
