//! The admins' word list as the API answers it (docs/chat-analysis.md, "Admins' word list").

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::chat::ChatCheckResponse;
use crate::chat::{Category, EntryKind, MatchMode, Severity, Strictness};
use crate::store::to_utc;
use crate::store::word_list::{StrictnessRow, WordListEntryRow};

/// One entry: a term added or a word allowed, with who added it and why, and, once removed,
/// who removed it and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct WordListEntryView {
    #[schema(example = 4)]
    pub id: i64,
    pub kind: EntryKind,
    /// As stored: trimmed, lower case.
    #[schema(example = "glorbnik")]
    pub term: String,
    /// A term's category, severity and mode; null for an allowed word.
    pub category: Option<Category>,
    pub severity: Option<Severity>,
    pub mode: Option<MatchMode>,
    /// The rule a flag of this term names (`lexicon:admin:<term>`); null for an allowed word.
    #[schema(example = "lexicon:admin:glorbnik")]
    pub rule: Option<String>,
    pub added_by: String,
    pub added_why: String,
    pub added_at: DateTime<Utc>,
    pub removed_by: Option<String>,
    pub removed_why: Option<String>,
    pub removed_at: Option<DateTime<Utc>>,
}

impl From<WordListEntryRow> for WordListEntryView {
    fn from(row: WordListEntryRow) -> Self {
        WordListEntryView {
            id: row.id.0,
            kind: row.kind,
            rule: (row.kind == EntryKind::Term).then(|| format!("lexicon:admin:{}", row.term)),
            term: row.term,
            category: row.category,
            severity: row.severity,
            mode: row.mode,
            added_by: row.added_by,
            added_why: row.added_reason,
            added_at: to_utc(row.added_at),
            removed_by: row.removed_by,
            removed_why: row.removed_reason,
            removed_at: row.removed_at.map(to_utc),
        }
    }
}

/// One category's strictness, with who set it last and why (null where never set).
#[derive(Debug, Serialize, ToSchema)]
pub struct StrictnessView {
    pub category: Category,
    pub strictness: Strictness,
    pub set_by: Option<String>,
    pub why: Option<String>,
    pub set_at: Option<DateTime<Utc>>,
}

impl StrictnessView {
    /// Every category, medium where no row was ever set.
    pub fn all(rows: Vec<StrictnessRow>) -> Vec<StrictnessView> {
        Category::ALL
            .into_iter()
            .map(
                |category| match rows.iter().find(|r| r.category == category) {
                    Some(row) => StrictnessView {
                        category,
                        strictness: row.strictness,
                        set_by: Some(row.set_by.clone()),
                        why: Some(row.reason.clone()),
                        set_at: Some(to_utc(row.set_at)),
                    },
                    None => StrictnessView {
                        category,
                        strictness: Strictness::Medium,
                        set_by: None,
                        why: None,
                        set_at: None,
                    },
                },
            )
            .collect()
    }
}

/// The word list: its entries and every category's strictness.
#[derive(Debug, Serialize, ToSchema)]
pub struct WordListView {
    /// Raised by every change.
    #[schema(example = 7)]
    pub version: i64,
    /// The version this instance's analyser was built from (null before its first read):
    /// behind `version` for at most `[chat] word_list_check_secs` and one rebuild.
    pub served_version: Option<i64>,
    /// Newest first: those in force, and the removed ones when asked for.
    pub entries: Vec<WordListEntryView>,
    pub strictness: Vec<StrictnessView>,
}

/// What the analyser says about a line now and, with a draft entry, what it would say once
/// the draft is saved.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineTestView {
    /// As the live chat check answers it on this instance now.
    pub current: ChatCheckResponse,
    /// With the draft added to the word list in force; null without a draft.
    pub with_draft: Option<ChatCheckResponse>,
}
