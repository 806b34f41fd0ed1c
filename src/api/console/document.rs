//! The HTML document around every console page: its head (stylesheet and script), the
//! response carrying it, and the bare page shown without navigation.

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;
use maud::{html, Markup, DOCTYPE};

use super::assets;

/// The document head: title, stylesheet and script.
pub fn head(title: &str) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) " · Arbiter" }
            link rel="stylesheet" href=(assets::stylesheet_url());
            script src=(assets::script_url()) defer {}
        }
    }
}

/// A page without navigation: sign-in and errors met before a session is known.
pub fn bare_page(status: StatusCode, title: &str, body: Markup) -> HttpResponse {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            (head(title))
            body.bare {
                main #main {
                    h1 { (title) }
                    (body)
                }
            }
        }
    };
    html_response(status, markup)
}

/// `markup` as an HTML response with `status`.
pub fn html_response(status: StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .body(markup.into_string())
}
