//! Result types of chat analysis, stored and returned as JSON.

use serde::{Deserialize, Serialize};

/// What a flag is about. The first group is offensive chat, then spam, then the
/// FFA rule-violating chat categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Profanity,
    Insult,
    SlurHate,
    Sexual,
    ThreatSelfHarm,
    /// Castigating someone for being new, or for their country or language.
    Harassment,
    /// Doxxing: revealing or asking for private information.
    PersonalInfo,
    Flooding,
    Repetition,
    Gibberish,
    Shouting,
    Advertising,
    Begging,
    Offering,
    MoveSuggestion,
    Intention,
    Collusion,
    /// Telling someone to resign or claim: classified, but not report-worthy.
    ResignOrClaim,
}

/// The report reason a category belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CategoryGroup {
    Offensive,
    Spam,
    RuleViolating,
}

impl Category {
    pub const ALL: [Category; 18] = [
        Category::Profanity,
        Category::Insult,
        Category::SlurHate,
        Category::Sexual,
        Category::ThreatSelfHarm,
        Category::Harassment,
        Category::PersonalInfo,
        Category::Flooding,
        Category::Repetition,
        Category::Gibberish,
        Category::Shouting,
        Category::Advertising,
        Category::Begging,
        Category::Offering,
        Category::MoveSuggestion,
        Category::Intention,
        Category::Collusion,
        Category::ResignOrClaim,
    ];

    pub fn group(self) -> CategoryGroup {
        use Category::*;
        match self {
            Profanity | Insult | SlurHate | Sexual | ThreatSelfHarm | Harassment | PersonalInfo => {
                CategoryGroup::Offensive
            }
            Flooding | Repetition | Gibberish | Shouting | Advertising => CategoryGroup::Spam,
            Begging | Offering | MoveSuggestion | Intention | Collusion | ResignOrClaim => {
                CategoryGroup::RuleViolating
            }
        }
    }

    pub fn name(self) -> &'static str {
        use Category::*;
        match self {
            Profanity => "profanity",
            Insult => "insult",
            SlurHate => "slur_hate",
            Sexual => "sexual",
            ThreatSelfHarm => "threat_self_harm",
            Harassment => "harassment",
            PersonalInfo => "personal_info",
            Flooding => "flooding",
            Repetition => "repetition",
            Gibberish => "gibberish",
            Shouting => "shouting",
            Advertising => "advertising",
            Begging => "begging",
            Offering => "offering",
            MoveSuggestion => "move_suggestion",
            Intention => "intention",
            Collusion => "collusion",
            ResignOrClaim => "resign_or_claim",
        }
    }

    /// Parses a category name as written in the lexicon files and reports.
    pub fn from_name(name: &str) -> Option<Category> {
        let name = name.trim();
        Category::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .or(match name {
                "slur" | "hate" => Some(Category::SlurHate),
                "threat" | "self_harm" => Some(Category::ThreatSelfHarm),
                "doxxing" | "pii" => Some(Category::PersonalInfo),
                "spam" => Some(Category::Flooding),
                _ => None,
            })
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    #[default]
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 4] = [
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];

    /// From the 1-4 scale of the lexicon files.
    pub fn from_level(level: u8) -> Severity {
        match level {
            0 | 1 => Severity::Low,
            2 => Severity::Medium,
            3 => Severity::High,
            _ => Severity::Critical,
        }
    }

    pub fn lower(self) -> Severity {
        match self {
            Severity::Critical => Severity::High,
            Severity::High => Severity::Medium,
            _ => Severity::Low,
        }
    }

    pub fn raise(self) -> Severity {
        match self {
            Severity::Low => Severity::Medium,
            Severity::Medium => Severity::High,
            _ => Severity::Critical,
        }
    }
}

/// What the game server should do with the line.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    #[default]
    Allow,
    Warn,
    Block,
}

/// A byte range of the ORIGINAL line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The text the span covers, or "" if it does not fit `text`.
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }
}

/// Where a flag's position check was made: filled in once the rules engine has
/// looked at the position at the message's ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PositionEvidence {
    pub ply: u32,
    pub fen4: String,
    /// What the check found, in one line.
    pub finding: String,
}

/// One finding about one line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    pub category: Category,
    pub severity: Severity,
    /// The matched text in the original line (byte offsets).
    pub span: Span,
    /// The rule or lexicon entry that fired, e.g. `lexicon:reference:fuck` or `ffa:beg_need_points`.
    pub rule: String,
    /// One line saying why.
    pub explanation: String,
    /// Whether the site's reporting guide says this is worth reporting on its own.
    pub report_worthy: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<PositionEvidence>,
    /// What the learned scorer read in the line, on its own flags and on a lexicon flag it
    /// confirmed or softened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<LearnedEvidence>,
}

/// The learned scorer's reading of a line: which head, its score and the words that
/// carried it (`docs/chat-analysis.md`, "The learned scorer").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnedEvidence {
    pub head: LearnedHead,
    /// The head's score in thousandths (0-1000).
    pub score_per_mille: u16,
    /// The words of the line that raised the score most, strongest first.
    pub carried_by: Vec<String>,
    pub effect: LearnedEffect,
}

/// The heads of the learned scorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearnedHead {
    /// Hostility toward a person in any words.
    Hostile,
    /// Hate aimed at a group.
    IdentityHate,
}

/// What the scorer did with the line's flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LearnedEffect {
    /// A flag of its own, where the lexicon found nothing as severe.
    Added,
    /// A lexicon flag raised one severity: the line reads hostile too.
    Confirmed,
    /// A lexicon flag lowered one severity: the word is there, hostility is not.
    Softened,
    /// A flag of its own, read with the sender's lines just before this one: a sentence
    /// split over several lines.
    WithEarlierLines,
}

impl Flag {
    /// What this flag alone asks for: low findings are recorded, medium ones
    /// warn the sender, high and critical ones keep the line from other players.
    pub fn action(&self) -> Action {
        match self.severity {
            Severity::Low => Action::Allow,
            Severity::Medium => Action::Warn,
            Severity::High | Severity::Critical => Action::Block,
        }
    }
}
