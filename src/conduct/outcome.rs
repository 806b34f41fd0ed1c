//! The outcome of each seat of a finished game: completed, aborted, resigned, timed out,
//! forfeited after a disconnect, or claimed win, with qualifiers read from the replayed
//! position at the moment the player left.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::facts::{ConductFacts, GameEvent, GameEventKind, SeatColor};
use super::policy::ConductPolicy;
use crate::conduct::abort::{classify_with_leaves, AbortContext, AbortPreset, Leave};
use crate::moderation::{GameNumber, PlayerId, Variant};
use crate::rules::game::EliminationCause;
use crate::rules::position::{MoveList, Position, SeatStatus};
use crate::rules::replay::Replay;
use crate::rules::ruleset::Scoring;

/// What became of one seat in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// Played until the game ended for them (won, lost, mated, stalemated, drawn, claimed
    /// against).
    Completed,
    /// The game was aborted (by this seat or another; see [`SeatOutcome::caused_abort`]).
    Aborted,
    Resigned,
    TimedOut,
    /// Disconnected and did not reconnect before the clock ran out (60 s, then forfeit on
    /// time: docs/rules.md, "Disconnects").
    Forfeited,
    /// Claimed the win (or had it auto-claimed).
    ClaimedWin,
}

impl OutcomeKind {
    pub const ALL: [OutcomeKind; 6] = [
        OutcomeKind::Completed,
        OutcomeKind::Aborted,
        OutcomeKind::Resigned,
        OutcomeKind::TimedOut,
        OutcomeKind::Forfeited,
        OutcomeKind::ClaimedWin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            OutcomeKind::Completed => "completed",
            OutcomeKind::Aborted => "aborted",
            OutcomeKind::Resigned => "resigned",
            OutcomeKind::TimedOut => "timed out",
            OutcomeKind::Forfeited => "forfeited after disconnect",
            OutcomeKind::ClaimedWin => "claimed win",
        }
    }
}

/// How a player left before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DepartureKind {
    Resigned,
    TimedOut,
    /// Timed out while disconnected (no reconnect after the last disconnect), or forfeited by
    /// the server.
    Forfeited,
}

/// The position as it stood for the leaver, the numbers behind "lost position".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "scoring")]
pub enum PositionAssessment {
    /// Points games: points of every seat, the most the leaver could still add (share of the
    /// live material and mate bonuses of the players still in), and the points of the next
    /// player above the leaver (none when the leaver leads).
    Points {
        points: [i32; 4],
        reachable: i32,
        next_above: Option<i32>,
    },
    /// Teams: live material (P 1, N 3, B 5, R 5, Q 9) of the leaver's team and of the
    /// opponents, and the leaver's legal king moves.
    Teams {
        team_material: i32,
        opponent_material: i32,
        king_moves: u32,
    },
    /// A scoring this module does not judge: never called lost.
    NotAssessed,
}

/// A departure before the end, with its qualifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Departure {
    pub kind: DepartureKind,
    /// Plies played when the player left.
    pub ply: usize,
    /// Moves the leaver had made.
    pub moves_made: u32,
    /// Fewer than `qualifiers.early_moves` moves.
    pub early: bool,
    pub in_check: bool,
    pub lost_position: bool,
    /// Teams: the partner was still in the game. `None` outside Teams.
    pub partner_still_playing: Option<bool>,
    pub assessment: PositionAssessment,
}

/// One seat's outcome of one game: the unit stored per seat and fed to [`PlayerRecord`].
///
/// [`PlayerRecord`]: super::record::PlayerRecord
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatOutcome {
    pub game: GameNumber,
    pub player: PlayerId,
    pub seat: SeatColor,
    pub variant: Variant,
    pub ended_at: DateTime<Utc>,
    pub kind: OutcomeKind,
    /// This seat's departure aborted the game (the leaver loses rating: docs/rules.md,
    /// "Aborted games").
    pub caused_abort: bool,
    pub departure: Option<Departure>,
    pub disconnects: u32,
    /// Disconnects followed by a reconnect.
    pub reconnects: u32,
    pub rating_change: Option<i32>,
}

impl SeatOutcome {
    /// The player's connection dropped and the game was forfeited for it.
    pub fn forfeited_after_disconnect(&self) -> bool {
        self.departure
            .as_ref()
            .is_some_and(|d| d.kind == DepartureKind::Forfeited)
    }

    pub fn departed_in_lost_position(&self) -> bool {
        self.departure.as_ref().is_some_and(|d| d.lost_position)
    }

    pub fn early_departure(&self) -> bool {
        self.departure.as_ref().is_some_and(|d| d.early)
    }

    /// Teams: resigned early, while the partner still played, in a position that was not lost
    /// (spoiling others' games by resigning early is report-worthy, resigning a losing
    /// position is not: docs/moderation.md, "Report reasons").
    pub fn teams_early_resignation(&self) -> bool {
        self.variant == Variant::Teams
            && self.departure.as_ref().is_some_and(|d| {
                d.kind == DepartureKind::Resigned
                    && d.early
                    && !d.lost_position
                    && d.partner_still_playing == Some(true)
            })
    }

    /// Rating the player lost in this game through an abort they caused or an early departure.
    pub fn rating_lost_leaving_early(&self) -> i64 {
        match self.rating_change {
            Some(change) if change < 0 && (self.caused_abort || self.early_departure()) => {
                -(change as i64)
            }
            _ => 0,
        }
    }
}

/// A departure found in the events or the record, before qualifiers.
#[derive(Debug, Clone, Copy)]
struct RawDeparture {
    seat: SeatColor,
    kind: DepartureKind,
    ply: usize,
}

/// Connection history of one seat.
#[derive(Debug, Clone, Copy, Default)]
struct Connection {
    disconnects: u32,
    reconnects: u32,
    /// Disconnected at the end of the event list (no reconnect after the last disconnect).
    still_disconnected: bool,
}

/// What the events and the record say of each seat before the abort rule is applied.
#[derive(Debug, Clone, Copy, Default)]
struct SeatHistories {
    connection: [Connection; 4],
    /// Each seat's first departure.
    departure: [Option<RawDeparture>; 4],
    /// The seat claimed the win (or had it auto-claimed).
    claimed: [bool; 4],
}

/// Outcomes of the four seats (Red, Blue, Yellow, Green) of a replayed game. Whether the game
/// was aborted is the archive's rule ([`classify_with_leaves`] under `abort_rule`), so the
/// conduct outcomes and `games.aborted` always agree.
pub fn outcomes(
    replay: &Replay,
    facts: &ConductFacts,
    policy: &ConductPolicy,
    abort_rule: AbortPreset,
) -> [SeatOutcome; 4] {
    let last_ply = replay.plies.len();
    let mut histories = read_events(&facts.events, last_ply);
    add_recorded_departures(replay, last_ply, &mut histories);
    add_recorded_claim(replay, last_ply, &mut histories.claimed);
    // Every departure the events report, whether or not it was the seat's first: the abort
    // rule judges the game's first departure, exactly as the archive does.
    let leaves = leaves(&facts.events, last_ply);
    let context = AbortContext {
        time_control: facts.time_control,
        custom_start: facts.custom_start,
        preset: abort_rule,
    };
    let abort = classify_with_leaves(replay, &context, &leaves);
    let aborted_by = abort.map(|a| SeatColor::from_seat(a.seat));
    let abort_ply = abort.map(|a| a.ply);
    SeatColor::ALL.map(|seat| {
        let s = seat.index();
        // Departures after an abort never happened as far as the game is concerned.
        let raw = histories.departure[s]
            .filter(|d| abort_ply.is_none_or(|p| d.ply < p || aborted_by == Some(seat)));
        let kind = outcome_kind(aborted_by.is_some(), raw, histories.claimed[s]);
        let facts_of_seat = &facts.seats[s];
        let rating_change = match (facts_of_seat.rating_before, facts_of_seat.rating_after) {
            (Some(before), Some(after)) => Some(after.saturating_sub(before)),
            _ => None,
        };
        SeatOutcome {
            game: facts.game,
            player: facts_of_seat.player,
            seat,
            variant: facts.variant,
            ended_at: facts.ended_at,
            kind,
            caused_abort: aborted_by == Some(seat),
            departure: raw.map(|d| qualify(replay, policy, &d)),
            disconnects: histories.connection[s].disconnects,
            reconnects: histories.connection[s].reconnects,
            rating_change,
        }
    })
}

/// Connections, first departures and claims from the events, in time order (a seat's
/// events after its departure are ignored).
fn read_events(events: &[GameEvent], last_ply: usize) -> SeatHistories {
    let mut events: Vec<_> = events.iter().collect();
    events.sort_by_key(|e| (e.at, e.ply));
    let mut histories = SeatHistories::default();
    for e in &events {
        let s = e.seat.index();
        if histories.departure[s].is_some() {
            continue;
        }
        let c = &mut histories.connection[s];
        let kind = match e.kind {
            GameEventKind::Disconnect => {
                c.disconnects += 1;
                c.still_disconnected = true;
                None
            }
            GameEventKind::Reconnect => {
                if c.still_disconnected {
                    c.reconnects += 1;
                    c.still_disconnected = false;
                }
                None
            }
            GameEventKind::ClaimWin => {
                histories.claimed[s] = true;
                None
            }
            GameEventKind::Resign => Some(DepartureKind::Resigned),
            GameEventKind::Forfeit => Some(DepartureKind::Forfeited),
            // A disconnected player who does not come back forfeits on time (docs/rules.md,
            // "Disconnects").
            GameEventKind::Timeout if c.still_disconnected => Some(DepartureKind::Forfeited),
            GameEventKind::Timeout => Some(DepartureKind::TimedOut),
        };
        if let Some(kind) = kind {
            histories.departure[s] = Some(RawDeparture {
                seat: e.seat,
                kind,
                ply: e.ply.min(last_ply),
            });
        }
    }
    histories
}

/// Departures the record shows (`R` / `T` markers) but the events do not.
fn add_recorded_departures(replay: &Replay, last_ply: usize, histories: &mut SeatHistories) {
    for elimination in replay.eliminations() {
        let seat = SeatColor::from_seat(elimination.seat);
        let s = seat.index();
        if histories.departure[s].is_some() {
            continue;
        }
        let kind = match elimination.cause {
            EliminationCause::Resigned => DepartureKind::Resigned,
            EliminationCause::TimedOut if histories.connection[s].still_disconnected => {
                DepartureKind::Forfeited
            }
            EliminationCause::TimedOut => DepartureKind::TimedOut,
            _ => continue,
        };
        histories.departure[s] = Some(RawDeparture {
            seat,
            kind,
            ply: elimination.ply.min(last_ply),
        });
    }
}

/// A claimed win the record shows but no event: everyone else was eliminated by the claim,
/// so the seats still active at the end claimed it.
fn add_recorded_claim(replay: &Replay, last_ply: usize, claimed: &mut [bool; 4]) {
    if claimed.iter().any(|&c| c)
        || !replay
            .eliminations()
            .iter()
            .any(|e| e.cause == EliminationCause::Claimed)
    {
        return;
    }
    if let Some(last) = replay.position_at(last_ply) {
        for seat in SeatColor::ALL {
            if last.status(seat.seat()) == SeatStatus::Active {
                claimed[seat.index()] = true;
            }
        }
    }
}

/// A seat's outcome: aborted when anyone aborted the game, else its departure, its claim,
/// or a completed game.
fn outcome_kind(aborted: bool, departure: Option<RawDeparture>, claimed: bool) -> OutcomeKind {
    match (aborted, departure) {
        (true, _) => OutcomeKind::Aborted,
        (false, Some(d)) => match d.kind {
            DepartureKind::Resigned => OutcomeKind::Resigned,
            DepartureKind::TimedOut => OutcomeKind::TimedOut,
            DepartureKind::Forfeited => OutcomeKind::Forfeited,
        },
        (false, None) if claimed => OutcomeKind::ClaimedWin,
        (false, None) => OutcomeKind::Completed,
    }
}

/// The departures (resignations, timeouts, forfeits) among the events, for the abort rule.
pub fn leaves(events: &[GameEvent], last_ply: usize) -> Vec<Leave> {
    events
        .iter()
        .filter_map(|e| {
            let timed_out = match e.kind {
                GameEventKind::Resign => false,
                GameEventKind::Timeout | GameEventKind::Forfeit => true,
                _ => return None,
            };
            Some(Leave {
                seat: e.seat.seat(),
                ply: e.ply.min(last_ply),
                timed_out,
            })
        })
        .collect()
}

fn qualify(replay: &Replay, policy: &ConductPolicy, d: &RawDeparture) -> Departure {
    let seat = d.seat.seat();
    let moves_made = replay
        .moves_made_at(d.ply)
        .map(|m| m[d.seat.index()])
        .unwrap_or(0);
    let in_check = replay.in_check_at(d.ply, seat).unwrap_or(false);
    let position = replay.position_at(d.ply);
    let assessment = match (position, replay.rules.scoring) {
        (Some(p), Scoring::Points) => assess_points(p, d.seat, replay, policy),
        (Some(p), Scoring::Teams) => assess_teams(p, d.seat),
        _ => PositionAssessment::NotAssessed,
    };
    let q = &policy.qualifiers;
    let lost_position = match &assessment {
        // "Could no longer reach a better placement": even the reachable points leave the
        // leaver short of the next player's points (ties share the better place).
        PositionAssessment::Points {
            points,
            reachable,
            next_above,
        } => next_above.is_some_and(|n| points[d.seat.index()] + reachable < n),
        PositionAssessment::Teams {
            team_material,
            opponent_material,
            king_moves,
        } => {
            let deficit = opponent_material - team_material;
            let unsafe_king = in_check || *king_moves <= q.teams_unsafe_king_max_moves;
            deficit >= q.teams_lost_material_deficit
                || (unsafe_king && deficit >= q.teams_unsafe_material_deficit)
        }
        PositionAssessment::NotAssessed => false,
    };
    let partner_still_playing = match (position, replay.rules.scoring) {
        (Some(p), Scoring::Teams) => Some(p.status(d.seat.partner().seat()) == SeatStatus::Active),
        _ => None,
    };
    Departure {
        kind: d.kind,
        ply: d.ply,
        moves_made,
        early: moves_made < q.early_moves,
        in_check,
        lost_position,
        partner_still_playing,
        assessment,
    }
}

/// FFA: the most points the leaver could still gain: a share of the live material of every
/// other player still in, a mate bonus for each of them, and the bonus for each walking king.
fn assess_points(
    position: &Position,
    leaver: SeatColor,
    replay: &Replay,
    policy: &ConductPolicy,
) -> PositionAssessment {
    let points = position.points();
    let mut available: i64 = 0;
    for other in SeatColor::ALL {
        if other == leaver {
            continue;
        }
        match position.status(other.seat()) {
            SeatStatus::Active => {
                available += position.material(other.seat()).1 as i64;
                available += replay.rules.mate_points as i64;
            }
            SeatStatus::Walking => available += replay.rules.mate_points as i64,
            SeatStatus::Out => {}
        }
    }
    let reachable = (available as f64 * policy.qualifiers.ffa_reachable_share).floor() as i32;
    let mine = points[leaver.index()];
    let next_above = SeatColor::ALL
        .iter()
        .filter(|&&o| o != leaver)
        .map(|o| points[o.index()])
        .filter(|&p| p > mine)
        .min();
    PositionAssessment::Points {
        points,
        reachable,
        next_above,
    }
}

fn live_material(position: &Position, seat: SeatColor) -> i32 {
    if position.status(seat.seat()) == SeatStatus::Active {
        position.material(seat.seat()).1
    } else {
        0
    }
}

/// Teams: material of both teams and the leaver's legal king moves.
fn assess_teams(position: &Position, leaver: SeatColor) -> PositionAssessment {
    let team_material = live_material(position, leaver) + live_material(position, leaver.partner());
    let opponents = [
        SeatColor::ALL[(leaver.index() + 1) & 3],
        SeatColor::ALL[(leaver.index() + 3) & 3],
    ];
    let opponent_material = opponents.iter().map(|&o| live_material(position, o)).sum();
    let with_turn = position.with_turn(leaver.seat());
    let mut list = MoveList::new();
    let king_moves = match with_turn.king_square(leaver.seat()) {
        Some(king) => {
            with_turn.legal_moves_from(king, &mut list);
            list.len() as u32
        }
        None => 0,
    };
    PositionAssessment::Teams {
        team_material,
        opponent_material,
        king_moves,
    }
}
