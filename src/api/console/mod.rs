//! The admin console served under `/admin/`: server-rendered pages for volunteer admins.
//!
//! Each handler checks the session (`ConsoleAdmin`), calls the JSON API's own handler for the
//! operation, and renders its answer as HTML, so an action through the console is exactly the
//! API's action, moderation log included. Errors become sentences on the page
//! (`page_error`). Every response carries a Content-Security-Policy without inline script.

pub mod assets;
pub mod board_svg;
pub mod case_page;
pub mod layout;
pub mod page_error;
pub mod position_picture;
pub mod queue_page;
pub mod session;
pub mod sign_in;
pub mod text;

use actix_web::http::header;
use actix_web::middleware::DefaultHeaders;
use actix_web::{web, HttpResponse};

use page_error::ConsoleError;

/// Scripts, styles and images from the console itself only; no inline script or style, no
/// framing, forms post only here.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; \
     base-uri 'none'";

fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
        .add((header::REFERRER_POLICY, "same-origin"))
        .add((header::CACHE_CONTROL, "no-store"))
}

/// A form, query or path the console's pages did not produce answers with a page, not JSON.
fn extractor_configs(cfg: &mut web::ServiceConfig) {
    cfg.app_data(web::FormConfig::default().error_handler(|error, _| {
        ConsoleError::BadForm(format!("The form could not be read: {error}.")).into()
    }))
    .app_data(web::QueryConfig::default().error_handler(|error, _| {
        ConsoleError::BadForm(format!("The page's address could not be read: {error}.")).into()
    }))
    .app_data(web::PathConfig::default().error_handler(|_, req| {
        ConsoleError::NotFound(format!("There is no page at {}.", req.path())).into()
    }));
}

async fn to_queue() -> HttpResponse {
    layout::see_other("/admin/")
}

async fn no_such_page(req: actix_web::HttpRequest) -> Result<HttpResponse, ConsoleError> {
    Err(ConsoleError::NotFound(format!(
        "There is no page at {}.",
        req.path()
    )))
}

/// Mounts the console.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/admin", web::get().to(to_queue)).service(
        web::scope("/admin")
            .wrap(security_headers())
            .configure(extractor_configs)
            .route("/static/{name}", web::get().to(assets::serve))
            .route("/sign-in", web::get().to(sign_in::sign_in_page))
            .route("/sign-in", web::post().to(sign_in::sign_in))
            .route("/sign-out", web::post().to(sign_in::sign_out))
            .route("/sessions", web::get().to(sign_in::sessions_page))
            .route("/sessions/{id}/end", web::post().to(sign_in::end_session))
            .route("/", web::get().to(queue_page::queue_page))
            .route("/cases/{id}", web::get().to(case_page::case_page))
            .route("/cases/{id}/decision", web::post().to(case_page::decide))
            .route("/cases/{id}/claim", web::post().to(queue_page::claim))
            .route("/cases/{id}/release", web::post().to(queue_page::release))
            .default_service(web::to(no_such_page)),
    );
}
