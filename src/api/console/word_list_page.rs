//! The word list: test a line (with a draft term or allowed word before saving it), add a
//! term, allow a word, remove an entry, set each category's strictness; every change through
//! the API's actions, so it is logged and applied the same way (docs/console.md, "Word list").

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use serde::Deserialize;

use super::layout::{page_with_status, see_other, Section};
use super::page_error::{without_nul, ConsoleError};
use super::session::{ConsoleAdmin, Flash};
use super::text::{spoken_name, when, wire_name};
use crate::api::actions::word_list::{
    self, DraftEntry, EntryRemoval, LineTest, NewAllowedWord, NewTerm, StrictnessChange,
};
use crate::api::read_models::word_list::read_word_list;
use crate::api::state::AppState;
use crate::api::views::chat::ChatCheckResponse;
use crate::api::views::word_list::{LineTestView, WordListView};
use crate::api::wire_enums::from_wire;
use crate::chat::word_list::category_takes_terms;
use crate::chat::{Category, EntryKind, MatchMode, Severity, Strictness};

const PATH: &str = "/admin/word-list";

/// The fields of the test and add forms, kept when a test shows the page again.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct EntryForm {
    #[serde(default)]
    csrf: String,
    /// `none`, `term` or `allowed`: the draft a test tries.
    #[serde(default)]
    draft_kind: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    term: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    severity: String,
    #[serde(default)]
    mode: String,
    #[serde(default)]
    reason: String,
}

#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    removed: Option<bool>,
}

fn render(
    admin: &ConsoleAdmin,
    list: &WordListView,
    show_removed: bool,
    tested: Option<(&EntryForm, &LineTestView)>,
) -> Markup {
    let form = tested.map(|(f, _)| f.clone()).unwrap_or_default();
    let term_form = if form.draft_kind == "term" {
        form.clone()
    } else {
        EntryForm::default()
    };
    let allow_form = if form.draft_kind == "allowed" {
        form.clone()
    } else {
        EntryForm::default()
    };
    html! {
        p.hint { "Terms and allowed words here lie over the built-in lexicons on every instance within seconds, without a restart. An allowed word wins over every term. Each change is logged with its reason." }
        @if let Some((_, result)) = tested { (test_result(result)) }
        section.panel aria-labelledby="test-line" {
            h2 #test-line { "Test a line" }
            form.filters method="post" action={ (PATH) "/test" } {
                input type="hidden" name="csrf" value=(admin.csrf);
                input type="hidden" name="draft_kind" value="none";
                label for="test-text" { "Line" }
                input #test-text type="text" name="text" required maxlength="500" size="48" value=(form.text);
                button type="submit" { "Test this line" }
            }
        }
        section.panel aria-labelledby="add-term" {
            h2 #add-term { "Add a term" }
            form.filters method="post" action={ (PATH) "/terms" } {
                input type="hidden" name="csrf" value=(admin.csrf);
                input type="hidden" name="draft_kind" value="term";
                label for="term-term" { "Term" }
                input #term-term type="text" name="term" required maxlength="64" value=(term_form.term);
                label for="term-category" { "Category" }
                select #term-category name="category" {
                    @for c in Category::ALL.into_iter().filter(|c| category_takes_terms(*c)) {
                        option value=(wire_name(&c)) selected[wire_name(&c) == term_form.category] { (spoken_name(&c)) }
                    }
                }
                label for="term-severity" { "Severity" }
                select #term-severity name="severity" {
                    @for s in Severity::ALL {
                        option value=(wire_name(&s)) selected[wire_name(&s) == term_form.severity || (term_form.severity.is_empty() && s == Severity::Medium)] { (spoken_name(&s)) }
                    }
                }
                label for="term-mode" { "Match" }
                select #term-mode name="mode" {
                    @for m in MatchMode::ALL {
                        option value=(m.name()) selected[m.name() == term_form.mode] { (mode_words(m)) }
                    }
                }
                label for="term-reason" { "Reason" }
                input #term-reason type="text" name="reason" maxlength="500" size="32" value=(term_form.reason);
                label for="term-text" { "Line to test" }
                input #term-text type="text" name="text" maxlength="500" size="32" value=(term_form.text);
                button type="submit" formaction={ (PATH) "/test" } { "Test with this term" }
                button type="submit" { "Add term" }
            }
            p.hint { "Write the plain spelling: leet, look-alike letters, repeats, separators and asterisks are matched as for the built-in lexicon. Severity: low is recorded, medium warns, high blocks, critical blocks and reports." }
        }
        section.panel aria-labelledby="allow-word" {
            h2 #allow-word { "Allow a word" }
            form.filters method="post" action={ (PATH) "/allowed" } {
                input type="hidden" name="csrf" value=(admin.csrf);
                input type="hidden" name="draft_kind" value="allowed";
                label for="allow-term" { "Word" }
                input #allow-term type="text" name="term" required maxlength="64" value=(allow_form.term);
                label for="allow-reason" { "Reason" }
                input #allow-reason type="text" name="reason" maxlength="500" size="32" value=(allow_form.reason);
                label for="allow-text" { "Line to test" }
                input #allow-text type="text" name="text" maxlength="500" size="32" value=(allow_form.text);
                button type="submit" formaction={ (PATH) "/test" } { "Test with this word allowed" }
                button type="submit" { "Allow word" }
            }
        }
        (entries_table(admin, list, show_removed))
        (strictness_table(admin, list))
    }
}

fn mode_words(mode: MatchMode) -> &'static str {
    match mode {
        MatchMode::Word => "whole word",
        MatchMode::Phrase => "phrase of whole words",
        MatchMode::Prefix => "start of a word",
        MatchMode::Sub => "anywhere in a word",
    }
}

fn test_result(result: &LineTestView) -> Markup {
    html! {
        section.panel #test-result role="status" aria-labelledby="test-result-title" {
            h2 #test-result-title { "What the analyser says" }
            (analysis("Now", &result.current))
            @if let Some(with_draft) = &result.with_draft { (analysis("With the draft saved", with_draft)) }
        }
    }
}

fn analysis(title: &str, check: &ChatCheckResponse) -> Markup {
    html! {
        h3 { (title) ": " span.verdict { (spoken_name(&check.action)) } }
        @if check.flags.is_empty() { p.empty { "No rule fired." } } @else {
            table {
                thead { tr { th { "Rule" } th { "Category" } th { "Severity" } th { "Matched" } th { "Why" } } }
                tbody { @for flag in &check.flags { tr {
                    td { code { (flag.rule) } } td { (spoken_name(&flag.category)) } td { (spoken_name(&flag.severity)) }
                    td { (flag.matched) } td { (flag.explanation) }
                } } }
            }
        }
    }
}

fn entries_table(admin: &ConsoleAdmin, list: &WordListView, show_removed: bool) -> Markup {
    html! {
        section aria-labelledby="entries" {
            h2 #entries { "Entries" }
            p { @if show_removed { a href=(PATH) { "Show only those in force" } } @else { a href={ (PATH) "?removed=true" } { "Show removed entries too" } } }
            @if list.entries.is_empty() { p.empty { "No term added and no word allowed: the built-in lexicons apply as they are." } } @else {
                table {
                    thead { tr { th { "Entry" } th { "Kind" } th { "Term" } th { "Category" } th { "Severity" } th { "Match" } th { "Added" } th { "Removed" } th { "" } } }
                    tbody { @for e in &list.entries { tr {
                        td.num { (e.id) } td { (spoken_name(&e.kind)) } td { code { (e.term) } }
                        td { @if let Some(c) = e.category { (spoken_name(&c)) } }
                        td { @if let Some(s) = e.severity { (spoken_name(&s)) } }
                        td { @if let Some(m) = e.mode { (mode_words(m)) } }
                        td { (e.added_by) ", " (when(e.added_at)) ": " (e.added_why) }
                        td { @if let Some(at) = e.removed_at { (e.removed_by.clone().unwrap_or_default()) ", " (when(at)) ": " (e.removed_why.clone().unwrap_or_default()) } }
                        td { @if e.removed_at.is_none() {
                            form method="post" action={ (PATH) "/" (e.id) "/remove" } {
                                input type="hidden" name="csrf" value=(admin.csrf);
                                input type="text" name="reason" required maxlength="500" size="16" aria-label={ "Why remove entry " (e.id) };
                                button type="submit" aria-label={ "Remove entry " (e.id) " (" (e.term) ")" } { "Remove" }
                            }
                        } }
                    } } }
                }
            }
        }
    }
}

fn strictness_table(admin: &ConsoleAdmin, list: &WordListView) -> Markup {
    html! {
        section aria-labelledby="strictness" {
            h2 #strictness { "Strictness" }
            p.hint { "Medium acts on flags as built. High counts each flag of the category one severity higher (a warning becomes a block and a report), low one lower, off drops the category's flags." }
            table {
                thead { tr { th { "Category" } th { "Now" } th { "Set" } th { "Change" } } }
                tbody { @for s in &list.strictness { tr {
                    th scope="row" { (spoken_name(&s.category)) }
                    td { (spoken_name(&s.strictness)) }
                    td { @if let (Some(by), Some(at)) = (&s.set_by, s.set_at) { (by) ", " (when(at)) ": " (s.why.clone().unwrap_or_default()) } }
                    td { form method="post" action={ (PATH) "/strictness" } {
                        input type="hidden" name="csrf" value=(admin.csrf);
                        input type="hidden" name="category" value=(wire_name(&s.category));
                        select name="strictness" aria-label={ "Strictness of " (spoken_name(&s.category)) } {
                            @for level in Strictness::ALL { option value=(level.name()) selected[level == s.strictness] { (level.name()) } }
                        }
                        input type="text" name="reason" required maxlength="500" size="16" aria-label={ "Why change " (spoken_name(&s.category)) };
                        button type="submit" aria-label={ "Set the strictness of " (spoken_name(&s.category)) } { "Set" }
                    } }
                } } }
            }
        }
    }
}

async fn show(
    admin: &ConsoleAdmin,
    state: &AppState,
    show_removed: bool,
    tested: Option<(&EntryForm, &LineTestView)>,
) -> Result<HttpResponse, ConsoleError> {
    let list = read_word_list(state, show_removed).await?;
    let body = render(admin, &list, show_removed, tested);
    Ok(page_with_status(
        admin,
        Section::WordList,
        "Word list",
        StatusCode::OK,
        body,
    ))
}

/// `GET /admin/word-list`.
pub async fn word_list_page(
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ConsoleError> {
    show(&admin, &state, query.removed.unwrap_or(false), None).await
}

fn chosen<T: serde::de::DeserializeOwned>(field: &str, value: &str) -> Result<T, ConsoleError> {
    from_wire(value).ok_or_else(|| {
        ConsoleError::BadForm(format!(
            "The form's {field} {value:?} is not one it offers."
        ))
    })
}

fn draft_of(form: &EntryForm) -> Result<Option<DraftEntry>, ConsoleError> {
    let kind = match form.draft_kind.as_str() {
        "term" => EntryKind::Term,
        "allowed" => EntryKind::Allowed,
        _ => return Ok(None),
    };
    Ok(Some(DraftEntry {
        kind,
        term: without_nul(&form.term)?.to_string(),
        category: term_field(kind, "category", &form.category)?,
        severity: term_field(kind, "severity", &form.severity)?,
        mode: match (kind, form.mode.as_str()) {
            (EntryKind::Term, mode) if !mode.is_empty() => {
                Some(MatchMode::parse(mode).ok_or_else(|| {
                    ConsoleError::BadForm(format!("The form's mode {mode:?} is not one it offers."))
                })?)
            }
            _ => None,
        },
    }))
}

/// A term's choice from the form; `None` for an allowed word or a field left empty.
fn term_field<T: serde::de::DeserializeOwned>(
    kind: EntryKind,
    field: &str,
    value: &str,
) -> Result<Option<T>, ConsoleError> {
    if kind != EntryKind::Term || value.is_empty() {
        return Ok(None);
    }
    chosen(field, value).map(Some)
}

/// `POST /admin/word-list/test`: the page again, with what the analyser says and the forms
/// as they were sent.
pub async fn test(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<EntryForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let body = LineTest {
        text: without_nul(&form.text)?.to_string(),
        draft: draft_of(&form)?,
    };
    match word_list::test_line(&state, body).await {
        Ok(result) => show(&admin, &state, false, Some((&form, &result))).await,
        Err(error) => back_with(&admin, &state, Err(error)).await,
    }
}

/// Leaves what a change did, or why it was refused, for the page the admin is sent back to.
async fn back_with(
    admin: &ConsoleAdmin,
    state: &AppState,
    outcome: Result<String, crate::api::error::ApiError>,
) -> Result<HttpResponse, ConsoleError> {
    let flash = match outcome {
        Ok(done) => Flash::Done(done),
        Err(error) => Flash::Refused(ConsoleError::from(error).sentence()),
    };
    admin.leave_flash(state, flash).await?;
    Ok(see_other(PATH))
}

/// `POST /admin/word-list/terms`.
pub async fn add_term(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<EntryForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let body = NewTerm {
        term: without_nul(&form.term)?.to_string(),
        category: chosen::<Category>("category", &form.category)?,
        severity: chosen::<Severity>("severity", &form.severity)?,
        mode: MatchMode::parse(&form.mode),
        why: without_nul(&form.reason)?.to_string(),
    };
    let outcome = word_list::add_term(&state, admin.name(), body)
        .await
        .map(|entry| {
            format!(
            "Term \"{}\" added (entry {}); it is flagged as {} on every instance within seconds.",
            entry.term,
            entry.id,
            entry.category.map(|c| spoken_name(&c)).unwrap_or_default()
        )
        });
    back_with(&admin, &state, outcome).await
}

/// `POST /admin/word-list/allowed`.
pub async fn allow_word(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<EntryForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let body = NewAllowedWord {
        word: without_nul(&form.term)?.to_string(),
        why: without_nul(&form.reason)?.to_string(),
    };
    let outcome = word_list::allow_word(&state, admin.name(), body)
        .await
        .map(|entry| {
            format!(
                "\"{}\" is allowed (entry {}); no term flags it from now on.",
                entry.term, entry.id
            )
        });
    back_with(&admin, &state, outcome).await
}

#[derive(Debug, Deserialize)]
pub struct ReasonForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    reason: String,
}

/// `POST /admin/word-list/{id}/remove`.
pub async fn remove(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    form: web::Form<ReasonForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let id = id.into_inner();
    let body = EntryRemoval {
        why: without_nul(&form.reason)?.to_string(),
    };
    let outcome = word_list::remove(&state, admin.name(), id, body)
        .await
        .map(|entry| format!("Entry {id} (\"{}\") is removed.", entry.term));
    back_with(&admin, &state, outcome).await
}

#[derive(Debug, Deserialize)]
pub struct StrictnessForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    category: String,
    #[serde(default)]
    strictness: String,
    #[serde(default)]
    reason: String,
}

/// `POST /admin/word-list/strictness`.
pub async fn set_strictness(
    req: HttpRequest,
    admin: ConsoleAdmin,
    state: web::Data<AppState>,
    form: web::Form<StrictnessForm>,
) -> Result<HttpResponse, ConsoleError> {
    admin.check_form(&req, &form.csrf)?;
    let category: Category = chosen("category", &form.category)?;
    let strictness = Strictness::from_name(&form.strictness).ok_or_else(|| {
        ConsoleError::BadForm(format!(
            "The form's strictness {:?} is not one it offers.",
            form.strictness
        ))
    })?;
    let body = StrictnessChange {
        category,
        strictness,
        why: without_nul(&form.reason)?.to_string(),
    };
    let outcome = word_list::set_strictness(&state, admin.name(), body)
        .await
        .map(|_| {
            format!(
                "The strictness of {} is {} on every instance within seconds.",
                spoken_name(&category),
                strictness.name()
            )
        });
    back_with(&admin, &state, outcome).await
}
