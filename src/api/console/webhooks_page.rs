//! Webhook subscriptions: list with their recent deliveries, subscribe a game server's URL (the
//! signing secret is shown once, on the answer to the form), revoke.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page_with_status, see_other, Section};
use super::page_error::ConsoleError;
use super::session::{ConsoleAdmin, Flash};
use super::text::{spoken_name, when, wire_name};
use crate::api::actions::webhooks::{self, NewSubscription};
use crate::api::pagination::PageQuery;
use crate::api::read_models::webhooks::read_with_deliveries;
use crate::api::state::AppState;

/// Deliveries shown per subscription.
const DELIVERIES: u32 = 10;

async fn render(
    admin: &ConsoleAdmin,
    state: &web::Data<AppState>,
    created: Option<(&str, &str)>,
) -> Result<Markup, ConsoleError> {
    let page_of = |limit| {
        PageQuery {
            limit: Some(limit),
            cursor: None,
        }
        .by_id(&state.cursor_key)
    };
    let read = read_with_deliveries(state, page_of(200)?, page_of(DELIVERIES)?).await?;
    let (listed, deliveries) = (read.subscriptions, read.deliveries);
    Ok(html! {
        @if let Some((url, secret)) = created {
            section.panel role="status" {
                h2 { "Subscribed " (url) }
                p { "Give this signing secret to the game server now; it is shown only this once." }
                p { code.secret { (secret) } }
            }
        }
        form.filters method="post" action="/admin/webhooks" {
            input type="hidden" name="csrf" value=(admin.csrf);
            label for="hook-url" { "Game server URL" }
            input #hook-url type="url" name="url" required placeholder="https://eu-1.example.org/arbiter/events" size="48";
            button type="submit" { "Subscribe" }
        }
        p.hint { "Every sanction event (started, reduced, lifted, ended) is sent, signed; docs/webhooks.md tells receivers how to check it." }
        @if listed.items.is_empty() { p.empty { "No subscription." } }
        @for (subscription, recent) in listed.items.iter().zip(&deliveries) {
            article.panel {
                h3 { (subscription.url) @if subscription.revoked_at.is_some() { " (revoked)" } }
                p { "By " (subscription.created_by) ", " (when(subscription.created_at)) "; events: "
                    @for (i, e) in subscription.events.iter().enumerate() { @if i > 0 { ", " } (spoken_name(e)) } }
                @if subscription.revoked_at.is_none() {
                    form method="post" action={ "/admin/webhooks/" (subscription.id) "/revoke" } {
                        input type="hidden" name="csrf" value=(admin.csrf);
                        button type="submit" aria-label={ "Revoke the subscription of " (subscription.url) } { "Revoke" }
                    }
                }
                @if !recent.is_empty() {
                    table {
                        thead { tr { th { "Event" } th { "Sanction" } th { "Status" } th { "Attempts" } th { "Last answer" } } }
                        tbody { @for d in recent {
                            tr { td { (wire_name(&d.event)) } td.num { @if let Some(id) = d.sanction_id { (id) } @else { "—" } } td { (wire_name(&d.status)) } td.num { (d.attempts) }
                                td { @if let Some(last) = d.tries.last() {
                                    (when(last.attempted_at)) ": " @if let Some(code) = last.status_code { "HTTP " (code) } @if let Some(error) = &last.error { " " (error) }
                                } } }
                        } }
                    }
                }
            }
        }
    })
}

/// `GET /admin/webhooks`.
pub async fn webhooks_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ConsoleError> {
    let body = render(&admin, &state, None).await?;
    Ok(page_with_status(
        &admin,
        Section::Webhooks,
        "Webhooks",
        StatusCode::OK,
        body,
    ))
}

#[derive(Debug, Deserialize)]
pub struct SubscribeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    url: String,
}

/// `POST /admin/webhooks`: subscribes through the API's handler and shows the secret once.
pub async fn subscribe(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<SubscribeForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    if form.url.contains('\0') {
        return Err(ConsoleError::BadForm(
            "The URL holds a NUL character.".into(),
        ));
    }
    let body = NewSubscription {
        url: form.url.trim().to_string(),
        events: None,
    };
    let created = webhooks::subscribe(&state, admin.name(), body).await?;
    let shown = (created.subscription.url.as_str(), created.secret.as_str());
    let body = render(&admin, &state, Some(shown)).await?;
    Ok(page_with_status(
        &admin,
        Section::Webhooks,
        "Webhooks",
        StatusCode::CREATED,
        body,
    ))
}

#[derive(Debug, Deserialize)]
pub struct SubscriptionRevokeForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /admin/webhooks/{id}/revoke`.
pub async fn revoke(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<SubscriptionRevokeForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let flash = match webhooks::revoke(&state, id).await {
        Ok(_) => Flash::Done(format!(
            "Subscription {id} is revoked; nothing more is sent to it."
        )),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other("/admin/webhooks"))
}
