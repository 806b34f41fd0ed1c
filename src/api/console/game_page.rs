//! The game viewer: the board after any ply (the last move marked), points and eliminations
//! as they happen, chat and connection events on the timeline, and the PGN4 download.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use maud::{html, Markup, PreEscaped};
use serde::Deserialize;

use super::layout::{page, Section};
use super::page_error::ConsoleError;
use super::position_picture::after_plies_svg;
use super::session::ConsoleAdmin;
use super::text::{filled, spoken_name, url_encoded, when, wire_name};
use crate::api::pagination::PageQuery;
use crate::api::read_models::games::{read_game, read_games, read_pgn4_export, GameListQuery};
use crate::api::state::AppState;
use crate::api::views::games::GameView;
use crate::rules::replay::replay;

#[derive(Debug, Default, Deserialize)]
pub struct ViewerQuery {
    /// Plies played; default the game's end.
    ply: Option<usize>,
}

fn step_link(id: i64, ply: usize, label: &str, step: Option<&str>, enabled: bool) -> Markup {
    html! {
        @if enabled {
            a href={ "/admin/games/" (id) "?ply=" (ply) } data-step=[step] { (label) }
        } @else {
            span.empty aria-disabled="true" { (label) }
        }
    }
}

fn seats_table(game: &GameView, points: Option<[i32; 4]>) -> Markup {
    html! {
        table {
            thead { tr { th { "Seat" } th { "Player" } th { "Rating" } th { "Points now" } th { "Final points" } th { "Placed" } th { "Out" } } }
            tbody {
                @for (index, seat) in game.summary.seats.iter().enumerate() {
                    tr {
                        td { (wire_name(&seat.seat)) }
                        td { a href={ "/admin/players/" (url_encoded(&seat.player)) } { (seat.player) } }
                        td.num { (seat.rating_before.map(|r| r.to_string()).unwrap_or_default()) }
                        td.num { (points.and_then(|p| p.get(index).copied()).unwrap_or(0)) }
                        td.num { (seat.points) }
                        td.num { (seat.placement) }
                        td { @if let Some(ply) = seat.elimination_ply { "ply " (ply) @if let Some(cause) = &seat.elimination_cause { ", " (spoken_name(cause)) } } }
                    }
                }
            }
        }
    }
}

/// The timeline: each ply with its move, then the chat lines and events sent at it.
fn timeline(game: &GameView, current: usize) -> Markup {
    let id = game.summary.id;
    let at_ply = |ply: usize| {
        let chat: Vec<_> = game
            .chat
            .iter()
            .filter(|c| usize::try_from(c.ply).ok() == Some(ply))
            .collect();
        let events: Vec<_> = game
            .events
            .iter()
            .filter(|e| usize::try_from(e.ply).ok() == Some(ply))
            .collect();
        (chat, events)
    };
    html! {
        ol.chat aria-label="Moves, chat and events" {
            @let (chat, events) = at_ply(0);
            @for line in chat { li { span.ply { "start" } span.sender { (line.sender) ":" } (line.text) } }
            @for event in events { li { span.ply { "start" } em { (wire_name(&event.seat)) " " (spoken_name(&event.kind)) } } }
            @for ply in &game.timeline {
                @let played = ply.ply + 1;
                li.flagged[played == current] {
                    a href={ "/admin/games/" (id) "?ply=" (played) } { span.ply { (ply.round) "." } (wire_name(&ply.seat)) " " (ply.move_text) }
                    @if !ply.eliminations.is_empty() {
                        " — out: " @for e in &ply.eliminations { (wire_name(&e.seat)) " (" (spoken_name(&e.cause)) ") " }
                    }
                }
                @let (chat, events) = at_ply(played);
                @for line in chat { li { span.ply { "ply " (played) } span.sender { (line.sender) @if wire_name(&line.channel) != "game" { " (" (wire_name(&line.channel)) ")" } ":" } (line.text) } }
                @for event in events { li { span.ply { "ply " (played) } em { (wire_name(&event.seat)) " " (spoken_name(&event.kind)) } } }
            }
        }
    }
}

/// `GET /admin/games/{id}?ply=N`.
pub async fn game_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    query: web::Query<ViewerQuery>,
) -> Result<HttpResponse, ConsoleError> {
    let id = id.into_inner();
    let stored = read_game(&state, id).await?;
    let game = stored.view;
    let last = game.timeline.len();
    let current = query.ply.unwrap_or(last).min(last);
    let title = format!("The board after ply {current}");
    let pgn4 = stored.pgn4;
    let svg = web::block(move || {
        replay(&pgn4)
            .ok()
            .and_then(|game| after_plies_svg(&game, current, &title))
    })
    .await
    .map_err(|_| ConsoleError::Internal)?;
    let points = current
        .checked_sub(1)
        .and_then(|i| game.timeline.get(i))
        .map(|p| p.points_after);
    let move_now = current.checked_sub(1).and_then(|i| game.timeline.get(i));
    let summary = &game.summary;
    let body = html! {
        section.panel {
            dl.facts {
                dt { "Variant" } dd { (summary.variant) @if !summary.rule_variants.is_empty() { " (" (summary.rule_variants) ")" } }
                dt { "Time control" } dd { (summary.time_control) }
                dt { "Played" } dd { (when(summary.played_at)) }
                dt { "Result" } dd { (summary.result) " — " (summary.termination_text) }
                dt { "Plies" } dd { (summary.plies) }
            }
            p { a href={ "/admin/games/" (id) "/pgn4" } download { "Download the PGN4" } }
        }
        (seats_table(&game, points))
        div.cols {
            section.panel aria-labelledby="board" {
                h2 #board { "Ply " (current) " of " (last)
                    @if let Some(ply) = move_now { ": " (wire_name(&ply.seat)) " played " (ply.move_text) } }
                nav.viewer-nav aria-label="Step through the game" {
                    (step_link(id, 0, "First", None, current > 0))
                    (step_link(id, current.saturating_sub(1), "Previous", Some("prev"), current > 0))
                    (step_link(id, current + 1, "Next", Some("next"), current < last))
                    (step_link(id, last, "Last", None, current < last))
                    form.inline method="get" action={ "/admin/games/" (id) } {
                        label for="ply" { "Go to ply" }
                        input #ply type="number" name="ply" min="0" max=(last) value=(current);
                        button type="submit" { "Go" }
                    }
                }
                p.hint { "Keys: " kbd { "←" } " / " kbd { "→" } " step." }
                @match &svg {
                    Some(svg) => figure.board-figure { (PreEscaped(svg)) },
                    None => p.error { "The stored record does not replay, so the board cannot be drawn." },
                }
            }
            section.panel aria-labelledby="timeline" {
                h2 #timeline { "Timeline" }
                (timeline(&game, current))
            }
        }
    };
    Ok(page(
        &admin,
        Section::Games,
        &format!("Game {}", summary.site_game_id),
        body,
    ))
}

/// `GET /admin/games/{id}/pgn4`: the API's export, as a file to save.
pub async fn download_pgn4(
    _admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ConsoleError> {
    let id = id.into_inner();
    let export = read_pgn4_export(&state, id).await?;
    let disposition =
        header::HeaderValue::from_str(&format!("attachment; filename=\"game-{id}.pgn4\""))
            .map_err(|_| ConsoleError::Internal)?;
    Ok(HttpResponse::Ok()
        .content_type("application/x-pgn4; charset=utf-8")
        .insert_header((header::CONTENT_DISPOSITION, disposition))
        .body(export))
}

#[derive(Debug, Default, Deserialize)]
pub struct GameFilters {
    #[serde(default)]
    player: String,
    #[serde(default)]
    with: String,
    #[serde(default)]
    variant: String,
    cursor: Option<String>,
}

/// `GET /admin/games`: the archive, newest first, by player, pair or variant.
pub async fn games_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    filters: web::Query<GameFilters>,
) -> Result<HttpResponse, ConsoleError> {
    let filters = filters.into_inner();
    let paging = PageQuery {
        limit: Some(50),
        cursor: filters.cursor.clone(),
    }
    .by_id(&state.cursor_key)?;
    let filter = GameListQuery {
        player: filled(&filters.player),
        with: filled(&filters.with),
        variant: filled(&filters.variant),
        ..GameListQuery::default()
    }
    .filter()?;
    let listed = read_games(&state, filter, paging).await?;
    let body = html! {
        form.filters method="get" action="/admin/games" role="search" aria-label="Find games" {
            label for="player" { "Player" } input #player type="text" name="player" value=(filters.player);
            label for="with" { "With" } input #with type="text" name="with" value=(filters.with);
            label for="variant" { "Variant" } input #variant type="text" name="variant" value=(filters.variant) placeholder="FFA";
            button type="submit" { "Find" }
        }
        @if listed.items.is_empty() { p.empty { "No game matches." } }
        @else {
            table {
                thead { tr { th { "Game" } th { "Played" } th { "Variant" } th { "Players" } th { "Result" } } }
                tbody { @for g in &listed.items {
                    tr {
                        td { a href={ "/admin/games/" (g.id) } { (g.site_game_id) } }
                        td { (when(g.played_at)) } td { (g.variant) }
                        td { @for (i, seat) in g.seats.iter().enumerate() { @if i > 0 { ", " } (seat.player) } }
                        td { (spoken_name(&g.termination)) }
                    }
                } }
            }
        }
        @if let Some(cursor) = &listed.next_cursor {
            p { a rel="next" href={ "/admin/games?player=" (url_encoded(&filters.player)) "&with=" (url_encoded(&filters.with)) "&variant=" (url_encoded(&filters.variant)) "&cursor=" (url_encoded(cursor)) } { "Older games" } }
        }
    };
    Ok(page(&admin, Section::Games, "Games", body))
}
