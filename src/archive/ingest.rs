//! A submitted game, checked against its replay, and the facts derived from it.
//!
//! `prepare` replays the PGN4 with the rules core, refuses it when its tags disagree with the
//! replay (`result_agreement`), checks every other part of the submission against the replay
//! (`validate`) and derives the rows to store (`facts`), the chat review (`chat_review`), the
//! seats' conduct outcomes (`conduct`) and the collusion statistics. On failure it returns an
//! `IngestError` naming the offending field. Nothing here touches storage.

use std::sync::Arc;

use chrono::NaiveDateTime;

use super::chat_review::{
    chat_context, review_chat, window_check, ChatReview, FlagFacts, ReportFacts, WindowCheck,
};
use super::conduct::{
    conduct_events, conduct_outcomes, stored_events, ConductInput, ConductOutcomes,
};
use super::error::{replay_error, IngestError};
use super::facts::{
    date_tag, elimination_causes, seat_facts, stored, termination_kind, to_i32, ChatRow,
    EventFacts, GameFacts, SeatFacts,
};
use super::result_agreement::check_result;
use super::submission::{content_hash, Submission};
use super::validate::{check_chat, check_events, game_number, seats_for};
use crate::collusion::{interactions, CollusionPolicy, GameInteractions};
use crate::conduct::abort::{self, Abort, AbortContext, AbortPreset, TimeControl};
use crate::conduct::{self, ConductPolicy};
use crate::rules::replay::{self, Replay};
use crate::rules::ruleset::Scoring;

/// Everything to store for one game.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedGame {
    pub game: GameFacts,
    pub seats: Vec<SeatFacts>,
    pub chat: Vec<ChatRow>,
    pub events: Vec<EventFacts>,
    /// Chat analysis findings, one per flag (empty when the chat was not analysed).
    pub flags: Vec<FlagFacts>,
    /// Automatic reports raised by the chat analysis.
    pub reports: Vec<ReportFacts>,
    /// The rolling-window check the store runs for this game's senders (none when the chat
    /// was not analysed or no seated sender wrote a report-worthy line).
    pub window: Option<WindowCheck>,
    /// The seats' conduct outcomes (none when conduct tracking is off).
    pub conduct: Option<ConductOutcomes>,
    /// What each player did to each opponent (none when collusion statistics are off, and for
    /// games other than FFA and Solo).
    pub collusion: Option<CollusionFacts>,
}

/// A game's collusion statistics with the policy they are judged by.
#[derive(Debug, Clone, PartialEq)]
pub struct CollusionFacts {
    pub interactions: GameInteractions,
    pub policy: Arc<CollusionPolicy>,
}

/// Validates the submission by replaying it and derives the stored facts (no chat analysis).
pub fn prepare(submission: Submission, preset: AbortPreset) -> Result<PreparedGame, IngestError> {
    prepare_with(submission, preset, None, None, None)
}

/// As [`prepare`], and analyses the chat against the same replay when `review` is given,
/// computes the seats' conduct outcomes when `conduct` is given, and the collusion statistics
/// when `collusion` is given.
pub fn prepare_with(
    submission: Submission,
    preset: AbortPreset,
    review: Option<&ChatReview<'_>>,
    conduct: Option<&Arc<ConductPolicy>>,
    collusion: Option<&Arc<CollusionPolicy>>,
) -> Result<PreparedGame, IngestError> {
    let replay = replay::replay(&submission.pgn4).map_err(replay_error)?;
    check_result(&replay)?;
    let plies = replay.plies.len();
    let site_game_id = game_number(&submission, &replay)?;
    let seats_in = seats_for(&submission, &replay)?;
    check_chat(&submission, &seats_in, plies)?;
    check_events(&submission, plies)?;

    let content_hash = content_hash(&submission, &site_game_id);
    let time_control = tag(&replay, "TimeControl");
    let abort = classify_abort(&replay, &submission, &time_control, preset);
    let causes = elimination_causes(&replay, &submission.events);
    let seats = seat_facts(&replay, seats_in, &causes);
    let termination = termination_kind(&replay, &causes);
    let (started_at, ended_at, played_at) = game_times(&submission, &replay);
    let variant = variant_name(&replay);
    let chat = chat_rows(&submission);
    let (flags, reports) = match review {
        Some(review) if !chat.is_empty() => analyse_chat(review, &replay, &variant, &chat),
        _ => (Vec::new(), Vec::new()),
    };
    let window = review.and_then(|review| window_check(review.settings, &flags, &seats));
    let events = event_rows(&submission);
    let conduct = conduct.map(|policy| {
        let input = conduct_input(&replay, &variant, &time_control, &seats, &events);
        ConductOutcomes {
            outcomes: conduct_outcomes(&replay, &input, policy, preset),
            policy: Arc::clone(policy),
        }
    });
    let collusion = collusion.and_then(|policy| collusion_facts(&replay, policy));
    Ok(PreparedGame {
        game: GameFacts {
            site_game_id,
            content_hash,
            variant,
            rule_variants: tag(&replay, "RuleVariants"),
            time_control,
            start_setup: replay.setup.clone(),
            termination,
            termination_text: tag(&replay, "Termination"),
            result_tag: tag(&replay, "Result"),
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
        collusion,
    })
}

/// The chat analysis of a game with chat: its flags and automatic reports.
fn analyse_chat(
    review: &ChatReview<'_>,
    replay: &Replay,
    variant: &str,
    chat: &[ChatRow],
) -> (Vec<FlagFacts>, Vec<ReportFacts>) {
    let context = chat_context(replay, variant, &tag(replay, "RuleVariants"));
    review_chat(review, &context, replay, chat)
}

/// The game's collusion statistics under `policy`; none for games they do not apply to.
fn collusion_facts(replay: &Replay, policy: &Arc<CollusionPolicy>) -> Option<CollusionFacts> {
    Some(CollusionFacts {
        interactions: interactions(replay)?,
        policy: Arc::clone(policy),
    })
}

/// A PGN4 tag's value, trimmed; empty when absent.
fn tag(replay: &Replay, name: &str) -> String {
    replay.pgn.tag(name).unwrap_or("").trim().to_string()
}

/// Whether the game was aborted, and by whom, under the archive's abort rule: judged from
/// the submitted events as stored, so that a rebuild from stored rows agrees.
fn classify_abort(
    replay: &Replay,
    submission: &Submission,
    time_control: &str,
    preset: AbortPreset,
) -> Option<Abort> {
    let custom_start = !matches!(replay.setup.as_str(), "4PC" | "4PCo");
    abort::classify_with_leaves(
        replay,
        &AbortContext {
            time_control: TimeControl::parse(time_control),
            custom_start,
            preset,
        },
        &conduct::leaves(
            &conduct_events(&stored_events(&submission.events)),
            replay.plies.len(),
        ),
    )
}

/// Start, end, and the date the archive files the game under: the end, else the start, else
/// the `Date` tag.
fn game_times(
    submission: &Submission,
    replay: &Replay,
) -> (
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
) {
    let started_at = submission.started_at.map(stored);
    let ended_at = submission.ended_at.map(stored);
    let played_at = ended_at
        .or(started_at)
        .or_else(|| date_tag(replay.pgn.tag("Date").unwrap_or("")));
    (started_at, ended_at, played_at)
}

/// The variant as stored: "Teams" for a Teams game, else the `Variant` tag (FFA when absent).
fn variant_name(replay: &Replay) -> String {
    if replay.rules.scoring == Scoring::Teams {
        return "Teams".to_string();
    }
    let v = tag(replay, "Variant");
    if v.is_empty() {
        "FFA".to_string()
    } else {
        v
    }
}

fn chat_rows(submission: &Submission) -> Vec<ChatRow> {
    submission
        .chat
        .iter()
        .map(|c| ChatRow {
            ply: to_i32(c.ply),
            sent_at: c.at.map(stored),
            sender: c.sender.clone(),
            channel: c.channel,
            text: c.text.clone(),
        })
        .collect()
}

fn event_rows(submission: &Submission) -> Vec<EventFacts> {
    submission
        .events
        .iter()
        .map(|e| EventFacts {
            kind: e.kind,
            seat: e.seat,
            ply: to_i32(e.ply),
            at: e.at.map(stored),
        })
        .collect()
}

/// The conduct outcomes' input, from the rows about to be stored.
fn conduct_input<'a>(
    replay: &'a Replay,
    variant: &'a str,
    time_control: &'a str,
    seats: &[SeatFacts],
    events: &[EventFacts],
) -> ConductInput<'a> {
    ConductInput {
        variant,
        time_control,
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::submission::{ChatChannel, ChatInput, EventInput, EventKind, SeatColour};

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
