//! The analyser: everything compiled once from the data files (lexicons, word cues, personal
//! information patterns, spam thresholds, FFA policy settings), shared across threads.

use std::sync::{Arc, OnceLock};

use super::ffa::Cues;
use super::ffa_policy::FfaPolicy;
use super::lexicon::{Lexicon, LexiconError, LexiconSources};
use super::mention::BoardWords;
use super::pii::PiiPatterns;
use super::replies::{ReplyPhrases, REPLIES_TXT};
use super::scorer::{self, Model};
use super::spam::{SpamSettings, SpamTracker};
use super::strictness::StrictnessLevels;
use super::types::Category;
use super::word_list::WordList;

/// Spam thresholds and the FFA policy settings, embedded.
pub const CHAT_SETTINGS_TOML: &str = include_str!("../../config/chat.toml");

/// The analyser could not be built from its data files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalyzerError {
    Lexicon(LexiconError),
    Pattern(String),
    Settings(String),
    Scorer(String),
}

impl std::fmt::Display for AnalyzerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyzerError::Lexicon(e) => write!(f, "lexicon: {e}"),
            AnalyzerError::Pattern(e) => write!(f, "pattern: {e}"),
            AnalyzerError::Settings(e) => write!(f, "chat settings: {e}"),
            AnalyzerError::Scorer(e) => write!(f, "learned scorer weights: {e}"),
        }
    }
}

impl std::error::Error for AnalyzerError {}

/// Everything compiled from the data files; build once, share across threads.
#[derive(Clone, Debug)]
pub struct Analyzer {
    pub(super) lexicon: Lexicon,
    pub(super) pii: PiiPatterns,
    pub(super) cues: Cues,
    pub(super) board: BoardWords,
    pub(super) spam: SpamSettings,
    pub(super) ffa_policy: FfaPolicy,
    /// The admins' strictness per category, applied to every line's flags.
    pub(super) strictness: StrictnessLevels,
    /// Rule and explanation of each lexicon entry, written once.
    pub(super) flag_texts: Vec<EntryTexts>,
    /// The learned scorer (`models/chat_scorer/`); its weights stay in the binary.
    pub(super) scorer: Model,
    /// Retorts and consent, read with the line they answer (`config/lexicons/replies.txt`).
    pub(super) replies: ReplyPhrases,
}

#[derive(Clone, Debug)]
pub(super) struct EntryTexts {
    pub(super) rule: String,
    pub(super) explanation: String,
    pub(super) censored_explanation: String,
}

impl Analyzer {
    /// From the data embedded in the binary (`config/lexicons/`, `config/chat.toml`).
    pub fn embedded() -> Result<Analyzer, AnalyzerError> {
        Analyzer::from_sources(LexiconSources::default(), CHAT_SETTINGS_TOML)
    }

    pub fn from_sources(
        sources: LexiconSources<'_>,
        settings_toml: &str,
    ) -> Result<Analyzer, AnalyzerError> {
        Analyzer::build(sources, settings_toml, &WordList::default())
    }

    /// From the embedded data with the admins' word list over it.
    pub fn with_word_list(admins: &WordList) -> Result<Analyzer, AnalyzerError> {
        Analyzer::build(LexiconSources::default(), CHAT_SETTINGS_TOML, admins)
    }

    pub fn build(
        sources: LexiconSources<'_>,
        settings_toml: &str,
        admins: &WordList,
    ) -> Result<Analyzer, AnalyzerError> {
        let lexicon = Lexicon::build(sources, admins).map_err(AnalyzerError::Lexicon)?;
        let cues = Cues::new(&lexicon.cue_names);
        let flag_texts = lexicon
            .entries
            .iter()
            .map(|entry| {
                let phrase = category_phrase(entry.category);
                EntryTexts {
                    rule: format!("lexicon:{}:{}", entry.source, entry.term),
                    explanation: format!("{phrase} \"{}\"", entry.term),
                    censored_explanation: format!("{phrase} (censored) \"{}\"", entry.term),
                }
            })
            .collect();
        Ok(Analyzer {
            flag_texts,
            lexicon,
            pii: PiiPatterns::new().map_err(|e| AnalyzerError::Pattern(e.to_string()))?,
            cues,
            board: BoardWords::new(),
            spam: SpamSettings::parse(settings_toml).map_err(AnalyzerError::Settings)?,
            ffa_policy: FfaPolicy::parse(settings_toml).map_err(AnalyzerError::Settings)?,
            strictness: admins.strictness.clone(),
            scorer: scorer::embedded().map_err(|e| AnalyzerError::Scorer(e.to_string()))?,
            replies: ReplyPhrases::parse(REPLIES_TXT).map_err(AnalyzerError::Settings)?,
        })
    }

    /// One analyser per process, built from the embedded data on first use and shared
    /// after that (building takes a fraction of a second and tens of megabytes).
    pub fn shared() -> Result<Arc<Analyzer>, AnalyzerError> {
        static SHARED: OnceLock<Result<Arc<Analyzer>, AnalyzerError>> = OnceLock::new();
        SHARED
            .get_or_init(|| Analyzer::embedded().map(Arc::new))
            .clone()
    }

    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    pub fn spam_settings(&self) -> &SpamSettings {
        &self.spam
    }

    /// The admins' strictness per category.
    pub fn strictness(&self) -> &StrictnessLevels {
        &self.strictness
    }

    /// This analyser with other strictness levels: the lexicon is shared, not rebuilt.
    pub fn with_strictness(&self, levels: StrictnessLevels) -> Analyzer {
        let mut analyzer = self.clone();
        analyzer.strictness = levels;
        analyzer
    }

    /// The FFA policy settings (`[ffa]` of the chat settings).
    pub fn ffa_policy(&self) -> FfaPolicy {
        self.ffa_policy
    }

    /// This analyser with other FFA policy settings.
    pub fn with_ffa_policy(mut self, policy: FfaPolicy) -> Analyzer {
        self.ffa_policy = policy;
        self
    }

    /// This analyser with other learned-scorer weights (a model just trained, in its report).
    pub fn with_scorer(mut self, model: Model) -> Analyzer {
        self.scorer = model;
        self
    }

    /// The learned scorer's model.
    pub fn scorer(&self) -> &Model {
        &self.scorer
    }

    /// A fresh spam tracker for one game, with this analyser's thresholds.
    pub fn spam_tracker(&self) -> SpamTracker {
        SpamTracker::new(self.spam.clone())
    }
}

fn category_phrase(category: Category) -> &'static str {
    match category {
        Category::Profanity => "profanity",
        Category::Insult => "insult",
        Category::SlurHate => "slur or hate term",
        Category::Sexual => "sexual term",
        Category::ThreatSelfHarm => "threat or self-harm",
        Category::Harassment => "harassment",
        Category::PersonalInfo => "asks for or reveals private information:",
        _ => "flagged term",
    }
}
