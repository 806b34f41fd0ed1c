//! The rows an archived game stores, derived from its replay: the game, its seats (points,
//! placements, eliminations), its chat and events.

use chrono::{DateTime, NaiveDateTime, SubsecRound, Utc};

use super::submission::{ChatChannel, EventInput, EventKind, SeatColour, SeatInput};
use crate::conduct::abort::Abort;
use crate::rules::game::{EliminationCause, GameEnd};
use crate::rules::points_taken;
use crate::rules::replay::{Replay, TagResult};
use crate::rules::ruleset::Scoring;

/// The `games` row, without id.
#[derive(Debug, Clone, PartialEq)]
pub struct GameFacts {
    pub site_game_id: String,
    pub content_hash: String,
    pub variant: String,
    pub rule_variants: String,
    pub time_control: String,
    pub start_setup: String,
    /// Normalised: checkmate, stalemate, resignation, timeout, forfeit, claim, king_captured,
    /// draw, unfinished.
    pub termination: String,
    /// The `Termination` tag as written.
    pub termination_text: String,
    pub result_tag: String,
    pub started_at: Option<NaiveDateTime>,
    pub ended_at: Option<NaiveDateTime>,
    /// `ended_at`, else `started_at`, else the `Date` tag: the date the archive filters on.
    pub played_at: Option<NaiveDateTime>,
    pub plies: i32,
    pub abort: Option<Abort>,
    pub pgn4: String,
}

/// One `game_seats` row, without the game id.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatFacts {
    pub seat: SeatColour,
    pub player: String,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    pub device_fp: Option<String>,
    pub network_fp: Option<String>,
    pub points: i32,
    /// Teams: `win`, `loss` or `draw`; FFA: none.
    pub team_result: Option<&'static str>,
    pub placement: i16,
    pub elimination_ply: Option<i32>,
    /// mated, stalemated, resigned, timed_out, forfeit, claimed, king_captured.
    pub elimination_cause: Option<&'static str>,
    pub moves_made: i32,
    /// Points this seat took from each seat (red, blue, yellow, green).
    pub points_from: [i32; 4],
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChatRow {
    pub ply: i32,
    pub sent_at: Option<NaiveDateTime>,
    pub sender: String,
    pub channel: ChatChannel,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EventFacts {
    pub kind: EventKind,
    pub seat: SeatColour,
    pub ply: i32,
    pub at: Option<NaiveDateTime>,
}

pub(super) fn to_i32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

pub(super) fn stored(at: DateTime<Utc>) -> NaiveDateTime {
    at.naive_utc().trunc_subsecs(6)
}

/// `Sun Jun 07 2026 18:43:23 GMT+0000 (Coordinated Universal Time)`.
pub(super) fn date_tag(text: &str) -> Option<NaiveDateTime> {
    let head: String = text.trim().chars().take(24).collect();
    NaiveDateTime::parse_from_str(&head, "%a %b %d %Y %H:%M:%S").ok()
}
/// The first elimination of each seat: (ply, cause). A timeout after a disconnect without a
/// later reconnect is a forfeit, as is a timeout the server reports as `forfeit`.
pub(super) fn elimination_causes(
    replay: &Replay,
    events: &[EventInput],
) -> [Option<(usize, &'static str)>; 4] {
    let mut out = [None; 4];
    for e in replay.eliminations() {
        let slot = &mut out[e.seat.index()];
        if slot.is_some() {
            continue;
        }
        let cause = match e.cause {
            EliminationCause::Mated => "mated",
            EliminationCause::Stalemated => "stalemated",
            EliminationCause::Resigned => "resigned",
            EliminationCause::TimedOut => {
                if forfeited(events, SeatColour::from_seat(e.seat), e.ply) {
                    "forfeit"
                } else {
                    "timed_out"
                }
            }
            EliminationCause::KingCaptured => "king_captured",
            EliminationCause::Claimed => "claimed",
        };
        *slot = Some((e.ply, cause));
    }
    out
}

pub(super) fn forfeited(events: &[EventInput], seat: SeatColour, ply: usize) -> bool {
    let mut disconnected = false;
    for e in events.iter().filter(|e| e.seat == seat) {
        if usize::try_from(e.ply).map_or(true, |p| p > ply + 1) {
            break;
        }
        match e.kind {
            EventKind::Disconnect => disconnected = true,
            EventKind::Reconnect => disconnected = false,
            EventKind::Forfeit => return true,
            _ => {}
        }
    }
    disconnected
}

pub(super) fn termination_kind(
    replay: &Replay,
    causes: &[Option<(usize, &'static str)>; 4],
) -> String {
    let last = causes
        .iter()
        .flatten()
        .max_by_key(|(ply, _)| *ply)
        .map(|(_, cause)| *cause);
    let from_cause = |cause: &str| match cause {
        "mated" => "checkmate",
        "stalemated" => "stalemate",
        "resigned" => "resignation",
        "timed_out" => "timeout",
        "forfeit" => "forfeit",
        "claimed" => "claim",
        _ => "king_captured",
    };
    match replay.game.end() {
        Some(GameEnd::Draw(_)) => "draw".to_string(),
        Some(_) => last.map_or("unfinished", from_cause).to_string(),
        None => "unfinished".to_string(),
    }
}

pub(super) fn seat_facts(
    replay: &Replay,
    seats: Vec<SeatInput>,
    causes: &[Option<(usize, &'static str)>; 4],
) -> Vec<SeatFacts> {
    let plies = replay.plies.len();
    let points = replay.points_at(plies).unwrap_or([0; 4]);
    let moves = replay.moves_made_at(plies).unwrap_or([0; 4]);
    let taken = points_taken(replay);
    let teams = replay.rules.scoring == Scoring::Teams;
    let team_winner = replay.standing.team_winner.or(match &replay.tag_result {
        Some(TagResult::Teams(w)) if replay.game.end().is_none() => *w,
        _ => None,
    });
    let drawn = matches!(replay.game.end(), Some(GameEnd::Draw(_)))
        || matches!(&replay.tag_result, Some(TagResult::Teams(None)));
    seats
        .into_iter()
        .map(|s| {
            let i = s.seat.index() as usize;
            let team_result = if !teams {
                None
            } else if let Some(w) = team_winner {
                Some(if i % 2 == w.index() % 2 {
                    "win"
                } else {
                    "loss"
                })
            } else if drawn {
                Some("draw")
            } else {
                None
            };
            SeatFacts {
                seat: s.seat,
                player: s.player,
                rating_before: s.rating_before,
                rating_after: s.rating_after,
                device_fp: s.device_fp,
                network_fp: s.network_fp,
                points: points[i],
                team_result,
                placement: i16::from(replay.standing.placement[i]),
                elimination_ply: causes[i].map(|(p, _)| i32::try_from(p).unwrap_or(i32::MAX)),
                elimination_cause: causes[i].map(|(_, c)| c),
                moves_made: i32::try_from(moves[i]).unwrap_or(i32::MAX),
                points_from: taken[i],
            }
        })
        .collect()
}

/// `taken[a][b]`: points seat `a` scored by capturing seat `b`'s live pieces (a walking king
/// counts as the king's value) and by mating `b`. Zero in games without points.
pub fn points_taken(replay: &Replay) -> [[i32; 4]; 4] {
    if replay.rules.scoring == Scoring::Teams {
        return [[0; 4]; 4];
    }
    points_taken::points_taken(replay)
}
