//! `/api/v1/players/{name}/...`: a player's archive record and the games two players shared.

use actix_web::web;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::api::auth::{AdminCaller, AnyCaller};
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::pagination::{Page, PageQuery};
use crate::api::read_models::player_summary;
use crate::api::state::AppState;
use crate::api::views::games::{GameSummary, SeatView};
use crate::api::views::players::{PlayerSummaryView, SharedGame, SideView};
use crate::store::game_search::{self, GameFilter};
use crate::store::games;

/// Games played by variant, placements and the aborted-game count.
#[utoipa::path(get, path = "/api/v1/players/{name}/summary", tag = "games",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    responses(
        (status = 200, description = "The player's record (zeros when unknown)", body = PlayerSummaryView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
    ))]
pub async fn player_summary(
    _caller: AnyCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<web::Json<PlayerSummaryView>, ApiError> {
    Ok(web::Json(
        player_summary::read(&state, name.into_inner()).await?,
    ))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SharedQuery {
    /// The other player; without it, all of the player's games.
    pub with: Option<String>,
}

/// Games both players played, newest first, with their seats, placements and the points each
/// took from the other.
#[utoipa::path(get, path = "/api/v1/players/{name}/games", tag = "games",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi"), SharedQuery, PageQuery),
    responses(
        (status = 200, description = "One page of games", body = Page<SharedGame>),
        (status = 400, description = "Bad limit or cursor", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
    ))]
pub async fn shared_games(
    _admin: AdminCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
    shared: web::Query<SharedQuery>,
    page: web::Query<PageQuery>,
) -> Result<web::Json<Page<SharedGame>>, ApiError> {
    let page = page.by_id(&state.cursor_key)?;
    let player = name.into_inner();
    let other = shared.into_inner().with.filter(|w| !w.trim().is_empty());
    let filter = GameFilter {
        player: Some(player.clone()),
        with: other.clone(),
        ..GameFilter::default()
    };
    let rows = state
        .read(move |conn| game_search::list_page(conn, &filter, page.after_id, page.fetch_limit()))
        .await?;
    let items = rows
        .into_iter()
        .map(|(game, seats)| {
            let mine = seats.iter().find(|s| s.player == player);
            let theirs = other
                .as_ref()
                .and_then(|o| seats.iter().find(|s| &s.player == o));
            let side = |me: Option<&games::SeatRow>, them: Option<&games::SeatRow>| {
                me.map(|me| {
                    Ok::<_, ApiError>(SideView {
                        seat: SeatView::from_row(me)?,
                        points_taken_from_other: them.and_then(|t| {
                            usize::try_from(t.seat)
                                .ok()
                                .and_then(|i| me.points_from().get(i).copied())
                        }),
                    })
                })
                .transpose()
            };
            Ok(SharedGame {
                player: side(mine, theirs)?,
                other: side(theirs, mine)?,
                game: GameSummary::from_rows(game, &seats)?,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(web::Json(Page::from_rows(
        items,
        page,
        |g| g.game.id,
        |g| g,
    )))
}
