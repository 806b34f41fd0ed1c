//! The Stats page: the queue's depth over time, time to decision by reason and decisions per
//! admin, each drawn as SVG with its numbers in a table beside it (the API's
//! `GET /api/v1/admin/stats`, same read model).

use actix_web::{web, HttpResponse};
use chrono::NaiveDate;
use maud::{html, Markup};
use serde::Deserialize;

use super::chart_svg::{bars, columns};
use super::layout::{page, Section};
use super::page_error::ConsoleError;
use super::session::ConsoleAdmin;
use super::text::{spoken_name, when};
use crate::api::read_models::stats::{self, StatsQuery};
use crate::api::state::AppState;
use crate::api::views::stats::{StatsView, WaitView};
use crate::moderation::stats::BucketSize;

#[derive(Debug, Default, Deserialize)]
pub struct StatsFilters {
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    bucket: String,
}

fn date(field: &str, text: &str) -> Result<Option<NaiveDate>, ConsoleError> {
    match text.trim() {
        "" => Ok(None),
        text => NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| {
                ConsoleError::BadForm(format!("{field}: \"{text}\" is not a date (YYYY-MM-DD)."))
            }),
    }
}

/// `GET /admin/stats`.
pub async fn stats_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    filters: web::Query<StatsFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let query = StatsQuery {
        from: date("From", &filters.from)?,
        to: date("To", &filters.to)?,
        bucket: Some(if filters.bucket == "week" {
            BucketSize::Week
        } else {
            BucketSize::Day
        }),
    };
    let (from, to, bucket) = query.resolve(state.clock.now().date())?;
    let view = stats::read(&state, from, to, bucket).await?;
    let body = html! {
        form.filters method="get" action="/admin/stats" aria-label="Choose the range" {
            label for="from" { "From" } input #from type="date" name="from" value=(view.from);
            label for="to" { "To" } input #to type="date" name="to" value=(view.to);
            label for="bucket" { "By" }
            select #bucket name="bucket" {
                option value="day" selected[bucket == BucketSize::Day] { "day" }
                option value="week" selected[bucket == BucketSize::Week] { "week" }
            }
            button type="submit" { "Show" }
        }
        p { @match view.as_of {
            Some(at) => { "As of " (when(at)) "; the stats job rolls the log every minute." }
            None => { "Nothing rolled yet: the stats job rolls the log every minute." }
        } }
        (queue_section(&view))
        (decision_section(&view))
        (admin_section(&view))
    };
    Ok(page(&admin, Section::Stats, "Stats", body))
}

/// A wait as people read it: `45 s`, `12 min`, `3.5 h`, `2.1 d`.
fn wait(secs: Option<i64>) -> String {
    match secs {
        None => "–".to_string(),
        Some(s) if s < 60 => format!("{s} s"),
        Some(s) if s < 3600 => format!("{} min", s / 60),
        Some(s) if s < 48 * 3600 => format!("{:.1} h", s as f64 / 3600.0),
        Some(s) => format!("{:.1} d", s as f64 / 86_400.0),
    }
}

fn waits(w: &WaitView) -> Markup {
    html! { (wait(w.median_secs)) " / " (wait(w.p90_secs)) }
}

fn queue_section(view: &StatsView) -> Markup {
    let points: Vec<(String, f64)> = view
        .buckets
        .iter()
        .map(|b| (b.start.format("%m-%d").to_string(), b.open_at_end as f64))
        .collect();
    html! {
        section aria-labelledby="queue-depth" {
            h2 #queue-depth { "Open cases over time" }
            div.figure {
                (columns("Open cases at the end of each bucket", &points))
                table {
                    caption { "Per bucket: cases opened and decided, waits (median / p90), open at the end" }
                    thead { tr {
                        th scope="col" { "From" } th scope="col" { "Opened" } th scope="col" { "Decided" }
                        th scope="col" { "To first claim" } th scope="col" { "To decision" }
                        th scope="col" { "Open at end" } th scope="col" { "Oldest open since" }
                    } }
                    tbody { @for b in &view.buckets { tr {
                        th scope="row" { (b.start) }
                        td { (b.opened) } td { (b.decided) }
                        td { (waits(&b.to_first_claim)) } td { (waits(&b.to_decision)) }
                        td { (b.open_at_end) }
                        td { @match b.oldest_open_at { Some(at) => (when(at)), None => "–" } }
                    } } }
                }
            }
        }
    }
}

fn decision_section(view: &StatsView) -> Markup {
    let rows: Vec<(String, f64)> = view
        .to_decision_by_reason
        .iter()
        .map(|(reason, w)| {
            (
                spoken_name(reason),
                w.median_secs.unwrap_or(0) as f64 / 3600.0,
            )
        })
        .collect();
    html! {
        section aria-labelledby="decision-time" {
            h2 #decision-time { "Time to decision by reason" }
            div.figure {
                (bars("Median hours from opening to decision, by reason", &rows, |h| format!("{h:.1} h")))
                table {
                    caption { "Cases decided in the range, by reason" }
                    thead { tr {
                        th scope="col" { "Reason" } th scope="col" { "Decided" }
                        th scope="col" { "Median" } th scope="col" { "p90" }
                    } }
                    tbody { @for (reason, w) in &view.to_decision_by_reason { tr {
                        th scope="row" { (spoken_name(reason)) }
                        td { (w.cases) } td { (wait(w.median_secs)) } td { (wait(w.p90_secs)) }
                    } } }
                }
            }
        }
    }
}

fn admin_section(view: &StatsView) -> Markup {
    let rows: Vec<(String, f64)> = view
        .admins
        .iter()
        .map(|a| (a.admin.clone(), f64::from(a.decisions)))
        .collect();
    html! {
        section aria-labelledby="per-admin" {
            h2 #per-admin { "Decisions per admin" }
            div.figure {
                (bars("Decisions per admin in the range", &rows, |n| format!("{n:.0}")))
                table {
                    caption { "Each admin's work in the range" }
                    thead { tr {
                        th scope="col" { "Admin" } th scope="col" { "Decisions" }
                        th scope="col" { "Claims dropped" } th scope="col" { "Reversed on appeal" }
                    } }
                    tbody { @for a in &view.admins { tr {
                        th scope="row" { (a.admin) }
                        td { (a.decisions) } td { (a.claims_dropped) } td { (a.reversed_on_appeal) }
                    } } }
                }
            }
        }
    }
}
