//! Add a note on a player (admins only see it; logged in the moderation log).

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::acting_admin::admin_id;
use crate::api::error::ApiError;
use crate::api::player_names::checked_name;
use crate::api::state::AppState;
use crate::api::views::notes::NoteView;
use crate::moderation::{validate_note, CaseId};
use crate::store;
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

/// `admin` adds a note on the player named `name`.
pub async fn add(
    state: &AppState,
    admin: &str,
    name: &str,
    body: NewNote,
) -> Result<NoteView, ApiError> {
    let player = checked_name(name)?;
    let text = validate_note(&body.text, &state.moderation).map_err(|problem| {
        ApiError::Unprocessable {
            code: "invalid_note",
            message: problem.to_string(),
            details: json!({ "field": "text" }),
        }
    })?;
    let case_id = body.case_id;
    let author = admin.to_string();
    let note = state
        .write(move |conn| {
            let me = admin_id(conn, &author)?;
            add_note::add(
                conn,
                &player,
                (me, &author),
                case_id.map(CaseId),
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
    Ok(NoteView::from(note))
}
