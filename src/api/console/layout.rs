//! The frame every signed-in admin's page shares: navigation, the sign-out form and the
//! one-time message, in the document `document.rs` writes.

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;
use maud::{html, Markup, DOCTYPE};

use super::document::{head, html_response};
use super::session::{ConsoleAdmin, Flash};

/// The sections of the navigation bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Queue,
    Appeals,
    Sanctions,
    Players,
    Games,
    Log,
    Stats,
    WordList,
    Webhooks,
    Tokens,
    Sessions,
}

const SECTIONS: [(Section, &str, &str); 11] = [
    (Section::Queue, "/admin/", "Queue"),
    (Section::Appeals, "/admin/appeals", "Appeals"),
    (Section::Sanctions, "/admin/sanctions", "Sanctions"),
    (Section::Players, "/admin/players", "Players"),
    (Section::Games, "/admin/games", "Games"),
    (Section::Log, "/admin/log", "Log"),
    (Section::Stats, "/admin/stats", "Stats"),
    (Section::WordList, "/admin/word-list", "Word list"),
    (Section::Webhooks, "/admin/webhooks", "Webhooks"),
    (Section::Tokens, "/admin/tokens", "Tokens"),
    (Section::Sessions, "/admin/sessions", "Sessions"),
];

fn flash_box(flash: &Flash) -> Markup {
    match flash {
        Flash::Done(text) => html! { p.flash.done role="status" { (text) } },
        Flash::Refused(text) => html! { p.flash.refused role="alert" { (text) } },
    }
}

/// A page for a signed-in admin.
pub fn page(admin: &ConsoleAdmin, section: Section, title: &str, body: Markup) -> HttpResponse {
    page_with_status(admin, section, title, StatusCode::OK, body)
}

/// A page for a signed-in admin with another status (a refused form shown again).
pub fn page_with_status(
    admin: &ConsoleAdmin,
    section: Section,
    title: &str,
    status: StatusCode,
    body: Markup,
) -> HttpResponse {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body {
                a.skip href="#main" { "Skip to the content" }
                header.top {
                    span.brand { "Arbiter" }
                    nav aria-label="Sections" {
                        ul {
                            @for (each, href, label) in SECTIONS {
                                li {
                                    @if each == section {
                                        a href=(href) aria-current="page" { (label) }
                                    } @else {
                                        a href=(href) { (label) }
                                    }
                                }
                            }
                        }
                    }
                    form.sign-out method="post" action="/admin/sign-out" {
                        input type="hidden" name="csrf" value=(admin.csrf);
                        span { "Signed in as " strong { (admin.name()) } }
                        button type="submit" { "Sign out" }
                    }
                }
                main #main {
                    @if let Some(flash) = &admin.flash { (flash_box(flash)) }
                    h1 { (title) }
                    (body)
                }
            }
        }
    };
    html_response(status, markup)
}

/// The answer to a form: back to `location`, where the flash left for the session shows.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}
