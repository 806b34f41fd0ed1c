//! Admins' notes on players (admin role): append-only, newest first.

use actix_web::{web, HttpResponse};

use crate::api::actions::add_note::{self, NewNote};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::player_names::checked_name;
use crate::api::read_models::notes;
use crate::api::state::AppState;
use crate::api::views::notes::NoteView;

/// Add a note on a player (logged in the moderation log).
#[utoipa::path(post, path = "/api/v1/admin/players/{name}/notes", tag = "moderation",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    request_body = NewNote,
    responses(
        (status = 201, description = "The note as stored", body = NoteView),
        (status = 400, description = "Malformed body or name", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "The case named does not exist", body = ErrorEnvelope),
        (status = 422, description = "Empty or too long text", body = ErrorEnvelope),
    ))]
pub async fn add_note(
    admin: AdminCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
    body: ApiJson<NewNote>,
) -> Result<HttpResponse, ApiError> {
    let note = add_note::add(&state, &admin.name, &name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(note))
}

/// A player's notes, newest first.
#[utoipa::path(get, path = "/api/v1/admin/players/{name}/notes", tag = "moderation",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi"), PageQuery),
    responses(
        (status = 200, description = "One page of notes", body = Page<NoteView>),
        (status = 400, description = "Bad name, limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_notes(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<NoteView>>, ApiError> {
    let player = checked_name(&name)?;
    let page = page.by_id(&state.cursor_key)?;
    Ok(web::Json(notes::read(&state, player, page).await?))
}
