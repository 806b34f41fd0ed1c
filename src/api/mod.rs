//! HTTP layer (actix-web): application assembly (`app.rs`), auth extractors, error envelope,
//! OpenAPI, the admin console. Handlers stay thin: extract and check, call a read model
//! (`read_models`) or an action (`actions`, which runs a use case), answer its typed view;
//! the console's pages call the same read models and actions.
//!
//! This file only declares the modules: each file imports what it needs from the file that
//! defines it (`state::AppState`, `error::ApiError`), never from here.

pub mod actions;
pub mod address_class;
pub mod app;
pub mod auth;
pub mod body_deadline;
pub mod clock;
pub mod connection_limits;
pub mod console;
pub mod cursor_key;
pub mod docs_page;
pub mod error;
pub mod frame_headers;
pub mod jobs;
pub mod json;
pub mod limits;
pub mod live_analyzer;
pub mod metrics;
pub mod metrics_endpoint;
pub mod middleware;
pub mod openapi;
pub mod pagination;
pub mod player_names;
pub mod read_models;
pub mod route_table;
pub mod routes;
pub mod server;
pub mod sqlite_writer;
pub mod state;
pub mod statuses;
pub mod submission_schema;
pub mod views;
pub mod webhook_policy;
pub mod webhook_resolver;
pub mod webhook_signature;
pub mod wire_enums;
pub mod write_health;
