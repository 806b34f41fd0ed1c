//! The OpenAPI document, generated from the handlers' and schemas' annotations.
//! Add each new handler to `paths(...)` and each new body type to `schemas(...)`.

use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::auth::tokens::TokenRole;
use super::auth::Role;
use super::error::{ErrorBody, ErrorEnvelope};
use super::routes::{
    admin_cases, admin_queue, admin_tokens, appeals, chat, conduct, flags, games, health, modlog,
    players, reports, standing, whoami,
};
use crate::archive::ingest::{
    ChatChannel, ChatInput, EventInput, EventKind, SeatColour, SeatInput, Submission,
};

pub const OPENAPI_PATH: &str = "/api/v1/openapi.json";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Arbiter",
        description = "Moderation and report handling for online four-player chess.\n\n\
            Authenticate with `Authorization: Bearer <token>`: an API token (`arb_...`) for the \
            server and admin roles, or a player token signed by the game site.",
    ),
    paths(
        health::healthz,
        health::readyz,
        health::metrics,
        whoami::whoami,
        admin_tokens::list_tokens,
        admin_tokens::create_token,
        admin_tokens::revoke_token,
        chat::check_line,
        games::ingest_game,
        games::list_games,
        games::get_game,
        games::export_pgn4,
        flags::game_flags,
        players::player_summary,
        players::shared_games,
        flags::player_flags,
        admin_queue::list_cases,
        admin_queue::get_case,
        admin_queue::list_appeals,
        modlog::list_modlog,
        conduct::player_conduct,
        reports::file_report,
        reports::my_reports,
        admin_cases::claim_case,
        admin_cases::release_case,
        admin_cases::decide_case,
        standing::player_standing,
        appeals::file_appeal,
        appeals::decide_appeal,
    ),
    components(schemas(
        ErrorEnvelope,
        ErrorBody,
        Role,
        TokenRole,
        Submission,
        SeatInput,
        ChatInput,
        EventInput,
        SeatColour,
        ChatChannel,
        EventKind,
        admin_cases::DecisionChoice,
        admin_cases::SanctionBody,
        appeals::AppealChoice
    )),
    modifiers(&BearerAuth),
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

/// The document as served.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
