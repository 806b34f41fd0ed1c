//! The moderation log with the API's filters: player, admin, kind, case, time range.

use actix_web::{web, HttpResponse};
use maud::html;
use serde::Deserialize;

use super::layout::{page, Section};
use super::page_error::ConsoleError;
use super::session::ConsoleAdmin;
use super::text::{filled, spoken, url_encoded, when, wire_name};
use crate::api::pagination::PageQuery;
use crate::api::read_models::modlog::{read_modlog, ModlogQuery};
use crate::api::state::AppState;

#[derive(Debug, Default, Deserialize)]
pub struct LogFilters {
    #[serde(default)]
    player: String,
    #[serde(default)]
    admin: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    case_id: String,
    #[serde(default)]
    since: String,
    #[serde(default)]
    until: String,
    cursor: Option<String>,
}

impl LogFilters {
    fn query_string(&self) -> String {
        format!(
            "player={}&admin={}&kind={}&case_id={}&since={}&until={}",
            url_encoded(&self.player),
            url_encoded(&self.admin),
            url_encoded(&self.kind),
            url_encoded(&self.case_id),
            url_encoded(&self.since),
            url_encoded(&self.until)
        )
    }
}

/// `GET /admin/log`.
pub async fn log_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    filters: web::Query<LogFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let filters = filters.into_inner();
    let case_id = match filters.case_id.trim() {
        "" => None,
        text => Some(
            text.parse::<i64>()
                .map_err(|_| ConsoleError::BadForm(format!("\"{text}\" is not a case number.")))?,
        ),
    };
    let paging = PageQuery {
        limit: Some(100),
        cursor: filters.cursor.clone(),
    }
    .by_id(&state.cursor_key)?;
    let filter = ModlogQuery {
        player: filled(&filters.player),
        admin: filled(&filters.admin),
        kind: filled(&filters.kind),
        since: filled(&filters.since),
        until: filled(&filters.until),
        case_id,
    }
    .filter()?;
    let listed = read_modlog(&state, filter, paging).await?;
    let body = html! {
        form.filters method="get" action="/admin/log" role="search" aria-label="Filter the log" {
            label for="player" { "Player" } input #player type="text" name="player" value=(filters.player);
            label for="admin" { "Admin" } input #admin type="text" name="admin" value=(filters.admin);
            label for="kind" { "Kind" } input #kind type="text" name="kind" value=(filters.kind) placeholder="decision";
            label for="case_id" { "Case" } input #case_id type="text" name="case_id" value=(filters.case_id) inputmode="numeric";
            label for="since" { "Since" } input #since type="text" name="since" value=(filters.since) placeholder="2026-11-01T00:00:00Z";
            label for="until" { "Until" } input #until type="text" name="until" value=(filters.until);
            button type="submit" { "Filter" }
            a href="/admin/log" { "Clear" }
        }
        @if listed.items.is_empty() { p.empty { "No entry matches." } }
        @else {
            table {
                thead { tr { th { "When" } th { "Who" } th { "What" } th { "Subject" } th { "Case" } th { "Why" } } }
                tbody { @for entry in &listed.items {
                    tr {
                        td { (when(entry.at)) }
                        td { (entry.actor.clone().unwrap_or_else(|| wire_name(&entry.actor_kind))) }
                        td { (spoken(&entry.kind)) }
                        td { @if let Some(subject) = &entry.subject { a href={ "/admin/players/" (url_encoded(subject)) } { (subject) } } }
                        td { @if let Some(case) = entry.case_id { a href={ "/admin/cases/" (case) } { (case) } } }
                        td { (entry.why.as_deref().unwrap_or("")) }
                    }
                } }
            }
        }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href={ "/admin/log?" (filters.query_string()) "&cursor=" (url_encoded(cursor)) } { "Older entries" } }
        }
    };
    Ok(page(&admin, Section::Log, "Moderation log", body))
}
