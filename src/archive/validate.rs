//! The checks of a submission against its replay: the game number, the seats against the
//! PGN4 players, chat senders against the seats, plies against the game's length.

use serde_json::json;

use super::error::{invalid, shown, IngestError};
use super::player_name::name_problem;
use super::submission::{
    ChatChannel, SeatColour, SeatInput, Submission, MAX_CHAT_CHARS, MAX_NAME_CHARS,
};
use crate::moderation::{GameNumber, GAME_NUMBER_RULE};
use crate::rules::replay::Replay;

/// The game number, from `site_game_id` or the `GameNr` tag (both when both are given, and
/// they must agree), each checked against the one game-number rule.
pub(super) fn game_number(submission: &Submission, replay: &Replay) -> Result<String, IngestError> {
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
pub(super) fn check_text(field: &str, value: &str, max: usize) -> Result<(), IngestError> {
    if value.trim().is_empty() || value.chars().count() > max || value.chars().any(char::is_control)
    {
        return Err(invalid(
            field,
            format!("`{field}` must be 1 to {max} printable characters."),
        ));
    }
    Ok(())
}
/// A player name as a game carries it (a seat, a chat sender): see [`name_problem`].
fn check_name(field: &str, value: &str) -> Result<(), IngestError> {
    match name_problem(value.trim()) {
        None => Ok(()),
        Some(problem) => Err(invalid(field, format!("`{field}` {problem}."))),
    }
}

/// The four seats in seat order: the submitted ones checked against the PGN4 players, or the
/// PGN4's own.
pub(super) fn seats_for(
    submission: &Submission,
    replay: &Replay,
) -> Result<Vec<SeatInput>, IngestError> {
    if submission.seats.is_empty() {
        return seats_from_tags(replay);
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
        *slot = Some(checked_seat(i, s, replay)?);
    }
    Ok(out.into_iter().flatten().collect())
}

/// The PGN4's player of `seat`, when it names one.
fn tag_name(replay: &Replay, seat: SeatColour) -> Option<&str> {
    replay
        .pgn
        .tag(seat.seat().name())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The PGN4's rating of `seat`'s player, when it gives a number.
fn tag_elo(replay: &Replay, seat: SeatColour) -> Option<i32> {
    replay
        .pgn
        .tag(&format!("{}Elo", seat.seat().name()))
        .and_then(|s| s.trim().parse::<i32>().ok())
}

/// The four seats as the PGN4's player and rating tags give them; each must be named.
fn seats_from_tags(replay: &Replay) -> Result<Vec<SeatInput>, IngestError> {
    SeatColour::ALL
        .into_iter()
        .map(|seat| {
            let player = tag_name(replay, seat).ok_or_else(|| {
                invalid(
                    "seats",
                    format!(
                        "The PGN4 names no {} player; send `seats`.",
                        seat.seat().name()
                    ),
                )
            })?;
            check_name("seats", player)?;
            Ok(SeatInput {
                seat,
                player: player.to_string(),
                rating_before: tag_elo(replay, seat),
                rating_after: None,
                device_fp: None,
                network_fp: None,
            })
        })
        .collect()
}

/// Submitted seat `i`, checked (its player agrees with the PGN4's, fingerprints are text)
/// and normalised: the player trimmed, the rating from the PGN4 when not given.
fn checked_seat(i: usize, s: &SeatInput, replay: &Replay) -> Result<SeatInput, IngestError> {
    let field = format!("seats[{i}].player");
    check_name(&field, &s.player)?;
    if let Some(name) = tag_name(replay, s.seat) {
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
        seat.rating_before = tag_elo(replay, s.seat);
    }
    Ok(seat)
}

pub(super) fn check_chat(
    submission: &Submission,
    seats: &[SeatInput],
    plies: usize,
) -> Result<(), IngestError> {
    for (i, line) in submission.chat.iter().enumerate() {
        check_ply(&format!("chat[{i}].ply"), line.ply, plies)?;
        let field = format!("chat[{i}].sender");
        check_name(&field, &line.sender)?;
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

pub(super) fn check_events(submission: &Submission, plies: usize) -> Result<(), IngestError> {
    for (i, event) in submission.events.iter().enumerate() {
        check_ply(&format!("events[{i}].ply"), event.ply, plies)?;
    }
    Ok(())
}

pub(super) fn check_ply(field: &str, ply: u32, plies: usize) -> Result<(), IngestError> {
    if usize::try_from(ply).map_or(true, |p| p > plies) {
        return Err(invalid(
            field,
            format!("`{field}` is {ply}, but the game has {plies} plies (0 to {plies} allowed)."),
        ));
    }
    Ok(())
}
