//! The review queue page: open cases by priority with the API's filters, claim and release
//! with one click (or `c` / `r` from the keyboard, see `assets/console.js`).

use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page, see_other, Section};
use super::page_error::ConsoleError;
use super::session::{ConsoleAdmin, Flash};
use super::text::{age, console_path, filled, spoken, spoken_name, url_encoded, when, wire_name};
use crate::api::actions::claim_case;
use crate::api::read_models::queue::{read_cases, CaseListQuery};
use crate::api::state::AppState;
use crate::api::statuses::CaseStatus;
use crate::api::views::queue::CaseListItem;
use crate::moderation::ReportReason;

/// The queue's filters as the page's form sends them (empty fields mean "any").
#[derive(Debug, Default, Deserialize)]
pub struct QueueFilters {
    #[serde(default)]
    status: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    claimed: String,
    #[serde(default)]
    accused: String,
    #[serde(default)]
    reporter: String,
    cursor: Option<String>,
}

impl QueueFilters {
    fn api_query(&self) -> CaseListQuery {
        CaseListQuery {
            status: filled(&self.status),
            reason: filled(&self.reason),
            claimed: match self.claimed.as_str() {
                "yes" => Some(true),
                "no" => Some(false),
                _ => None,
            },
            accused: filled(&self.accused),
            reporter: filled(&self.reporter),
            limit: None,
            cursor: self.cursor.clone(),
        }
    }

    /// This page's address with another cursor.
    fn url_with_cursor(&self, cursor: Option<&str>) -> String {
        let mut url = format!(
            "/admin/?status={}&reason={}&claimed={}&accused={}&reporter={}",
            url_encoded(&self.status),
            url_encoded(&self.reason),
            url_encoded(&self.claimed),
            url_encoded(&self.accused),
            url_encoded(&self.reporter)
        );
        if let Some(cursor) = cursor {
            url.push_str("&cursor=");
            url.push_str(&url_encoded(cursor));
        }
        url
    }
}

fn select(name: &str, label: &str, current: &str, options: &[(String, String)]) -> Markup {
    html! {
        label for=(name) { (label) }
        select #(name) name=(name) {
            @for (value, text) in options {
                option value=(value) selected[value == current] { (text) }
            }
        }
    }
}

fn filters_form(filters: &QueueFilters) -> Markup {
    let mut reasons = vec![(String::new(), "any".to_string())];
    reasons.extend(ReportReason::ALL.iter().map(|r| {
        let name = wire_name(r);
        (name.clone(), spoken(&name))
    }));
    let statuses: Vec<(String, String)> =
        [("open", "open"), ("decided", "decided"), ("all", "all")]
            .iter()
            .map(|(v, t)| (v.to_string(), t.to_string()))
            .collect();
    let claimed: Vec<(String, String)> = [("", "either"), ("yes", "claimed"), ("no", "unclaimed")]
        .iter()
        .map(|(v, t)| (v.to_string(), t.to_string()))
        .collect();
    html! {
        form.filters method="get" action="/admin/" role="search" aria-label="Filter the queue" {
            (select("status", "Status", &filters.status, &statuses))
            (select("reason", "Reason", &filters.reason, &reasons))
            (select("claimed", "Claim", &filters.claimed, &claimed))
            label for="accused" { "Accused" }
            input #accused type="text" name="accused" value=(filters.accused) autocomplete="off";
            label for="reporter" { "Reporter" }
            input #reporter type="text" name="reporter" value=(filters.reporter) autocomplete="off";
            button type="submit" { "Filter" }
            a href="/admin/" { "Clear" }
        }
    }
}

fn claim_cell(
    admin: &ConsoleAdmin,
    case: &CaseListItem,
    now: chrono::DateTime<chrono::Utc>,
    back: &str,
) -> Markup {
    let holder = case
        .claimed_by
        .as_deref()
        .filter(|_| case.claimed_until.is_some_and(|until| until > now));
    let mine = holder == Some(admin.name());
    html! {
        @match holder {
            Some(holder) => span.claim { (holder) " until " (case.claimed_until.map(when).unwrap_or_default()) },
            None => span.claim.unclaimed { "unclaimed" },
        }
        @if case.status == CaseStatus::Open {
            form.inline method="post" action={ "/admin/cases/" (case.id) (if mine { "/release" } else { "/claim" }) } {
                input type="hidden" name="csrf" value=(admin.csrf);
                input type="hidden" name="back" value=(back);
                @if mine {
                    button type="submit" data-key="r" aria-label={ "Release case " (case.id) } { "Release" }
                } @else {
                    button type="submit" data-key="c" aria-label={ "Claim case " (case.id) } { "Claim" }
                }
            }
        }
    }
}

/// `GET /admin/`: the queue.
pub async fn queue_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    req: HttpRequest,
    filters: web::Query<QueueFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let filters = filters.into_inner();
    let listed = read_cases(&state, filters.api_query()).await?;
    let now = listed.as_of;
    let back = req
        .uri()
        .path_and_query()
        .map_or("/admin/", |p| p.as_str())
        .to_string();
    let body = html! {
        (filters_form(&filters))
        p.hint { "Keys: " kbd { "j" } " / " kbd { "k" } " move, " kbd { "o" } " open, " kbd { "c" } " claim, " kbd { "r" } " release, " kbd { "/" } " filter." }
        @if listed.items.is_empty() {
            p.empty { "No case matches these filters." }
        } @else {
            table.queue data-keyboard-list="" {
                caption.visually-hidden { "Cases by priority, highest first" }
                thead { tr {
                    th scope="col" { "Case" } th scope="col" { "Priority" } th scope="col" { "Age" }
                    th scope="col" { "Reason" } th scope="col" { "Accused" } th scope="col" { "Entries" }
                    th scope="col" { "Reporters" } th scope="col" { "Claim" }
                } }
                tbody {
                    @for case in &listed.items {
                        tr data-row="" {
                            td { a data-key="o" href={ "/admin/cases/" (case.id) } { "Case " (case.id) } }
                            td.num { (format!("{:.1}", case.priority.total)) }
                            td { (age(case.opened_at, now)) }
                            td { (spoken_name(&case.reason)) }
                            td { a href={ "/admin/players/" (url_encoded(&case.accused)) } { (case.accused) } }
                            td.num { (case.entry_count) }
                            td.num { (case.reporters) }
                            td { (claim_cell(&admin, case, now, &back)) }
                        }
                    }
                }
            }
        }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href=(filters.url_with_cursor(Some(cursor))) { "Next page" } }
        }
    };
    Ok(page(&admin, Section::Queue, "Review queue", body))
}

#[derive(Debug, Deserialize)]
pub struct ClaimForm {
    #[serde(default)]
    csrf: String,
    back: Option<String>,
}

/// `POST /admin/cases/{id}/claim`.
pub async fn claim(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ClaimForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let flash = match claim_case::claim(&state, admin.name(), id).await {
        Ok(claim) => Flash::Done(format!(
            "You hold case {id} until {}; nobody else can decide it meanwhile.",
            when(claim.claimed_until)
        )),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other(&console_path(form.back.as_deref())))
}

/// `POST /admin/cases/{id}/release`.
pub async fn release(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ClaimForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let flash = match claim_case::release(&state, admin.name(), id).await {
        Ok(_) => Flash::Done(format!(
            "You released case {id}; another admin may take it."
        )),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other(&console_path(form.back.as_deref())))
}
