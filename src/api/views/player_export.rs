//! A player's export (everything held about them) and the answer to an erasure.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::{AppealStatus, CaseStatus};
use crate::api::views::conduct::ConductRecordView;
use crate::api::views::games::SeatView;
use crate::api::views::refunds::RefundLineView;
use crate::api::views::warnings::WarningView;
use crate::api::wire_enums::stored;
use crate::archive::ChatChannel;
use crate::moderation::{Ground, ReportOutcome, ReportReason, ReportSource, SanctionKind};
use crate::store::player_export::{
    ExportAppeal, ExportCase, ExportChatLine, ExportGame, ExportNote, ExportReport, ExportSanction,
};
use crate::store::to_utc;

/// Who an export was made for: an admin sees everything; the player sees everything except
/// who reported them and the admins' notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportScope {
    Admin,
    #[serde(rename = "self")]
    Own,
}

/// Everything the service holds about one player, as one JSON document. The answer is
/// streamed: games and chat lines are read a page at a time.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerExport {
    pub player: String,
    pub scope: ExportScope,
    pub exported_at: DateTime<Utc>,
    /// Every game the player sat in, oldest first, with their seat and result.
    pub games: Vec<ExportGameView>,
    /// The player's own chat lines still held (retention purges old ones).
    pub chat_lines: Vec<ExportChatLineView>,
    pub reports_filed: Vec<ExportReportView>,
    /// Reports naming the player; in the player's own export without the reporter, the
    /// reporter's message or the other accused.
    pub reports_received: Vec<ExportReportView>,
    pub cases: Vec<ExportCaseView>,
    pub sanctions: Vec<ExportSanctionView>,
    pub appeals: Vec<ExportAppealView>,
    /// Warnings the player was given, with their text and acknowledgement.
    pub warnings: Vec<WarningView>,
    /// Rating refunds owed to the player as a victim of teaming or self-partnering.
    pub refunds_owed: Vec<RefundLineView>,
    /// Admins' notes on the player; absent from the player's own export.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<ExportNoteView>>,
    /// The conduct record in the caller's view (`GET /players/{name}/conduct`); null when
    /// no game of the player is recorded.
    #[schema(value_type = Option<Object>)]
    pub conduct: Option<ConductRecordView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportGameView {
    pub game_id: i64,
    /// The site's game number.
    pub number: String,
    pub variant: String,
    pub played_at: DateTime<Utc>,
    pub aborted: bool,
    /// The player's seat: colour, ratings, points, placement, fingerprints still held.
    pub player_seat: SeatView,
}

impl ExportGameView {
    pub fn from_row(row: &ExportGame) -> Result<ExportGameView, ApiError> {
        Ok(ExportGameView {
            game_id: row.game_id,
            number: row.number.clone(),
            variant: row.variant.clone(),
            played_at: to_utc(row.played_at),
            aborted: row.aborted,
            player_seat: SeatView::from_row(&row.seat)?,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportChatLineView {
    pub game_id: i64,
    /// The line's index in the game's chat.
    pub index: i32,
    pub ply: i32,
    pub sent_at: Option<DateTime<Utc>>,
    pub channel: ChatChannel,
    pub text: String,
}

impl ExportChatLineView {
    pub fn from_row(line: ExportChatLine) -> Result<ExportChatLineView, ApiError> {
        Ok(ExportChatLineView {
            game_id: line.game_id,
            index: line.idx,
            ply: line.ply,
            sent_at: line.sent_at.map(to_utc),
            channel: stored("chat channel", &line.channel)?,
            text: line.text,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportReportView {
    pub id: i64,
    pub source: ReportSource,
    pub reason: ReportReason,
    /// The reporter's words; null in the accused's own export.
    pub message: Option<String>,
    /// The archived game's id.
    pub game_id: Option<i64>,
    pub filed_at: DateTime<Utc>,
    pub outcome: Option<ReportOutcome>,
    pub decided_at: Option<DateTime<Utc>>,
    /// Who filed it: only in an admin's export, and null for the service's own reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reporter: Option<String>,
    /// The players the report names; in the accused's own export, only themselves.
    pub accused: Vec<String>,
}

impl ExportReportView {
    /// A report the player filed: all of it is theirs to see.
    pub fn filed(report: ExportReport, scope: ExportScope) -> Result<ExportReportView, ApiError> {
        let reporter = match scope {
            ExportScope::Admin => report.reporter.clone(),
            ExportScope::Own => None,
        };
        ExportReportView::from_row(report, reporter)
    }

    /// A report naming the player. Their own export leaves out what the API hides from the
    /// accused everywhere else: who filed it, the reporter's message and the other accused
    /// (as `GET /players/{name}/standing` and the case views do).
    pub fn received(
        report: ExportReport,
        scope: ExportScope,
        player: &str,
    ) -> Result<ExportReportView, ApiError> {
        match scope {
            ExportScope::Admin => {
                let reporter = report.reporter.clone();
                ExportReportView::from_row(report, reporter)
            }
            ExportScope::Own => {
                let mut view = ExportReportView::from_row(report, None)?;
                view.message = None;
                view.accused.retain(|name| name == player);
                Ok(view)
            }
        }
    }

    fn from_row(
        report: ExportReport,
        reporter: Option<String>,
    ) -> Result<ExportReportView, ApiError> {
        Ok(ExportReportView {
            id: report.id,
            source: stored("report source", &report.source)?,
            reason: stored("report reason", &report.reason)?,
            message: report.message,
            game_id: report.game_id,
            filed_at: to_utc(report.filed_at),
            outcome: report
                .outcome
                .as_deref()
                .map(|o| stored("report outcome", o))
                .transpose()?,
            decided_at: report.decided_at.map(to_utc),
            reporter,
            accused: report.accused,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportCaseView {
    pub id: i64,
    pub reason: ReportReason,
    pub status: CaseStatus,
    pub opened_at: DateTime<Utc>,
    pub decided_at: Option<DateTime<Utc>>,
}

impl ExportCaseView {
    pub fn from_row(c: ExportCase) -> Result<ExportCaseView, ApiError> {
        Ok(ExportCaseView {
            id: c.id,
            reason: stored("case reason", &c.reason)?,
            status: stored("case status", &c.status)?,
            opened_at: to_utc(c.opened_at),
            decided_at: c.decided_at.map(to_utc),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportSanctionView {
    pub id: i64,
    pub case_id: Option<i64>,
    pub kind: SanctionKind,
    pub reason: ReportReason,
    pub ground: Ground,
    pub starts_at: DateTime<Utc>,
    /// Null for a permanent sanction.
    pub ends_at: Option<DateTime<Utc>>,
    pub lifted_at: Option<DateTime<Utc>>,
    pub reduced_until: Option<DateTime<Utc>>,
    /// The reason shown to the player.
    pub note: String,
}

impl ExportSanctionView {
    pub fn from_row(s: ExportSanction) -> Result<ExportSanctionView, ApiError> {
        Ok(ExportSanctionView {
            id: s.id,
            case_id: s.case_id,
            kind: stored("sanction kind", &s.kind)?,
            reason: stored("sanction reason", &s.reason)?,
            ground: stored("sanction ground", &s.ground)?,
            starts_at: to_utc(s.starts_at),
            ends_at: s.ends_at.map(to_utc),
            lifted_at: s.lifted_at.map(to_utc),
            reduced_until: s.reduced_until.map(to_utc),
            note: s.note,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportAppealView {
    pub id: i64,
    pub sanction_id: i64,
    pub text: String,
    pub filed_at: DateTime<Utc>,
    pub status: AppealStatus,
    pub decided_at: Option<DateTime<Utc>>,
    pub note: Option<String>,
}

impl ExportAppealView {
    pub fn from_row(a: ExportAppeal) -> Result<ExportAppealView, ApiError> {
        Ok(ExportAppealView {
            id: a.id,
            sanction_id: a.sanction_id,
            text: a.text,
            filed_at: to_utc(a.filed_at),
            status: stored("appeal status", &a.status)?,
            decided_at: a.decided_at.map(to_utc),
            note: a.note,
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExportNoteView {
    pub id: i64,
    pub author: String,
    pub case_id: Option<i64>,
    pub text: String,
    pub created_at: DateTime<Utc>,
}

impl From<ExportNote> for ExportNoteView {
    fn from(n: ExportNote) -> Self {
        ExportNoteView {
            id: n.id,
            author: n.author,
            case_id: n.case_id,
            text: n.text,
            created_at: to_utc(n.created_at),
        }
    }
}

/// An erasure request: the admin types the name again and says why.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ErasureBody {
    /// The name being erased, typed again.
    pub confirm: String,
    /// Why (the request's reference); kept in the moderation log with the name replaced.
    pub why: String,
}

/// What an erasure did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErasureView {
    /// The name the player is known by from now on.
    pub pseudonym: String,
    pub games: u64,
    pub chat_lines_deleted: u64,
    /// Rows of free text, PGN4 tags or stored seats that named the player.
    pub texts_rewritten: u64,
}
