//! The API documentation at `/docs/`: Swagger UI reading the OpenAPI document, both served
//! from the binary, so the page works without a network. Only the UI's bundle and stylesheet
//! are built in (1.6 MB; `docs_assets/README.md`): the whole distribution with its source maps
//! held about 11 MB of the binary.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use super::openapi;

const BUNDLE: &str = include_str!("docs_assets/swagger-ui-bundle.js");
const STYLESHEET: &str = include_str!("docs_assets/swagger-ui.css");

const INDEX: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Arbiter API</title>
<link rel="stylesheet" href="swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="swagger-initializer.js"></script>
</body>
</html>
"#;

/// Starts the UI on the service's own OpenAPI document.
fn initializer() -> &'static str {
    static SCRIPT: OnceLock<String> = OnceLock::new();
    SCRIPT.get_or_init(|| format!(
        "window.onload = function () {{\n  window.ui = SwaggerUIBundle({{\n    url: \"{}\",\n    \
         dom_id: \"#swagger-ui\",\n    deepLinking: true,\n    presets: [SwaggerUIBundle.presets.apis],\n    \
         layout: \"BaseLayout\"\n  }});\n}};\n",
        openapi::OPENAPI_PATH
    ))
}

/// The OpenAPI document as JSON, built once.
fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| {
        serde_json::to_string(&openapi::document()).unwrap_or_else(|_| String::from("{}"))
    })
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource(openapi::OPENAPI_PATH).route(web::get().to(openapi_document)))
        .service(web::resource("/docs").route(web::get().to(redirect)))
        .service(web::resource("/docs/").route(web::get().to(index)))
        .service(web::resource("/docs/{file}").route(web::get().to(file)));
}

async fn openapi_document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(document_json())
}

async fn redirect() -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}

async fn index() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(INDEX)
}

/// `GET /docs/{file}`: the UI's files; anything else is not found.
async fn file(name: web::Path<String>) -> HttpResponse {
    let (body, content_type) = match name.as_str() {
        "index.html" => (INDEX, "text/html; charset=utf-8"),
        "swagger-ui-bundle.js" => (BUNDLE, "text/javascript; charset=utf-8"),
        "swagger-ui.css" => (STYLESHEET, "text/css; charset=utf-8"),
        "swagger-initializer.js" => (initializer(), "text/javascript; charset=utf-8"),
        _ => return HttpResponse::NotFound().finish(),
    };
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .body(body)
}
