//! The review queue's responses: queued cases and a case with its evidence.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::{CaseStatus, FingerprintKind, Termination};
use crate::api::views::games::{GameSummary, SeatView};
use crate::api::views::notes::NoteView;
use crate::api::views::refunds::RefundsView;
use crate::api::views::sanctions::SanctionRecordView;
use crate::api::wire_enums::stored;
use crate::archive::ChatChannel;
use crate::chat::{Category, Severity};
use crate::conduct::AdminConductView;
use crate::moderation::{
    age_points, reporter_accuracy, DecisionKind, ModerationPolicy, ReportOutcome, ReportReason,
    ReportSource,
};
use crate::store::case_evidence::{
    CaseEvidence, EarlierCase, EntryEvidence, FlaggedLine, PairHistory, ReporterRecord,
};
use crate::store::cases::CaseRow;
use crate::store::chat_flags::FlagRow;
use crate::store::games::{ChatLineRow, GameRow, SeatRow};
use crate::store::player_notes::NoteListing;
use crate::store::queue::QueuedCase;
use crate::store::to_utc;

/// A case's priority at the moment of the read, with its stored and age parts.
#[derive(Debug, Serialize, ToSchema)]
pub struct PriorityView {
    /// `base + age`, 0..100.
    pub total: f64,
    /// Everything but age: reason severity, reporters, their accuracy, automatic evidence and
    /// earlier sanctions, as last stored.
    pub base: f64,
    /// Grows with the hours the case has been open, up to its weight.
    pub age: f64,
}

/// One case in the queue.
#[derive(Debug, Serialize, ToSchema)]
pub struct CaseListItem {
    pub id: i64,
    pub accused: String,
    pub reason: ReportReason,
    pub status: CaseStatus,
    pub priority: PriorityView,
    /// Reports filed into the case.
    pub entry_count: i32,
    /// Distinct players among the reporters.
    pub reporters: i64,
    pub opened_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The admin holding the case and until when (a past `claimed_until` means the claim ran
    /// out and anyone may take it).
    pub claimed_by: Option<String>,
    pub claimed_until: Option<DateTime<Utc>>,
    pub decided_at: Option<DateTime<Utc>>,
}

impl CaseListItem {
    fn new(
        case: CaseRow,
        accused: String,
        claimed_by: Option<String>,
        reporters: i64,
        now: NaiveDateTime,
        policy: &ModerationPolicy,
    ) -> Result<CaseListItem, ApiError> {
        let age = age_points(to_utc(case.opened_at), to_utc(now), policy);
        Ok(CaseListItem {
            id: case.id.0,
            accused,
            reason: case.reason,
            status: case.status,
            priority: PriorityView {
                total: case.priority_base + age,
                base: case.priority_base,
                age,
            },
            entry_count: case.entry_count,
            reporters,
            opened_at: to_utc(case.opened_at),
            updated_at: to_utc(case.updated_at),
            claimed_by,
            claimed_until: case.claimed_until.map(to_utc),
            decided_at: case.decided_at.map(to_utc),
        })
    }

    pub(crate) fn from_queued(
        queued: QueuedCase,
        now: NaiveDateTime,
        policy: &ModerationPolicy,
    ) -> Result<CaseListItem, ApiError> {
        CaseListItem::new(
            queued.case,
            queued.accused,
            queued.claimed_by,
            queued.reporters,
            now,
            policy,
        )
    }
}

/// One page of the queue at one moment.
#[derive(Debug, Serialize, ToSchema)]
pub struct CasePage {
    pub items: Vec<CaseListItem>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// The moment the priorities were computed at; later pages keep it.
    pub as_of: DateTime<Utc>,
}

/// A reporter and how their decided reports turned out.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReporterView {
    pub name: String,
    /// Smoothed share of their decided reports that were upheld, 0..1.
    pub accuracy: f64,
    pub upheld: u32,
    pub dismissed_unjustified: u32,
    pub dismissed_not_actionable: u32,
}

impl ReporterView {
    fn new(name: String, record: &ReporterRecord, policy: &ModerationPolicy) -> ReporterView {
        let outcomes: Vec<ReportOutcome> =
            std::iter::repeat_n(ReportOutcome::Upheld, record.upheld as usize)
                .chain(std::iter::repeat_n(
                    ReportOutcome::DismissedUnjustified,
                    record.dismissed_unjustified as usize,
                ))
                .collect();
        ReporterView {
            name,
            accuracy: reporter_accuracy(&outcomes, policy).share,
            upheld: record.upheld,
            dismissed_unjustified: record.dismissed_unjustified,
            dismissed_not_actionable: record.dismissed_not_actionable,
        }
    }
}

/// The automatic report behind an entry.
#[derive(Debug, Serialize, ToSchema)]
pub struct AutomaticView {
    pub id: i64,
    /// The rule that fired, e.g. `severe_line`, `repeated_lines`.
    pub rule: String,
    pub summary: String,
    /// Evidence strength, 0..1.
    pub score: f64,
    /// The game whose ingest raised it.
    pub game_id: i64,
}

/// One report in a case.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryView {
    pub report_id: i64,
    pub source: ReportSource,
    pub reason: ReportReason,
    /// The reporting player (player reports only).
    pub reporter: Option<ReporterView>,
    /// The admin who filed this entry about what they saw (source `admin` only).
    pub admin: Option<String>,
    /// Everyone the report names.
    pub accused: Vec<String>,
    pub message: Option<String>,
    /// Archive ids: the game it was filed from first, then the further games it cites.
    pub games: Vec<i64>,
    pub filed_at: DateTime<Utc>,
    /// Automatic evidence strength, 0..1.
    pub score: Option<f64>,
    pub automatic: Option<AutomaticView>,
    /// Set once the case is decided.
    pub outcome: Option<ReportOutcome>,
}

impl EntryView {
    fn from_evidence(
        entry: EntryEvidence,
        policy: &ModerationPolicy,
    ) -> Result<EntryView, ApiError> {
        let report = entry.report;
        Ok(EntryView {
            report_id: report.id.0,
            source: report.source,
            reason: report.reason,
            reporter: entry
                .reporter
                .zip(entry.reporter_record)
                .map(|(name, record)| ReporterView::new(name, &record, policy)),
            admin: entry.admin,
            accused: entry.accused,
            message: report.message,
            games: entry.games,
            filed_at: to_utc(report.filed_at),
            score: report.score,
            automatic: entry.automatic.map(|a| AutomaticView {
                id: a.id,
                rule: a.rule,
                summary: a.summary,
                score: a.score,
                game_id: a.game_id,
            }),
            outcome: report.outcome,
        })
    }
}

/// A chat line as sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatLineView {
    pub line_idx: i32,
    pub ply: i32,
    pub at: Option<DateTime<Utc>>,
    pub sender: String,
    pub channel: ChatChannel,
    pub text: String,
}

impl ChatLineView {
    fn from_row(line: ChatLineRow) -> Result<ChatLineView, ApiError> {
        Ok(ChatLineView {
            line_idx: line.idx,
            ply: line.ply,
            at: line.sent_at.map(to_utc),
            sender: line.sender,
            channel: stored("chat channel", &line.channel)?,
            text: line.text,
        })
    }

    fn from_rows(lines: Vec<ChatLineRow>) -> Result<Vec<ChatLineView>, ApiError> {
        lines.into_iter().map(ChatLineView::from_row).collect()
    }
}

/// One finding of the chat analysis on a line.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineFlagView {
    pub category: Category,
    pub severity: Severity,
    pub rule: String,
    pub explanation: String,
    pub report_worthy: bool,
    /// Byte offsets of the matched text.
    pub span_start: i32,
    pub span_end: i32,
    /// The position at the line's ply (FEN4) and what the check found there.
    pub evidence_fen4: Option<String>,
    pub evidence_finding: Option<String>,
}

impl LineFlagView {
    fn from_row(f: FlagRow) -> Result<LineFlagView, ApiError> {
        Ok(LineFlagView {
            category: stored("flag category", &f.category)?,
            severity: stored("flag severity", &f.severity)?,
            rule: f.rule,
            explanation: f.explanation,
            report_worthy: f.report_worthy,
            span_start: f.span_start,
            span_end: f.span_end,
            evidence_fen4: f.evidence_fen4,
            evidence_finding: f.evidence_finding,
        })
    }
}

/// A flagged line of the accused with the lines around it.
#[derive(Debug, Serialize, ToSchema)]
pub struct FlaggedLineView {
    pub game_id: i64,
    #[serde(flatten)]
    pub line: ChatLineView,
    pub flags: Vec<LineFlagView>,
    /// Up to three lines before and after, in chat order.
    pub before: Vec<ChatLineView>,
    pub after: Vec<ChatLineView>,
}

impl FlaggedLineView {
    fn from_evidence(line: FlaggedLine) -> Result<FlaggedLineView, ApiError> {
        Ok(FlaggedLineView {
            game_id: line.line.game_id,
            line: ChatLineView::from_row(line.line)?,
            flags: line
                .flags
                .into_iter()
                .map(LineFlagView::from_row)
                .collect::<Result<_, _>>()?,
            before: ChatLineView::from_rows(line.before)?,
            after: ChatLineView::from_rows(line.after)?,
        })
    }
}

/// An earlier case of the accused.
#[derive(Debug, Serialize, ToSchema)]
pub struct EarlierCaseView {
    pub id: i64,
    pub reason: ReportReason,
    pub status: CaseStatus,
    pub opened_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
    pub decision: Option<DecisionKind>,
}

impl EarlierCaseView {
    fn from_evidence(earlier: EarlierCase) -> Result<EarlierCaseView, ApiError> {
        Ok(EarlierCaseView {
            id: earlier.case.id.0,
            reason: earlier.case.reason,
            status: earlier.case.status,
            opened_at: to_utc(earlier.case.opened_at),
            decided_at: earlier.case.decided_at.map(to_utc),
            decision: earlier.decision,
        })
    }
}

/// The accused's record before this case.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryView {
    /// Their other cases, newest first.
    pub earlier_cases: Vec<EarlierCaseView>,
    /// Every sanction they received, newest first.
    pub sanctions: Vec<SanctionRecordView>,
}

/// One game the pair played together.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairGameView {
    pub game_id: i64,
    pub site_game_id: String,
    pub played_at: DateTime<Utc>,
    pub variant: String,
    pub termination: Termination,
    pub accused: Option<SeatView>,
    pub partner: Option<SeatView>,
}

/// A fingerprint seen on both players' seats.
#[derive(Debug, Serialize, ToSchema)]
pub struct SharedFingerprintView {
    pub kind: FingerprintKind,
    pub value: String,
    pub accused_games: i64,
    pub partner_games: i64,
}

/// The accused and one partner named with them, from the archive.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairView {
    pub partner: String,
    pub games_together: i64,
    pub first_played: Option<DateTime<Utc>>,
    pub last_played: Option<DateTime<Utc>>,
    /// The latest 20 of those games, newest first.
    pub recent_games: Vec<PairGameView>,
    pub shared_fingerprints: Vec<SharedFingerprintView>,
}

impl PairView {
    fn from_history(pair: PairHistory, accused: &str) -> Result<PairView, ApiError> {
        let seat_of = |seats: &[SeatRow], name: &str| {
            seats
                .iter()
                .find(|s| s.player == name)
                .map(SeatView::from_row)
                .transpose()
        };
        let recent_games = pair
            .recent
            .iter()
            .map(|(game, seats): &(GameRow, Vec<SeatRow>)| {
                Ok(PairGameView {
                    game_id: game.id,
                    site_game_id: game.site_game_id.clone(),
                    played_at: to_utc(game.played_at),
                    variant: game.variant.clone(),
                    termination: stored("termination", &game.termination)?,
                    accused: seat_of(seats, accused)?,
                    partner: seat_of(seats, &pair.partner)?,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        let shared_fingerprints = pair
            .shared_fingerprints
            .into_iter()
            .map(|f| {
                Ok(SharedFingerprintView {
                    kind: stored("fingerprint kind", f.kind)?,
                    value: f.value,
                    accused_games: f.accused_games,
                    partner_games: f.partner_games,
                })
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(PairView {
            games_together: pair.games_together,
            first_played: pair.first_played.map(to_utc),
            last_played: pair.last_played.map(to_utc),
            recent_games,
            shared_fingerprints,
            partner: pair.partner,
        })
    }
}

/// A case with its evidence.
#[derive(Debug, Serialize, ToSchema)]
pub struct CaseDetailView {
    pub case: CaseListItem,
    /// Each report, oldest first.
    pub entries: Vec<EntryView>,
    /// Every game the entries cite, newest first.
    pub games: Vec<GameSummary>,
    /// Flagged lines of the accused (and anyone named with them) in those games.
    pub flagged_lines: Vec<FlaggedLineView>,
    pub history: HistoryView,
    /// Self-partnering and prearranged teaming: the accused with each player named alongside.
    pub pairs: Vec<PairView>,
    /// The accused's conduct record in the admin view (as `GET /api/v1/players/{name}/conduct`
    /// answers an admin: totals, recent outcomes with game ids, windows, signals with their
    /// supporting games); null when no game of theirs is recorded.
    #[schema(value_type = Option<Object>)]
    pub conduct: Option<AdminConductView>,
    /// Admins' notes on the accused, newest first (the latest 50; all of them at
    /// `GET /api/v1/admin/players/{name}/notes`).
    pub notes: Vec<NoteView>,
    /// What the case owes the victims of teaming, self-partnering or (Teams) sandbagging once
    /// upheld; empty otherwise.
    pub refunds: RefundsView,
}

impl CaseDetailView {
    pub(crate) fn from_evidence(
        evidence: CaseEvidence,
        conduct: Option<AdminConductView>,
        notes: Vec<NoteListing>,
        now: NaiveDateTime,
        policy: &ModerationPolicy,
    ) -> Result<Self, ApiError> {
        let reporters = evidence
            .entries
            .iter()
            .filter_map(|e| e.report.reporter_id)
            .collect::<std::collections::BTreeSet<_>>()
            .len() as i64;
        let accused = evidence.accused.clone();
        Ok(CaseDetailView {
            case: CaseListItem::new(
                evidence.case,
                evidence.accused,
                evidence.claimed_by,
                reporters,
                now,
                policy,
            )?,
            entries: evidence
                .entries
                .into_iter()
                .map(|e| EntryView::from_evidence(e, policy))
                .collect::<Result<_, _>>()?,
            games: evidence
                .games
                .into_iter()
                .map(|(game, seats)| GameSummary::from_rows(game, &seats))
                .collect::<Result<_, _>>()?,
            flagged_lines: evidence
                .flagged_lines
                .into_iter()
                .map(FlaggedLineView::from_evidence)
                .collect::<Result<_, _>>()?,
            history: HistoryView {
                earlier_cases: evidence
                    .earlier_cases
                    .into_iter()
                    .map(EarlierCaseView::from_evidence)
                    .collect::<Result<_, _>>()?,
                sanctions: evidence
                    .sanctions
                    .into_iter()
                    .map(SanctionRecordView::from_row)
                    .collect::<Result<_, _>>()?,
            },
            pairs: evidence
                .pairs
                .into_iter()
                .map(|p| PairView::from_history(p, &accused))
                .collect::<Result<_, _>>()?,
            conduct,
            notes: notes.into_iter().map(NoteView::from).collect(),
            refunds: RefundsView::default(),
        })
    }
}
