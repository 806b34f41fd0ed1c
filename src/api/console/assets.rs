//! The console's stylesheet and script, built into the binary and served under
//! `/admin/static/` with a content hash in their URLs, so browsers may keep them for a year.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use sha2::{Digest, Sha256};

const STYLESHEET: &str = include_str!("assets/console.css");
const SCRIPT: &str = include_str!("assets/console.js");

fn versioned(name: &str, body: &str) -> String {
    let digest = hex::encode(Sha256::digest(body.as_bytes()));
    format!("/admin/static/{name}?v={}", &digest[..16])
}

pub fn stylesheet_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| versioned("console.css", STYLESHEET))
}

pub fn script_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| versioned("console.js", SCRIPT))
}

/// `GET /admin/static/{name}`.
pub async fn serve(name: web::Path<String>) -> HttpResponse {
    let (body, content_type) = match name.as_str() {
        "console.css" => (STYLESHEET, "text/css; charset=utf-8"),
        "console.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        _ => return HttpResponse::NotFound().finish(),
    };
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .body(body)
}
