//! Admins' notes on players (admin role): append-only, newest first.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::pagination::{Page, PageQuery};
use crate::api::player_names::checked_name;
use crate::api::read_models::notes;
use crate::api::routes::admin_cases::admin_id;
use crate::api::state::AppState;
use crate::api::views::notes::NoteView;
use crate::moderation::validate_note;
use crate::store::{self};
use crate::usecases::add_note::{self, AddNoteError};

/// A new note.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewNote {
    /// What the admin wants the next admin to know (up to the decision note's length).
    #[schema(example = "Warned in chat twice before; apologised both times.")]
    pub text: String,
    /// The case the note was written for.
    pub case_id: Option<i64>,
}

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
    let player = checked_name(&name)?;
    let body = body.into_inner();
    let text = validate_note(&body.text, &state.moderation).map_err(|problem| {
        ApiError::Unprocessable {
            code: "invalid_note",
            message: problem.to_string(),
            details: json!({ "field": "text" }),
        }
    })?;
    let case_id = body.case_id;
    let note = state
        .write(move |conn| {
            let me = admin_id(conn, &admin.name)?;
            add_note::add(
                conn,
                &player,
                (me, &admin.name),
                case_id,
                &text,
                store::now(),
            )
            .map_err(|err| match err {
                AddNoteError::NoSuchCase(id) => ApiError::NotFound {
                    code: "case_not_found",
                    message: format!("No case has id {id}."),
                },
                AddNoteError::Db(err) => err.into(),
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(NoteView::from(note)))
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
    let page = page.by_id()?;
    Ok(web::Json(notes::read(&state, player, page).await?))
}
