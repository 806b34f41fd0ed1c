//! A player's warnings: their own list, and the acknowledgement that clears one from their
//! standing (docs/moderation.md, "Warnings").

use actix_web::web;
use serde_json::json;

use crate::api::auth::PlayerCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::state::AppState;
use crate::api::views::warnings::WarningView;
use crate::moderation::WarningId;
use crate::store::{self, players, warnings};
use crate::usecases::acknowledge_warning::{acknowledge_warning, AcknowledgeError};

/// The caller's own warnings, newest first, each with its text and whether it still awaits
/// their acknowledgement.
#[utoipa::path(get, path = "/api/v1/warnings/mine", tag = "sanctions",
    security(("bearer" = [])),
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the player's warnings", body = Page<WarningView>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player", body = ErrorEnvelope),
    ))]
pub async fn my_warnings(
    player: PlayerCaller,
    state: web::Data<AppState>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<WarningView>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let rows = state
        .read(move |conn| {
            let Some(id) = players::find_id(conn, &player.player)? else {
                return Ok(Vec::new());
            };
            warnings::page_of(conn, id, page.after_id.map(WarningId), page.fetch_limit())
        })
        .await?;
    Ok(web::Json(Page::try_from_rows(
        rows,
        page,
        |w| w.id.0,
        |w| Ok::<_, ApiError>(WarningView::from(w)),
    )?))
}

/// Acknowledge one of the caller's warnings: the standing stops carrying it. Logged the first
/// time; acknowledging again answers the same and changes nothing.
#[utoipa::path(post, path = "/api/v1/warnings/{id}/acknowledgement", tag = "sanctions",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Warning id", example = 1)),
    responses(
        (status = 200, description = "The warning, acknowledged", body = WarningView),
        (status = 400, description = "An id that is not a number (`invalid_path`)", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a player, or another player's warning (`not_your_warning`)", body = ErrorEnvelope),
        (status = 404, description = "No such warning", body = ErrorEnvelope),
    ))]
pub async fn acknowledge(
    player: PlayerCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<WarningView>, ApiError> {
    let id = id.into_inner();
    let warning = state
        .write(move |conn| {
            acknowledge_warning(conn, WarningId(id), &player.player, store::now())
                .map_err(|e| acknowledge_error(id, e))
        })
        .await?;
    Ok(web::Json(WarningView::from(warning)))
}

fn acknowledge_error(id: i64, err: AcknowledgeError) -> ApiError {
    match err {
        AcknowledgeError::NotFound => {
            ApiError::not_found("warning_not_found", format!("There is no warning {id}."))
        }
        AcknowledgeError::NotYours => ApiError::Refused {
            code: "not_your_warning",
            message: format!("Warning {id} is another player's; only they can acknowledge it."),
            details: json!({ "warning": id }),
        },
        AcknowledgeError::Db(err) => err.into(),
    }
}
