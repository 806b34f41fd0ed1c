//! Archive responses: the ingest result, game summaries with their seats, and a game in full.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::error::ApiError;
use crate::api::statuses::{ArchivedEliminationCause, TeamResult, Termination};
use crate::api::wire_enums::stored;
use crate::archive::{ChatChannel, EventKind, SeatColour};
use crate::conduct::abort::AbortReason;
use crate::rules::game::EliminationCause;
use crate::rules::replay;
use crate::store::games::{GameDetail, GameRow, SeatRow};
use crate::store::to_utc;

/// `created`, or `duplicate` when this content was already stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IngestStatus {
    Created,
    Duplicate,
}

/// The answer to an ingest.
#[derive(Debug, Serialize, ToSchema)]
pub struct IngestResult {
    pub id: i64,
    pub site_game_id: String,
    pub status: IngestStatus,
}

/// Points one seat took from each seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct PointsFrom {
    pub red: i32,
    pub blue: i32,
    pub yellow: i32,
    pub green: i32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    pub seat: SeatColour,
    pub player: String,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    pub device_fp: Option<String>,
    pub network_fp: Option<String>,
    /// FFA points at the end (0 in Teams).
    pub points: i32,
    /// Teams only.
    pub team_result: Option<TeamResult>,
    pub placement: i16,
    pub elimination_ply: Option<i32>,
    pub elimination_cause: Option<ArchivedEliminationCause>,
    pub moves_made: i32,
    pub points_from: PointsFrom,
}

impl SeatView {
    pub fn from_row(row: &SeatRow) -> Result<SeatView, ApiError> {
        let seat = SeatColour::from_index(row.seat)
            .ok_or_else(|| ApiError::internal(format!("seat {} stored", row.seat)))?;
        Ok(SeatView {
            seat,
            player: row.player.clone(),
            rating_before: row.rating_before,
            rating_after: row.rating_after,
            device_fp: row.device_fp.clone(),
            network_fp: row.network_fp.clone(),
            points: row.points,
            team_result: row
                .team_result
                .as_deref()
                .map(|r| stored("team result", r))
                .transpose()?,
            placement: row.placement,
            elimination_ply: row.elimination_ply,
            elimination_cause: row
                .elimination_cause
                .as_deref()
                .map(|c| stored("elimination cause", c))
                .transpose()?,
            moves_made: row.moves_made,
            points_from: PointsFrom {
                red: row.points_from_red,
                blue: row.points_from_blue,
                yellow: row.points_from_yellow,
                green: row.points_from_green,
            },
        })
    }
}

/// Who aborted the game, when, and under which rule.
#[derive(Debug, Serialize, ToSchema)]
pub struct AbortView {
    pub seat: Option<SeatColour>,
    pub ply: Option<i32>,
    pub reason: Option<AbortReason>,
}

/// A game as listed.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: i64,
    pub site_game_id: String,
    pub variant: String,
    pub rule_variants: String,
    pub time_control: String,
    pub start_setup: String,
    pub termination: Termination,
    /// The `Termination` tag as written.
    pub termination_text: String,
    pub result: String,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub played_at: DateTime<Utc>,
    pub plies: i32,
    pub aborted: Option<AbortView>,
    pub seats: Vec<SeatView>,
    pub created_at: DateTime<Utc>,
}

impl GameSummary {
    pub fn from_rows(game: GameRow, seats: &[SeatRow]) -> Result<GameSummary, ApiError> {
        Ok(GameSummary {
            id: game.id,
            site_game_id: game.site_game_id,
            variant: game.variant,
            rule_variants: game.rule_variants,
            time_control: game.time_control,
            start_setup: game.start_setup,
            termination: stored("termination", &game.termination)?,
            termination_text: game.termination_text,
            result: game.result_tag,
            started_at: game.started_at.map(to_utc),
            ended_at: game.ended_at.map(to_utc),
            played_at: to_utc(game.played_at),
            plies: game.plies,
            aborted: if game.aborted {
                Some(AbortView {
                    seat: game.aborted_seat.and_then(SeatColour::from_index),
                    ply: game.aborted_ply,
                    reason: game
                        .aborted_reason
                        .as_deref()
                        .map(|r| stored("abort reason", r))
                        .transpose()?,
                })
            } else {
                None
            },
            seats: seats
                .iter()
                .map(SeatView::from_row)
                .collect::<Result<_, _>>()?,
            created_at: to_utc(game.created_at),
        })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TagView {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EliminationView {
    pub seat: SeatColour,
    pub cause: ArchivedEliminationCause,
}

/// One ply of the replayed game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlyView {
    /// 0-based.
    pub ply: usize,
    pub round: u32,
    pub seat: SeatColour,
    /// As written in the PGN4.
    #[serde(rename = "move")]
    pub move_text: String,
    /// The captured piece, e.g. `yQ`.
    pub captured: Option<String>,
    pub checks: Vec<SeatColour>,
    /// Points of red, blue, yellow, green after the ply.
    pub points_after: [i32; 4],
    pub eliminations: Vec<EliminationView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatView {
    pub ply: i32,
    pub at: Option<DateTime<Utc>>,
    pub sender: String,
    pub channel: ChatChannel,
    pub text: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventView {
    pub kind: EventKind,
    pub seat: SeatColour,
    pub ply: i32,
    pub at: Option<DateTime<Utc>>,
}

/// A stored game in full.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameView {
    #[serde(flatten)]
    pub summary: GameSummary,
    pub tags: Vec<TagView>,
    pub timeline: Vec<PlyView>,
    /// In ply order.
    pub chat: Vec<ChatView>,
    pub events: Vec<EventView>,
}

impl GameView {
    pub(crate) fn from_detail(detail: GameDetail) -> Result<GameView, ApiError> {
        let replay = replay::replay(&detail.pgn4).map_err(|e| {
            ApiError::internal(format!(
                "stored game {} does not replay: {e}",
                detail.game.id
            ))
        })?;
        let timeline = replay
            .plies
            .iter()
            .map(|p| PlyView {
                ply: p.index,
                round: p.round,
                seat: SeatColour::from_seat(p.mover),
                move_text: replay.ply_text(p.index).unwrap_or("").to_string(),
                captured: p.captured.map(|c| {
                    format!(
                        "{}{}",
                        c.seat.letter().to_ascii_lowercase(),
                        c.kind.letter()
                    )
                }),
                checks: p.checks.iter().map(|&s| SeatColour::from_seat(s)).collect(),
                points_after: p.points_after,
                eliminations: p
                    .eliminations
                    .iter()
                    .map(|e| EliminationView {
                        seat: SeatColour::from_seat(e.seat),
                        cause: elimination_cause(e.cause),
                    })
                    .collect(),
            })
            .collect();
        let tags = replay
            .pgn
            .tags
            .iter()
            .map(|t| TagView {
                name: t.name.clone(),
                value: t.value.clone(),
            })
            .collect();
        let chat = detail
            .chat
            .into_iter()
            .map(|c| {
                Ok(ChatView {
                    ply: c.ply,
                    at: c.sent_at.map(to_utc),
                    channel: ChatChannel::parse(&c.channel)
                        .ok_or_else(|| ApiError::internal(format!("channel {:?}", c.channel)))?,
                    sender: c.sender,
                    text: c.text,
                })
            })
            .collect::<Result<_, ApiError>>()?;
        let events = detail
            .events
            .into_iter()
            .map(|e| {
                Ok(EventView {
                    kind: EventKind::parse(&e.kind)
                        .ok_or_else(|| ApiError::internal(format!("event {:?}", e.kind)))?,
                    seat: SeatColour::from_index(e.seat)
                        .ok_or_else(|| ApiError::internal(format!("seat {}", e.seat)))?,
                    ply: e.ply,
                    at: e.at.map(to_utc),
                })
            })
            .collect::<Result<_, ApiError>>()?;
        Ok(GameView {
            summary: GameSummary::from_rows(detail.game, &detail.seats)?,
            tags,
            timeline,
            chat,
            events,
        })
    }
}

/// The timeline's causes, as the seats' `elimination_cause` writes them. The replay cannot
/// tell a forfeit from a timeout (the events can), so `forfeit` appears on seats only.
fn elimination_cause(cause: EliminationCause) -> ArchivedEliminationCause {
    match cause {
        EliminationCause::Mated => ArchivedEliminationCause::Mated,
        EliminationCause::Stalemated => ArchivedEliminationCause::Stalemated,
        EliminationCause::Resigned => ArchivedEliminationCause::Resigned,
        EliminationCause::TimedOut => ArchivedEliminationCause::TimedOut,
        EliminationCause::KingCaptured => ArchivedEliminationCause::KingCaptured,
        EliminationCause::Claimed => ArchivedEliminationCause::Claimed,
    }
}
