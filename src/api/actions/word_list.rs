//! The admins' word list (docs/chat-analysis.md, "Admins' word list"): add a term, allow a
//! word, remove an entry, set a category's strictness, and test a line against the list with
//! or without a draft entry. Each change is applied on this instance before the answer; the
//! other instances pick it up at their next look (`jobs::word_list_reloader`).

use actix_web::web;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::acting_admin::admin_id;
use crate::api::error::ApiError;
use crate::api::jobs::word_list_reloader::reload_word_list;
use crate::api::state::AppState;
use crate::api::views::chat::check_response;
use crate::api::views::word_list::{LineTestView, StrictnessView, WordListEntryView};
use crate::chat::context::analyze_line_in_context;
use crate::chat::word_list::{check_allowed_word, check_term, AddedTerm};
use crate::chat::{
    Analyzer, Category, Channel, EntryKind, LineContext, MatchMode, Severity, Strictness, Variant,
};
use crate::moderation::WordListEntryId;
use crate::store::{self, word_list};
use crate::usecases::add_word_list_entry::{add_word_list_entry, Added, EntryToAdd};
use crate::usecases::remove_word_list_entry::{remove_word_list_entry, Removed};
use crate::usecases::set_chat_strictness::set_chat_strictness;

/// The longest `why`, in characters.
pub const MAX_WHY_CHARS: usize = 500;
/// The longest line to test, in characters (as the live check).
const MAX_TEST_CHARS: usize = 500;

/// A term to flag.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTerm {
    /// A word, a phrase, or part of a word (1 to 64 characters). Spelling tricks in chat
    /// (leet, look-alike letters, repeats, separators, asterisks) are matched as for the
    /// built-in lexicon, so write the plain spelling.
    #[schema(example = "glorbnik", min_length = 1, max_length = 64)]
    pub term: String,
    pub category: Category,
    pub severity: Severity,
    /// Default `word`.
    pub mode: Option<MatchMode>,
    /// Why, for the log (1 to 500 characters).
    #[schema(
        example = "new slur in the Spanish-speaking lobbies",
        min_length = 1,
        max_length = 500
    )]
    pub why: String,
}

/// A word never to flag, whatever term it holds or is spelled like.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewAllowedWord {
    /// 1 to 64 characters.
    #[schema(example = "scunthorpe", min_length = 1, max_length = 64)]
    pub word: String,
    /// Why, for the log (1 to 500 characters).
    #[schema(
        example = "a town; players from there keep being warned",
        min_length = 1,
        max_length = 500
    )]
    pub why: String,
}

/// Why an entry is removed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryRemoval {
    /// Why, for the log (1 to 500 characters).
    #[schema(
        example = "flagged ordinary chess talk",
        min_length = 1,
        max_length = 500
    )]
    pub why: String,
}

/// A category's new strictness.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictnessChange {
    pub category: Category,
    pub strictness: Strictness,
    /// Why, for the log (1 to 500 characters).
    #[schema(
        example = "too many warnings for mild insults",
        min_length = 1,
        max_length = 500
    )]
    pub why: String,
}

/// An entry not saved yet, to see what it would change.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftEntry {
    pub kind: EntryKind,
    /// The term, or the word to allow.
    #[schema(example = "glorbnik")]
    pub term: String,
    /// A term's category and severity (required for a term).
    pub category: Option<Category>,
    pub severity: Option<Severity>,
    /// A term's mode; default `word`.
    pub mode: Option<MatchMode>,
}

/// A line to test, as a game-channel line of an FFA game in progress.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LineTest {
    /// At most 500 characters.
    #[schema(example = "you glorbnik", max_length = 500)]
    pub text: String,
    /// An entry to try before saving it.
    pub draft: Option<DraftEntry>,
}

fn checked_why(why: &str) -> Result<String, ApiError> {
    let why = why.trim();
    let chars = why.chars().count();
    if chars == 0 || chars > MAX_WHY_CHARS {
        return Err(ApiError::unprocessable(
            "invalid_why",
            format!("`why` must hold 1 to {MAX_WHY_CHARS} characters; it has {chars}."),
            json!({ "field": "why", "max_chars": MAX_WHY_CHARS, "chars": chars }),
        ));
    }
    if why.contains('\0') {
        return Err(ApiError::unprocessable(
            "invalid_why",
            "`why` holds a NUL character.",
            json!({ "field": "why" }),
        ));
    }
    Ok(why.to_string())
}

fn invalid_term(field: &str, problem: impl std::fmt::Display) -> ApiError {
    ApiError::unprocessable(
        "invalid_term",
        format!("`{field}` {problem}."),
        json!({ "field": field }),
    )
}

/// `admin` adds a term.
pub async fn add_term(
    state: &AppState,
    admin: &str,
    body: NewTerm,
) -> Result<WordListEntryView, ApiError> {
    let mode = body.mode.unwrap_or(MatchMode::Word);
    let term = check_term(&body.term, mode, body.category).map_err(|p| invalid_term("term", p))?;
    let entry = EntryToAdd {
        kind: EntryKind::Term,
        term,
        term_of: Some((body.category, body.severity, mode)),
        reason: checked_why(&body.why)?,
    };
    add(state, admin, entry).await
}

/// `admin` allows a word.
pub async fn allow_word(
    state: &AppState,
    admin: &str,
    body: NewAllowedWord,
) -> Result<WordListEntryView, ApiError> {
    let entry = EntryToAdd {
        kind: EntryKind::Allowed,
        term: check_allowed_word(&body.word).map_err(|p| invalid_term("word", p))?,
        term_of: None,
        reason: checked_why(&body.why)?,
    };
    add(state, admin, entry).await
}

async fn add(
    state: &AppState,
    admin: &str,
    entry: EntryToAdd,
) -> Result<WordListEntryView, ApiError> {
    let admin = admin.to_string();
    let added = state
        .write(move |conn| {
            let me = admin_id(conn, &admin)?;
            Ok::<_, ApiError>(add_word_list_entry(
                conn,
                (me, &admin),
                &entry,
                store::now(),
            )?)
        })
        .await?;
    match added {
        Added::Added(row) => {
            reload_word_list(state).await?;
            Ok(row.into())
        }
        Added::AlreadyInForce(id) => Err(ApiError::conflict(
            "already_in_force",
            format!(
                "Entry {} already has this spelling; remove it first to change it.",
                id.0
            ),
        )),
    }
}

/// `admin` removes entry `id`.
pub async fn remove(
    state: &AppState,
    admin: &str,
    id: i64,
    body: EntryRemoval,
) -> Result<WordListEntryView, ApiError> {
    let why = checked_why(&body.why)?;
    let admin = admin.to_string();
    let removed = state
        .write(move |conn| {
            let me = admin_id(conn, &admin)?;
            Ok::<_, ApiError>(remove_word_list_entry(
                conn,
                (me, &admin),
                WordListEntryId(id),
                &why,
                store::now(),
            )?)
        })
        .await?;
    match removed {
        Removed::Removed(row) => {
            reload_word_list(state).await?;
            Ok(row.into())
        }
        Removed::AlreadyRemoved(row) => Err(ApiError::conflict(
            "already_removed",
            format!(
                "Entry {id} was removed by {} already.",
                row.removed_by.unwrap_or_default()
            ),
        )),
        Removed::NoSuchEntry => Err(ApiError::not_found(
            "word_list_entry_not_found",
            format!("There is no word-list entry {id}."),
        )),
    }
}

/// `admin` sets a category's strictness; answers every category's.
pub async fn set_strictness(
    state: &AppState,
    admin: &str,
    body: StrictnessChange,
) -> Result<Vec<StrictnessView>, ApiError> {
    let why = checked_why(&body.why)?;
    let admin = admin.to_string();
    let rows = state
        .write(move |conn| {
            let me = admin_id(conn, &admin)?;
            set_chat_strictness(
                conn,
                (me, &admin),
                body.category,
                body.strictness,
                &why,
                store::now(),
            )?;
            Ok::<_, ApiError>(word_list::strictness_rows(conn)?)
        })
        .await?;
    reload_word_list(state).await?;
    Ok(StrictnessView::all(rows))
}

/// What the analyser says about a line now and, with a draft, once the draft is saved.
pub async fn test_line(state: &AppState, body: LineTest) -> Result<LineTestView, ApiError> {
    let chars = body.text.chars().count();
    if chars > MAX_TEST_CHARS {
        return Err(ApiError::unprocessable(
            "text_too_long",
            format!("The text has {chars} characters; at most {MAX_TEST_CHARS} are accepted."),
            json!({ "field": "text", "max_chars": MAX_TEST_CHARS, "chars": chars }),
        ));
    }
    let current = judge(&state.chat.current(), &body.text);
    let Some(draft) = body.draft else {
        return Ok(LineTestView {
            current,
            with_draft: None,
        });
    };
    let mut list = state.read(word_list::in_force).await?.1;
    add_draft(&mut list, draft)?;
    let text = body.text;
    let with_draft = web::block(move || Analyzer::with_word_list(&list).map(|a| judge(&a, &text)))
        .await
        .map_err(|e| ApiError::internal(format!("building the draft analyser: {e}")))?
        .map_err(|e| ApiError::internal(format!("building the draft analyser: {e}")))?;
    Ok(LineTestView {
        current,
        with_draft: Some(with_draft),
    })
}

fn add_draft(list: &mut crate::chat::WordList, draft: DraftEntry) -> Result<(), ApiError> {
    match draft.kind {
        EntryKind::Allowed => {
            let word =
                check_allowed_word(&draft.term).map_err(|p| invalid_term("draft.term", p))?;
            list.allowed.push(word);
        }
        EntryKind::Term => {
            let (Some(category), Some(severity)) = (draft.category, draft.severity) else {
                return Err(ApiError::unprocessable(
                    "invalid_draft",
                    "A draft term needs `draft.category` and `draft.severity`.",
                    json!({ "field": "draft.category" }),
                ));
            };
            let mode = draft.mode.unwrap_or(MatchMode::Word);
            let term = check_term(&draft.term, mode, category)
                .map_err(|p| invalid_term("draft.term", p))?;
            list.terms.retain(|t| t.term != term);
            list.terms.push(AddedTerm {
                term,
                category,
                severity,
                mode,
            });
        }
    }
    Ok(())
}

/// A line as the live check judges it with no game: the game channel of an FFA game in
/// progress.
fn judge(analyzer: &Analyzer, text: &str) -> crate::api::views::chat::ChatCheckResponse {
    let context = LineContext {
        variant: Variant::Ffa,
        channel: Channel::Game,
        in_progress: true,
        diplomacy: false,
        position: None,
    };
    let (analysis, position) = analyze_line_in_context(analyzer, &context, None, text);
    check_response(text, analysis, position)
}
