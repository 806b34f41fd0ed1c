//! The admins' word list (admin role): terms added, words allowed, strictness per category,
//! and a line tested against them (docs/chat-analysis.md, "Admins' word list").

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::actions::word_list::{
    self, EntryRemoval, LineTest, NewAllowedWord, NewTerm, StrictnessChange,
};
use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::read_models::word_list::read_word_list;
use crate::api::state::AppState;
use crate::api::views::word_list::{LineTestView, StrictnessView, WordListEntryView, WordListView};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WordListFilter {
    /// Also the removed entries, with who removed them and why.
    pub removed: Option<bool>,
}

/// The word list: the entries in force (newest first), every category's strictness, the
/// version in force and the one this instance serves.
#[utoipa::path(get, path = "/api/v1/admin/word-list", tag = "admin",
    security(("bearer" = [])),
    params(WordListFilter),
    responses(
        (status = 200, description = "The word list", body = WordListView),
        (status = 400, description = "Bad filter", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn get_word_list(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    filter: web::Query<WordListFilter>,
) -> Result<web::Json<WordListView>, ApiError> {
    let removed = filter.removed.unwrap_or(false);
    Ok(web::Json(read_word_list(&state, removed).await?))
}

/// Add a term: flagged with its category and severity on every instance within
/// `[chat] word_list_check_secs` (on this one before the answer). It overrides a built-in term
/// spelled the same; an allowed word still wins over it.
#[utoipa::path(post, path = "/api/v1/admin/word-list/terms", tag = "admin",
    security(("bearer" = [])),
    request_body = NewTerm,
    responses(
        (status = 201, description = "Added", body = WordListEntryView),
        (status = 400, description = "Malformed body, an unknown category, severity or mode", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 409, description = "A term spelled the same is in force (`already_in_force`)", body = ErrorEnvelope),
        (status = 422, description = "A term that cannot match (`invalid_term`, naming the problem), a category found from behaviour or the board, or a missing `why` (`invalid_why`)", body = ErrorEnvelope),
    ))]
pub async fn add_term(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<NewTerm>,
) -> Result<HttpResponse, ApiError> {
    let entry = word_list::add_term(&state, &admin.name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(entry))
}

/// Allow a word: never flagged on any instance within `[chat] word_list_check_secs`, whatever
/// term it holds or is spelled like, built-in or added.
#[utoipa::path(post, path = "/api/v1/admin/word-list/allowed", tag = "admin",
    security(("bearer" = [])),
    request_body = NewAllowedWord,
    responses(
        (status = 201, description = "Allowed", body = WordListEntryView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 409, description = "This word is allowed already (`already_in_force`)", body = ErrorEnvelope),
        (status = 422, description = "A word that cannot match (`invalid_term`), or a missing `why` (`invalid_why`)", body = ErrorEnvelope),
    ))]
pub async fn allow_word(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<NewAllowedWord>,
) -> Result<HttpResponse, ApiError> {
    let entry = word_list::allow_word(&state, &admin.name, body.into_inner()).await?;
    Ok(HttpResponse::Created().json(entry))
}

/// Remove an entry: the row stays, with who removed it and why.
#[utoipa::path(post, path = "/api/v1/admin/word-list/{id}/removal", tag = "admin",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Entry id", example = 4)),
    request_body = EntryRemoval,
    responses(
        (status = 200, description = "Removed", body = WordListEntryView),
        (status = 400, description = "Malformed body or an id that is not a number", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such entry", body = ErrorEnvelope),
        (status = 409, description = "Removed already (`already_removed`)", body = ErrorEnvelope),
        (status = 422, description = "A missing `why` (`invalid_why`)", body = ErrorEnvelope),
    ))]
pub async fn remove_entry(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<EntryRemoval>,
) -> Result<web::Json<WordListEntryView>, ApiError> {
    let entry = word_list::remove(&state, &admin.name, id.into_inner(), body.into_inner()).await?;
    Ok(web::Json(entry))
}

/// Set how strictly one category is acted on: `off` drops its flags, `low` counts each one
/// severity lower, `medium` as built, `high` one severity higher. Answers every category's.
#[utoipa::path(put, path = "/api/v1/admin/word-list/strictness", tag = "admin",
    security(("bearer" = [])),
    request_body = StrictnessChange,
    responses(
        (status = 200, description = "Every category's strictness", body = Vec<StrictnessView>),
        (status = 400, description = "Malformed body, an unknown category or level", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "A missing `why` (`invalid_why`)", body = ErrorEnvelope),
    ))]
pub async fn set_strictness(
    admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<StrictnessChange>,
) -> Result<web::Json<Vec<StrictnessView>>, ApiError> {
    let levels = word_list::set_strictness(&state, &admin.name, body.into_inner()).await?;
    Ok(web::Json(levels))
}

/// Test a line: what the analyser says now (as the live check on this instance, for a
/// game-channel line of an FFA game in progress) and, with a draft entry, what it would say
/// once the draft is saved: the action and each flag with the rule that fired. Saves nothing.
#[utoipa::path(post, path = "/api/v1/admin/word-list/test", tag = "admin",
    security(("bearer" = [])),
    request_body = LineTest,
    responses(
        (status = 200, description = "The analyses", body = LineTestView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 422, description = "Text too long (`text_too_long`), or a draft that cannot be an entry (`invalid_term`, `invalid_draft`)", body = ErrorEnvelope),
    ))]
pub async fn test_line(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    body: ApiJson<LineTest>,
) -> Result<web::Json<LineTestView>, ApiError> {
    Ok(web::Json(
        word_list::test_line(&state, body.into_inner()).await?,
    ))
}
