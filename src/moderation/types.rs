//! The vocabulary of moderation: identifiers, report reasons, grounds, decisions and sanctions.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id_type!(
    /// A player's account. Admins are players too, which is what lets
    /// [`crate::moderation::may_decide`] see that an admin is a party to a case.
    PlayerId
);
id_type!(
    /// A game's number as the archive shows it (e.g. 100705621).
    GameNumber
);
id_type!(
    /// One stored report entry (one reporter's contribution).
    ReportId
);
id_type!(
    /// One case: the open collection of reports about one accused player and one reason.
    CaseId
);
id_type!(
    /// One sanction row.
    SanctionId
);
id_type!(
    /// One appeal row.
    AppealId
);
id_type!(
    /// One admin's note on a player.
    NoteId
);
id_type!(
    /// One warning a decision gave a player.
    WarningId
);
id_type!(
    /// One alert an alert rule fired.
    AlertId
);
id_type!(
    /// One entry of the admins' word list: a term added or a word allowed.
    WordListEntryId
);

pub use crate::rules::variant::Variant;

/// The report reasons of the site's reporting dialog (docs/moderation.md, "Report reasons").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportReason {
    /// Offensive chat / spamming.
    OffensiveChat,
    /// Rule-violating chat (FFA): begging, offering, suggesting moves, revealing intentions, colluding.
    RuleViolatingChat,
    /// Abandoning games / sandbagging.
    Abandoning,
    /// One person playing with several accounts in one game.
    SelfPartnering,
    /// Prearranged teaming / collusion (FFA).
    PrearrangedTeaming,
    /// Anything else; the message must say what.
    Other,
}

/// Whether the (*) rule (never act on a single game: docs/moderation.md, "The several-games
/// rule") covers a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeveralGamesRule {
    /// Every report-worthy case of the reason is marked (*).
    Always,
    /// Some cases are (*) and some are not: the decision's [`Ground`] settles it.
    DependsOnGround,
    /// No case of the reason is marked (*).
    Never,
}

/// Which escalation ladder a reason's sanctions climb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LadderTrack {
    /// Chat offences: chat bans.
    Chat,
    /// Conduct at the board: play bans.
    Play,
    /// Reports filed as "other".
    Other,
}

impl ReportReason {
    pub const ALL: [ReportReason; 6] = [
        ReportReason::OffensiveChat,
        ReportReason::RuleViolatingChat,
        ReportReason::Abandoning,
        ReportReason::SelfPartnering,
        ReportReason::PrearrangedTeaming,
        ReportReason::Other,
    ];

    /// Rule-violating chat and prearranged teaming only exist in FFA, Solo included
    /// (docs/moderation.md, "Rules of conduct" and "Chat rules").
    pub fn is_ffa_only(self) -> bool {
        matches!(
            self,
            ReportReason::RuleViolatingChat | ReportReason::PrearrangedTeaming
        )
    }

    /// A report for the reason "other" must explain itself in its message (docs/moderation.md,
    /// "Report reasons").
    pub fn needs_message(self) -> bool {
        self == ReportReason::Other
    }

    /// Built-in seriousness on a 1..=5 scale, used for queue priority. Multiple accounts
    /// (self-partnering) corrupt ratings and every game the person plays; organised collusion
    /// and abuse of other people come next; chat in FFA games and abandoning hurt one game at a time.
    pub fn severity(self) -> u8 {
        match self {
            ReportReason::SelfPartnering => 5,
            ReportReason::OffensiveChat | ReportReason::PrearrangedTeaming => 4,
            ReportReason::RuleViolatingChat | ReportReason::Abandoning => 3,
            ReportReason::Other => 2,
        }
    }

    /// The (*) marks per reason (docs/moderation.md, "Report reasons"). Abandoning and
    /// self-partnering are (*) in every listed case; offensive chat only for frequent or
    /// continuous abusive language (harassment, threats and flooding are not); prearranged
    /// teaming only for collusion seen in the game history (colluding through chat is not).
    pub fn needs_several_games(self) -> SeveralGamesRule {
        match self {
            ReportReason::Abandoning | ReportReason::SelfPartnering => SeveralGamesRule::Always,
            ReportReason::OffensiveChat | ReportReason::PrearrangedTeaming => {
                SeveralGamesRule::DependsOnGround
            }
            ReportReason::RuleViolatingChat | ReportReason::Other => SeveralGamesRule::Never,
        }
    }

    /// The ladder that suggests the next sanction for this reason.
    pub fn ladder_track(self) -> LadderTrack {
        match self {
            ReportReason::OffensiveChat | ReportReason::RuleViolatingChat => LadderTrack::Chat,
            ReportReason::Abandoning
            | ReportReason::SelfPartnering
            | ReportReason::PrearrangedTeaming => LadderTrack::Play,
            ReportReason::Other => LadderTrack::Other,
        }
    }

    /// The ground an admin most often states for this reason; a starting value for a decision form.
    pub fn default_ground(self) -> Ground {
        match self {
            ReportReason::OffensiveChat => Ground::AbusiveLanguageHabit,
            ReportReason::RuleViolatingChat => Ground::RuleViolatingChat,
            ReportReason::Abandoning => Ground::Sandbagging,
            ReportReason::SelfPartnering => Ground::SelfPartnering,
            ReportReason::PrearrangedTeaming => Ground::PrearrangedTeaming,
            ReportReason::Other => Ground::Other,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ReportReason::OffensiveChat => "offensive chat / spamming",
            ReportReason::RuleViolatingChat => "rule-violating chat (FFA)",
            ReportReason::Abandoning => "abandoning games / sandbagging",
            ReportReason::SelfPartnering => "self-partnering",
            ReportReason::PrearrangedTeaming => "prearranged teaming (FFA)",
            ReportReason::Other => "other",
        }
    }
}

impl fmt::Display for ReportReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What an admin found the accused did: the site's report-worthy cases, one variant each
/// (docs/moderation.md, "Report reasons").
///
/// A decision to warn or sanction states its ground. This is how the (*) rule is applied
/// precisely: a reason such as offensive chat covers both a (*) habit (frequent abusive
/// language) and single-game offences (harassment, threats, flooding), so the reason alone
/// cannot say whether one game suffices; the ground can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    /// (*) Frequently or continuously uses abusive / vulgar language.
    AbusiveLanguageHabit,
    /// Harasses or threatens other players.
    Harassment,
    /// Sexual content, racial or religious slurs, doxxing (docs/moderation.md, "Chat rules").
    HighlyOffensiveChat,
    /// Floods the chat with spam or advertises.
    Spamming,
    /// FFA chat that begs or offers points, suggests moves, reveals intentions or proposes collusion.
    RuleViolatingChat,
    /// (*) A bad habit of disconnecting in lost positions.
    HabitualDisconnecting,
    /// (*) Intentionally and frequently abandons, aborts or throws games to lower their rating.
    Sandbagging,
    /// (*) Intentionally and frequently resigns prematurely or throws games to spoil others' games (Teams).
    GameSpoiling,
    /// (*) Plays with two accounts in a game.
    SelfPartnering,
    /// (*) Gets into games together and consistently plays for mutual benefit (game history).
    PrearrangedTeaming,
    /// Uses the chat to collude and coordinate against other players.
    ChatCollusion,
    /// Anything else, explained in the note.
    Other,
}

impl Ground {
    /// Every ground, in declaration order (the API documents exactly these).
    pub const ALL: [Ground; 12] = [
        Ground::AbusiveLanguageHabit,
        Ground::Harassment,
        Ground::HighlyOffensiveChat,
        Ground::Spamming,
        Ground::RuleViolatingChat,
        Ground::HabitualDisconnecting,
        Ground::Sandbagging,
        Ground::GameSpoiling,
        Ground::SelfPartnering,
        Ground::PrearrangedTeaming,
        Ground::ChatCollusion,
        Ground::Other,
    ];

    /// The (*) cases, never acted on from a single game (docs/moderation.md, "The several-games
    /// rule").
    pub fn needs_several_games(self) -> bool {
        matches!(
            self,
            Ground::AbusiveLanguageHabit
                | Ground::HabitualDisconnecting
                | Ground::Sandbagging
                | Ground::GameSpoiling
                | Ground::SelfPartnering
                | Ground::PrearrangedTeaming
        )
    }

    /// Whether this ground is one of the cases the reason covers. `Other` fits every reason:
    /// an admin may find something the reporter did not name.
    pub fn fits(self, reason: ReportReason) -> bool {
        match self {
            Ground::Other => true,
            Ground::AbusiveLanguageHabit
            | Ground::Harassment
            | Ground::HighlyOffensiveChat
            | Ground::Spamming => reason == ReportReason::OffensiveChat,
            Ground::RuleViolatingChat => reason == ReportReason::RuleViolatingChat,
            Ground::HabitualDisconnecting | Ground::Sandbagging | Ground::GameSpoiling => {
                reason == ReportReason::Abandoning
            }
            Ground::SelfPartnering => reason == ReportReason::SelfPartnering,
            // Colluding through chat is reported as teaming or as rule-violating chat.
            Ground::PrearrangedTeaming => reason == ReportReason::PrearrangedTeaming,
            Ground::ChatCollusion => matches!(
                reason,
                ReportReason::PrearrangedTeaming | ReportReason::RuleViolatingChat
            ),
        }
    }
}

/// Where a report came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportSource {
    Player,
    ChatAnalysis,
    ConductSignal,
    /// Collusion statistics of a pair's shared games.
    CollusionAnalysis,
    /// A seat carried the fingerprints of a banned player (a returning player).
    FingerprintMatch,
    /// An admin opened the case about what they saw themselves.
    Admin,
}

impl ReportSource {
    pub const ALL: [ReportSource; 6] = [
        ReportSource::Player,
        ReportSource::ChatAnalysis,
        ReportSource::ConductSignal,
        ReportSource::CollusionAnalysis,
        ReportSource::FingerprintMatch,
        ReportSource::Admin,
    ];
}

/// Who filed a report. Automatic reporters carry the strength of their evidence (0.0..=1.0).
/// An admin's own entry is evidence an admin vouches for, not a player's report: it counts as
/// the strongest evidence, and its admin is no party to the case and never timed out for it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum Reporter {
    Player { player: PlayerId },
    ChatAnalysis { score: f64 },
    ConductSignal { score: f64 },
    CollusionAnalysis { score: f64 },
    FingerprintMatch { score: f64 },
    Admin { admin: PlayerId },
}

impl Reporter {
    pub fn source(&self) -> ReportSource {
        match self {
            Reporter::Player { .. } => ReportSource::Player,
            Reporter::ChatAnalysis { .. } => ReportSource::ChatAnalysis,
            Reporter::ConductSignal { .. } => ReportSource::ConductSignal,
            Reporter::CollusionAnalysis { .. } => ReportSource::CollusionAnalysis,
            Reporter::FingerprintMatch { .. } => ReportSource::FingerprintMatch,
            Reporter::Admin { .. } => ReportSource::Admin,
        }
    }

    pub fn player(&self) -> Option<PlayerId> {
        match self {
            Reporter::Player { player } => Some(*player),
            _ => None,
        }
    }

    /// The player who filed it, player or admin: who may not accuse themselves.
    pub fn filer(&self) -> Option<PlayerId> {
        match self {
            Reporter::Player { player } | Reporter::Admin { admin: player } => Some(*player),
            _ => None,
        }
    }

    /// The evidence strength of an entry that is not a player's report, clamped to 0..=1 (NaN
    /// counts as no evidence); an admin's own entry is full strength.
    pub fn automatic_score(&self) -> Option<f64> {
        match self {
            Reporter::Player { .. } => None,
            Reporter::ChatAnalysis { score }
            | Reporter::ConductSignal { score }
            | Reporter::CollusionAnalysis { score }
            | Reporter::FingerprintMatch { score } => Some(unit(*score)),
            Reporter::Admin { .. } => Some(1.0),
        }
    }

    /// Two filings come from the same reporter: the same player, the same admin, or the same
    /// automatic source.
    pub fn same_as(&self, other: &Reporter) -> bool {
        match (self, other) {
            (Reporter::Player { player: a }, Reporter::Player { player: b }) => a == b,
            (Reporter::Admin { admin: a }, Reporter::Admin { admin: b }) => a == b,
            _ => self.filer().is_none() && self.source() == other.source(),
        }
    }
}

/// Clamp to 0..=1, mapping NaN to 0 so that no arithmetic downstream sees it.
pub(crate) fn unit(value: f64) -> f64 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(0.0, 1.0)
    }
}

/// What an admin decided about a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// The report should not have been sent: counts against the reporters.
    DismissUnjustified,
    /// The report was reasonable but there is nothing to act on: does not count against anyone.
    DismissNotActionable,
    Warn,
    Sanction,
}

impl DecisionKind {
    pub const ALL: [DecisionKind; 4] = [
        DecisionKind::DismissUnjustified,
        DecisionKind::DismissNotActionable,
        DecisionKind::Warn,
        DecisionKind::Sanction,
    ];
}

/// A case: `open` until an admin decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseStatus {
    Open,
    Decided,
}

impl CaseStatus {
    pub const ALL: [CaseStatus; 2] = [CaseStatus::Open, CaseStatus::Decided];
}

/// An appeal: `open` until an admin upholds, reduces or lifts the sanction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppealStatus {
    Open,
    Upheld,
    Reduced,
    Lifted,
}

impl AppealStatus {
    pub const ALL: [AppealStatus; 4] = [
        AppealStatus::Open,
        AppealStatus::Upheld,
        AppealStatus::Reduced,
        AppealStatus::Lifted,
    ];
}

/// The site's three sanctions, each temporary or permanent (docs/moderation.md, "Sanctions"),
/// and the separation that keeps a teaming ring's members apart at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SanctionKind {
    ChatBan,
    PlayBan,
    /// Excludes the player from the club: no play, no chat, no reports.
    ClubBan,
    /// Two or more players may not sit at one table (issue #42, item 4); each may still play
    /// and chat elsewhere. Its members are stored beside the sanction (`separation_members`).
    Separation,
}

impl SanctionKind {
    pub const ALL: [SanctionKind; 4] = [
        SanctionKind::ChatBan,
        SanctionKind::PlayBan,
        SanctionKind::ClubBan,
        SanctionKind::Separation,
    ];

    pub fn blocks_chat(self) -> bool {
        matches!(self, SanctionKind::ChatBan | SanctionKind::ClubBan)
    }

    pub fn blocks_play(self) -> bool {
        matches!(self, SanctionKind::PlayBan | SanctionKind::ClubBan)
    }

    pub fn blocks_reporting(self) -> bool {
        self == SanctionKind::ClubBan
    }
}

/// How long a sanction lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SanctionDuration {
    Temporary { minutes: u32 },
    Permanent,
}

impl SanctionDuration {
    pub fn hours(hours: u32) -> Self {
        SanctionDuration::Temporary {
            minutes: hours.saturating_mul(60),
        }
    }

    pub fn days(days: u32) -> Self {
        SanctionDuration::Temporary {
            minutes: days.saturating_mul(24 * 60),
        }
    }

    /// The end of a sanction of this duration starting at `start`; `None` for permanent.
    pub fn end_from(self, start: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self {
            SanctionDuration::Temporary { minutes } => {
                Some(add_saturating(start, self::minutes(minutes)))
            }
            SanctionDuration::Permanent => None,
        }
    }
}

/// `t + delta`, saturating at the ends of the representable range instead of panicking.
pub(crate) fn add_saturating(t: DateTime<Utc>, delta: TimeDelta) -> DateTime<Utc> {
    t.checked_add_signed(delta)
        .unwrap_or(if delta < TimeDelta::zero() {
            DateTime::<Utc>::MIN_UTC
        } else {
            DateTime::<Utc>::MAX_UTC
        })
}

/// `days` whole days, saturating instead of panicking.
pub(crate) fn days(days: u32) -> TimeDelta {
    TimeDelta::try_days(i64::from(days)).unwrap_or(TimeDelta::MAX)
}

/// `hours` whole hours, saturating instead of panicking.
pub(crate) fn hours(hours: u32) -> TimeDelta {
    TimeDelta::try_hours(i64::from(hours)).unwrap_or(TimeDelta::MAX)
}

/// `minutes` whole minutes, saturating instead of panicking.
pub(crate) fn minutes(minutes: u32) -> TimeDelta {
    TimeDelta::try_minutes(i64::from(minutes)).unwrap_or(TimeDelta::MAX)
}

/// A sanction as stored, including what an appeal changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sanction {
    pub id: SanctionId,
    pub player: PlayerId,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: DateTime<Utc>,
    pub duration: SanctionDuration,
    /// Set when an appeal (or an admin) lifted the sanction: it stopped at that moment.
    pub lifted_at: Option<DateTime<Utc>>,
    /// Set when an appeal shortened the sanction (possibly a permanent one) to end here.
    pub reduced_until: Option<DateTime<Utc>>,
}

/// A sanction decided but not yet stored: what a decision or a test hands the store, which
/// gives it its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSanction {
    pub player: PlayerId,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: DateTime<Utc>,
    pub duration: SanctionDuration,
}

impl NewSanction {
    /// When it will end as decided; `None` for a permanent one.
    pub fn effective_end(&self) -> Option<DateTime<Utc>> {
        self.duration.end_from(self.starts_at)
    }
}

impl Sanction {
    /// When the sanction stops having effect, after appeals; `None` while it is permanent.
    pub fn effective_end(&self) -> Option<DateTime<Utc>> {
        let planned = self
            .reduced_until
            .or(self.duration.end_from(self.starts_at));
        match (self.lifted_at, planned) {
            (Some(lifted), Some(end)) => Some(lifted.min(end)),
            (Some(lifted), None) => Some(lifted),
            (None, planned) => planned,
        }
    }

    /// In force at `now`: started, not ended, not lifted.
    pub fn is_active(&self, now: DateTime<Utc>) -> bool {
        self.starts_at <= now && self.effective_end().is_none_or(|end| now < end)
    }

    pub fn is_lifted(&self) -> bool {
        self.lifted_at.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(hour: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 5, 1, hour, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn sanction(duration: SanctionDuration) -> Sanction {
        Sanction {
            id: SanctionId(1),
            player: PlayerId(7),
            kind: SanctionKind::ChatBan,
            reason: ReportReason::OffensiveChat,
            ground: Ground::Harassment,
            starts_at: at(0),
            duration,
            lifted_at: None,
            reduced_until: None,
        }
    }

    #[test]
    fn ffa_only_reasons_are_chat_rules_and_teaming() {
        let ffa: Vec<_> = ReportReason::ALL
            .into_iter()
            .filter(|r| r.is_ffa_only())
            .collect();
        assert_eq!(
            ffa,
            vec![
                ReportReason::RuleViolatingChat,
                ReportReason::PrearrangedTeaming
            ]
        );
        assert!(Variant::Solo.is_free_for_all());
        assert!(!Variant::Teams.is_free_for_all());
        assert!(!Variant::Other.is_free_for_all());
    }

    #[test]
    fn only_other_needs_a_message() {
        for reason in ReportReason::ALL {
            assert_eq!(reason.needs_message(), reason == ReportReason::Other);
        }
    }

    #[test]
    fn several_games_rule_per_reason_matches_its_grounds() {
        let grounds = [
            Ground::AbusiveLanguageHabit,
            Ground::Harassment,
            Ground::HighlyOffensiveChat,
            Ground::Spamming,
            Ground::RuleViolatingChat,
            Ground::HabitualDisconnecting,
            Ground::Sandbagging,
            Ground::GameSpoiling,
            Ground::SelfPartnering,
            Ground::PrearrangedTeaming,
            Ground::ChatCollusion,
        ];
        for reason in ReportReason::ALL {
            let own: Vec<bool> = grounds
                .iter()
                .filter(|g| g.fits(reason))
                .map(|g| g.needs_several_games())
                .collect();
            let expected = match (own.iter().all(|b| *b), own.iter().any(|b| *b)) {
                (true, true) => SeveralGamesRule::Always,
                (false, true) => SeveralGamesRule::DependsOnGround,
                _ => SeveralGamesRule::Never,
            };
            assert_eq!(reason.needs_several_games(), expected, "{reason}");
            assert!(reason.default_ground().fits(reason));
        }
        // The rules page marks abusive language (*), but not harassment or flooding
        // (docs/moderation.md, "Report reasons").
        assert!(Ground::AbusiveLanguageHabit.needs_several_games());
        assert!(!Ground::Harassment.needs_several_games());
        assert!(!Ground::Spamming.needs_several_games());
    }

    #[test]
    fn serde_names_are_snake_case() {
        let json = serde_json::to_string(&ReportReason::RuleViolatingChat).unwrap_or_default();
        assert_eq!(json, "\"rule_violating_chat\"");
        let json = serde_json::to_string(&SanctionDuration::hours(24)).unwrap_or_default();
        assert_eq!(json, r#"{"type":"temporary","minutes":1440}"#);
        let json = serde_json::to_string(&Reporter::Player {
            player: PlayerId(3),
        })
        .unwrap_or_default();
        assert_eq!(json, r#"{"source":"player","player":3}"#);
        let back: DecisionKind =
            serde_json::from_str("\"dismiss_not_actionable\"").unwrap_or(DecisionKind::Warn);
        assert_eq!(back, DecisionKind::DismissNotActionable);
    }

    #[test]
    fn automatic_scores_are_clamped_and_nan_is_zero() {
        assert_eq!(
            Reporter::ChatAnalysis { score: 3.0 }.automatic_score(),
            Some(1.0)
        );
        assert_eq!(
            Reporter::ConductSignal { score: f64::NAN }.automatic_score(),
            Some(0.0)
        );
        assert_eq!(
            Reporter::Player {
                player: PlayerId(1)
            }
            .automatic_score(),
            None
        );
        assert!(
            Reporter::ChatAnalysis { score: 0.2 }.same_as(&Reporter::ChatAnalysis { score: 0.9 })
        );
        assert!(
            !Reporter::ChatAnalysis { score: 0.2 }.same_as(&Reporter::ConductSignal { score: 0.2 })
        );
    }

    #[test]
    fn an_admin_entry_is_full_evidence_and_no_player_report() {
        let alice = Reporter::Admin { admin: PlayerId(5) };
        assert_eq!(alice.source(), ReportSource::Admin);
        assert_eq!(alice.player(), None, "no reporter accuracy or timeout");
        assert_eq!(
            alice.filer(),
            Some(PlayerId(5)),
            "may not accuse themselves"
        );
        assert_eq!(alice.automatic_score(), Some(1.0));
        assert!(alice.same_as(&Reporter::Admin { admin: PlayerId(5) }));
        assert!(!alice.same_as(&Reporter::Admin { admin: PlayerId(6) }));
        assert!(!alice.same_as(&Reporter::Player {
            player: PlayerId(5)
        }));
    }

    #[test]
    fn effective_end_respects_appeals() {
        let mut s = sanction(SanctionDuration::hours(24));
        assert_eq!(s.effective_end(), Some(at(0) + TimeDelta::hours(24)));
        assert!(s.is_active(at(23)));
        s.reduced_until = Some(at(6));
        assert_eq!(s.effective_end(), Some(at(6)));
        assert!(!s.is_active(at(6)));
        s.lifted_at = Some(at(3));
        assert_eq!(s.effective_end(), Some(at(3)));

        let mut p = sanction(SanctionDuration::Permanent);
        assert_eq!(p.effective_end(), None);
        assert!(p.is_active(at(23)));
        assert!(!p.is_active(at(0) - TimeDelta::seconds(1)));
        p.lifted_at = Some(at(5));
        assert!(!p.is_active(at(5)));
    }

    #[test]
    fn huge_durations_saturate() {
        let end =
            SanctionDuration::Temporary { minutes: u32::MAX }.end_from(DateTime::<Utc>::MAX_UTC);
        assert_eq!(end, Some(DateTime::<Utc>::MAX_UTC));
        assert_eq!(
            add_saturating(DateTime::<Utc>::MIN_UTC, TimeDelta::MIN),
            DateTime::<Utc>::MIN_UTC
        );
    }
}
