//! API tokens: list, create (the token is shown once, on the answer to the form, and never
//! stored in plain), revoke.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page_with_status, see_other, Section};
use super::page_error::ConsoleError;
use super::session::{ConsoleAdmin, Flash};
use super::text::{url_encoded, when, wire_name};
use crate::api::actions::tokens::{self, CreateToken};
use crate::api::auth::tokens::TokenRole;
use crate::api::pagination::PageQuery;
use crate::api::read_models::tokens::read_tokens;
use crate::api::state::AppState;

#[derive(Debug, Default, Deserialize)]
pub struct TokenListQuery {
    cursor: Option<String>,
}

async fn render(
    admin: &ConsoleAdmin,
    state: &web::Data<AppState>,
    cursor: Option<String>,
    created: Option<(&str, &str)>,
) -> Result<Markup, ConsoleError> {
    let page = PageQuery {
        limit: Some(100),
        cursor,
    }
    .by_id(&state.cursor_key)?;
    let listed = read_tokens(state, page).await?;
    Ok(html! {
        @if let Some((name, token)) = created {
            section.panel role="status" {
                h2 { "New token for " (name) }
                p { "Copy it now: it is shown only this once, and only its hash is kept." }
                p { code.secret { (token) } }
            }
        }
        form.filters method="post" action="/admin/tokens" {
            input type="hidden" name="csrf" value=(admin.csrf);
            label for="token-name" { "Name" }
            input #token-name type="text" name="name" required placeholder="eu-2 or mod_name";
            label for="token-role" { "Role" }
            select #token-role name="role" { option value="server" { "game server" } option value="admin" { "admin" } }
            button type="submit" { "Create a token" }
        }
        table {
            thead { tr { th { "Id" } th { "Name" } th { "Role" } th { "Created" } th { "Last used" } th { "Revoked" } th { span.visually-hidden { "Action" } } } }
            tbody { @for token in &listed.items {
                tr {
                    td.num { (token.id) } td { (token.name) } td { (wire_name(&token.role)) }
                    td { (when(token.created_at)) } td { (token.last_used_at.map(when).unwrap_or_default()) }
                    td { (token.revoked_at.map(when).unwrap_or_default()) }
                    td { @if token.revoked_at.is_none() {
                        form method="post" action={ "/admin/tokens/" (token.id) "/revoke" } {
                            input type="hidden" name="csrf" value=(admin.csrf);
                            button type="submit" aria-label={ "Revoke token " (token.id) " (" (token.name) ")" } { "Revoke" }
                        }
                    } }
                }
            } }
        }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href={ "/admin/tokens?cursor=" (url_encoded(cursor)) } { "Next page" } }
        }
    })
}

/// `GET /admin/tokens`.
pub async fn tokens_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    query: web::Query<TokenListQuery>,
) -> Result<HttpResponse, ConsoleError> {
    let body = render(&admin, &state, query.into_inner().cursor, None).await?;
    Ok(page_with_status(
        &admin,
        Section::Tokens,
        "API tokens",
        StatusCode::OK,
        body,
    ))
}

#[derive(Debug, Deserialize)]
pub struct CreateForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    role: String,
}

/// `POST /admin/tokens`: creates through the API's handler and shows the token once.
pub async fn create(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<CreateForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let role = match form.role.as_str() {
        "server" => TokenRole::Server,
        "admin" => TokenRole::Admin,
        _ => return Err(ConsoleError::BadForm("Choose a role from the list.".into())),
    };
    if form.name.contains('\0') {
        return Err(ConsoleError::BadForm(
            "The name holds a NUL character.".into(),
        ));
    }
    let body = CreateToken {
        name: form.name.clone(),
        role,
    };
    let created = tokens::create(&state, admin.name(), body).await?;
    let shown = (created.token_info.name.as_str(), created.token.as_str());
    let body = render(&admin, &state, None, Some(shown)).await?;
    Ok(page_with_status(
        &admin,
        Section::Tokens,
        "API tokens",
        StatusCode::CREATED,
        body,
    ))
}

#[derive(Debug, Deserialize)]
pub struct TokenRevokeForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /admin/tokens/{id}/revoke`.
pub async fn revoke(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<TokenRevokeForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let flash = match tokens::revoke(&state, admin.name(), id).await {
        Ok(_) => Flash::Done(format!(
            "Token {id} is revoked; its requests and console sessions end now."
        )),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    // Revoking one's own token ends this session too; the next page asks to sign in.
    admin.leave_flash(&state, flash).await?;
    Ok(see_other("/admin/tokens"))
}
