//! A submitted game, checked against its replay, and the facts derived from it.
//!
//! `prepare` replays the PGN4 with the rules core and checks every other part of the
//! submission against the replay (seats against the PGN4 players, chat senders against the
//! seats, plies against the game's length). On success it returns rows ready to store; on
//! failure an `IngestError` naming the offending field. Nothing here touches storage.

use std::sync::Arc;

use chrono::{DateTime, NaiveDateTime, SubsecRound, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::chat::context::analyze_game_chat_in_context;
use crate::chat::window::{report_reason, WindowRule};
use crate::chat::ChatSettings;
use crate::chat::{
    Analyzer, Category, Channel, ChatLine, GameChatContext, Severity, Variant as ChatVariant,
};
use crate::conduct::abort::{self, Abort, AbortContext, AbortPreset, TimeControl};
use crate::conduct::{self, ConductPolicy, SeatOutcome};
use crate::moderation::{GameNumber, PlayerId, Variant, GAME_NUMBER_RULE};
use crate::rules::game::{EliminationCause, GameEnd};
use crate::rules::geometry::Seat;
use crate::rules::piece::PieceKind;
use crate::rules::replay::{self, Replay, ReplayError, TagResult};
use crate::rules::ruleset::Scoring;

/// Longest player name accepted (fingerprints may be twice as long), wherever a name is taken
/// as input: seats, chat senders, player tokens, reports.
pub const MAX_NAME_CHARS: usize = 64;
/// Longest chat line accepted.
pub const MAX_CHAT_CHARS: usize = 2000;

/// A seat colour as the API writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatColour {
    Red,
    Blue,
    Yellow,
    Green,
}

impl SeatColour {
    pub const ALL: [SeatColour; 4] = [
        SeatColour::Red,
        SeatColour::Blue,
        SeatColour::Yellow,
        SeatColour::Green,
    ];

    pub fn seat(self) -> Seat {
        Seat::from_index(self as usize)
    }

    pub fn from_seat(seat: Seat) -> SeatColour {
        SeatColour::ALL[seat.index()]
    }

    pub fn from_index(i: i16) -> Option<SeatColour> {
        usize::try_from(i)
            .ok()
            .and_then(|i| SeatColour::ALL.get(i).copied())
    }

    pub fn index(self) -> i16 {
        self as i16
    }
}

/// Where a chat line was posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    Game,
    Team,
    Spectator,
}

impl ChatChannel {
    pub const ALL: [ChatChannel; 3] =
        [ChatChannel::Game, ChatChannel::Team, ChatChannel::Spectator];

    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Game => "game",
            ChatChannel::Team => "team",
            ChatChannel::Spectator => "spectator",
        }
    }

    pub fn parse(s: &str) -> Option<ChatChannel> {
        match s {
            "game" => Some(ChatChannel::Game),
            "team" => Some(ChatChannel::Team),
            "spectator" => Some(ChatChannel::Spectator),
            _ => None,
        }
    }
}

/// A connection or game event reported by the game server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Disconnect,
    Reconnect,
    Forfeit,
    Resign,
    Timeout,
    ClaimWin,
}

impl EventKind {
    pub const ALL: [EventKind; 6] = [
        EventKind::Disconnect,
        EventKind::Reconnect,
        EventKind::Forfeit,
        EventKind::Resign,
        EventKind::Timeout,
        EventKind::ClaimWin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Disconnect => "disconnect",
            EventKind::Reconnect => "reconnect",
            EventKind::Forfeit => "forfeit",
            EventKind::Resign => "resign",
            EventKind::Timeout => "timeout",
            EventKind::ClaimWin => "claim_win",
        }
    }

    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One seat as the game server reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInput {
    pub seat: SeatColour,
    pub player: String,
    #[serde(default)]
    pub rating_before: Option<i32>,
    #[serde(default)]
    pub rating_after: Option<i32>,
    /// Opaque hash of the player's device fingerprint.
    #[serde(default)]
    pub device_fp: Option<String>,
    /// Opaque hash of the player's network fingerprint.
    #[serde(default)]
    pub network_fp: Option<String>,
}

/// One chat line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatInput {
    /// Plies played when the line was sent (0 = before the first move).
    pub ply: u32,
    #[serde(default)]
    pub at: Option<DateTime<Utc>>,
    pub sender: String,
    pub channel: ChatChannel,
    pub text: String,
}

/// One connection or game event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventInput {
    pub kind: EventKind,
    pub seat: SeatColour,
    /// Plies played when the event happened.
    pub ply: u32,
    #[serde(default)]
    pub at: Option<DateTime<Utc>>,
}

/// A finished game as a game server posts it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// The game's PGN4 text.
    pub pgn4: String,
    /// The site's game number; defaults to the `GameNr` tag (and must agree with it). A
    /// positive whole number without sign or leading zeros, at most 2^53 - 1.
    #[serde(default, deserialize_with = "string_or_number")]
    pub site_game_id: Option<String>,
    /// The four seats; defaults to the PGN4 player and rating tags.
    #[serde(default)]
    pub seats: Vec<SeatInput>,
    #[serde(default)]
    pub started_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub ended_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub chat: Vec<ChatInput>,
    #[serde(default)]
    pub events: Vec<EventInput>,
}

fn string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Id {
        Text(String),
        // Any JSON number, so `-5` or `1e30` reach the game-number rule and its 422.
        Number(serde_json::Number),
    }
    Ok(Option::<Id>::deserialize(d)?.map(|id| match id {
        Id::Text(s) => s,
        Id::Number(n) => n.to_string(),
    }))
}

impl Submission {
    /// A bare PGN4 text (no chat, seats from the tags).
    pub fn from_pgn4(text: String) -> Submission {
        Submission {
            pgn4: text,
            site_game_id: None,
            seats: Vec::new(),
            started_at: None,
            ended_at: None,
            chat: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// Why a submission was refused: a stable code, a sentence, and details naming the field.
#[derive(Debug, Clone, PartialEq)]
pub struct IngestError {
    pub code: &'static str,
    pub message: String,
    pub details: Value,
}

impl std::fmt::Display for IngestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IngestError {}

fn invalid(field: &str, message: impl Into<String>) -> IngestError {
    IngestError {
        code: "invalid_game",
        message: message.into(),
        details: json!({ "field": field }),
    }
}

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
pub struct EventRow {
    pub kind: EventKind,
    pub seat: SeatColour,
    pub ply: i32,
    pub at: Option<NaiveDateTime>,
}

/// Everything to store for one game.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedGame {
    pub game: GameFacts,
    pub seats: Vec<SeatFacts>,
    pub chat: Vec<ChatRow>,
    pub events: Vec<EventRow>,
    /// Chat analysis findings, one per flag (empty when the chat was not analysed).
    pub flags: Vec<FlagFacts>,
    /// Automatic reports raised by the chat analysis.
    pub reports: Vec<ReportFacts>,
    /// The rolling-window check the store runs for this game's senders (none when the chat
    /// was not analysed or no seated sender wrote a report-worthy line).
    pub window: Option<WindowCheck>,
    /// The seats' conduct outcomes (none when conduct tracking is off).
    pub conduct: Option<ConductOutcomes>,
}

/// Which senders of a game the store checks against their recent games, and the rule.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowCheck {
    pub rule: WindowRule,
    /// Seated players with a report-worthy, reportable (non-spam) flag in this game; sorted,
    /// so the store takes its per-player locks in one order.
    pub senders: Vec<String>,
}

/// The conduct outcomes of a game's four seats, computed from the ingest's own replay, and
/// the policy the store applies them under. The outcomes' `game`, `player` and `ended_at` are
/// placeholders until the store knows the archive id, the player ids and `played_at`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConductOutcomes {
    pub outcomes: [SeatOutcome; 4],
    pub policy: Arc<ConductPolicy>,
}

/// What the conduct outcomes are computed from, as the archive stores it (so a rebuild from
/// stored rows computes what the ingest computed).
#[derive(Debug, Clone, PartialEq)]
pub struct ConductInput<'a> {
    /// `games.variant`.
    pub variant: &'a str,
    /// `games.time_control`.
    pub time_control: &'a str,
    /// `games.start_setup`.
    pub start_setup: &'a str,
    /// (rating before, rating after) of Red, Blue, Yellow, Green.
    pub ratings: [(Option<i32>, Option<i32>); 4],
    /// The game's events in stored order: kind, seat, ply, time.
    pub events: Vec<StoredEvent>,
}

/// The conduct variant of an archived game's `variant`.
pub fn conduct_variant(variant: &str) -> Variant {
    match variant.trim().to_ascii_lowercase().as_str() {
        "teams" => Variant::Teams,
        "ffa" | "free-for-all" => Variant::Ffa,
        "solo" => Variant::Solo,
        _ => Variant::Other,
    }
}

/// The four seats' conduct outcomes, with the one abort rule of the archive.
pub fn conduct_outcomes(
    replay: &Replay,
    input: &ConductInput<'_>,
    policy: &ConductPolicy,
    preset: AbortPreset,
) -> [SeatOutcome; 4] {
    let placeholder = DateTime::<Utc>::UNIX_EPOCH;
    let facts = conduct::GameFacts {
        game: GameNumber(0),
        variant: conduct_variant(input.variant),
        time_control: TimeControl::parse(input.time_control),
        custom_start: !matches!(input.start_setup, "4PC" | "4PCo"),
        seats: std::array::from_fn(|i| conduct::SeatFacts {
            player: PlayerId(0),
            rating_before: input.ratings[i].0,
            rating_after: input.ratings[i].1,
        }),
        events: conduct_events(&input.events),
        ended_at: placeholder,
    };
    conduct::outcomes(replay, &facts, policy, preset)
}

/// An event as stored: kind, seat, ply, time.
pub type StoredEvent = (EventKind, SeatColour, i32, Option<NaiveDateTime>);

fn stored_events(events: &[EventInput]) -> Vec<StoredEvent> {
    events
        .iter()
        .map(|e| (e.kind, e.seat, to_i32(e.ply), e.at.map(stored)))
        .collect()
}

/// The events in the conduct module's terms (an event without a time sorts by ply alone).
fn conduct_events(events: &[StoredEvent]) -> Vec<conduct::GameEvent> {
    events
        .iter()
        .map(|&(kind, seat, ply, at)| conduct::GameEvent {
            kind: match kind {
                EventKind::Disconnect => conduct::GameEventKind::Disconnect,
                EventKind::Reconnect => conduct::GameEventKind::Reconnect,
                EventKind::Forfeit => conduct::GameEventKind::Forfeit,
                EventKind::Resign => conduct::GameEventKind::Resign,
                EventKind::Timeout => conduct::GameEventKind::Timeout,
                EventKind::ClaimWin => conduct::GameEventKind::ClaimWin,
            },
            seat: conduct::SeatColor::from_seat(seat.seat()),
            ply: usize::try_from(ply).unwrap_or(0),
            at: at.map_or(DateTime::<Utc>::UNIX_EPOCH, |t| t.and_utc()),
        })
        .collect()
}

/// Validates the submission by replaying it and derives the stored facts (no chat analysis).
pub fn prepare(submission: Submission, preset: AbortPreset) -> Result<PreparedGame, IngestError> {
    prepare_with(submission, preset, None, None)
}

/// As [`prepare`], and analyses the chat against the same replay when `review` is given, and
/// computes the seats' conduct outcomes when `conduct` is given.
pub fn prepare_with(
    submission: Submission,
    preset: AbortPreset,
    review: Option<&ChatReview<'_>>,
    conduct: Option<&Arc<ConductPolicy>>,
) -> Result<PreparedGame, IngestError> {
    let replay = replay::replay(&submission.pgn4).map_err(replay_error)?;
    let plies = replay.plies.len();
    let site_game_id = game_number(&submission, &replay)?;
    let seats_in = seats_for(&submission, &replay)?;
    check_chat(&submission, &seats_in, plies)?;
    check_events(&submission, plies)?;

    let content_hash = content_hash(&submission, &site_game_id);
    let tag = |name: &str| replay.pgn.tag(name).unwrap_or("").trim().to_string();
    let time_control = tag("TimeControl");
    let tc = TimeControl::parse(&time_control);
    let custom_start = !matches!(replay.setup.as_str(), "4PC" | "4PCo");
    let abort = abort::classify_with_leaves(
        &replay,
        &AbortContext {
            time_control: tc,
            custom_start,
            preset,
        },
        &conduct::leaves(&conduct_events(&stored_events(&submission.events)), plies),
    );

    let causes = elimination_causes(&replay, &submission.events);
    let seats = seat_facts(&replay, seats_in, &causes);
    let termination = termination_kind(&replay, &causes);

    let started_at = submission.started_at.map(stored);
    let ended_at = submission.ended_at.map(stored);
    let played_at = ended_at
        .or(started_at)
        .or_else(|| date_tag(replay.pgn.tag("Date").unwrap_or("")));
    let variant = if replay.rules.scoring == Scoring::Teams {
        "Teams".to_string()
    } else {
        let v = tag("Variant");
        if v.is_empty() {
            "FFA".to_string()
        } else {
            v
        }
    };
    let chat = submission
        .chat
        .iter()
        .map(|c| ChatRow {
            ply: to_i32(c.ply),
            sent_at: c.at.map(stored),
            sender: c.sender.clone(),
            channel: c.channel,
            text: c.text.clone(),
        })
        .collect::<Vec<_>>();
    let (flags, reports) = match review {
        Some(review) if !chat.is_empty() => {
            let context = chat_context(&replay, &variant, &tag("RuleVariants"));
            review_chat(review, &context, &replay, &chat)
        }
        _ => (Vec::new(), Vec::new()),
    };
    let window = review.and_then(|review| window_check(review.settings, &flags, &seats));
    let events: Vec<EventRow> = submission
        .events
        .iter()
        .map(|e| EventRow {
            kind: e.kind,
            seat: e.seat,
            ply: to_i32(e.ply),
            at: e.at.map(stored),
        })
        .collect();
    let conduct = conduct.map(|policy| {
        let input = ConductInput {
            variant: &variant,
            time_control: &time_control,
            start_setup: &replay.setup,
            ratings: std::array::from_fn(|i| {
                seats
                    .iter()
                    .find(|s| s.seat.index() as usize == i)
                    .map_or((None, None), |s| (s.rating_before, s.rating_after))
            }),
            events: events
                .iter()
                .map(|e| (e.kind, e.seat, e.ply, e.at))
                .collect(),
        };
        ConductOutcomes {
            outcomes: conduct_outcomes(&replay, &input, policy, preset),
            policy: Arc::clone(policy),
        }
    });
    Ok(PreparedGame {
        game: GameFacts {
            site_game_id,
            content_hash,
            variant,
            rule_variants: tag("RuleVariants"),
            time_control,
            start_setup: replay.setup.clone(),
            termination,
            termination_text: tag("Termination"),
            result_tag: tag("Result"),
            started_at,
            ended_at,
            played_at,
            plies: i32::try_from(plies).unwrap_or(i32::MAX),
            abort,
            pgn4: submission.pgn4,
        },
        seats,
        chat,
        events,
        flags,
        reports,
        window,
        conduct,
    })
}

fn window_check(
    settings: &ChatSettings,
    flags: &[FlagFacts],
    seats: &[SeatFacts],
) -> Option<WindowCheck> {
    let rule = settings.window_rule();
    if !rule.enabled() {
        return None;
    }
    let mut senders: Vec<String> = flags
        .iter()
        .filter(|f| {
            f.report_worthy
                && Category::from_name(f.category).is_some_and(|c| report_reason(c).is_some())
                && seats.iter().any(|s| s.player == f.sender)
        })
        .map(|f| f.sender.clone())
        .collect();
    senders.sort_unstable();
    senders.dedup();
    (!senders.is_empty()).then_some(WindowCheck { rule, senders })
}

fn to_i32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

fn stored(at: DateTime<Utc>) -> NaiveDateTime {
    at.naive_utc().trunc_subsecs(6)
}

/// `Sun Jun 07 2026 18:43:23 GMT+0000 (Coordinated Universal Time)`.
fn date_tag(text: &str) -> Option<NaiveDateTime> {
    let head: String = text.trim().chars().take(24).collect();
    NaiveDateTime::parse_from_str(&head, "%a %b %d %Y %H:%M:%S").ok()
}

/// The replay's error as a submission error on `pgn4`.
pub fn replay_error(err: ReplayError) -> IngestError {
    match err {
        ReplayError::Parse(e) => IngestError {
            code: "pgn4_syntax",
            message: format!(
                "PGN4 syntax error at line {}, column {}: expected {}, found {}.",
                e.line, e.column, e.expected, e.found
            ),
            details: json!({ "field": "pgn4", "line": e.line, "column": e.column,
                             "expected": e.expected, "found": e.found }),
        },
        ReplayError::IllegalMove {
            ply,
            round,
            seat,
            text,
            fen4_before,
            reason,
        } => IngestError {
            code: "illegal_move",
            message: format!(
                "Illegal move at ply {ply} (round {round}, {seat}): `{text}`: {reason}."
            ),
            details: json!({ "field": "pgn4", "ply": ply, "round": round,
                             "seat": SeatColour::from_seat(seat), "move": text,
                             "reason": reason, "fen4": fen4_before }),
        },
        ReplayError::Unsupported { what } => IngestError {
            code: "unsupported_game",
            message: format!("The game uses something the rules core does not support: {what}."),
            details: json!({ "field": "pgn4", "unsupported": what }),
        },
        ReplayError::Setup(e) => IngestError {
            code: "invalid_setup",
            message: format!("The start position is invalid: {e}."),
            details: json!({ "field": "pgn4", "reason": e.to_string() }),
        },
    }
}

/// The game number, from `site_game_id` or the `GameNr` tag (both when both are given, and
/// they must agree), each checked against the one game-number rule.
fn game_number(submission: &Submission, replay: &Replay) -> Result<String, IngestError> {
    let tag = replay
        .pgn
        .tag("GameNr")
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let given = submission
        .site_game_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let given_number = given
        .map(|text| {
            GameNumber::parse(text).map_err(|why| {
                invalid(
                    "site_game_id",
                    format!(
                        "`site_game_id` {} is not a game number: {why}; it must be {GAME_NUMBER_RULE}.",
                        shown(text)
                    ),
                )
            })
        })
        .transpose()?;
    let tag_number = tag
        .map(|text| {
            GameNumber::parse(text).map_err(|why| IngestError {
                code: "invalid_game",
                message: format!(
                    "The PGN4 `GameNr` tag {} is not a game number: {why}; it must be {GAME_NUMBER_RULE}.",
                    shown(text)
                ),
                details: json!({ "field": "pgn4", "tag": "GameNr" }),
            })
        })
        .transpose()?;
    match (given_number, tag_number) {
        (Some(given), Some(tag)) if given != tag => Err(invalid(
            "site_game_id",
            format!("`site_game_id` {given} differs from the PGN4 `GameNr` tag {tag}."),
        )),
        (Some(number), _) | (None, Some(number)) => Ok(number.to_string()),
        (None, None) => Err(invalid(
            "site_game_id",
            "The game has no number: send `site_game_id` or a `GameNr` tag.",
        )),
    }
}

/// A refused value for a message: quoted, and cut if long (it may be anything).
fn shown(value: &str) -> String {
    if value.chars().count() <= MAX_NAME_CHARS {
        format!("{value:?}")
    } else {
        let head: String = value.chars().take(MAX_NAME_CHARS).collect();
        format!("{head:?}...")
    }
}

fn check_text(field: &str, value: &str, max: usize) -> Result<(), IngestError> {
    if value.trim().is_empty() || value.chars().count() > max || value.chars().any(char::is_control)
    {
        return Err(invalid(
            field,
            format!("`{field}` must be 1 to {max} printable characters."),
        ));
    }
    Ok(())
}

/// The four seats in seat order: the submitted ones checked against the PGN4 players, or the
/// PGN4's own.
fn seats_for(submission: &Submission, replay: &Replay) -> Result<Vec<SeatInput>, IngestError> {
    let tag_name = |seat: SeatColour| {
        replay
            .pgn
            .tag(seat.seat().name())
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let tag_elo = |seat: SeatColour| {
        replay
            .pgn
            .tag(&format!("{}Elo", seat.seat().name()))
            .and_then(|s| s.trim().parse::<i32>().ok())
    };
    if submission.seats.is_empty() {
        return SeatColour::ALL
            .into_iter()
            .map(|seat| {
                let player = tag_name(seat).ok_or_else(|| {
                    invalid(
                        "seats",
                        format!(
                            "The PGN4 names no {} player; send `seats`.",
                            seat.seat().name()
                        ),
                    )
                })?;
                check_text("seats", player, MAX_NAME_CHARS)?;
                Ok(SeatInput {
                    seat,
                    player: player.to_string(),
                    rating_before: tag_elo(seat),
                    rating_after: None,
                    device_fp: None,
                    network_fp: None,
                })
            })
            .collect();
    }
    if submission.seats.len() != 4 {
        return Err(invalid(
            "seats",
            format!(
                "`seats` must list the four seats, not {}.",
                submission.seats.len()
            ),
        ));
    }
    let mut out: Vec<Option<SeatInput>> = vec![None; 4];
    for (i, s) in submission.seats.iter().enumerate() {
        let slot = &mut out[s.seat.index() as usize];
        if slot.is_some() {
            return Err(invalid(
                &format!("seats[{i}].seat"),
                format!("Seat {} is listed twice.", s.seat.seat().name()),
            ));
        }
        let field = format!("seats[{i}].player");
        check_text(&field, &s.player, MAX_NAME_CHARS)?;
        if let Some(name) = tag_name(s.seat) {
            if name != s.player.trim() {
                return Err(invalid(
                    &field,
                    format!(
                        "Seat {} is {:?} in the PGN4, not {:?}.",
                        s.seat.seat().name(),
                        name,
                        s.player
                    ),
                ));
            }
        }
        for (fp, value) in [("device_fp", &s.device_fp), ("network_fp", &s.network_fp)] {
            if let Some(v) = value {
                check_text(&format!("seats[{i}].{fp}"), v, MAX_NAME_CHARS * 2)?;
            }
        }
        let mut seat = s.clone();
        seat.player = seat.player.trim().to_string();
        if seat.rating_before.is_none() {
            seat.rating_before = tag_elo(s.seat);
        }
        *slot = Some(seat);
    }
    Ok(out.into_iter().flatten().collect())
}

fn check_chat(
    submission: &Submission,
    seats: &[SeatInput],
    plies: usize,
) -> Result<(), IngestError> {
    for (i, line) in submission.chat.iter().enumerate() {
        check_ply(&format!("chat[{i}].ply"), line.ply, plies)?;
        let field = format!("chat[{i}].sender");
        check_text(&field, &line.sender, MAX_NAME_CHARS)?;
        // Spectators may be anyone; the game and team channels are the players'.
        if line.channel != ChatChannel::Spectator
            && !seats.iter().any(|s| s.player == line.sender.trim())
        {
            return Err(invalid(
                &field,
                format!(
                    "Chat sender {:?} is not a player of this game.",
                    line.sender
                ),
            ));
        }
        if line.text.chars().count() > MAX_CHAT_CHARS {
            return Err(invalid(
                &format!("chat[{i}].text"),
                format!("A chat line may hold at most {MAX_CHAT_CHARS} characters."),
            ));
        }
    }
    Ok(())
}

fn check_events(submission: &Submission, plies: usize) -> Result<(), IngestError> {
    for (i, event) in submission.events.iter().enumerate() {
        check_ply(&format!("events[{i}].ply"), event.ply, plies)?;
    }
    Ok(())
}

fn check_ply(field: &str, ply: u32, plies: usize) -> Result<(), IngestError> {
    if usize::try_from(ply).map_or(true, |p| p > plies) {
        return Err(invalid(
            field,
            format!("`{field}` is {ply}, but the game has {plies} plies (0 to {plies} allowed)."),
        ));
    }
    Ok(())
}

/// SHA-256 over the submission as it will be stored (the resolved game number included).
fn content_hash(submission: &Submission, site_game_id: &str) -> String {
    let mut canonical = submission.clone();
    canonical.site_game_id = Some(site_game_id.to_string());
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    hex::encode(Sha256::digest(bytes))
}

/// The first elimination of each seat: (ply, cause). A timeout after a disconnect without a
/// later reconnect is a forfeit, as is a timeout the server reports as `forfeit`.
fn elimination_causes(
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

fn forfeited(events: &[EventInput], seat: SeatColour, ply: usize) -> bool {
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

fn termination_kind(replay: &Replay, causes: &[Option<(usize, &'static str)>; 4]) -> String {
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

fn seat_facts(
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
    let mut taken = [[0; 4]; 4];
    if replay.rules.scoring == Scoring::Teams {
        return taken;
    }
    let mut before = [0i32; 4];
    for ply in &replay.plies {
        let mover = ply.mover.index();
        let gained = ply.points_after[mover] - before[mover];
        if let Some(piece) = ply.captured {
            if !piece.dead && gained > 0 {
                let value = if piece.kind == PieceKind::King {
                    replay.rules.mate_points
                } else {
                    piece.kind.ffa_value()
                };
                taken[mover][piece.seat.index()] += value.min(gained);
            }
        }
        for e in &ply.eliminations {
            if let (EliminationCause::Mated, Some(by)) = (e.cause, e.by) {
                taken[by.index()][e.seat.index()] += replay.rules.mate_points;
            }
        }
        before = ply.points_after;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[GameNr \"104000001\"]\n[TimeControl \"1+15D\"]\n[Variant \"FFA\"]\n\
        [RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n[Red \"r\"]\n[RedElo \"2000\"]\n\
        [Blue \"b\"]\n[Yellow \"y\"]\n[Green \"g\"]\n\n\
        1. h2-h4 .. b4-c4 .. e13-e12 .. m10-l10 2. h4-h5 .. b5-c5 .. d13-d12 .. l10-k10 \
        3. Qg1-j4 .. b10-c10 .. k13-k12 .. k10-j10 4. Qj4xj10 .. c4-d4 .. T\n";

    #[test]
    fn bare_pgn4_takes_seats_from_tags_and_derives_facts() {
        let g =
            prepare(Submission::from_pgn4(GAME.into()), AbortPreset::Seed001).expect("valid game");
        assert_eq!(g.game.site_game_id, "104000001");
        assert_eq!(g.game.plies, 15);
        assert_eq!(g.seats.len(), 4);
        assert_eq!(g.seats[0].player, "r");
        assert_eq!(g.seats[0].rating_before, Some(2000));
        assert_eq!(g.seats[0].points, 1);
        assert_eq!(g.seats[0].points_from, [0, 0, 0, 1]);
        assert_eq!(g.seats[2].elimination_cause, Some("timed_out"));
        assert_eq!(g.seats[2].elimination_ply, Some(14));
        // Somebody scored: not an abort.
        assert_eq!(g.game.abort, None);
        assert_eq!(g.game.content_hash.len(), 64);
    }

    #[test]
    fn disconnect_then_timeout_is_a_forfeit() {
        let mut s = Submission::from_pgn4(GAME.into());
        s.events = vec![EventInput {
            kind: EventKind::Disconnect,
            seat: SeatColour::Yellow,
            ply: 13,
            at: None,
        }];
        let g = prepare(s.clone(), AbortPreset::Seed001).expect("valid");
        assert_eq!(g.seats[2].elimination_cause, Some("forfeit"));
        s.events.push(EventInput {
            kind: EventKind::Reconnect,
            seat: SeatColour::Yellow,
            ply: 13,
            at: None,
        });
        let g = prepare(s, AbortPreset::Seed001).expect("valid");
        assert_eq!(g.seats[2].elimination_cause, Some("timed_out"));
    }

    #[test]
    fn fields_are_named() {
        let mut s = Submission::from_pgn4(GAME.into());
        s.chat = vec![ChatInput {
            ply: 99,
            at: None,
            sender: "r".into(),
            channel: ChatChannel::Game,
            text: "hi".into(),
        }];
        let e = prepare(s.clone(), AbortPreset::Seed001).expect_err("ply out of range");
        assert_eq!(e.details["field"], "chat[0].ply");
        s.chat[0].ply = 3;
        s.chat[0].sender = "stranger".into();
        let e = prepare(s.clone(), AbortPreset::Seed001).expect_err("not a player");
        assert_eq!(e.details["field"], "chat[0].sender");
        s.chat[0].channel = ChatChannel::Spectator;
        assert!(prepare(s, AbortPreset::Seed001).is_ok());
    }

    #[test]
    fn game_numbers_must_be_positive_integers_from_either_source() {
        let tagged = |number: &str| GAME.replace("104000001", number);
        for bad in [
            "-5",
            "1e30",
            "../../etc/passwd",
            "0",
            "007",
            "9007199254740992",
        ] {
            let e =
                prepare(Submission::from_pgn4(tagged(bad)), AbortPreset::Seed001).expect_err(bad);
            assert_eq!(e.code, "invalid_game", "{bad}");
            assert_eq!(e.details["field"], "pgn4", "{bad}");
            assert_eq!(e.details["tag"], "GameNr", "{bad}");
            assert!(e.message.contains("GameNr"), "{}", e.message);

            let mut s = Submission::from_pgn4(GAME.replace("[GameNr \"104000001\"]\n", ""));
            s.site_game_id = Some(bad.to_string());
            let e = prepare(s, AbortPreset::Seed001).expect_err(bad);
            assert_eq!(e.details["field"], "site_game_id", "{bad}");
        }
        // A good `site_game_id` does not excuse a bad tag.
        let mut s = Submission::from_pgn4(tagged("-5"));
        s.site_game_id = Some("5".into());
        let e = prepare(s, AbortPreset::Seed001).expect_err("bad tag");
        assert_eq!(e.details["field"], "pgn4");
        // Surrounding whitespace is not part of the number; the two sources still must agree.
        let mut s = Submission::from_pgn4(GAME.into());
        s.site_game_id = Some(" 104000001 ".into());
        let g = prepare(s.clone(), AbortPreset::Seed001).expect("same number");
        assert_eq!(g.game.site_game_id, "104000001");
        s.site_game_id = Some("104000002".into());
        let e = prepare(s, AbortPreset::Seed001).expect_err("differs");
        assert_eq!(e.details["field"], "site_game_id");
    }

    #[test]
    fn a_long_refused_number_is_cut_in_the_message() {
        let mut s = Submission::from_pgn4(GAME.into());
        s.site_game_id = Some("x".repeat(10_000));
        let e = prepare(s, AbortPreset::Seed001).expect_err("not a number");
        assert!(e.message.len() < 400, "{}", e.message);
    }

    #[test]
    fn date_tag_reads() {
        assert!(
            date_tag("Sun Jun 07 2026 18:43:23 GMT+0000 (Coordinated Universal Time)").is_some()
        );
        assert!(date_tag("yesterday").is_none());
    }
}

/// What the ingest needs to analyse a game's chat: the shared analyser and the report
/// thresholds.
#[derive(Clone, Copy, Debug)]
pub struct ChatReview<'a> {
    pub analyzer: &'a Analyzer,
    pub settings: &'a ChatSettings,
    /// The moderation policy the automatic reports are queued under (case priority).
    pub policy: &'a crate::moderation::ModerationPolicy,
}

/// One `chat_flags` row, without the game id.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagFacts {
    /// Index of the chat line in the submission (as `game_chat.idx`).
    pub line_idx: i32,
    pub ply: i32,
    pub sender: String,
    pub category: &'static str,
    pub severity: &'static str,
    pub span_start: i32,
    pub span_end: i32,
    pub rule: String,
    pub explanation: String,
    pub report_worthy: bool,
    pub evidence_fen4: Option<String>,
    pub evidence_finding: Option<String>,
}

/// One `automatic_reports` row, without id, game id and time.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportFacts {
    pub player: String,
    /// `offensive_chat` or `rule_violating_chat` (the review queue's reason codes).
    pub reason: &'static str,
    /// `severe_line` or `repeated_lines` (the window rule is judged by the store, which sees
    /// the player's other games).
    pub rule: &'static str,
    /// 0..1.
    pub score: f64,
    pub summary: String,
}

pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Low => "low",
        Severity::Medium => "medium",
        Severity::High => "high",
        Severity::Critical => "critical",
    }
}

fn severity_score(severity: Severity) -> f64 {
    match severity {
        Severity::Low => 0.25,
        Severity::Medium => 0.5,
        Severity::High => 0.75,
        Severity::Critical => 1.0,
    }
}

fn chat_context(replay: &Replay, variant: &str, rule_variants: &str) -> GameChatContext {
    let variant = if replay.rules.scoring == Scoring::Teams {
        ChatVariant::Teams
    } else if variant.to_ascii_lowercase().contains("solo") {
        ChatVariant::Solo
    } else {
        ChatVariant::Ffa
    };
    GameChatContext {
        variant,
        diplomacy: rule_variants.to_ascii_lowercase().contains("diplomacy"),
        ended_at_ply: u32::try_from(replay.plies.len()).ok(),
        ended_at_ms: None,
    }
}

/// Spacing given to lines without a timestamp, so the rate rules only see real bursts.
const UNTIMED_LINE_GAP_MS: u64 = 60_000;

fn review_chat(
    review: &ChatReview<'_>,
    context: &GameChatContext,
    replay: &Replay,
    chat: &[ChatRow],
) -> (Vec<FlagFacts>, Vec<ReportFacts>) {
    let first_at = chat.iter().find_map(|c| c.sent_at);
    let lines: Vec<ChatLine> = chat
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let time_ms = match (c.sent_at, first_at) {
                (Some(at), Some(first)) => {
                    u64::try_from((at - first).num_milliseconds()).unwrap_or(0)
                }
                _ => (i as u64).saturating_mul(UNTIMED_LINE_GAP_MS),
            };
            ChatLine {
                ply: u32::try_from(c.ply).ok(),
                time_ms,
                sender: c.sender.clone(),
                channel: match c.channel {
                    ChatChannel::Game => Channel::Game,
                    ChatChannel::Team => Channel::Team,
                    ChatChannel::Spectator => Channel::Spectator,
                },
                text: c.text.clone(),
            }
        })
        .collect();
    let analysis = analyze_game_chat_in_context(review.analyzer, context, replay, &lines);
    let mut flags = Vec::new();
    for line in &analysis.lines {
        let Some(row) = chat.get(line.index) else {
            continue;
        };
        for flag in &line.analysis.flags {
            flags.push(FlagFacts {
                line_idx: i32::try_from(line.index).unwrap_or(i32::MAX),
                ply: row.ply,
                sender: row.sender.clone(),
                category: flag.category.name(),
                severity: severity_name(flag.severity),
                span_start: i32::try_from(flag.span.start).unwrap_or(i32::MAX),
                span_end: i32::try_from(flag.span.end).unwrap_or(i32::MAX),
                rule: flag.rule.clone(),
                explanation: flag.explanation.clone(),
                report_worthy: flag.report_worthy,
                evidence_fen4: flag.evidence.as_ref().map(|e| e.fen4.clone()),
                evidence_finding: flag.evidence.as_ref().map(|e| e.finding.clone()),
            });
        }
    }
    let reports = automatic_reports(review.settings, &analysis.lines);
    (flags, reports)
}

/// The two report rules: one line with a flag at or above the configured severity, or at
/// least the configured number of report-worthy lines by one sender. At most one report per
/// sender and reason.
fn automatic_reports(
    settings: &ChatSettings,
    lines: &[crate::chat::GameLineAnalysis],
) -> Vec<ReportFacts> {
    struct Tally {
        player: String,
        reason: &'static str,
        severe: Option<(Severity, String)>,
        worthy_lines: usize,
    }
    let mut tallies: Vec<Tally> = Vec::new();
    for line in lines {
        let mut counted: Vec<&'static str> = Vec::new();
        for flag in &line.analysis.flags {
            let Some(reason) = report_reason(flag.category) else {
                continue;
            };
            let i = match tallies
                .iter()
                .position(|t| t.player == line.sender && t.reason == reason)
            {
                Some(i) => i,
                None => {
                    tallies.push(Tally {
                        player: line.sender.clone(),
                        reason,
                        severe: None,
                        worthy_lines: 0,
                    });
                    tallies.len() - 1
                }
            };
            let tally = &mut tallies[i];
            if flag.severity >= settings.report_min_severity
                && tally
                    .severe
                    .as_ref()
                    .is_none_or(|(s, _)| flag.severity > *s)
            {
                tally.severe = Some((flag.severity, flag.explanation.clone()));
            }
            if flag.report_worthy && !counted.contains(&reason) {
                counted.push(reason);
                tally.worthy_lines += 1;
            }
        }
    }
    let repeat = usize::try_from(settings.report_repeat_lines).unwrap_or(usize::MAX);
    tallies
        .into_iter()
        .filter_map(|t| {
            let repeated = repeat > 0 && t.worthy_lines >= repeat;
            let (rule, score, summary) = match (&t.severe, repeated) {
                (Some((severity, why)), _) => (
                    "severe_line",
                    severity_score(*severity),
                    format!(
                        "{} chat line: {why} ({} report-worthy line(s) in this game)",
                        severity_name(*severity),
                        t.worthy_lines
                    ),
                ),
                (None, true) => (
                    "repeated_lines",
                    (0.5 + 0.1 * t.worthy_lines as f64).min(1.0),
                    format!("{} report-worthy chat lines in this game", t.worthy_lines),
                ),
                (None, false) => return None,
            };
            Some(ReportFacts {
                player: t.player,
                reason: t.reason,
                rule,
                score,
                summary,
            })
        })
        .collect()
}
