//! Finding a player by name prefix (ASCII case ignored), with their games, open cases and
//! sanctions in force.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::cursor_key::CursorKey;
use crate::api::error::ApiError;
use crate::api::json::invalid_query;
use crate::api::pagination::{checked_limit, decode_cursor, encode_cursor, invalid_cursor, Page};
use crate::api::state::AppState;
use crate::api::views::players::{PlayerFoundView, SanctionInForce};
use crate::archive::MAX_NAME_CHARS;
use crate::store::player_search::{self, PlayerFound};

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlayerSearchQuery {
    /// The start of the name, any case (ASCII letters); empty or absent lists everyone.
    pub prefix: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

fn cursor_of(key: &CursorKey, found: &PlayerFound) -> String {
    encode_cursor(
        key,
        "player",
        &[
            hex::encode(&found.player.name_folded),
            hex::encode(&found.player.name),
        ],
    )
}

fn decoded(key: &CursorKey, cursor: &str) -> Result<(String, String), ApiError> {
    let [folded, name] = decode_cursor(key, cursor, "player")?;
    let text = |field: String| {
        hex::decode(field)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(invalid_cursor)
    };
    Ok((text(folded)?, text(name)?))
}

fn view(found: PlayerFound) -> Result<PlayerFoundView, ApiError> {
    let mut in_force = Vec::with_capacity(found.in_force.len());
    for row in found.in_force {
        let sanction = row.to_policy();
        in_force.push(SanctionInForce {
            id: row.id.0,
            kind: sanction.kind,
            ends_at: sanction.effective_end(),
        });
    }
    Ok(PlayerFoundView {
        name: found.player.name,
        games: found.player.games,
        open_cases: found.open_cases,
        sanctions_in_force: in_force,
    })
}

/// One page of the players `query` finds, in name order.
pub async fn read_players(
    state: &AppState,
    query: PlayerSearchQuery,
) -> Result<Page<PlayerFoundView>, ApiError> {
    let prefix = query.prefix.unwrap_or_default().trim().to_string();
    if prefix.chars().count() > MAX_NAME_CHARS {
        return Err(invalid_query(
            "prefix",
            format!("`prefix` may hold at most {MAX_NAME_CHARS} characters."),
        ));
    }
    let limit = i64::from(checked_limit(query.limit)?);
    let after = query
        .cursor
        .as_deref()
        .map(|cursor| decoded(&state.cursor_key, cursor))
        .transpose()?;
    let mut rows = state
        .read(move |conn| player_search::page(conn, &prefix, after, limit + 1, crate::store::now()))
        .await?;
    let keep = usize::try_from(limit).unwrap_or(usize::MAX);
    let more = rows.len() > keep;
    rows.truncate(keep);
    let next_cursor = if more {
        rows.last().map(|found| cursor_of(&state.cursor_key, found))
    } else {
        None
    };
    let items = rows.into_iter().map(view).collect::<Result<_, _>>()?;
    Ok(Page { items, next_cursor })
}
