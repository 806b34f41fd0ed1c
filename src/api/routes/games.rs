//! `/api/v1/games`: ingest finished games (server role) and read the archive (admin role).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde_json::json;

use crate::api::auth::{AdminCaller, ServerCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::{accepted_json_type, is_utf8_type, parse_json};
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::games::{self, GameListQuery};
use crate::api::state::AppState;
use crate::api::views::games::{GameSummary, GameView, IngestResult, IngestStatus};
use crate::archive::{self};
use crate::archive::{IngestError, Submission};
use crate::moderation::{GameNumber, GAME_NUMBER_RULE};
use crate::store::games as stored_games;
use crate::store::{self};
use crate::usecases::ingest_game::{self, StoreOutcome};

/// The content types the ingest reads; a 415 names them.
pub const GAME_BODY: &[&str] = &["application/json", "text/plain"];

/// The ingest body: JSON (`application/json`) or a bare PGN4 text (`text/plain`).
pub struct GameBody(pub Submission);

impl FromRequest for GameBody {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let json = accepted_json_type(content_type);
        let text = is_utf8_type(content_type, "text/plain");
        let limit = req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.settings.server.body_limit_bytes)
            .unwrap_or(0);
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !json && !text {
                return Err(ApiError::UnsupportedMediaType {
                    accepted: GAME_BODY,
                });
            }
            let bytes = body
                .await
                .map_err(|err| match err.as_error::<PayloadError>() {
                    Some(PayloadError::Overflow) => ApiError::PayloadTooLarge { limit },
                    _ => ApiError::bad_request(
                        "unreadable_body",
                        format!("The request body could not be read: {err}."),
                    ),
                })?;
            if json {
                return parse_json::<Submission>(&bytes).map(GameBody);
            }
            let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
                ApiError::bad_request("invalid_text", "The PGN4 body is not valid UTF-8.")
            })?;
            if text.contains('\0') {
                return Err(ApiError::bad_request(
                    "invalid_text",
                    "The PGN4 body holds a NUL character; a game record has none.",
                ));
            }
            Ok(GameBody(Submission::from_pgn4(text)))
        })
    }
}

impl From<IngestError> for ApiError {
    fn from(err: IngestError) -> ApiError {
        ApiError::unprocessable(err.code, err.message, err.details)
    }
}

/// Stores a finished game after replaying it. Idempotent on the site's game number.
#[utoipa::path(post, path = "/api/v1/games", tag = "games",
    security(("bearer" = [])),
    request_body(description = "The game as JSON, or a bare PGN4 text as `text/plain` (seats from its tags, no chat)",
        content((crate::api::submission_schema::SubmissionSchema = "application/json"), (String = "text/plain"))),
    responses(
        (status = 201, description = "Stored", body = IngestResult),
        (status = 200, description = "The same game was already stored", body = IngestResult),
        (status = 403, description = "Not a game server", body = ErrorEnvelope),
        (status = 409, description = "Different content under the same game number", body = ErrorEnvelope),
        (status = 422, description = "Syntax error, illegal move, a field that does not match the game, or tags that disagree with the replay (`result_mismatch`, `details.mismatches`)", body = ErrorEnvelope),
    ))]
pub async fn ingest_game(
    _server: ServerCaller,
    state: web::Data<AppState>,
    body: GameBody,
) -> Result<HttpResponse, ApiError> {
    let preset = state.settings.archive.abort_rule;
    let conduct = state
        .settings
        .conduct
        .enabled
        .then(|| state.conduct.clone());
    let collusion = state
        .settings
        .collusion
        .enabled
        .then(|| state.collusion.clone());
    let (analyzer, settings, policy) = (
        state.chat.current(),
        state.settings.clone(),
        state.moderation.clone(),
    );
    let store_policy = policy.clone();
    let prepared = web::block(move || {
        let review = archive::ChatReview {
            analyzer: &analyzer,
            settings: &settings.chat,
            policy: &policy,
        };
        archive::prepare_with(
            body.0,
            preset,
            Some(&review),
            conduct.as_ref(),
            collusion.as_ref(),
        )
    })
    .await??;
    let site_game_id = prepared.game.site_game_id.clone();
    let outcome = state
        .write_bulk(move |conn| ingest_game::ingest(conn, &prepared, &store_policy, store::now()))
        .await?;
    let result = |id, status| IngestResult {
        id,
        site_game_id: site_game_id.clone(),
        status,
    };
    match outcome {
        StoreOutcome::Created(id) => {
            Ok(HttpResponse::Created().json(result(id, IngestStatus::Created)))
        }
        StoreOutcome::Duplicate(id) => {
            Ok(HttpResponse::Ok().json(result(id, IngestStatus::Duplicate)))
        }
        StoreOutcome::Conflict(id) => Err(ApiError::Conflict {
            code: "game_conflict",
            message: format!(
                "Game {site_game_id} is already stored (id {id}) with different content."
            ),
            details: json!({ "id": id, "site_game_id": site_game_id }),
        }),
    }
}

/// Lists archived games, newest first.
#[utoipa::path(get, path = "/api/v1/games", tag = "games",
    security(("bearer" = [])),
    params(PageQuery, GameListQuery),
    responses(
        (status = 200, description = "One page of games", body = Page<GameSummary>),
        (status = 400, description = "Bad limit, cursor or filter", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn list_games(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
    query: web::Query<GameListQuery>,
) -> Result<web::Json<Page<GameSummary>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let filter = query.filter()?;
    Ok(web::Json(games::read_games(&state, filter, page).await?))
}

/// One game: tags, seats, the move timeline with points, chat in ply order, events, and the
/// derived facts.
#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "games",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id", example = 1)),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such game", body = ErrorEnvelope),
    ))]
pub async fn get_game(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<GameView>, ApiError> {
    Ok(web::Json(
        games::read_game(&state, id.into_inner()).await?.view,
    ))
}

/// One game by the site's game number (what reports and decisions cite), answered as
/// `GET /api/v1/games/{id}` answers it; `id` in the answer is the archive's own id, the one
/// every other archive URL takes.
#[utoipa::path(get, path = "/api/v1/games/by-number/{number}", tag = "games",
    security(("bearer" = [])),
    params(("number" = String, Path, description = "The site's game number", example = "104071136")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 400, description = "Not a game number", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No game under this number", body = ErrorEnvelope),
    ))]
pub async fn get_game_by_number(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    number: web::Path<String>,
) -> Result<web::Json<GameView>, ApiError> {
    let number = GameNumber::parse(number.trim()).map_err(|why| ApiError::BadRequest {
        code: "invalid_path",
        message: format!("`number` is not a game number: {why}; it must be {GAME_NUMBER_RULE}."),
        details: json!({ "field": "number" }),
    })?;
    let site_game_id = number.to_string();
    let detail = state
        .read(move |conn| {
            let Some((id, _)) = stored_games::find_by_site_id(conn, &site_game_id)? else {
                return Ok(None);
            };
            stored_games::get(conn, id)
        })
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "game_not_found",
                format!("No game has the number {number}."),
            )
        })?;
    let view = web::block(move || GameView::from_detail(detail)).await??;
    Ok(web::Json(view))
}

/// The game as PGN4 (tags and the main line as replayed); it replays to the same game.
#[utoipa::path(get, path = "/api/v1/games/{id}/pgn4", tag = "games",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id", example = 1)),
    responses(
        (status = 200, description = "PGN4 text", body = String, content_type = "application/x-pgn4"),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such game", body = ErrorEnvelope),
    ))]
pub async fn export_pgn4(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let export = games::read_pgn4_export(&state, id.into_inner()).await?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-pgn4; charset=utf-8")
        .body(export))
}
