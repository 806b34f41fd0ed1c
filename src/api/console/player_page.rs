//! Players: search by name, and one player's page with standing, games, flags, conduct,
//! cases, sanctions in force (shorten or lift), notes (add), and "open a case".

use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page, see_other, Section};
use super::page_error::{without_nul, ConsoleError};
use super::sanctions_page::sanction_row;
use super::session::{ConsoleAdmin, Flash};
use super::text::{spoken, spoken_name, url_encoded, when, wire_name};
use crate::api::actions::add_note::{self, NewNote};
use crate::api::actions::open_case::{self, AdminEntryBody};
use crate::api::read_models::player_page::{read_player_page, PlayerPage};
use crate::api::read_models::player_search::{read_players, PlayerSearchQuery};
use crate::api::state::AppState;
use crate::api::wire_enums::from_wire;
use crate::conduct::AdminConductView;
use crate::moderation::{Language, ReportReason};

/// Rows shown per list on a player's page (the API pages further).
const LISTED: u32 = 20;

#[derive(Debug, Default, Deserialize)]
pub struct SearchQuery {
    #[serde(default)]
    prefix: String,
    cursor: Option<String>,
}

/// `GET /admin/players?prefix=`.
pub async fn search_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, ConsoleError> {
    let query = query.into_inner();
    let found = if query.prefix.trim().is_empty() {
        None
    } else {
        let search = PlayerSearchQuery {
            prefix: Some(query.prefix.trim().to_string()),
            limit: Some(50),
            cursor: query.cursor.clone(),
        };
        Some(read_players(&state, search).await?)
    };
    let body = html! {
        form.filters method="get" action="/admin/players" role="search" aria-label="Find players" {
            label for="prefix" { "Name starts with" }
            input #prefix type="text" name="prefix" value=(query.prefix) autocomplete="off" autofocus;
            button type="submit" { "Find" }
        }
        @if let Some(found) = &found {
            @if found.items.is_empty() { p.empty { "No player's name starts with that." } }
            @else {
                table {
                    thead { tr { th { "Player" } th { "Games" } th { "Open cases" } th { "Sanctions in force" } } }
                    tbody { @for player in &found.items {
                        tr {
                            td { a href={ "/admin/players/" (url_encoded(&player.name)) } { (player.name) } }
                            td.num { (player.games) } td.num { (player.open_cases) }
                            td { @for s in &player.sanctions_in_force { span.pill { (spoken_name(&s.kind)) } " " } }
                        }
                    } }
                }
                @if let Some(cursor) = &found.next_cursor {
                    p { a rel="next" href={ "/admin/players?prefix=" (url_encoded(&query.prefix)) "&cursor=" (url_encoded(cursor)) } { "Next page" } }
                }
            }
        }
    };
    Ok(page(&admin, Section::Players, "Players", body))
}

fn allowed(yes: bool, until: Option<chrono::DateTime<chrono::Utc>>) -> Markup {
    html! {
        @if yes { "yes" } @else { strong { "no" } @if let Some(until) = until { " until " (when(until)) } @else { ", permanently" } }
    }
}

fn standing_and_record(player: &PlayerPage) -> Markup {
    let (standing, summary) = (&player.standing, &player.summary);
    html! {
        div.cols {
            section.panel aria-labelledby="standing" {
                h2 #standing { "Standing now" }
                dl.facts {
                    dt { "May chat" } dd { (allowed(standing.may_chat, standing.chat_until)) }
                    dt { "May play" } dd { (allowed(standing.may_play, standing.play_until)) }
                    dt { "May report" } dd { (allowed(standing.may_report, standing.report_until)) }
                    dt { "Club" } dd { @if standing.club_banned { strong { "banned" } @if let Some(u) = standing.club_until { " until " (when(u)) } } @else { "member" } }
                    dt { "Warning to acknowledge" } dd { @if let Some(w) = &standing.must_acknowledge { strong { "yes" } ", since " (when(w.issued_at)) } @else { "none" } }
                }
            }
            section.panel aria-labelledby="summary" {
                h2 #summary { "Games" }
                p { (summary.games) @if summary.games == 1 { " game" } @else { " games" } "; placed 1st " (summary.placements.first) ", 2nd " (summary.placements.second) ", 3rd " (summary.placements.third) ", 4th " (summary.placements.fourth) "; " (summary.aborted) " aborted." }
                p { @for v in &summary.by_variant { span.pill { (v.variant) ": " (v.games) } " " } }
            }
        }
    }
}

fn cases_panel(admin: &ConsoleAdmin, player: &PlayerPage, encoded: &str) -> Markup {
    html! {
        section.panel aria-labelledby="cases" {
            h2 #cases { "Cases" }
            @if player.cases.items.is_empty() { p.empty { "None." } }
            ul { @for case in &player.cases.items {
                li { a href={ "/admin/cases/" (case.id) } { "Case " (case.id) } ": " (spoken_name(&case.reason)) ", " (wire_name(&case.status)) ", opened " (when(case.opened_at)) }
            } }
            h3 { "Open a case" }
            form.stacked method="post" action={ "/admin/players/" (encoded) "/cases" } {
                input type="hidden" name="csrf" value=(admin.csrf);
                label for="case-reason" { "Reason" }
                select #case-reason name="reason" {
                    @for reason in ReportReason::ALL { @let w = wire_name(&reason); option value=(w) { (spoken(&w)) } }
                }
                label for="case-games" { "Game numbers (comma-separated)" }
                input #case-games type="text" name="games" inputmode="numeric";
                label for="case-note" { "What you saw" }
                textarea #case-note name="note" required {}
                button type="submit" { "Open the case" }
            }
        }
    }
}

fn warnings_panel(player: &PlayerPage) -> Markup {
    html! {
        section.panel aria-labelledby="warnings" {
            h2 #warnings { "Warnings" }
            @if player.warnings.is_empty() { p.empty { "None." } }
            ul { @for w in &player.warnings {
                li {
                    a href={ "/admin/cases/" (w.case_id) } { "Case " (w.case_id) } ", " (when(w.issued_at)) ": "
                    @if let Some(at) = w.acknowledged_at { "acknowledged " (when(at)) }
                    @else if w.must_acknowledge { strong { "not yet acknowledged" } }
                    @else { "no acknowledgement asked" }
                    blockquote { (w.text_en) }
                    @if w.language != Language::En { p.hint { "Sent in " (wire_name(&w.language)) "." } }
                }
            } }
        }
    }
}

fn notes_panel(admin: &ConsoleAdmin, player: &PlayerPage, encoded: &str) -> Markup {
    html! {
        section.panel aria-labelledby="notes" {
            h2 #notes { "Notes" }
            @if player.notes.items.is_empty() { p.empty { "None." } }
            ul { @for note in &player.notes.items { li { (note.text) " — " (note.author) ", " (when(note.created_at)) @if let Some(c) = note.case_id { " (case " (c) ")" } } } }
            form.stacked method="post" action={ "/admin/players/" (encoded) "/notes" } {
                input type="hidden" name="csrf" value=(admin.csrf);
                label for="note-text" { "Add a note (admins only see it)" }
                textarea #note-text name="text" required {}
                button type="submit" { "Add the note" }
            }
        }
    }
}

/// The conduct record's counts and signals.
fn conduct_panel(conduct: Option<&AdminConductView>) -> Markup {
    html! {
        @match conduct {
            None => p.empty { "No game of theirs is recorded." },
            Some(conduct) => {
                @let recent = &conduct.recent_games.counts;
                p { "Recent " (recent.games) " games: " (recent.completed) " completed, " (recent.resigned) " resigned, "
                    (recent.timed_out) " timed out, " (recent.aborted) " aborted, " (recent.disconnects) " disconnects." }
                @if conduct.signals.is_empty() { p.empty { "No signal." } }
                ul { @for signal in &conduct.signals {
                    li { strong { (spoken_name(&signal.kind)) } ": " (signal.explanation)
                        @if !signal.supporting_games.is_empty() { br; "Games: "
                            @for (i, g) in signal.supporting_games.iter().enumerate() { @if i > 0 { ", " } (g.0) } }
                    }
                } }
            }
        }
    }
}

fn games_and_flags(player: &PlayerPage) -> Markup {
    html! {
        div.cols {
            section.panel aria-labelledby="recent" {
                h2 #recent { "Recent games" }
                ul { @for g in &player.games.items {
                    li { a href={ "/admin/games/" (g.id) } { "Game " (g.site_game_id) } ", " (g.variant) ", " (when(g.played_at)) }
                } }
            }
            section.panel aria-labelledby="flags" {
                h2 #flags { "Flagged chat" }
                @if player.flags.items.is_empty() { p.empty { "None." } }
                ul { @for f in &player.flags.items {
                    li { span.pill { (wire_name(&f.severity)) } " " strong { (spoken_name(&f.category)) } " in "
                        a href={ "/admin/games/" (f.game_id) "?ply=" (f.ply) } { "game " (f.game_id) ", ply " (f.ply) }
                        ": “" (f.text) "” — " (f.explanation) }
                } }
            }
        }
    }
}

/// `GET /admin/players/{name}`: every panel from one read.
pub async fn player_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    req: HttpRequest,
    name: web::Path<String>,
) -> Result<HttpResponse, ConsoleError> {
    let name = name.into_inner();
    let player = read_player_page(&state, name.clone(), LISTED).await?;
    let back = req.uri().path().to_string();
    let encoded = url_encoded(&name);
    let body = html! {
        (standing_and_record(&player))
        section.panel aria-labelledby="sanctions" {
            h2 #sanctions { "Sanctions in force" }
            @if player.sanctions_in_force.items.is_empty() { p.empty { "None." } }
            @for listing in &player.sanctions_in_force.items { (sanction_row(&admin, listing, &back)) }
        }
        (warnings_panel(&player))
        div.cols {
            (cases_panel(&admin, &player, &encoded))
            (notes_panel(&admin, &player, &encoded))
        }
        section.panel aria-labelledby="conduct" {
            h2 #conduct { "Conduct record" }
            (conduct_panel(player.conduct.as_ref()))
        }
        (games_and_flags(&player))
    };
    Ok(page(
        &admin,
        Section::Players,
        &format!("Player {name}"),
        body,
    ))
}

fn numbers(field: &str, text: &str) -> Result<Vec<i64>, ConsoleError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.parse::<i64>().map_err(|_| {
                ConsoleError::BadForm(format!("\"{p}\" in {field} is not a game number."))
            })
        })
        .collect()
}

#[derive(Debug, Deserialize)]
pub struct NoteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    text: String,
}

/// `POST /admin/players/{name}/notes`.
pub async fn add_note(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    name: web::Path<String>,
    form: web::Form<NoteForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let name = name.into_inner();
    let body = NewNote {
        text: without_nul(&form.text)?.to_string(),
        case_id: None,
    };
    let flash = match add_note::add(&state, admin.name(), &name, body).await {
        Ok(_) => Flash::Done(format!("Your note on {name} is saved.")),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other(&format!("/admin/players/{}", url_encoded(&name))))
}

#[derive(Debug, Deserialize)]
pub struct OpenCaseForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    games: String,
    #[serde(default)]
    note: String,
}

/// `POST /admin/players/{name}/cases`: an admin's own entry, as `POST /api/v1/admin/cases`.
pub async fn open_case(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    name: web::Path<String>,
    form: web::Form<OpenCaseForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let name = name.into_inner();
    let reason: ReportReason = from_wire(&form.reason)
        .ok_or_else(|| ConsoleError::BadForm("Choose a reason from the list.".into()))?;
    let body = AdminEntryBody {
        accused: name.clone(),
        reason,
        games: numbers("the games", &form.games)?,
        note: without_nul(&form.note)?.to_string(),
    };
    let (flash, location) = match open_case::open(&state, admin.name(), body).await {
        Ok(entry) => (
            Flash::Done(format!("Your entry is on case {}.", entry.case_id)),
            format!("/admin/cases/{}", entry.case_id),
        ),
        Err(error) => (
            Flash::Refused(ConsoleError::from(error).sentence()),
            format!("/admin/players/{}", url_encoded(&name)),
        ),
    };
    admin.leave_flash(&state, flash).await?;
    Ok(see_other(&location))
}
