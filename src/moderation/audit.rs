//! Entries for the append-only moderation log. The policy names what happened; the service
//! stores the entry with its time and actor.

use super::abuse::ReportTimeout;
use super::appeal::AppealDecision;
use super::types::{
    AppealId, CaseId, DecisionKind, GameNumber, Ground, NoteId, PlayerId, ReportId, ReportReason,
    ReportSource, SanctionDuration, SanctionId, SanctionKind, WarningId, WordListEntryId,
};
use chrono::{DateTime, Utc};
use serde::Serialize;

/// Who did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Actor {
    Player {
        player: PlayerId,
    },
    Admin {
        admin: PlayerId,
    },
    /// The service itself: automatic reports, expiries noticed, timeouts issued.
    System,
}

/// One log line: when, who, what.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditEntry {
    pub at: DateTime<Utc>,
    pub actor: Actor,
    #[serde(flatten)]
    pub action: AuditAction,
}

/// What happened. Serialised with an `action` tag, e.g. `{"action": "case_claimed", ...}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum AuditAction {
    ReportFiled {
        report: ReportId,
        reporter: PlayerId,
        accused: Vec<PlayerId>,
        reason: ReportReason,
        game: Option<GameNumber>,
    },
    ReportMerged {
        report: ReportId,
        added_games: Vec<GameNumber>,
        added_accused: Vec<PlayerId>,
    },
    AutomaticReport {
        report: ReportId,
        source: ReportSource,
        accused: Vec<PlayerId>,
        reason: ReportReason,
        score: f64,
        game: Option<GameNumber>,
    },
    /// An admin's own entry about what they saw (it opens a case or joins the open one).
    AdminEntry {
        report: ReportId,
        admin: PlayerId,
        accused: PlayerId,
        reason: ReportReason,
        games: Vec<GameNumber>,
    },
    ReportRefusedRateLimit {
        reporter: PlayerId,
        retry_at: DateTime<Utc>,
    },
    CaseOpened {
        case: CaseId,
        accused: PlayerId,
        reason: ReportReason,
    },
    CaseClaimed {
        case: CaseId,
        admin: PlayerId,
        until: DateTime<Utc>,
    },
    ClaimExpired {
        case: CaseId,
        admin: PlayerId,
        expired_at: DateTime<Utc>,
    },
    ClaimReleased {
        case: CaseId,
        admin: PlayerId,
    },
    Decision {
        case: CaseId,
        admin: PlayerId,
        kind: DecisionKind,
        ground: Option<Ground>,
        evidence_games: Vec<GameNumber>,
    },
    SanctionCreated {
        sanction: SanctionId,
        case: Option<CaseId>,
        player: PlayerId,
        kind: SanctionKind,
        duration: SanctionDuration,
        ends_at: Option<DateTime<Utc>>,
    },
    SanctionReduced {
        sanction: SanctionId,
        new_end: DateTime<Utc>,
    },
    SanctionLifted {
        sanction: SanctionId,
    },
    ReportTimeout {
        player: PlayerId,
        level: u32,
        starts_at: DateTime<Utc>,
        until: DateTime<Utc>,
    },
    AppealFiled {
        appeal: AppealId,
        sanction: SanctionId,
        appellant: PlayerId,
    },
    AppealDecided {
        appeal: AppealId,
        sanction: SanctionId,
        decision: AppealDecision,
    },
    NoteAdded {
        note: NoteId,
        player: PlayerId,
        author: PlayerId,
        case: Option<CaseId>,
    },
    /// Everything held about a player was exported, by an admin or by the player.
    PlayerExported {
        player: PlayerId,
    },
    /// A player's chat text and fingerprints were deleted and their name replaced by a
    /// pseudonym everywhere; the counts say how much changed.
    PlayerErased {
        player: PlayerId,
        admin: PlayerId,
        games: u64,
        chat_lines_deleted: u64,
        texts_rewritten: u64,
    },
    /// An upheld case owes its victims refunds (docs/moderation.md, "Refunds"): how many
    /// games and victims, the points in all, and the listings without an amount.
    RefundsOwed {
        case: CaseId,
        games: u32,
        victims: u32,
        total: i64,
        unrated: u32,
    },
    /// A player acknowledged a warning (docs/moderation.md, "Warnings").
    WarningAcknowledged {
        warning: WarningId,
        case: CaseId,
    },
    /// An admin added a term to the chat word list, or allowed a word
    /// (docs/chat-analysis.md, "Admins' word list"). The chat vocabulary is written by its
    /// wire names: this room does not know the chat room's types.
    WordListEntryAdded {
        entry: WordListEntryId,
        /// `term` or `allowed`.
        kind: String,
        term: String,
        /// A term's category, severity and mode; absent for an allowed word.
        #[serde(skip_serializing_if = "Option::is_none")]
        category: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        severity: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mode: Option<String>,
    },
    /// An admin removed an entry of the word list.
    WordListEntryRemoved {
        entry: WordListEntryId,
        kind: String,
        term: String,
    },
    /// An admin set a chat category's strictness.
    ChatStrictnessSet {
        category: String,
        strictness: String,
        before: String,
    },
}

impl AuditAction {
    pub fn report_timeout(player: PlayerId, timeout: &ReportTimeout) -> Self {
        AuditAction::ReportTimeout {
            player,
            level: timeout.level,
            starts_at: timeout.starts_at,
            until: timeout.until,
        }
    }

    /// Every [`AuditAction::kind`] value, in declaration order: what a log filter may ask for.
    pub const KINDS: [&'static str; 24] = [
        "report_filed",
        "report_merged",
        "automatic_report",
        "admin_entry",
        "report_refused_rate_limit",
        "case_opened",
        "case_claimed",
        "claim_expired",
        "claim_released",
        "decision",
        "sanction_created",
        "sanction_reduced",
        "sanction_lifted",
        "report_timeout",
        "appeal_filed",
        "appeal_decided",
        "note_added",
        "player_exported",
        "player_erased",
        "refunds_owed",
        "warning_acknowledged",
        "word_list_entry_added",
        "word_list_entry_removed",
        "chat_strictness_set",
    ];

    /// The tag value, e.g. "case_claimed", for a log's `kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            AuditAction::ReportFiled { .. } => "report_filed",
            AuditAction::ReportMerged { .. } => "report_merged",
            AuditAction::AutomaticReport { .. } => "automatic_report",
            AuditAction::AdminEntry { .. } => "admin_entry",
            AuditAction::ReportRefusedRateLimit { .. } => "report_refused_rate_limit",
            AuditAction::CaseOpened { .. } => "case_opened",
            AuditAction::CaseClaimed { .. } => "case_claimed",
            AuditAction::ClaimExpired { .. } => "claim_expired",
            AuditAction::ClaimReleased { .. } => "claim_released",
            AuditAction::Decision { .. } => "decision",
            AuditAction::SanctionCreated { .. } => "sanction_created",
            AuditAction::SanctionReduced { .. } => "sanction_reduced",
            AuditAction::SanctionLifted { .. } => "sanction_lifted",
            AuditAction::ReportTimeout { .. } => "report_timeout",
            AuditAction::AppealFiled { .. } => "appeal_filed",
            AuditAction::AppealDecided { .. } => "appeal_decided",
            AuditAction::NoteAdded { .. } => "note_added",
            AuditAction::PlayerExported { .. } => "player_exported",
            AuditAction::PlayerErased { .. } => "player_erased",
            AuditAction::RefundsOwed { .. } => "refunds_owed",
            AuditAction::WarningAcknowledged { .. } => "warning_acknowledged",
            AuditAction::WordListEntryAdded { .. } => "word_list_entry_added",
            AuditAction::WordListEntryRemoved { .. } => "word_list_entry_removed",
            AuditAction::ChatStrictnessSet { .. } => "chat_strictness_set",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    #[test]
    fn entries_serialise_flat_with_a_snake_case_tag() {
        let entry = AuditEntry {
            at: t0(),
            actor: Actor::Admin { admin: PlayerId(9) },
            action: AuditAction::CaseClaimed {
                case: CaseId(4),
                admin: PlayerId(9),
                until: t0(),
            },
        };
        let json = serde_json::to_value(&entry).unwrap_or_default();
        assert_eq!(json["action"], "case_claimed");
        assert_eq!(json["case"], 4);
        assert_eq!(json["actor"]["type"], "admin");
        assert_eq!(json["at"], "2024-06-01T12:00:00Z");
        assert_eq!(entry.action.kind(), "case_claimed");
    }

    #[test]
    fn kinds_lists_every_action_once() {
        let (case, admin, player) = (CaseId(1), PlayerId(2), PlayerId(3));
        let (sanction, appeal, report) = (SanctionId(4), AppealId(5), ReportId(6));
        let every = [
            AuditAction::ReportFiled {
                report,
                reporter: player,
                accused: vec![],
                reason: ReportReason::Other,
                game: None,
            },
            AuditAction::ReportMerged {
                report,
                added_games: vec![],
                added_accused: vec![],
            },
            AuditAction::AutomaticReport {
                report,
                source: ReportSource::ChatAnalysis,
                accused: vec![],
                reason: ReportReason::OffensiveChat,
                score: 0.5,
                game: None,
            },
            AuditAction::AdminEntry {
                report,
                admin,
                accused: player,
                reason: ReportReason::Other,
                games: vec![],
            },
            AuditAction::ReportRefusedRateLimit {
                reporter: player,
                retry_at: t0(),
            },
            AuditAction::CaseOpened {
                case,
                accused: player,
                reason: ReportReason::Other,
            },
            AuditAction::CaseClaimed {
                case,
                admin,
                until: t0(),
            },
            AuditAction::ClaimExpired {
                case,
                admin,
                expired_at: t0(),
            },
            AuditAction::ClaimReleased { case, admin },
            AuditAction::Decision {
                case,
                admin,
                kind: DecisionKind::Warn,
                ground: None,
                evidence_games: vec![],
            },
            AuditAction::SanctionCreated {
                sanction,
                case: None,
                player,
                kind: SanctionKind::ChatBan,
                duration: SanctionDuration::Permanent,
                ends_at: None,
            },
            AuditAction::SanctionReduced {
                sanction,
                new_end: t0(),
            },
            AuditAction::SanctionLifted { sanction },
            AuditAction::ReportTimeout {
                player,
                level: 1,
                starts_at: t0(),
                until: t0(),
            },
            AuditAction::AppealFiled {
                appeal,
                sanction,
                appellant: player,
            },
            AuditAction::AppealDecided {
                appeal,
                sanction,
                decision: AppealDecision::Uphold,
            },
            AuditAction::NoteAdded {
                note: NoteId(7),
                player,
                author: admin,
                case: Some(case),
            },
            AuditAction::PlayerExported { player },
            AuditAction::PlayerErased {
                player,
                admin,
                games: 3,
                chat_lines_deleted: 3,
                texts_rewritten: 5,
            },
            AuditAction::RefundsOwed {
                case,
                games: 2,
                victims: 3,
                total: 36,
                unrated: 1,
            },
            AuditAction::WarningAcknowledged {
                warning: WarningId(4),
                case,
            },
            AuditAction::WordListEntryAdded {
                entry: WordListEntryId(1),
                kind: "allowed".into(),
                term: "scunthorpe".into(),
                category: None,
                severity: None,
                mode: None,
            },
            AuditAction::WordListEntryRemoved {
                entry: WordListEntryId(1),
                kind: "allowed".into(),
                term: "scunthorpe".into(),
            },
            AuditAction::ChatStrictnessSet {
                category: "insult".into(),
                strictness: "high".into(),
                before: "medium".into(),
            },
        ];
        let kinds: Vec<&str> = every.iter().map(AuditAction::kind).collect();
        assert_eq!(kinds, AuditAction::KINDS);
    }

    #[test]
    fn kind_matches_the_serialised_tag() {
        let timeout = ReportTimeout {
            starts_at: t0(),
            until: t0(),
            level: 1,
        };
        let actions = [
            AuditAction::report_timeout(PlayerId(1), &timeout),
            AuditAction::SanctionLifted {
                sanction: SanctionId(1),
            },
            AuditAction::AppealDecided {
                appeal: AppealId(1),
                sanction: SanctionId(1),
                decision: AppealDecision::Reduce { new_end: t0() },
            },
            AuditAction::Decision {
                case: CaseId(1),
                admin: PlayerId(2),
                kind: DecisionKind::DismissUnjustified,
                ground: None,
                evidence_games: vec![],
            },
        ];
        for action in actions {
            let json = serde_json::to_value(&action).unwrap_or_default();
            assert_eq!(json["action"], action.kind());
        }
    }
}
