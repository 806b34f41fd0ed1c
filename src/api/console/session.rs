//! Console sessions: the cookie, its hash at rest, the CSRF token derived from it, and the
//! `ConsoleAdmin` extractor every page but sign-in takes.
//!
//! The cookie holds 32 random bytes; the database holds only their SHA-256. A form's CSRF
//! token is the SHA-256 of a fixed label and the cookie's value: another site cannot read the
//! cookie, so it cannot compute the token, and nothing more needs storing.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest};
use chrono::{Duration, NaiveDateTime};
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::page_error::ConsoleError;
use super::session_state::SessionState;
use crate::api::auth::AdminCaller;
use crate::api::state::AppState;
use crate::store::console_sessions::{self, SessionRow};

pub const SESSION_COOKIE: &str = "arbiter_session";
/// Set by the sign-in page so its form can carry a CSRF token before any session exists.
pub const SIGN_IN_COOKIE: &str = "arbiter_sign_in";
const COOKIE_PATH: &str = "/admin";
const CSRF_LABEL: &str = "arbiter console csrf\n";
/// A session's last use is written at most this often.
const TOUCH_EVERY_SECS: i64 = 60;

/// 32 random bytes as hex: a session's or sign-in form's secret.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the database keeps of a session's secret.
pub fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The CSRF token of the forms shown to the holder of `secret`.
pub fn csrf_token(secret: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(CSRF_LABEL.as_bytes());
    hasher.update(secret.as_bytes());
    hex::encode(hasher.finalize())
}

/// Constant-time comparison of the token a form sent with the expected one.
pub fn csrf_matches(expected: &str, sent: &str) -> bool {
    expected.as_bytes().ct_eq(sent.as_bytes()).into()
}

/// A cookie of the console: `HttpOnly`, `SameSite=Strict`, scoped to `/admin`, and `Secure`
/// when the request came over TLS (directly or through a proxy that says so).
pub fn console_cookie<'a>(req: &HttpRequest, name: &'a str, value: String) -> Cookie<'a> {
    let secure = req.connection_info().scheme() == "https";
    Cookie::build(name, value)
        .path(COOKIE_PATH)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .finish()
}

/// A cookie that tells the browser to forget `name`.
pub fn removal_cookie<'a>(req: &HttpRequest, name: &'a str) -> Cookie<'a> {
    let mut cookie = console_cookie(req, name, String::new());
    cookie.make_removal();
    cookie
}

/// The session's state at `now`: ended, past its lifetime, idle too long, or its token revoked.
pub fn state_of(row: &SessionRow, now: NaiveDateTime, idle: Duration) -> SessionState {
    if row.ended_at.is_some() {
        SessionState::SignedOut
    } else if row.token_revoked_at.is_some() {
        SessionState::TokenRevoked
    } else if row.expires_at <= now || row.last_seen_at + idle <= now {
        SessionState::Expired
    } else {
        SessionState::Live
    }
}

/// A one-time message the next page shows: an action's confirmation or its refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flash {
    Done(String),
    Refused(String),
}

impl Flash {
    pub fn stored(&self) -> String {
        match self {
            Flash::Done(text) => format!("done:{text}"),
            Flash::Refused(text) => format!("refused:{text}"),
        }
    }

    pub fn parse(stored: &str) -> Option<Flash> {
        if let Some(text) = stored.strip_prefix("done:") {
            Some(Flash::Done(text.to_string()))
        } else {
            stored
                .strip_prefix("refused:")
                .map(|text| Flash::Refused(text.to_string()))
        }
    }
}

/// A signed-in admin: the API token's caller, the session, its CSRF token and the message
/// left for this page.
#[derive(Debug, Clone)]
pub struct ConsoleAdmin {
    pub session_id: i64,
    pub caller: AdminCaller,
    pub csrf: String,
    pub flash: Option<Flash>,
}

impl ConsoleAdmin {
    pub fn name(&self) -> &str {
        &self.caller.name
    }

    /// Checks a form's CSRF token and, when the browser names one, its origin.
    pub fn check_form(&self, req: &HttpRequest, sent_csrf: &str) -> Result<(), ConsoleError> {
        check_origin(req)?;
        if csrf_matches(&self.csrf, sent_csrf) {
            Ok(())
        } else {
            Err(ConsoleError::CsrfRefused)
        }
    }

    /// Leaves `flash` for the next page this session opens.
    pub async fn leave_flash(&self, state: &AppState, flash: Flash) -> Result<(), ConsoleError> {
        let id = self.session_id;
        let text = flash.stored();
        state
            .write(move |conn| console_sessions::set_flash(conn, id, &text))
            .await?;
        Ok(())
    }
}

/// A form posted from another site names it in `Origin`; browsers send it with every POST.
pub fn check_origin(req: &HttpRequest) -> Result<(), ConsoleError> {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    let info = req.connection_info();
    let own = format!("{}://{}", info.scheme(), info.host());
    if origin.as_bytes() == own.as_bytes() {
        Ok(())
    } else {
        Err(ConsoleError::CsrfRefused)
    }
}

/// Sends the browser to sign in, then back to the page it asked for. A form's address is
/// not a page: after a POST it comes back to the queue.
fn sign_in_again(req: &HttpRequest, reason: Option<SessionState>) -> ConsoleError {
    let page = (req.method() == actix_web::http::Method::GET)
        .then(|| req.uri().path_and_query())
        .flatten();
    ConsoleError::SignIn {
        next: page.map(|p| p.as_str().to_string()),
        reason,
    }
}

async fn authenticate(req: HttpRequest) -> Result<ConsoleAdmin, ConsoleError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or(ConsoleError::Internal)?
        .clone();
    let Some(secret) = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string()) else {
        return Err(sign_in_again(&req, None));
    };
    let hash = secret_hash(&secret);
    let row = state
        .read(move |conn| console_sessions::find_by_hash(conn, &hash))
        .await?;
    let Some(row) = row else {
        return Err(sign_in_again(&req, Some(SessionState::SignedOut)));
    };
    let now = crate::store::now();
    let idle = Duration::minutes(i64::from(state.settings.console.session_idle_minutes));
    let session_state = state_of(&row, now, idle);
    if session_state != SessionState::Live {
        return Err(sign_in_again(&req, Some(session_state)));
    }
    let stale_before = now - Duration::seconds(TOUCH_EVERY_SECS);
    let needs_touch = row.last_seen_at < stale_before;
    if needs_touch || row.flash.is_some() {
        let id = row.id;
        let clear_flash = row.flash.is_some();
        state
            .write(move |conn| {
                if needs_touch {
                    console_sessions::touch(conn, id, now, stale_before)?;
                }
                if clear_flash {
                    console_sessions::clear_flash(conn, id)?;
                }
                Ok::<_, diesel::result::Error>(())
            })
            .await?;
    }
    Ok(ConsoleAdmin {
        session_id: row.id,
        caller: AdminCaller {
            token_id: row.token_id,
            name: row.admin_name,
        },
        csrf: csrf_token(&secret),
        flash: row.flash.as_deref().and_then(Flash::parse),
    })
}

impl FromRequest for ConsoleAdmin {
    type Error = ConsoleError;
    type Future = Pin<Box<dyn Future<Output = Result<ConsoleAdmin, ConsoleError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        Box::pin(authenticate(req.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(now: NaiveDateTime) -> SessionRow {
        SessionRow {
            id: 1,
            token_id: 1,
            admin_name: "mod_anna".into(),
            user_agent: String::new(),
            created_at: now - Duration::hours(1),
            last_seen_at: now - Duration::minutes(5),
            expires_at: now + Duration::hours(11),
            ended_at: None,
            flash: None,
            token_revoked_at: None,
        }
    }

    #[test]
    fn a_session_ends_when_signed_out_revoked_idle_or_old() {
        let now = crate::store::now();
        let idle = Duration::minutes(60);
        assert_eq!(state_of(&row(now), now, idle), SessionState::Live);
        let mut idle_too_long = row(now);
        idle_too_long.last_seen_at = now - Duration::minutes(61);
        assert_eq!(state_of(&idle_too_long, now, idle), SessionState::Expired);
        let mut old = row(now);
        old.expires_at = now;
        assert_eq!(state_of(&old, now, idle), SessionState::Expired);
        let mut revoked = row(now);
        revoked.token_revoked_at = Some(now);
        assert_eq!(state_of(&revoked, now, idle), SessionState::TokenRevoked);
        let mut ended = row(now);
        ended.ended_at = Some(now);
        assert_eq!(state_of(&ended, now, idle), SessionState::SignedOut);
    }

    #[test]
    fn csrf_tokens_differ_per_session_and_compare_exactly() {
        let (a, b) = (new_secret(), new_secret());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(csrf_token(&a), csrf_token(&b));
        assert_ne!(csrf_token(&a), secret_hash(&a));
        assert!(csrf_matches(&csrf_token(&a), &csrf_token(&a)));
        assert!(!csrf_matches(&csrf_token(&a), &csrf_token(&b)));
        assert!(!csrf_matches(&csrf_token(&a), ""));
    }

    #[test]
    fn flashes_round_trip() {
        for flash in [Flash::Done("ok: yes".into()), Flash::Refused("no".into())] {
            assert_eq!(Flash::parse(&flash.stored()), Some(flash));
        }
        assert_eq!(Flash::parse("other"), None);
    }
}
