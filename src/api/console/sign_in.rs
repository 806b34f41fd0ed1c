//! Signing in with an admin API token, signing out, and the admin's list of running sessions.

use std::time::Instant;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use chrono::Duration;
use maud::html;
use serde::Deserialize;

use super::document::bare_page;
use super::layout::{page, see_other, Section};
use super::page_error::ConsoleError;
use super::session::{
    check_origin, console_cookie, csrf_matches, csrf_token, new_secret, removal_cookie,
    secret_hash, ConsoleAdmin, Flash, SESSION_COOKIE, SIGN_IN_COOKIE,
};
use super::session_state::SessionState;
use super::text::{console_path, when};
use crate::api::auth::tokens::{self, TokenRole};
use crate::api::error::ApiError;
use crate::api::limits::middleware::{request_address, whole_seconds};
use crate::api::state::AppState;
use crate::store::{self, api_tokens, console_sessions, to_utc};

/// Sessions listed on the sessions page.
const LISTED_SESSIONS: i64 = 100;
/// Longest user agent kept with a session.
const USER_AGENT_CHARS: usize = 200;

#[derive(Debug, Deserialize)]
pub struct SignInQuery {
    reason: Option<String>,
    next: Option<String>,
    signed_out: Option<String>,
}

fn reason_sentence(code: &str) -> Option<&'static str> {
    let state = match code {
        "expired" => SessionState::Expired,
        "revoked" => SessionState::TokenRevoked,
        "signed_out" => SessionState::SignedOut,
        _ => return None,
    };
    state.sentence()
}

fn sign_in_form(
    req: &HttpRequest,
    status: StatusCode,
    message: Option<(&str, bool)>,
    next: &str,
) -> HttpResponse {
    let secret = new_secret();
    let csrf = csrf_token(&secret);
    let mut response = bare_page(
        status,
        "Sign in to the console",
        html! {
            @if let Some((text, refused)) = message {
                @if refused {
                    p.flash.refused role="alert" { (text) }
                } @else {
                    p.flash.done role="status" { (text) }
                }
            }
            form.sign-in method="post" action="/admin/sign-in" {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="next" value=(next);
                label for="token" { "Your admin API token" }
                input #token type="password" name="token" autocomplete="current-password"
                    required autofocus spellcheck="false";
                p.hint { "The token an operator issued you (it starts with " code { "arb_" } "). It is checked once; the console then keeps a session." }
                button type="submit" { "Sign in" }
            }
        },
    );
    let cookie = console_cookie(req, SIGN_IN_COOKIE, secret);
    if let Err(error) = response.add_cookie(&cookie) {
        tracing::error!(%error, "console: could not set the sign-in cookie");
    }
    response
}

/// `GET /admin/sign-in`.
pub async fn sign_in_page(req: HttpRequest, query: web::Query<SignInQuery>) -> HttpResponse {
    let next = console_path(query.next.as_deref());
    let message = if query.signed_out.is_some() {
        Some(("You are signed out.", false))
    } else {
        query
            .reason
            .as_deref()
            .and_then(reason_sentence)
            .map(|text| (text, true))
    };
    sign_in_form(&req, StatusCode::OK, message, &next)
}

#[derive(Debug, Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    csrf: String,
    next: Option<String>,
}

/// Why a presented token does not open the console, or the admin token's id and name.
fn admin_token(conn: &mut store::DbConnection, presented: &str) -> Result<(i64, String), String> {
    let presented = presented.trim();
    if presented.is_empty() {
        return Err("Enter your admin API token.".into());
    }
    if !presented.starts_with(tokens::TOKEN_PREFIX) {
        return Err(format!(
            "That is not an API token (they start with {}); only admins sign in here.",
            tokens::TOKEN_PREFIX
        ));
    }
    let hash = tokens::hash(presented);
    let row = api_tokens::find_by_hash(conn, &hash)
        .map_err(|_| "The token could not be checked now; try again.".to_string())?
        .filter(|row| tokens::hashes_match(&row.token_hash, &hash))
        .ok_or_else(|| "No API token matches that one; check it was copied whole.".to_string())?;
    if row.revoked_at.is_some() {
        return Err("That token was revoked; ask an operator for a new one.".into());
    }
    match TokenRole::parse(&row.role) {
        Some(TokenRole::Admin) => Ok((row.id, row.name)),
        _ => Err("That is a game server's token; only admin tokens sign in here.".into()),
    }
}

/// Refuses a sign-in attempt made before the address's wait is over (`[limits] sign_in_*`).
fn too_many_sign_ins(wait: std::time::Duration) -> ConsoleError {
    let retry_after_secs = whole_seconds(wait);
    ConsoleError::Api(ApiError::RateLimited {
        code: "sign_in_throttled",
        message: format!(
            "Too many failed sign-ins from your address; try again in {retry_after_secs} seconds."
        ),
        retry_after_secs,
        details: serde_json::json!({ "retry_after_secs": retry_after_secs }),
    })
}

/// `POST /admin/sign-in`: checks the token, opens a session, sets its cookie. Each failure
/// makes the address wait longer before its next try, up to a lockout (`[limits]`).
pub async fn sign_in(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<SignInForm>,
) -> Result<HttpResponse, ConsoleError> {
    check_origin(&req)?;
    let form = form.into_inner();
    let next = console_path(form.next.as_deref());
    let expected = req
        .cookie(SIGN_IN_COOKIE)
        .map(|cookie| csrf_token(cookie.value()));
    let Some(expected) = expected else {
        return Ok(sign_in_form(
            &req,
            StatusCode::FORBIDDEN,
            Some((
                "Your browser did not send the sign-in cookie. Allow cookies for this site and try again.",
                true,
            )),
            &next,
        ));
    };
    if !csrf_matches(&expected, &form.csrf) {
        return Err(ConsoleError::CsrfRefused);
    }
    let address = request_address(&req, &state.limits);
    if let Some(address) = address {
        state
            .limits
            .sign_in
            .admits(address, Instant::now())
            .map_err(too_many_sign_ins)?;
    }
    let secret = new_secret();
    let hash = secret_hash(&secret);
    let user_agent: String = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .chars()
        .take(USER_AGENT_CHARS)
        .collect();
    let settings = state.settings.console.clone();
    let token = form.token;
    let opened = state
        .write(move |conn| {
            let (token_id, name) = match admin_token(conn, &token) {
                Ok(found) => found,
                Err(why) => return Ok::<_, diesel::result::Error>(Err(why)),
            };
            let now = store::now();
            let new = console_sessions::NewSession {
                session_hash: &hash,
                token_id,
                admin_name: &name,
                user_agent: &user_agent,
                created_at: now,
                last_seen_at: now,
                expires_at: now + Duration::hours(i64::from(settings.session_lifetime_hours)),
            };
            console_sessions::open(conn, &new)?;
            Ok(Ok(name))
        })
        .await?;
    if let Some(address) = address {
        match &opened {
            Err(_) => {
                let wait = state.limits.sign_in.failed(address, Instant::now());
                tracing::warn!(%address, wait_secs = wait.as_secs(), "console: sign-in failed");
            }
            Ok(_) => state.limits.sign_in.succeeded(address),
        }
    }
    match opened {
        Err(why) => Ok(sign_in_form(
            &req,
            StatusCode::UNAUTHORIZED,
            Some((&why, true)),
            &next,
        )),
        Ok(name) => {
            tracing::info!(admin = %name, "console: signed in");
            let mut response = see_other(&next);
            response
                .add_cookie(&console_cookie(&req, SESSION_COOKIE, secret))
                .map_err(|_| ConsoleError::Internal)?;
            response
                .add_cookie(&removal_cookie(&req, SIGN_IN_COOKIE))
                .map_err(|_| ConsoleError::Internal)?;
            Ok(response)
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

/// `POST /admin/sign-out`: ends this session and forgets its cookie.
pub async fn sign_out(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let (id, name) = (admin.session_id, admin.name().to_string());
    state
        .write(move |conn| console_sessions::end(conn, id, &name, store::now()))
        .await?;
    let mut response = see_other("/admin/sign-in?signed_out=1");
    response
        .add_cookie(&removal_cookie(&req, SESSION_COOKIE))
        .map_err(|_| ConsoleError::Internal)?;
    Ok(response)
}

/// `GET /admin/sessions`: the admin's running sessions, each with a button to end it.
pub async fn sessions_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ConsoleError> {
    let name = admin.name().to_string();
    let idle = Duration::minutes(i64::from(state.settings.console.session_idle_minutes));
    let rows = state
        .read(move |conn| {
            let now = store::now();
            console_sessions::running_of(conn, &name, now, now - idle, LISTED_SESSIONS)
        })
        .await?;
    Ok(page(
        &admin,
        Section::Sessions,
        "Your sessions",
        html! {
            p { "Every browser signed in as you. End any you do not recognise; revoking your API token ends them all." }
            table {
                thead { tr { th { "Signed in" } th { "Last used" } th { "Ends" } th { "Browser" } th { span.visually-hidden { "Action" } } } }
                tbody {
                    @for row in &rows {
                        tr {
                            td { (when(to_utc(row.created_at))) }
                            td { (when(to_utc(row.last_seen_at))) }
                            td { (when(to_utc(row.expires_at))) }
                            td { (row.user_agent) }
                            td {
                                @if row.id == admin.session_id {
                                    strong { "This session" }
                                } @else {
                                    form method="post" action={ "/admin/sessions/" (row.id) "/end" } {
                                        input type="hidden" name="csrf" value=(admin.csrf);
                                        button type="submit" aria-label={ "End the session signed in " (when(to_utc(row.created_at))) } { "End" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        },
    ))
}

/// `POST /admin/sessions/{id}/end`: ends another of the admin's sessions.
pub async fn end_session(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<CsrfForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let (id, name) = (id.into_inner(), admin.name().to_string());
    let ended = state
        .write(move |conn| console_sessions::end(conn, id, &name, store::now()))
        .await?;
    let flash = if ended {
        Flash::Done("The session is ended; that browser must sign in again.".into())
    } else {
        Flash::Refused("You have no running session with that number.".into())
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other("/admin/sessions"))
}
