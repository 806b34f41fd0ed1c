//! Sanctions in force (with the API's filters), each with forms to shorten or lift it, and
//! appeals (open by default) with the form to uphold, reduce or lift.

use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page, see_other, Section};
use super::page_error::{without_nul, ConsoleError};
use super::session::{ConsoleAdmin, Flash};
use super::text::{console_path, filled, spoken, spoken_name, url_encoded, when, wire_name};
use crate::api::actions::change_sanction::{self, SanctionAction, SanctionChangeBody};
use crate::api::actions::decide_appeal::{self, AppealChoice, AppealDecisionBody};
use crate::api::pagination::PageQuery;
use crate::api::read_models::appeals::{read_appeals, AppealListQuery};
use crate::api::read_models::sanctions::{read_sanctions, SanctionListQuery};
use crate::api::state::AppState;
use crate::api::statuses::AppealStatus;
use crate::api::views::sanction_listing::SanctionListingView;
use crate::moderation::SanctionKind;
use crate::store;

/// One sanction with its shorten and lift forms (also on the player's page).
pub fn sanction_row(admin: &ConsoleAdmin, listing: &SanctionListingView, back: &str) -> Markup {
    let s = &listing.sanction;
    let id = s.id;
    html! {
        article.panel {
            h3 { (spoken_name(&s.kind)) " for " a href={ "/admin/players/" (url_encoded(&listing.player)) } { (listing.player) } }
            p { "From " (when(s.starts_at)) @match s.reduced_until.or(s.ends_at) { Some(end) => { " to " (when(end)) }, None => ", permanent" }
                @if let Some(case) = s.case_id { " · " a href={ "/admin/cases/" (case) } { "case " (case) } }
                " · " (spoken_name(&s.ground)) }
            @if !listing.members.is_empty() {
                // A separation: who may not sit at one table.
                p { "Kept apart: "
                    @for (i, member) in listing.members.iter().enumerate() {
                        @if i > 0 { ", " }
                        a href={ "/admin/players/" (url_encoded(member)) } { (member) }
                    }
                }
            }
            @if !listing.note.is_empty() { p.hint { (listing.note) } }
            @if let Some(appeal) = &listing.appeal { p { "Appeal " (wire_name(&appeal.status)) ": " (appeal.text) } }
            @if listing.in_force {
                form.filters method="post" action={ "/admin/sanctions/" (id) "/change" } {
                    input type="hidden" name="csrf" value=(admin.csrf);
                    input type="hidden" name="back" value=(back);
                    label for={ "hours-" (id) } { "New length, hours from its start" }
                    input id={ "hours-" (id) } type="number" name="hours" min="0";
                    label for={ "why-" (id) } { "Why" }
                    input id={ "why-" (id) } type="text" name="note" required;
                    button type="submit" name="action" value="shorten" { "Shorten" }
                    button type="submit" name="action" value="lift" { "Lift" }
                }
            }
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub struct SanctionFilters {
    #[serde(default)]
    player: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    ending_before: String,
    cursor: Option<String>,
}

/// `GET /admin/sanctions`.
pub async fn sanctions_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    req: HttpRequest,
    filters: web::Query<SanctionFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let filters = filters.into_inner();
    let paging = PageQuery {
        limit: Some(50),
        cursor: filters.cursor.clone(),
    }
    .by_id(&state.cursor_key)?;
    let filter = SanctionListQuery {
        player: filled(&filters.player),
        kind: filled(&filters.kind),
        status: filled(&filters.status),
        ending_before: filled(&filters.ending_before),
    }
    .filter(store::now())?;
    let listed = read_sanctions(&state, filter, paging).await?;
    let back = req
        .uri()
        .path_and_query()
        .map_or("/admin/sanctions", |p| p.as_str())
        .to_string();
    let body = html! {
        form.filters method="get" action="/admin/sanctions" role="search" aria-label="Filter sanctions" {
            label for="player" { "Player" }
            input #player type="text" name="player" value=(filters.player);
            label for="kind" { "Kind" }
            select #kind name="kind" {
                option value="" { "any" }
                @for kind in SanctionKind::ALL { @let w = wire_name(&kind); option value=(w) selected[w == filters.kind] { (spoken(&w)) } }
            }
            label for="status" { "Status" }
            select #status name="status" {
                option value="in_force" selected[filters.status != "all"] { "in force" }
                option value="all" selected[filters.status == "all"] { "all" }
            }
            label for="ending_before" { "Ending before" }
            input #ending_before type="text" name="ending_before" value=(filters.ending_before) placeholder="2026-12-01T00:00:00Z";
            button type="submit" { "Filter" }
        }
        @if listed.items.is_empty() { p.empty { "No sanction matches." } }
        @for listing in &listed.items { (sanction_row(&admin, listing, &back)) }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href={ "/admin/sanctions?player=" (url_encoded(&filters.player)) "&kind=" (url_encoded(&filters.kind)) "&status=" (url_encoded(&filters.status)) "&ending_before=" (url_encoded(&filters.ending_before)) "&cursor=" (url_encoded(cursor)) } { "Next page" } }
        }
    };
    Ok(page(&admin, Section::Sanctions, "Sanctions", body))
}

#[derive(Debug, Deserialize)]
pub struct ChangeForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    hours: String,
    #[serde(default)]
    note: String,
    back: Option<String>,
}

fn hours_to_minutes(text: &str) -> Result<Option<u32>, ConsoleError> {
    match text.trim() {
        "" => Ok(None),
        hours => hours
            .parse::<u32>()
            .ok()
            .and_then(|h| h.checked_mul(60))
            .map(Some)
            .ok_or_else(|| ConsoleError::BadForm(format!("\"{hours}\" is not a number of hours."))),
    }
}

/// `POST /admin/sanctions/{id}/change`: shorten or lift, as `POST /api/v1/admin/sanctions/{id}/change`.
pub async fn change(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ChangeForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let action = match form.action.as_str() {
        "lift" => SanctionAction::Lift,
        "shorten" => SanctionAction::Shorten,
        _ => return Err(ConsoleError::BadForm("Choose Shorten or Lift.".into())),
    };
    let minutes = match action {
        SanctionAction::Shorten => hours_to_minutes(&form.hours)?,
        SanctionAction::Lift => None,
    };
    let body = SanctionChangeBody {
        action,
        until: None,
        minutes,
        note: without_nul(&form.note)?.trim().to_string(),
    };
    let flash = match change_sanction::change(&state, admin.name(), id, body).await {
        Ok(changed) => Flash::Done(match changed.lifted_at {
            Some(_) => format!("Sanction {id} is lifted."),
            None => format!(
                "Sanction {id} now ends {}.",
                changed
                    .reduced_until
                    .or(changed.ends_at)
                    .map(when)
                    .unwrap_or_else(|| "never".into())
            ),
        }),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other(&console_path(form.back.as_deref())))
}

#[derive(Debug, Default, Deserialize)]
pub struct AppealFilters {
    #[serde(default)]
    status: String,
    cursor: Option<String>,
}

/// `GET /admin/appeals`.
pub async fn appeals_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    filters: web::Query<AppealFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let filters = filters.into_inner();
    let listed = read_appeals(
        &state,
        AppealListQuery {
            status: filled(&filters.status),
            limit: Some(50),
            cursor: filters.cursor.clone(),
        },
    )
    .await?;
    let statuses = ["open", "upheld", "reduced", "lifted", "all"];
    let current = if filters.status.is_empty() {
        "open"
    } else {
        filters.status.as_str()
    };
    let body = html! {
        form.filters method="get" action="/admin/appeals" aria-label="Filter appeals" {
            label for="status" { "Status" }
            select #status name="status" { @for s in statuses { option value=(s) selected[s == current] { (s) } } }
            button type="submit" { "Filter" }
        }
        @if listed.items.is_empty() { p.empty { "No appeal matches." } }
        @for appeal in &listed.items {
            @let s = &appeal.sanction;
            article.panel {
                h3 { "Appeal " (appeal.id) " by " a href={ "/admin/players/" (url_encoded(&appeal.player)) } { (appeal.player) } ", " (wire_name(&appeal.status)) }
                p { (spoken_name(&s.kind)) " from " (when(s.starts_at)) @match s.reduced_until.or(s.ends_at) { Some(end) => { " to " (when(end)) }, None => ", permanent" }
                    @if let Some(case) = s.case_id { " · " a href={ "/admin/cases/" (case) } { "case " (case) } } }
                blockquote { (appeal.text) }
                @if appeal.status == AppealStatus::Open {
                    form.filters method="post" action={ "/admin/appeals/" (appeal.id) "/decision" } {
                        input type="hidden" name="csrf" value=(admin.csrf);
                        label for={ "hours-" (appeal.id) } { "Reduced length, hours from its start" }
                        input id={ "hours-" (appeal.id) } type="number" name="hours" min="0";
                        label for={ "note-" (appeal.id) } { "Answer to the player" }
                        input id={ "note-" (appeal.id) } type="text" name="note";
                        button type="submit" name="decision" value="uphold" { "Uphold" }
                        button type="submit" name="decision" value="reduce" { "Reduce" }
                        button type="submit" name="decision" value="lift" { "Lift" }
                    }
                } @else if let Some(note) = &appeal.note { p.hint { (note) } }
            }
        }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href={ "/admin/appeals?status=" (url_encoded(&filters.status)) "&cursor=" (url_encoded(cursor)) } { "Next page" } }
        }
    };
    Ok(page(&admin, Section::Appeals, "Appeals", body))
}

#[derive(Debug, Deserialize)]
pub struct AppealForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    decision: String,
    #[serde(default)]
    hours: String,
    #[serde(default)]
    note: String,
}

/// `POST /admin/appeals/{id}/decision`.
pub async fn decide_appeal(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<AppealForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let decision = match form.decision.as_str() {
        "uphold" => AppealChoice::Uphold,
        "reduce" => AppealChoice::Reduce,
        "lift" => AppealChoice::Lift,
        _ => {
            return Err(ConsoleError::BadForm(
                "Choose Uphold, Reduce or Lift.".into(),
            ))
        }
    };
    let minutes = match decision {
        AppealChoice::Reduce => hours_to_minutes(&form.hours)?,
        _ => None,
    };
    let body = AppealDecisionBody {
        decision,
        until: None,
        minutes,
        note: Some(without_nul(&form.note)?.trim().to_string()).filter(|n| !n.is_empty()),
    };
    let flash = match decide_appeal::decide(&state, admin.name(), id, body).await {
        Ok(_) => Flash::Done(format!("Appeal {id} is answered: {}.", form.decision)),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other("/admin/appeals"))
}
