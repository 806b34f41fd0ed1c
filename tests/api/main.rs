//! HTTP and start-up tests, one binary. Each module covers one area; every test makes its
//! own database (see `support`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin_entries;
mod admin_tokens;
mod backup;
mod chat_check;
mod chat_flags;
mod chat_window;
mod collusion;
mod conduct;
mod config_startup;
mod console;
mod console_browser;
mod console_pages;
mod cursors;
mod database_faults;
mod erasure_key;
mod errors;
mod games;
mod input_refusals;
mod instances;
mod live;
mod migrations;
mod moderation;
mod notes;
mod openapi;
mod operations;
mod personal_data;
mod player_lookups;
mod player_search;
mod presets;
mod queue;
mod queue_fixtures;
mod rate_limits;
mod refunds;
mod retention;
mod role_matrix;
mod sanctions;
mod seed_story;
mod slow_clients;
mod support;
mod webhook_guard;
mod webhook_instances;
mod webhooks;
mod writes;
