//! The case page: everything a decision needs on one screen, and the decision form.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, PreEscaped};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::layout::{page_with_status, see_other, Section};
use super::page_error::ConsoleError;
use super::position_picture::{position_svg, replayed};
use super::refunds_panel::refunds_panel;
use super::session::{ConsoleAdmin, Flash};
use super::text::{age, duration_minutes, spoken, spoken_name, url_encoded, when, wire_name};
use crate::api::actions::decide_case::{self, DecisionBody, DecisionChoice, SanctionBody};
use crate::api::read_models::case_page::{read_case_page, CasePageContent, FlaggedBoard};
use crate::api::state::AppState;
use crate::api::statuses::CaseStatus;
use crate::api::views::queue::{CaseDetailView, ChatLineView, FlaggedLineView};
use crate::api::wire_enums::from_wire;
use crate::archive::ChatChannel;
use crate::moderation::{Ground, LadderStep, SanctionDuration, SanctionKind, Suggestion};

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
    /// What the reporters are told, after the preset's reporter text.
    #[serde(default)]
    reporter_note: String,
    #[serde(default)]
    evidence_games: String,
    /// A separation's other members, by name.
    #[serde(default)]
    members: String,
}

/// A value of a closed set chosen in the form, by its wire name.
fn chosen<T: DeserializeOwned>(field: &str, text: &str) -> Result<T, ConsoleError> {
    from_wire(text).ok_or_else(|| ConsoleError::BadForm(format!("Choose a {field} from the list.")))
}

/// Game numbers separated by commas or spaces.
fn evidence_games(text: &str) -> Result<Vec<i64>, ConsoleError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .map(|part| {
            part.parse::<i64>().map_err(|_| {
                ConsoleError::BadForm(format!(
                    "\"{part}\" is not a game number; list game numbers separated by commas."
                ))
            })
        })
        .collect()
}

impl DecisionForm {
    /// The sanction the form names, as the API's body has it.
    fn sanction(&self) -> Result<SanctionBody, ConsoleError> {
        let kind: SanctionKind = chosen("sanction", &self.sanction_kind)?;
        let length = |text: &str| {
            text.parse::<u32>()
                .map_err(|_| ConsoleError::BadForm("Choose the sanction's length.".into()))
        };
        let (minutes, permanent) = match self.length.as_str() {
            "permanent" => (None, true),
            text => (Some(length(text)?), false),
        };
        let members = self
            .members
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect();
        Ok(SanctionBody {
            kind,
            minutes,
            permanent,
            members,
        })
    }

    /// The API's request body, or a sentence naming the field that cannot be read.
    fn body(&self) -> Result<DecisionBody, ConsoleError> {
        if self.decision.is_empty() {
            return Err(ConsoleError::BadForm("Choose a decision.".into()));
        }
        let decision: DecisionChoice = chosen("decision", &self.decision)?;
        let sanction = match decision {
            DecisionChoice::Sanction => Some(self.sanction()?),
            _ => None,
        };
        let ground = match self.ground.as_str() {
            "" => None,
            text => Some(chosen::<Ground>("ground", text)?),
        };
        let evidence_games = evidence_games(&self.evidence_games)?;
        if self.note.contains('\0') || self.reporter_note.contains('\0') {
            return Err(ConsoleError::BadForm(
                "The note holds a NUL character.".into(),
            ));
        }
        Ok(DecisionBody {
            decision,
            sanction,
            ground,
            note: Some(self.note.trim().to_string()).filter(|n| !n.is_empty()),
            reporter_note: Some(self.reporter_note.trim().to_string()).filter(|n| !n.is_empty()),
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
                spoken_name(&sanction)
            ),
            SanctionDuration::Permanent => {
                format!("a permanent {}", spoken_name(&sanction))
            }
        },
    };
    format!(
        "The ladder suggests {what}: step {} of {} on the {} ladder, with {} earlier measure{} still counting.",
        step.step,
        step.steps,
        spoken_name(&step.track),
        step.counted_earlier,
        if step.counted_earlier == 1 { "" } else { "s" }
    )
}

/// Per flagged line (game id, line index): the board it was judged on, as SVG.
fn board_pictures(boards: &[FlaggedBoard]) -> HashMap<(i64, i32), String> {
    let mut pictures = HashMap::new();
    for board in boards {
        if let Some(game) = replayed(&board.pgn4) {
            let title = format!(
                "The board at ply {}, with the move the line suggests",
                board.ply
            );
            let ply = u32::try_from(board.ply).unwrap_or(0);
            pictures.insert(
                (board.game_id, board.line_idx),
                position_svg(&game, ply, Some(&board.finding), &title),
            );
        }
    }
    pictures
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
                        span.pill { (wire_name(&flag.severity)) } " " strong { (spoken_name(&flag.category)) }
                        // A learned flag says so: its explanation gives the score and the
                        // words that carried it (docs/chat-analysis.md, "The learned scorer").
                        @if flag.rule.starts_with("learned:") { " " span.pill title="Read by the learned scorer, not a listed word" { "learned" } }
                        // A flag read with the line it answers or the sender's line before it
                        // (docs/chat-analysis.md, "Conversation in view").
                        @if flag.rule.starts_with("conversation:") || flag.rule.ends_with(":earlier_lines") { " " span.pill title="Read with the lines around it, not alone" { "in conversation" } }
                        ": " (flag.explanation)
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

/// The decisions the form offers, with what each means.
const DECISIONS: [(&str, &str); 4] = [
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

fn sanction_fields(form: &DecisionForm) -> Markup {
    let mut lengths: Vec<String> = LENGTHS.iter().map(u32::to_string).collect();
    if !form.length.is_empty() && form.length != "permanent" && !lengths.contains(&form.length) {
        lengths.push(form.length.clone());
    }
    html! {
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
            div {
                label for="members" { "Keep apart from (separation)" }
                input #members name="members" value=(form.members)
                    placeholder="names accused in this case, separated by commas";
            }
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
    html! {
        form.stacked method="post" action={ "/admin/cases/" (case.case.id) "/decision" } {
            input type="hidden" name="csrf" value=(admin.csrf);
            fieldset {
                legend { "Decision" }
                @for (value, text) in DECISIONS {
                    div {
                        input type="radio" name="decision" id={ "decision-" (value) } value=(value) checked[form.decision == value];
                        label for={ "decision-" (value) } { (text) }
                    }
                }
            }
            (sanction_fields(form))
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
                        (preset.title) " (" (spoken_name(&preset.decision)) ")"
                    }
                }
            }
            label for="note" { "Note (added after the preset's text; required with a sanction)" }
            textarea #note name="note" { (form.note) }
            label for="reporter_note" { "Note to the reporters (after the preset's reporter text; never shown to the accused)" }
            textarea #reporter_note name="reporter_note" { (form.reporter_note) }
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

/// The admin holding the case now, if a claim runs.
fn holder(case: &CaseDetailView, now: chrono::DateTime<chrono::Utc>) -> Option<&str> {
    let item = &case.case;
    item.claimed_by
        .as_deref()
        .filter(|_| item.claimed_until.is_some_and(|until| until > now))
}

fn facts_panel(
    admin: &ConsoleAdmin,
    case: &CaseDetailView,
    now: chrono::DateTime<chrono::Utc>,
) -> Markup {
    let item = &case.case;
    let holder = holder(case, now);
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
    }
}

/// What the page shows around the case: the ladder's suggestion, the form as filled in, and
/// why the last decision was refused.
struct Deciding<'a> {
    ladder: Option<&'a LadderStep>,
    form: &'a DecisionForm,
    refusal: Option<&'a str>,
}

fn decide_panel(
    admin: &ConsoleAdmin,
    state: &AppState,
    case: &CaseDetailView,
    deciding: &Deciding<'_>,
    mine: bool,
) -> Markup {
    html! {
        section.panel aria-labelledby="decide" {
            h2 #decide { "Decide" }
            @if let Some(step) = deciding.ladder { p { (suggestion_text(step)) } }
            @if let Some(refusal) = deciding.refusal { p.error role="alert" { (refusal) } }
            @if mine {
                (decision_form(admin, state, case, deciding.form))
            } @else {
                p { "Claim the case to decide it; nobody else can decide it while you hold it." }
            }
        }
    }
}

fn entries_panel(case: &CaseDetailView) -> Markup {
    html! {
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
    }
}

fn conduct_panel(case: &CaseDetailView) -> Markup {
    html! {
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
                                strong { (spoken_name(&signal.kind)) } " (" (format!("{:.2}", signal.strength)) "): " (signal.explanation)
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
    }
}

fn history_panel(case: &CaseDetailView) -> Markup {
    html! {
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
}

fn pairs_and_games(case: &CaseDetailView) -> Markup {
    html! {
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

fn render(
    admin: &ConsoleAdmin,
    state: &AppState,
    page: &CasePageContent,
    form: &DecisionForm,
    refusal: Option<&str>,
) -> Markup {
    let case = &page.case;
    let now = chrono::Utc::now();
    let mine = holder(case, now) == Some(admin.name());
    let deciding = Deciding {
        ladder: page.ladder.as_ref(),
        form,
        refusal,
    };
    let boards = board_pictures(&page.boards);
    html! {
        (facts_panel(admin, case, now))
        @if case.case.status == CaseStatus::Open { (decide_panel(admin, state, case, &deciding, mine)) }
        (entries_panel(case))
        @if !case.flagged_lines.is_empty() {
            section aria-labelledby="chat" {
                h2 #chat { "Flagged chat" }
                @for line in &case.flagged_lines {
                    (flagged_line(line, boards.get(&(line.game_id, line.line.line_idx))))
                }
            }
        }
        (refunds_panel(&case.refunds))
        div.cols {
            (conduct_panel(case))
            (history_panel(case))
        }
        (pairs_and_games(case))
    }
}

fn title(case: &CaseDetailView) -> String {
    format!(
        "Case {}: {} by {}",
        case.case.id,
        spoken_name(&case.case.reason),
        case.case.accused
    )
}

/// `GET /admin/cases/{id}`.
pub async fn case_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, ConsoleError> {
    let page = read_case_page(&state, id.into_inner()).await?;
    let form = page
        .ladder
        .as_ref()
        .map(DecisionForm::suggested)
        .unwrap_or_default();
    let body = render(&admin, &state, &page, &form, None);
    Ok(page_with_status(
        &admin,
        Section::Queue,
        &title(&page.case),
        StatusCode::OK,
        body,
    ))
}

/// What the flash says of a decision made.
fn decided_sentence(id: i64, decided: &crate::api::views::cases::DecisionView) -> String {
    let what = match &decided.sanction {
        Some(s) => format!(
            "{} until {}",
            spoken_name(&s.kind),
            s.ends_at
                .map(when)
                .unwrap_or_else(|| "further notice (permanent)".into())
        ),
        None => spoken_name(&decided.kind),
    };
    format!("Case {id} is decided: {what} for {}.", decided.accused)
}

/// `POST /admin/cases/{id}/decision`: decides through the same action as the API; a refusal
/// shows the page again with the form as filled in and the reason in a sentence.
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
        Ok(body) => match decide_case::decide(&state, admin.name(), id, body).await {
            Ok(decided) => {
                let flash = Flash::Done(decided_sentence(id, &decided));
                admin.leave_flash(&state, flash).await?;
                return Ok(see_other(&format!("/admin/cases/{id}")));
            }
            Err(error) => ConsoleError::from(error),
        },
    };
    let page = read_case_page(&state, id).await?;
    let status = actix_web::ResponseError::status_code(&refusal);
    let body = render(&admin, &state, &page, &form, Some(&refusal.sentence()));
    Ok(page_with_status(
        &admin,
        Section::Queue,
        &title(&page.case),
        status,
        body,
    ))
}
