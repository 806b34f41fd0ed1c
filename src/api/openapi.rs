//! The OpenAPI document, generated from the handlers' and schemas' annotations. Its paths are
//! the handlers `routes::api_handlers!` lists (the same list `routes::configure` mounts), and
//! `/metrics`. Add each new body type to `schemas(...)`.
//!
//! `StandardResponses` then adds the answers every route of a kind can give, so no route can
//! forget one: 429 on every route, 401 and 503 on authenticated routes, 400/408/413/415 on
//! routes with a body, 400 on routes with an integer path id or query parameters.
//! Route-specific answers (403, 404, 409, 422, and 429s of their own) stay in each handler's
//! annotation.

use std::collections::HashMap;
use std::sync::OnceLock;

use actix_web::http::Method;

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, ParameterIn, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{Content, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use super::actions::decide_appeal::AppealChoice;
use super::actions::decide_case::{DecisionChoice, SanctionBody};
use super::auth::tokens::TokenRole;
use super::auth::Role;
use super::error::{ErrorBody, ErrorEnvelope};
use super::routes::{
    admin_cases, admin_entries, admin_queue, admin_tokens, alerts, api_handlers, appeals, chat,
    conduct, flags, games, health, modlog, notes, personal_data, player_search, players, presets,
    reports, sanctions, standing, stats, tables, warnings, webhooks, whoami, word_list,
};
use super::statuses::{AppealStatusFilter, CaseStatusFilter, SanctionStatusFilter, Termination};
use super::submission_schema::{
    ChatInputSchema, EventInputSchema, SeatInputSchema, SubmissionSchema,
};
use super::wire_enums::ModlogKind;
use crate::archive::{ChatChannel, EventKind, SeatColour};
use crate::moderation::{ReportReason, SanctionKind};

pub const OPENAPI_PATH: &str = "/api/v1/openapi.json";

/// Builds `ApiDoc` from the handlers `api_handlers!` hands it.
macro_rules! api_doc {
    ($($module:ident :: $handler:ident),+ $(,)?) => {
        #[derive(OpenApi)]
        #[openapi(
            info(
                title = "Arbiter",
                description = "Moderation and report handling for online four-player chess.\n\n\
                    Authenticate with `Authorization: Bearer <token>`: an API token (`arb_...`) for the \
                    server and admin roles, or a player token signed by the game site.",
            ),
            paths(health::metrics, $($module::$handler),+),
            components(schemas(
                ErrorEnvelope,
                ErrorBody,
                Role,
                TokenRole,
                SubmissionSchema,
                SeatInputSchema,
                ChatInputSchema,
                EventInputSchema,
                SeatColour,
                ChatChannel,
                EventKind,
                DecisionChoice,
                SanctionBody,
                AppealChoice,
                // Sets only query parameters name: parameters do not collect their schemas.
                CaseStatusFilter,
                AppealStatusFilter,
                SanctionStatusFilter,
                ModlogKind,
                ReportReason,
                SanctionKind,
                Termination,
            )),
            modifiers(&BearerAuth, &StandardResponses),
            tags(
                (name = "operations", description = "Health, readiness and metrics"),
                (name = "auth", description = "Identity of the caller"),
                (name = "admin", description = "Administration (admin role)"),
                (name = "chat", description = "Chat analysis (server role)"),
                (name = "games", description = "The game archive: ingest, queries, player records"),
                (name = "moderation", description = "Review queue, cases, appeals and the moderation log (admin role)"),
                (name = "reports", description = "Players' reports (player role)"),
                (name = "cases", description = "Working review cases: claim, release, decide (admin role)"),
                (name = "sanctions", description = "Standing, sanctions and appeals"),
            )
        )]
        pub struct ApiDoc;
    };
}
api_handlers!(api_doc);

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        if let Some(components) = openapi.components.as_mut() {
            components.add_security_scheme(
                "bearer",
                SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
            );
        }
    }
}

/// Adds the responses every route of a kind gives (see the module comment).
struct StandardResponses;

impl Modify for StandardResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in operations_mut(item) {
                add_standard_responses(operation);
            }
        }
    }
}

fn operations_mut(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.options,
        &mut item.head,
        &mut item.patch,
        &mut item.trace,
    ]
    .into_iter()
    .filter_map(Option::as_mut)
}

fn add_standard_responses(operation: &mut Operation) {
    let parameters = operation.parameters.clone().unwrap_or_default();
    let integer_ids: Vec<String> = parameters
        .iter()
        .filter(|p| p.parameter_in == ParameterIn::Path && is_integer(&p.schema))
        .map(|p| format!("`{}`", p.name))
        .collect();
    let has_query = parameters
        .iter()
        .any(|p| p.parameter_in == ParameterIn::Query);
    let body_types: Vec<String> = operation
        .request_body
        .as_ref()
        .map(|body| body.content.keys().cloned().collect())
        .unwrap_or_default();
    let authenticated = operation
        .security
        .as_ref()
        .is_some_and(|requirements| !requirements.is_empty());

    add_bad_request(operation, &body_types, has_query, &integer_ids);
    if authenticated {
        set_unauthorized(operation);
    }
    if !body_types.is_empty() {
        add_body_refusals(operation, &body_types);
    }
    if authenticated {
        insert_missing(
            operation,
            "503",
            error_response(
                "The database cannot serve, with `Retry-After`; nothing was written: it is \
                 unreachable or restarting, read-only, or its disk is full (`unavailable`, \
                 `details.reason`: `database_unreachable`, `database_read_only`, \
                 `database_full`, `database_io_error`, `database_write_aborted`); or, on SQLite, a write waited longer \
                 than `database.write_deadline_ms` for the one writer (`busy`).",
            ),
        );
    }
    add_or_extend(
        operation,
        "429",
        "Over a rate limit of `[limits]` (`rate_limited`, with `Retry-After`; \
         `details.limit`: `address`, `credential` or `failed_authentication`).",
    );
}

/// The 400 line: each way this operation's input can be unreadable.
fn add_bad_request(
    operation: &mut Operation,
    body_types: &[String],
    has_query: bool,
    integer_ids: &[String],
) {
    let mut bad_request = Vec::new();
    if !body_types.is_empty() {
        bad_request.push("an unreadable body (`invalid_json`, `invalid_text`, `unreadable_body`)");
    }
    if has_query {
        bad_request.push("a query parameter of the wrong type or out of range (`invalid_query`, `invalid_limit`, `invalid_cursor`)");
    }
    let path_sentence = format!(
        "a path id ({}) that is not a 64-bit integer (`invalid_path`)",
        integer_ids.join(", ")
    );
    if !integer_ids.is_empty() {
        bad_request.push(&path_sentence);
    }
    if !bad_request.is_empty() {
        add_or_extend(
            operation,
            "400",
            &format!("Bad request: {}.", bad_request.join("; ")),
        );
    }
}

/// The 401 line, with its `WWW-Authenticate` header.
fn set_unauthorized(operation: &mut Operation) {
    let unauthorized = ResponseBuilder::new()
        .description(
            "No valid credentials: the `Authorization: Bearer` header is missing or \
             malformed, or its token is unknown, revoked or expired (`unauthorized`, \
             `details.reason`).",
        )
        .header(
            "WWW-Authenticate",
            HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::String))
                .description(Some("`Bearer`"))
                .build(),
        )
        .content("application/json", error_content())
        .build();
    // Replaces a route's own 401 line: every one answers alike, header included.
    operation
        .responses
        .responses
        .insert("401".to_string(), RefOr::T(unauthorized));
}

/// The 413 and 415 lines of an operation that takes a body.
fn add_body_refusals(operation: &mut Operation, body_types: &[String]) {
    insert_missing(
        operation,
        "408",
        error_response(
            "The body did not arrive within `server.body_deadline_secs` \
             (`request_timeout`); the connection is closed.",
        ),
    );
    insert_missing(
        operation,
        "413",
        error_response(
            "The body is larger than `server.body_limit_bytes` (`payload_too_large`, \
             `details.limit_bytes`).",
        ),
    );
    let accepted = body_types
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    insert_missing(
        operation,
        "415",
        error_response(&format!(
            "The Content-Type is not {accepted} (`unsupported_media_type`); the message \
             and `details.accepted` name the accepted types."
        )),
    );
}

fn is_integer(schema: &Option<RefOr<utoipa::openapi::schema::Schema>>) -> bool {
    schema
        .as_ref()
        .and_then(|s| serde_json::to_value(s).ok())
        .is_some_and(|s| s["type"] == "integer")
}

fn error_content() -> Content {
    Content::new(Some(Ref::from_schema_name("ErrorEnvelope")))
}

fn error_response(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content("application/json", error_content())
        .build()
}

fn insert_missing(operation: &mut Operation, status: &str, response: Response) {
    operation
        .responses
        .responses
        .entry(status.to_string())
        .or_insert(RefOr::T(response));
}

/// Adds the response, or appends the sentence to the route's own description of it.
fn add_or_extend(operation: &mut Operation, status: &str, sentence: &str) {
    match operation.responses.responses.get_mut(status) {
        Some(RefOr::T(response)) => {
            let own = response.description.trim_end_matches('.');
            response.description = format!("{own}. {sentence}");
        }
        Some(RefOr::Ref(_)) => {}
        None => insert_missing(operation, status, error_response(sentence)),
    }
}

/// The document as served.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The methods a path item can hold, in the order `Allow` names them.
static METHODS: [Method; 8] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::OPTIONS,
    Method::TRACE,
];

/// A path item's operations with their methods.
fn operations(item: &PathItem) -> impl Iterator<Item = (&'static Method, &Operation)> {
    let operations = [
        &item.get,
        &item.head,
        &item.post,
        &item.put,
        &item.patch,
        &item.delete,
        &item.options,
        &item.trace,
    ];
    METHODS
        .iter()
        .zip(operations)
        .filter_map(|(method, operation)| operation.as_ref().map(|o| (method, o)))
}

/// The method and path of each documented operation, by operation id: where
/// `routes::configure` mounts each handler.
pub fn declared_operations() -> HashMap<String, (Method, String)> {
    let mut declared = HashMap::new();
    for (path, item) in &document().paths.paths {
        for (method, operation) in operations(item) {
            let id = operation.operation_id.clone().unwrap_or_default();
            let earlier = declared.insert(id.clone(), (method.clone(), path.clone()));
            assert!(earlier.is_none(), "two operations have the id {id:?}");
        }
    }
    declared
}

/// Paths served besides the documented ones (the document itself and Swagger UI), with
/// their methods.
const UNDOCUMENTED_ROUTES: &[(&str, &[&str])] = &[
    (OPENAPI_PATH, &["GET"]),
    ("/docs", &["GET"]),
    ("/docs/{_:.*}", &["GET"]),
];

/// A path template split at `/`; `{...}` matches one segment, `{_:.*}` the rest.
struct Template {
    segments: Vec<String>,
    methods: Vec<&'static str>,
}

impl Template {
    fn new(path: &str, methods: Vec<&'static str>) -> Template {
        Template {
            segments: path.split('/').map(str::to_string).collect(),
            methods,
        }
    }

    /// How many literal segments matched, when the template matches `path`.
    fn matches(&self, path: &[&str]) -> Option<usize> {
        let mut literal = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            if segment == "{_:.*}" {
                return Some(literal);
            }
            let given = path.get(i)?;
            if segment.starts_with('{') {
                if given.is_empty() {
                    return None;
                }
            } else if segment == given {
                literal += 1;
            } else {
                return None;
            }
        }
        (path.len() == self.segments.len()).then_some(literal)
    }
}

fn templates() -> &'static [Template] {
    static TEMPLATES: OnceLock<Vec<Template>> = OnceLock::new();
    TEMPLATES.get_or_init(|| {
        let document = document();
        let mut templates: Vec<Template> = document
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods = operations(item)
                    .map(|(method, _)| method.as_str())
                    .collect();
                Template::new(path, methods)
            })
            .collect();
        templates.extend(
            UNDOCUMENTED_ROUTES
                .iter()
                .map(|(path, methods)| Template::new(path, methods.to_vec())),
        );
        templates
    })
}

/// The methods the route at `path` serves, for a 405's `Allow` header; `None` for a path no
/// route serves. Read from the document, so `Allow` and the documented operations agree.
pub fn allowed_methods(path: &str) -> Option<Vec<&'static str>> {
    let path: Vec<&str> = path.split('/').collect();
    templates()
        .iter()
        .filter_map(|t| t.matches(&path).map(|literal| (literal, t)))
        .max_by_key(|(literal, _)| *literal)
        .map(|(_, t)| t.methods.clone())
}
