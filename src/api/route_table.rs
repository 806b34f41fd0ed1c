//! The API's routes mounted from the one list of handlers (`routes::api_handlers!`), each at
//! the method and path its `#[utoipa::path]` declares, read from the OpenAPI document.

use std::collections::HashMap;
use std::sync::OnceLock;

use actix_web::http::Method;
use actix_web::{web, Route};

use super::openapi;
use super::routes::{self, api_handlers};

/// Sets a route's handler.
type Handler = fn(Route) -> Route;

macro_rules! handler_table {
    ($($module:ident :: $handler:ident),+ $(,)?) => {
        /// Each handler under its operation id: utoipa names an operation after its function.
        const HANDLERS: &[(&str, Handler)] =
            &[$((stringify!($handler), |route| route.to(routes::$module::$handler))),+];
    };
}
api_handlers!(handler_table);

/// The prefix of the API routes, mounted as one scope: a path outside it is not tried
/// against each API route.
const API_SCOPE: &str = "/api/v1";

/// A mounted API route: its handler at the method and path its `#[utoipa::path]` declares.
pub struct ApiRoute {
    pub method: Method,
    pub path: String,
    handler: Handler,
}

impl ApiRoute {
    fn route(&self) -> Route {
        (self.handler)(web::route().method(self.method.clone()))
    }
}

/// The API routes in the order they are mounted (`/metrics` aside, see `api_handlers!`).
pub fn api_routes() -> &'static [ApiRoute] {
    static ROUTES: OnceLock<Vec<ApiRoute>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        let mut declared: HashMap<String, (Method, String)> = openapi::declared_operations();
        HANDLERS
            .iter()
            .map(|&(name, handler)| {
                let (method, path) = declared.remove(name).unwrap_or_else(|| {
                    panic!("no documented operation {name}: operation ids are function names")
                });
                ApiRoute {
                    method,
                    path,
                    handler,
                }
            })
            .collect()
    })
}

/// The routes grouped by path, each path where its first route is.
fn by_path(routes: &[ApiRoute]) -> Vec<(&str, Vec<&ApiRoute>)> {
    let mut groups: Vec<(&str, Vec<&ApiRoute>)> = Vec::new();
    for route in routes {
        match groups.iter_mut().find(|(path, _)| *path == route.path) {
            Some((_, group)) => group.push(route),
            None => groups.push((&route.path, vec![route])),
        }
    }
    groups
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut scope = web::scope(API_SCOPE);
    for (path, routes) in by_path(api_routes()) {
        // One `web::resource` per path (not the attribute macros, which make one per route),
        // so a known path asked with another method gets 405.
        let resource = |path: &str| {
            routes.iter().fold(web::resource(path), |resource, route| {
                resource.route(route.route())
            })
        };
        match path.strip_prefix(API_SCOPE) {
            Some(rest) if rest.starts_with('/') => scope = scope.service(resource(rest)),
            _ => {
                cfg.service(resource(path));
            }
        }
    }
    cfg.service(scope);
}
