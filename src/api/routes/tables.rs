//! `POST /api/v1/tables/check`: before seating 2 to 4 players, the game server asks whether
//! the table may start: each player free to play, and no separation keeping two of them apart
//! (docs/moderation.md, "Separations"). A hot path like standing, read the same way.

use actix_web::web;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::{record_caller, AnyCaller, Credentials};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::read_models::table_check::table_check;
use crate::api::routes::chat::VariantName;
use crate::api::state::AppState;
use crate::api::views::table_check::TableCheckView;
use crate::archive::name_problem;
use crate::store;

/// A table has two to four seats.
const MIN_PLAYERS: usize = 2;
const MAX_PLAYERS: usize = 4;

/// The players about to sit down.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableCheckRequest {
    /// 2 to 4 distinct player names (1 to 64 characters each), in seating order. A name
    /// moderation never saw may play.
    #[schema(min_items = 2, max_items = 4, example = json!(["Spaksi", "Ally", "rasulk", "Kamil"]))]
    pub players: Vec<String>,
    /// The game's variant. Separations and bans apply alike in every variant: a ring colludes
    /// in FFA, and one person on two accounts spoils a Teams game as much.
    pub variant: VariantName,
}

/// May these players start a game together? Each player's `may_play` (no play or club ban in
/// force) and every pair a separation in force keeps apart; the table may start when all may
/// play and no pair is kept apart.
#[utoipa::path(post, path = "/api/v1/tables/check", tag = "sanctions",
    security(("bearer" = [])),
    request_body = TableCheckRequest,
    responses(
        (status = 200, description = "Whether the table may start, per player and per separated pair", body = TableCheckView),
        (status = 400, description = "Malformed body", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a game server", body = ErrorEnvelope),
        (status = 422, description = "Fewer than 2 or more than 4 players, a name no player can have, or a name given twice (`invalid_table`, naming `players` or `players[i]`)", body = ErrorEnvelope),
    ))]
pub async fn check_table(
    credentials: Credentials,
    state: web::Data<AppState>,
    body: ApiJson<TableCheckRequest>,
) -> Result<web::Json<TableCheckView>, ApiError> {
    let request = body.into_inner();
    // Authentication and both reads share one trip on one pooled connection, as standing.
    let (caller, touch, view) = state
        .read_inline(move |conn| {
            let (caller, touch) = credentials.resolve_read_only(conn)?;
            if !matches!(caller, AnyCaller::Server(_)) {
                return Err(ApiError::Forbidden {
                    allowed: &["server"],
                    actual: caller.role().as_str(),
                });
            }
            let names = checked_players(request.players)?;
            let view = table_check(conn, &names, store::now())?;
            Ok::<_, ApiError>((caller, touch, view))
        })
        .await?;
    record_caller(&caller);
    if let Some(touch) = touch {
        touch.apply_later(&state);
    }
    Ok(web::Json(view))
}

/// The names, trimmed: 2 to 4, each a possible player name, none twice.
fn checked_players(players: Vec<String>) -> Result<Vec<String>, ApiError> {
    let invalid = |field: String, message: String| {
        ApiError::unprocessable("invalid_table", message, json!({ "field": field }))
    };
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players.len()) {
        return Err(invalid(
            "players".into(),
            format!(
                "A table has {MIN_PLAYERS} to {MAX_PLAYERS} players; {} were given.",
                players.len()
            ),
        ));
    }
    let mut names: Vec<String> = Vec::with_capacity(players.len());
    for (index, name) in players.iter().enumerate() {
        let name = name.trim();
        if let Some(problem) = name_problem(name) {
            return Err(invalid(
                format!("players[{index}]"),
                format!("`players[{index}]` {problem}."),
            ));
        }
        if names.iter().any(|earlier| earlier == name) {
            return Err(invalid(
                format!("players[{index}]"),
                format!("{name:?} is given twice; a player takes one seat."),
            ));
        }
        names.push(name.to_string());
    }
    Ok(names)
}
