//! The case page: everything a decision needs on one screen, and the decision form.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, PreEscaped};
use serde::Deserialize;

use super::layout::{page_with_status, see_other, Section};
use super::page_error::ConsoleError;
use super::position_picture::{position_svg, replayed};
use super::session::{ConsoleAdmin, Flash};
use super::text::{age, duration_minutes, spoken, spoken_name, url_encoded, when, wire_name};
use crate::api::actions::decide_case::{DecisionBody, DecisionChoice, SanctionBody};
use crate::api::json::ApiJson;
use crate::api::routes::admin_cases;
use crate::api::routes::admin_queue;
use crate::api::state::AppState;
use crate::api::statuses::CaseStatus;
use crate::api::views::queue::{CaseDetailView, ChatLineView, FlaggedLineView};
use crate::archive::ChatChannel;
use crate::moderation::{
    suggest_next_sanction, Ground, LadderStep, SanctionDuration, SanctionKind, Suggestion,
};
use crate::store::{self, games, players, sanctions, to_utc};

/// Sanction lengths offered besides the ladder's suggestion, in minutes.
const LENGTHS: [u32; 7] = [60, 180, 1440, 4320, 10080, 43200, 129_600];

/// The decision form as posted (and as shown again when refused).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DecisionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    decision: String,
    #[serde(default)]
    sanction_kind: String,
    #[serde(default)]
    length: String,
    #[serde(default)]
    ground: String,
    #[serde(default)]
    preset: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    evidence_games: String,
}

fn parse_wire<T: serde::de::DeserializeOwned>(field: &str, text: &str) -> Result<T, ConsoleError> {
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| ConsoleError::BadForm(format!("Choose a {field} from the list.")))
}

impl DecisionForm {
    /// The API's request body, or a sentence naming the field that cannot be read.
    fn body(&self) -> Result<DecisionBody, ConsoleError> {
        if self.decision.is_empty() {
            return Err(ConsoleError::BadForm("Choose a decision.".into()));
        }
        let decision: DecisionChoice = parse_wire("decision", &self.decision)?;
        let sanction = match decision {
            DecisionChoice::Sanction => {
                let kind: SanctionKind = parse_wire("sanction", &self.sanction_kind)?;
                let (minutes, permanent) = match self.length.as_str() {
                    "permanent" => (None, true),
                    text => (
                        Some(text.parse::<u32>().map_err(|_| {
                            ConsoleError::BadForm("Choose the sanction's length.".into())
                        })?),
                        false,
                    ),
                };
                Some(SanctionBody {
                    kind,
                    minutes,
                    permanent,
                })
            }
            _ => None,
        };
        let ground = match self.ground.as_str() {
            "" => None,
            text => Some(parse_wire::<Ground>("ground", text)?),
        };
        let mut evidence_games = Vec::new();
        for part in self
            .evidence_games
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            evidence_games.push(part.parse::<i64>().map_err(|_| {
                ConsoleError::BadForm(format!(
                    "\"{part}\" is not a game number; list game numbers separated by commas."
                ))
            })?);
        }
        if self.note.contains('\0') {
            return Err(ConsoleError::BadForm(
                "The note holds a NUL character.".into(),
            ));
        }
        Ok(DecisionBody {
            decision,
            sanction,
            ground,
            note: Some(self.note.trim().to_string()).filter(|n| !n.is_empty()),
            evidence_games,
            preset: Some(self.preset.clone()).filter(|p| !p.is_empty()),
        })
    }

    /// The form filled in with the ladder's suggestion.
    fn suggested(step: &LadderStep) -> DecisionForm {
        match step.suggestion {
            Suggestion::Warn => DecisionForm {
                decision: "warn".into(),
                ..DecisionForm::default()
            },
            Suggestion::Sanction { sanction, duration } => DecisionForm {
                decision: "sanction".into(),
                sanction_kind: wire_name(&sanction),
                length: match duration {
                    SanctionDuration::Temporary { minutes } => minutes.to_string(),
                    SanctionDuration::Permanent => "permanent".into(),
                },
                ..DecisionForm::default()
            },
        }
    }
}

fn suggestion_text(step: &LadderStep) -> String {
    let what = match step.suggestion {
        Suggestion::Warn => "a warning".to_string(),
        Suggestion::Sanction { sanction, duration } => match duration {
            SanctionDuration::Temporary { minutes } => format!(
                "a {} {}",
                duration_minutes(u64::from(minutes)),
                spoken(&wire_name(&sanction))
            ),
            SanctionDuration::Permanent => {
                format!("a permanent {}", spoken(&wire_name(&sanction)))
            }
        },
    };
    format!(
        "The ladder suggests {what}: step {} of {} on the {} ladder, with {} earlier measure{} still counting.",
        step.step,
        step.steps,
        spoken(&wire_name(&step.track)),
        step.counted_earlier,
        if step.counted_earlier == 1 { "" } else { "s" }
    )
}

/// What the page shows besides the API's case view.
struct CaseExtras {
    ladder: Option<LadderStep>,
    /// Per flagged line (game id, line index): the board it was judged on.
    boards: HashMap<(i64, i32), String>,
}

async fn extras(
    state: &web::Data<AppState>,
    case: &CaseDetailView,
) -> Result<CaseExtras, ConsoleError> {
    let reason = case.case.reason;
    let accused = case.case.accused.clone();
    let checked: Vec<(i64, i32, i32, String)> = case
        .flagged_lines
        .iter()
        .filter_map(|line| {
            let finding = line.flags.iter().find_map(|f| f.evidence_finding.clone())?;
            Some((line.game_id, line.line.line_idx, line.line.ply, finding))
        })
        .collect();
    let policy = state.moderation.clone();
    let (measures, records) = state
        .read(move |conn| {
            let measures = match players::find_id(conn, &accused)? {
                Some(id) => Some(sanctions::prior_measures(conn, id)?),
                None => None,
            };
            let mut records = Vec::new();
            for (game_id, line_idx, ply, finding) in checked {
                if let Some(pgn4) = games::pgn4(conn, game_id)? {
                    records.push((game_id, line_idx, ply, finding, pgn4));
                }
            }
            Ok::<_, diesel::result::Error>((measures, records))
        })
        .await?;
    let ladder = measures
        .map(|measures| suggest_next_sanction(&measures, reason, to_utc(store::now()), &policy));
    let mut boards = HashMap::new();
    for (game_id, line_idx, ply, finding, pgn4) in records {
        if let Some(game) = replayed(&pgn4) {
            let title = format!("The board at ply {ply}, with the move the line suggests");
            let ply = u32::try_from(ply).unwrap_or(0);
            boards.insert(
                (game_id, line_idx),
                position_svg(&game, ply, Some(&finding), &title),
            );
        }
    }
    Ok(CaseExtras { ladder, boards })
}

fn chat_line(line: &ChatLineView, flagged: Option<(usize, usize)>) -> Markup {
    let text = &line.text;
    html! {
        li.flagged[flagged.is_some()] {
            span.ply { "ply " (line.ply) }
            span.sender { (line.sender) @if line.channel != ChatChannel::Game { " (" (wire_name(&line.channel)) ")" } ":" }
            @match flagged.and_then(|(s, e)| Some((text.get(..s)?, text.get(s..e)?, text.get(e..)?))) {
                Some((before, hit, after)) => { (before) mark { (hit) } (after) },
                None => (text),
            }
        }
    }
}

fn flagged_line(line: &FlaggedLineView, board: Option<&String>) -> Markup {
    let span = line.flags.first().and_then(|f| {
        Some((
            usize::try_from(f.span_start).ok()?,
            usize::try_from(f.span_end).ok()?,
        ))
    });
    html! {
        article.panel {
            h3 { "Game " a href={ "/admin/games/" (line.game_id) "?ply=" (line.line.ply) } { (line.game_id) } ", ply " (line.line.ply) }
            ol.chat aria-label="The chat around the flagged line" {
                @for before in &line.before { (chat_line(before, None)) }
                (chat_line(&line.line, span.or(Some((0, 0)))))
                @for after in &line.after { (chat_line(after, None)) }
            }
            ul {
                @for flag in &line.flags {
                    li {
                        span.pill { (wire_name(&flag.severity)) } " " strong { (spoken_name(&flag.category)) } ": " (flag.explanation)
                        @if let Some(finding) = &flag.evidence_finding { br; "On the board: " (finding) }
                    }
                }
            }
            @if let Some(svg) = board {
                figure.board-figure {
                    (PreEscaped(svg))
                    figcaption { "The position when the line was sent (ply " (line.line.ply) "); the arrow marks the move the finding names." }
                }
            }
        }
    }
}

fn option_list<T: serde::Serialize>(values: &[T], current: &str) -> Markup {
    html! {
        @for value in values {
            @let name = wire_name(value);
            option value=(name) selected[name == current] { (spoken(&name)) }
        }
    }
}

fn decision_form(
    admin: &ConsoleAdmin,
    state: &AppState,
    case: &CaseDetailView,
    form: &DecisionForm,
) -> Markup {
    let reason = case.case.reason;
    let presets: Vec<_> = state
        .presets
        .presets
        .iter()
        .filter(|p| p.reason == reason)
        .collect();
    let mut lengths: Vec<String> = LENGTHS.iter().map(u32::to_string).collect();
    if !form.length.is_empty() && form.length != "permanent" && !lengths.contains(&form.length) {
        lengths.push(form.length.clone());
    }
    let decisions = [
        (
            "dismiss_unjustified",
            "Dismiss: the report was unjustified (counts against the reporters)",
        ),
        (
            "dismiss_not_actionable",
            "Dismiss: reasonable, but nothing to act on",
        ),
        ("warn", "Warn the player"),
        ("sanction", "Sanction the player"),
    ];
    html! {
        form.stacked method="post" action={ "/admin/cases/" (case.case.id) "/decision" } {
            input type="hidden" name="csrf" value=(admin.csrf);
            fieldset {
                legend { "Decision" }
                @for (value, text) in decisions {
                    div {
                        input type="radio" name="decision" id={ "decision-" (value) } value=(value) checked[form.decision == value];
                        label for={ "decision-" (value) } { (text) }
                    }
                }
            }
            div.row {
                div {
                    label for="sanction_kind" { "Sanction" }
                    select #sanction_kind name="sanction_kind" {
                        (option_list(&SanctionKind::ALL, &form.sanction_kind))
                    }
                }
                div {
                    label for="length" { "Length" }
                    select #length name="length" {
                        @for minutes in &lengths {
                            option value=(minutes) selected[*minutes == form.length] {
                                (minutes.parse::<u64>().map(duration_minutes).unwrap_or_default())
                            }
                        }
                        option value="permanent" selected[form.length == "permanent"] { "permanent" }
                    }
                }
            }
            label for="ground" { "Ground (what the player did; needed to warn or sanction)" }
            select #ground name="ground" {
                option value="" { "choose a ground" }
                (option_list(&Ground::ALL, &form.ground))
            }
            label for="preset" { "Message preset (what the player is told)" }
            select #preset name="preset" {
                option value="" { "no preset" }
                @for preset in &presets {
                    option value=(preset.key) selected[preset.key == form.preset] {
                        (preset.title) " (" (spoken(&wire_name(&preset.decision))) ")"
                    }
                }
            }
            label for="note" { "Note (added after the preset's text; required with a sanction)" }
            textarea #note name="note" { (form.note) }
            label for="evidence_games" { "Further evidence games (game numbers, comma-separated)" }
            input #evidence_games type="text" name="evidence_games" value=(form.evidence_games) inputmode="numeric";
            p.hint { "Habitual grounds (marked * in the site's rules) need several games: a decision on one game alone is refused." }
            button.primary type="submit" { "Decide" }
        }
    }
}

fn claim_button(admin: &ConsoleAdmin, id: i64, release: bool) -> Markup {
    let back = format!("/admin/cases/{id}");
    html! {
        form.inline method="post" action={ "/admin/cases/" (id) (if release { "/release" } else { "/claim" }) } {
            input type="hidden" name="csrf" value=(admin.csrf);
            input type="hidden" name="back" value=(back);
            button type="submit" { (if release { "Release the case" } else { "Claim the case" }) }
        }
    }
}

fn render(
    admin: &ConsoleAdmin,
    state: &AppState,
    case: &CaseDetailView,
    extras: &CaseExtras,
    form: &DecisionForm,
    refusal: Option<&str>,
) -> Markup {
    let item = &case.case;
    let now = chrono::Utc::now();
    let holder = item
        .claimed_by
        .as_deref()
        .filter(|_| item.claimed_until.is_some_and(|until| until > now));
    let mine = holder == Some(admin.name());
    html! {
        section.panel aria-labelledby="facts" {
            h2 #facts { "The case" }
            dl.facts {
                dt { "Accused" } dd { a href={ "/admin/players/" (url_encoded(&item.accused)) } { (item.accused) } }
                dt { "Reason" } dd { (spoken_name(&item.reason)) }
                dt { "Status" } dd { (wire_name(&item.status)) }
                dt { "Priority" } dd { (format!("{:.1}", item.priority.total)) " (" (format!("{:.1}", item.priority.base)) " + " (format!("{:.1}", item.priority.age)) " for age)" }
                dt { "Opened" } dd { (when(item.opened_at)) " (" (age(item.opened_at, now)) " ago)" }
                dt { "Entries" } dd { (item.entry_count) " from " (item.reporters) " reporter(s)" }
                dt { "Claim" } dd {
                    @match holder { Some(h) => { (h) " until " (item.claimed_until.map(when).unwrap_or_default()) }, None => "unclaimed" }
                    @if item.status == CaseStatus::Open { (claim_button(admin, item.id, mine)) }
                }
            }
        }
        @if item.status == CaseStatus::Open {
            section.panel aria-labelledby="decide" {
                h2 #decide { "Decide" }
                @if let Some(step) = &extras.ladder { p { (suggestion_text(step)) } }
                @if let Some(refusal) = refusal { p.error role="alert" { (refusal) } }
                @if mine {
                    (decision_form(admin, state, case, form))
                } @else {
                    p { "Claim the case to decide it; nobody else can decide it while you hold it." }
                }
            }
        }
        section.panel aria-labelledby="entries" {
            h2 #entries { "Entries" }
            table {
                thead { tr { th { "Filed" } th { "By" } th { "Reporter's record" } th { "Message" } th { "Games" } th { "Outcome" } } }
                tbody {
                    @for entry in &case.entries {
                        tr {
                            td { (when(entry.filed_at)) }
                            td {
                                @if let Some(reporter) = &entry.reporter { a href={ "/admin/players/" (url_encoded(&reporter.name)) } { (reporter.name) } }
                                @else if let Some(admin) = &entry.admin { (admin) " (admin)" }
                                @else { (spoken_name(&entry.source)) }
                            }
                            td {
                                @if let Some(r) = &entry.reporter {
                                    (format!("{:.0}%", r.accuracy * 100.0)) " accurate: " (r.upheld) " upheld, " (r.dismissed_unjustified) " unjustified, " (r.dismissed_not_actionable) " not actionable"
                                }
                                @if let Some(auto) = &entry.automatic { (auto.summary) }
                            }
                            td { (entry.message.as_deref().unwrap_or("")) }
                            td { @for (i, game) in entry.games.iter().enumerate() { @if i > 0 { ", " } (game) } }
                            td { (entry.outcome.as_ref().map(spoken_name).unwrap_or_default()) }
                        }
                    }
                }
            }
        }
        @if !case.flagged_lines.is_empty() {
            section aria-labelledby="chat" {
                h2 #chat { "Flagged chat" }
                @for line in &case.flagged_lines {
                    (flagged_line(line, extras.boards.get(&(line.game_id, line.line.line_idx))))
                }
            }
        }
        div.cols {
            section.panel aria-labelledby="conduct" {
                h2 #conduct { "Conduct record" }
                @match &case.conduct {
                    None => p.empty { "No game of theirs is recorded." },
                    Some(conduct) => {
                        @let counts = &conduct.recent_games.counts;
                        p { "Recent " (counts.games) " games: " (counts.completed) " completed, " (counts.resigned) " resigned, " (counts.timed_out) " timed out, " (counts.aborted) " aborted, " (counts.disconnects) " disconnects." }
                        @if conduct.signals.is_empty() { p.empty { "No signal." } }
                        ul {
                            @for signal in &conduct.signals {
                                li {
                                    strong { (spoken(signal.kind.as_str())) } " (" (format!("{:.2}", signal.strength)) "): " (signal.explanation)
                                    @if !signal.supporting_games.is_empty() {
                                        br; "Games: "
                                        @for (i, g) in signal.supporting_games.iter().enumerate() { @if i > 0 { ", " } (g.0) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            section.panel aria-labelledby="history" {
                h2 #history { "History" }
                h3 { "Earlier cases" }
                @if case.history.earlier_cases.is_empty() { p.empty { "None." } }
                ul { @for earlier in &case.history.earlier_cases {
                    li { a href={ "/admin/cases/" (earlier.id) } { "Case " (earlier.id) } ": " (spoken_name(&earlier.reason)) ", " (wire_name(&earlier.status)) @if let Some(d) = &earlier.decision { " (" (spoken_name(d)) ")" } }
                } }
                h3 { "Sanctions" }
                @if case.history.sanctions.is_empty() { p.empty { "None." } }
                ul { @for s in &case.history.sanctions {
                    li { (spoken_name(&s.kind)) " from " (when(s.starts_at)) @if let Some(end) = s.ends_at { " to " (when(end)) } @else { ", permanent" } @if s.lifted_at.is_some() { " (lifted)" } }
                } }
                h3 { "Notes" }
                @if case.notes.is_empty() { p.empty { "None." } }
                ul { @for note in &case.notes { li { (note.text) " — " (note.author) ", " (when(note.created_at)) } } }
            }
        }
        @for pair in &case.pairs {
            section.panel aria-label={ "Pair with " (pair.partner) } {
                h2 { "With " a href={ "/admin/players/" (url_encoded(&pair.partner)) } { (pair.partner) } }
                p { (pair.games_together) " games together"
                    @if let (Some(first), Some(last)) = (pair.first_played, pair.last_played) { ", from " (when(first)) " to " (when(last)) } "." }
                @if !pair.shared_fingerprints.is_empty() {
                    h3 { "Shared fingerprints" }
                    ul { @for fp in &pair.shared_fingerprints { li { (wire_name(&fp.kind)) " " code { (fp.value) } ": " (fp.accused_games) " games of the accused, " (fp.partner_games) " of the partner" } } }
                }
                h3 { "Recent shared games" }
                ul { @for g in &pair.recent_games {
                    li { a href={ "/admin/games/" (g.game_id) } { "Game " (g.site_game_id) } ", " (g.variant) ", " (when(g.played_at)) ", " (spoken_name(&g.termination)) }
                } }
            }
        }
        @if !case.games.is_empty() {
            section.panel aria-labelledby="games" {
                h2 #games { "Games reported" }
                ul { @for g in &case.games {
                    li { a href={ "/admin/games/" (g.id) } { "Game " (g.site_game_id) } ", " (g.variant) ", " (when(g.played_at)) ": "
                        @for (i, seat) in g.seats.iter().enumerate() { @if i > 0 { ", " } (seat.player) }
                    }
                } }
            }
        }
    }
}

async fn case_view(
    admin: &ConsoleAdmin,
    state: &web::Data<AppState>,
    id: i64,
) -> Result<CaseDetailView, ConsoleError> {
    Ok(
        admin_queue::get_case(admin.caller.clone(), state.clone(), web::Path::from(id))
            .await?
            .0,
    )
}

/// `GET /admin/cases/{id}`.
pub async fn case_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ConsoleError> {
    let case = case_view(&admin, &state, id.into_inner()).await?;
    let extras = extras(&state, &case).await?;
    let form = extras
        .ladder
        .as_ref()
        .map(DecisionForm::suggested)
        .unwrap_or_default();
    let title = format!(
        "Case {}: {} by {}",
        case.case.id,
        spoken_name(&case.case.reason),
        case.case.accused
    );
    let body = render(&admin, &state, &case, &extras, &form, None);
    Ok(page_with_status(
        &admin,
        Section::Queue,
        &title,
        StatusCode::OK,
        body,
    ))
}

/// `POST /admin/cases/{id}/decision`: decides through the API's handler; a refusal shows the
/// page again with the form as filled in and the reason in a sentence.
pub async fn decide(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<DecisionForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let form = form.into_inner();
    let refusal = match form.body() {
        Err(error) => error,
        Ok(body) => {
            match admin_cases::decide_case(
                admin.caller.clone(),
                state.clone(),
                web::Path::from(id),
                ApiJson(body),
            )
            .await
            {
                Ok(decided) => {
                    let decided = decided.0;
                    let what = match &decided.sanction {
                        Some(s) => format!(
                            "{} until {}",
                            spoken_name(&s.kind),
                            s.ends_at
                                .map(when)
                                .unwrap_or_else(|| "further notice (permanent)".into())
                        ),
                        None => spoken(&wire_name(&decided.kind)),
                    };
                    admin
                        .leave_flash(
                            &state,
                            Flash::Done(format!(
                                "Case {id} is decided: {what} for {}.",
                                decided.accused
                            )),
                        )
                        .await?;
                    return Ok(see_other(&format!("/admin/cases/{id}")));
                }
                Err(error) => ConsoleError::from(error),
            }
        }
    };
    let case = case_view(&admin, &state, id).await?;
    let extras = extras(&state, &case).await?;
    let title = format!(
        "Case {}: {} by {}",
        case.case.id,
        spoken_name(&case.case.reason),
        case.case.accused
    );
    let status = actix_web::ResponseError::status_code(&refusal);
    let body = render(
        &admin,
        &state,
        &case,
        &extras,
        &form,
        Some(&refusal.sentence()),
    );
    Ok(page_with_status(
        &admin,
        Section::Queue,
        &title,
        status,
        body,
    ))
}
