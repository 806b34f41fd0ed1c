//! The admin console served under `/admin/`: server-rendered pages for volunteer admins.
//!
//! Each handler checks the session (`ConsoleAdmin`), reads through the read models the JSON
//! routes read through (`api::read_models`, one read per page) or acts through the actions
//! they act through (`api::actions`, which run the use cases), and renders the typed answer as
//! HTML, so an action through the console is exactly the API's action, moderation log
//! included. Errors become sentences on the page (`page_error`). Every response carries a
//! Content-Security-Policy without inline script.

pub mod assets;
pub mod board_svg;
pub mod case_page;
pub mod chart_svg;
pub mod document;
pub mod game_page;
pub mod layout;
pub mod log_page;
pub mod page_error;
pub mod player_page;
pub mod position_picture;
pub mod queue_page;
pub mod refunds_panel;
pub mod sanctions_page;
pub mod session;
pub mod session_state;
pub mod sign_in;
pub mod stats_page;
pub mod text;
pub mod tokens_page;
pub mod webhooks_page;
pub mod word_list_page;

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
            .route("/games", web::get().to(game_page::games_page))
            .route("/games/{id}", web::get().to(game_page::game_page))
            .route("/games/{id}/pgn4", web::get().to(game_page::download_pgn4))
            .route("/players", web::get().to(player_page::search_page))
            .route("/players/{name}", web::get().to(player_page::player_page))
            .route(
                "/players/{name}/notes",
                web::post().to(player_page::add_note),
            )
            .route(
                "/players/{name}/cases",
                web::post().to(player_page::open_case),
            )
            .route("/sanctions", web::get().to(sanctions_page::sanctions_page))
            .route(
                "/sanctions/{id}/change",
                web::post().to(sanctions_page::change),
            )
            .route("/appeals", web::get().to(sanctions_page::appeals_page))
            .route(
                "/appeals/{id}/decision",
                web::post().to(sanctions_page::decide_appeal),
            )
            .route("/log", web::get().to(log_page::log_page))
            .route("/stats", web::get().to(stats_page::stats_page))
            .route("/word-list", web::get().to(word_list_page::word_list_page))
            .route("/word-list/test", web::post().to(word_list_page::test))
            .route("/word-list/terms", web::post().to(word_list_page::add_term))
            .route(
                "/word-list/allowed",
                web::post().to(word_list_page::allow_word),
            )
            .route(
                "/word-list/strictness",
                web::post().to(word_list_page::set_strictness),
            )
            .route(
                "/word-list/{id}/remove",
                web::post().to(word_list_page::remove),
            )
            .route("/webhooks", web::get().to(webhooks_page::webhooks_page))
            .route("/webhooks", web::post().to(webhooks_page::subscribe))
            .route(
                "/webhooks/{id}/revoke",
                web::post().to(webhooks_page::revoke),
            )
            .route("/tokens", web::get().to(tokens_page::tokens_page))
            .route("/tokens", web::post().to(tokens_page::create))
            .route("/tokens/{id}/revoke", web::post().to(tokens_page::revoke))
            .default_service(web::to(no_such_page)),
    );
}
