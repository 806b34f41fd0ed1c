//! Chat analysis (pure: no I/O, no clock; time is an argument).
//!
//! The files stand in layers, each importing only from those below it (this file only
//! declares and re-exports): a posted game's chat enters at the board check ([`context`]),
//! which seats the senders and judges each line's mentions against the position, giving a
//! board verdict ([`position_verdict`]); the whole log ([`game_chat`]) is then analysed line
//! by line ([`line_analysis`]) in each line's situation ([`line_context`]), with the data
//! compiled once into the [`analyzer`].
//!
//! A line is normalised once into a reusable buffer ([`normalize`]); one
//! Aho-Corasick pass over it finds offensive lexicon entries, allowlisted words
//! and the FFA word cues ([`lexicon`], [`offensive`]); regular expressions for
//! personal information run only behind cheap prefilters ([`pii`]); the FFA
//! classifier ([`ffa`]) reads the cues and the board mentions ([`mention`]), and
//! the FFA policy settings ([`ffa_policy`]) decide where the site's documents disagree;
//! [`spam`] keeps per-sender rates and repeats over a game. Admins lay their own terms, allowed
//! words and strictness per category ([`word_list`], [`strictness`]) over the built-in files;
//! the analyser is rebuilt from both when they change. Beside the lexicon, a learned model
//! ([`scorer`]) reads hostility and hate where no listed word is used.

pub mod analyzer;
pub mod binary_score;
mod common_pairs_table;
mod confusables_table;
pub mod context;
pub mod conversation;
pub mod eval;
pub mod ffa;
pub mod ffa_policy;
pub mod game_chat;
pub mod lexicon;
pub mod line_analysis;
pub mod line_context;
pub mod match_mode;
pub mod mention;
pub mod normalize;
mod offensive;
mod pii;
pub mod position_verdict;
pub mod replies;
pub mod scorer;
pub mod settings;
pub mod spam;
pub mod strictness;
pub mod types;
pub mod window;
pub mod word_list;

pub use analyzer::{Analyzer, AnalyzerError, CHAT_SETTINGS_TOML};
pub use ffa::{FfaClass, FfaOutcome};
pub use ffa_policy::{FfaPolicy, ResignTalk};
pub use game_chat::{
    analyze_game_chat, ChatLine, GameChatAnalysis, GameChatContext, GameLineAnalysis, SenderSummary,
};
pub use lexicon::{Lexicon, LexiconError, LexiconSources, MatchMode};
pub use line_analysis::{analyze_line, analyze_line_with, LineAnalysis, Scratch};
pub use line_context::{Channel, LineContext, Variant};
pub use mention::{Mention, MentionKind, SquareName, Tense};
pub use normalize::NormalizedLine;
pub use position_verdict::PositionVerdict;
pub use settings::{ChatSettings, MAX_CHAT_WINDOW_GAMES};
pub use spam::{LineFingerprint, SpamSettings, SpamTracker};
pub use strictness::{Strictness, StrictnessLevels};
pub use types::{
    Action, Category, CategoryGroup, Flag, LearnedEffect, LearnedEvidence, LearnedHead,
    PositionEvidence, Severity, Span,
};
pub use word_list::{AddedTerm, EntryKind, TermProblem, WordList};
