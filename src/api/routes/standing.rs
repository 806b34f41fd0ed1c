//! A player's standing (`GET /api/v1/players/{name}/standing`: game servers and admins for
//! anyone, a player for themselves): what the player may do now, computed from sanctions and
//! report timeouts at read time.

use actix_web::web;

use crate::api::auth::{record_caller, AnyCaller, Credentials};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::player_names::checked_name;
use crate::api::read_models::standing::standing;
use crate::api::state::AppState;
use crate::api::views::standing::StandingView;
use crate::store;

/// What a player may do now: chat, play, report, with end times. A player the service never
/// saw may do everything. Game servers and admins read anyone's; a player only their own.
#[utoipa::path(get, path = "/api/v1/players/{name}/standing", tag = "sanctions",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    responses(
        (status = 200, description = "The player's standing now", body = StandingView),
        (status = 400, description = "A name no player can have: empty, over 64 characters, or holding a control, format or invisible character (`invalid_path`)", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "A player asking for another player's standing", body = ErrorEnvelope),
    ))]
pub async fn player_standing(
    credentials: Credentials,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<web::Json<StandingView>, ApiError> {
    let name = checked_name(&name)?;
    let name_key = state.settings.privacy.erased_name_key(&name);
    // Authentication and the standing share one read on one pooled connection; on SQLite it
    // usually runs without leaving the worker.
    let (caller, touch, view) = state
        .read_inline(move |conn| {
            let (caller, touch) = credentials.resolve_read_only(conn)?;
            if let AnyCaller::Player(player) = &caller {
                // Players see only their own, as with conduct records.
                if player.player != name {
                    return Err(ApiError::Forbidden {
                        allowed: &["admin", "server"],
                        actual: "player",
                    });
                }
            }
            let view = standing(conn, name, name_key.as_deref(), store::now())?;
            Ok::<_, ApiError>((caller, touch, view))
        })
        .await?;
    record_caller(&caller);
    if let Some(touch) = touch {
        touch.apply_later(&state);
    }
    Ok(web::Json(view))
}
