//! `POST /api/v1/chat/check`: the live check of one chat line before a game server shows
//! it, optionally judged against the game so far (PGN4) or an archived game at a ply, and
//! against the sender's standing (a chat-banned sender is blocked whatever the line says).

use actix_web::web;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::ServerCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::read_models::games::game_not_found;
use crate::api::state::AppState;
use crate::api::views::chat::{
    check_response, ActionName, BlockReason, ChatCheckResponse, SenderView,
};
use crate::archive::{name_problem, MAX_NAME_CHARS};
use crate::chat::context::{analyze_line_in_context, BoardContext};
use crate::chat::conversation::{read_in_given_conversation, GivenConversation};
use crate::chat::{self, LineContext};
use crate::moderation::standing::Standing;
use crate::rules::geometry::Seat;
use crate::rules::replay::{self, Replay, ReplayError};
use crate::rules::ruleset::Scoring;
use crate::store::{self, games, sanctions};

/// Longest line accepted, in characters.
pub const MAX_TEXT_CHARS: usize = 500;

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VariantName {
    Teams,
    Ffa,
    Solo,
    Other,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelName {
    Game,
    Team,
    Spectator,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatName {
    Red,
    Blue,
    Yellow,
    Green,
}

/// One line and what is known of its situation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatCheckRequest {
    /// The line as typed (at most 500 characters).
    #[schema(example = "red's queen is hanging", max_length = 500)]
    pub text: String,
    /// The game's variant; default `ffa`, or the variant of `pgn4` when one is given.
    pub variant: Option<VariantName>,
    /// Default `game`.
    pub channel: Option<ChannelName>,
    /// Whether the game is still being played; default true (false when the given game had
    /// ended at `ply`).
    pub in_progress: Option<bool>,
    /// Diplomacy games allow negotiation; default false.
    pub diplomacy: Option<bool>,
    /// The sender's seat, if the sender plays in the game.
    pub sender_seat: Option<SeatName>,
    /// The sender's player name (1 to 64 characters). A sender with a chat ban in force is
    /// answered `block` with `reason` `sender_banned` and the ban's end, whatever the line
    /// says (the standing of `GET /api/v1/players/{name}/standing`). With a game and no
    /// `sender_seat`, the sender is seated by the game's player tags.
    #[schema(example = "Spaksi", min_length = 1, max_length = 64)]
    pub sender: Option<String>,
    /// The game so far; the line's board mentions are checked against its last position
    /// (or the position at `ply`). Not together with `game_id`.
    pub pgn4: Option<String>,
    /// An archived game (the id of `GET /api/v1/games/{id}`): its stored PGN4 is replayed and
    /// the line judged as if that PGN4 had been given. Not together with `pgn4`.
    #[schema(example = 1)]
    pub game_id: Option<i64>,
    /// Plies played when the line was sent, from 0 to the game's number of plies; default the
    /// end of the game. Needs `game_id` or `pgn4`.
    pub ply: Option<u32>,
    /// The sender's lines just before this one in the game, oldest first (at most 5, each at
    /// most 500 characters). The last two unflagged ones are read joined with the line, for
    /// a sentence split over several lines (`learned.effect` `with_earlier_lines`).
    #[schema(example = json!(["women"]))]
    pub earlier_lines: Option<Vec<String>>,
    /// The line this one answers: the last line someone else wrote in the channel. A retort
    /// ("same to you") to an insult is an insult (`rule` `conversation:echo`); in an FFA
    /// game, consent ("ok", "deal") to an offer, request or alliance breaks the FFA chat
    /// rules like the offer (`rule` `conversation:agrees`).
    pub answering: Option<AnsweredLine>,
}

/// A line another player wrote, which the checked line answers.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnsweredLine {
    /// Its sender's player name (1 to 64 characters).
    #[schema(example = "Spaksi", min_length = 1, max_length = 64)]
    pub sender: String,
    /// The line as shown (at most 500 characters).
    #[schema(example = "wanna team up against red?", max_length = 500)]
    pub text: String,
}

/// At most this many earlier lines of the sender are accepted.
pub const MAX_EARLIER_LINES: usize = 5;

/// Checks one chat line: offensive language, personal information, spam within the line
/// and, in FFA games, the FFA chat rules; with `pgn4` or an archived `game_id`, board
/// mentions are checked against the position at `ply` (default the last one). With
/// `sender`, a sender with a chat ban in force is answered `block` (`reason`
/// `sender_banned`, the ban's end in `sender.chat_until`).
#[utoipa::path(post, path = "/api/v1/chat/check", tag = "chat",
    security(("bearer" = [])),
    request_body = ChatCheckRequest,
    responses(
        (status = 200, description = "Flags and the recommended action", body = ChatCheckResponse),
        (status = 400, description = "`game_id` together with `pgn4` (`conflicting_fields`), or `ply` without a game (`ply_without_game`).", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not a game server", body = ErrorEnvelope),
        (status = 404, description = "No archived game has `game_id`", body = ErrorEnvelope),
        (status = 422, description = "A text, an earlier line or the answered line too long (`text_too_long`, naming the field), more than 5 `earlier_lines` (`too_many_earlier_lines`), a `sender` or `answering.sender` that is empty or longer than 64 characters (`invalid_sender`), a PGN4 that does not replay, or `ply` beyond the game", body = ErrorEnvelope),
    ))]
pub async fn check_line(
    _server: ServerCaller,
    state: web::Data<AppState>,
    body: ApiJson<ChatCheckRequest>,
) -> Result<web::Json<ChatCheckResponse>, ApiError> {
    let request = body.into_inner();
    check_length("text", &request.text)?;
    check_conversation(&request)?;
    let standing = match &request.sender {
        Some(name) => Some(sender_standing(&state, name).await?),
        None => None,
    };
    let mut response = analyse(&state, request).await?;
    if let (Some(standing), Some(sender)) = (standing, response.sender.as_mut()) {
        apply_standing(
            &standing,
            sender,
            &mut response.action,
            &mut response.reason,
        );
    }
    Ok(web::Json(response))
}

/// The sender's standing: the same read as `GET /api/v1/players/{name}/standing`.
async fn sender_standing(state: &AppState, name: &str) -> Result<Standing, ApiError> {
    check_sender(name)?;
    let name = name.to_string();
    let name_key = state.settings.privacy.erased_name_key(&name);
    state
        .read_inline(move |conn| {
            sanctions::standing_of(conn, &name, name_key.as_deref(), store::now())
                .map_err(ApiError::from)
        })
        .await
}

/// The line's analysis, against the archived game, the posted PGN4 or no board at all.
async fn analyse(
    state: &AppState,
    request: ChatCheckRequest,
) -> Result<ChatCheckResponse, ApiError> {
    let analyzer = state.chat.current();
    let response = match (request.game_id, &request.pgn4) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest {
                code: "conflicting_fields",
                message: "Give either `game_id` (an archived game) or `pgn4` (the game so far), \
                          not both."
                    .to_string(),
                details: json!({ "fields": ["game_id", "pgn4"] }),
            })
        }
        (Some(id), None) => {
            // The look-up and the replay share one trip to the blocking pool; the connection
            // goes back to the pool before the replay.
            let pool = state.pool.clone();
            web::block(move || {
                let stored = {
                    let mut conn = pool.get()?;
                    games::pgn4(&mut conn, id)?
                };
                let text = stored.ok_or_else(|| game_not_found(id))?;
                let game = replay::replay(&text).map_err(|e| {
                    ApiError::internal(format!("stored game {id} does not replay: {e}"))
                })?;
                check(&analyzer, request, Some(game))
            })
            .await??
        }
        (None, Some(text)) => {
            // Replaying a long game takes a while: off the async workers.
            let text = text.clone();
            web::block(move || {
                let game = replay::replay(&text).map_err(replay_error)?;
                check(&analyzer, request, Some(game))
            })
            .await??
        }
        (None, None) => {
            if request.ply.is_some() {
                return Err(ApiError::BadRequest {
                    code: "ply_without_game",
                    message: "`ply` needs a game: give `game_id` or `pgn4` with it.".to_string(),
                    details: json!({ "field": "ply", "needs": ["game_id", "pgn4"] }),
                });
            }
            check(&analyzer, request, None)?
        }
    };
    Ok(response)
}

/// A line of at most [`MAX_TEXT_CHARS`] characters.
fn check_length(field: &str, text: &str) -> Result<(), ApiError> {
    let chars = text.chars().count();
    if chars <= MAX_TEXT_CHARS {
        return Ok(());
    }
    Err(ApiError::unprocessable(
        "text_too_long",
        format!("`{field}` has {chars} characters; at most {MAX_TEXT_CHARS} are accepted."),
        json!({ "field": field, "max_chars": MAX_TEXT_CHARS, "chars": chars }),
    ))
}

/// The earlier lines and the answered line: few enough, short enough, a real sender.
fn check_conversation(request: &ChatCheckRequest) -> Result<(), ApiError> {
    let earlier = request.earlier_lines.as_deref().unwrap_or_default();
    if earlier.len() > MAX_EARLIER_LINES {
        return Err(ApiError::unprocessable(
            "too_many_earlier_lines",
            format!(
                "`earlier_lines` has {} lines; at most {MAX_EARLIER_LINES} are accepted.",
                earlier.len()
            ),
            json!({ "field": "earlier_lines", "max_items": MAX_EARLIER_LINES,
                    "items": earlier.len() }),
        ));
    }
    for (index, line) in earlier.iter().enumerate() {
        check_length(&format!("earlier_lines[{index}]"), line)?;
    }
    if let Some(answered) = &request.answering {
        check_length("answering.text", &answered.text)?;
        check_name("answering.sender", &answered.sender)?;
    }
    Ok(())
}

/// A sender name must be a possible player name ([`name_problem`]).
fn check_sender(name: &str) -> Result<(), ApiError> {
    check_name("sender", name)
}

fn check_name(field: &str, name: &str) -> Result<(), ApiError> {
    let chars = name.chars().count();
    let Some(problem) = name_problem(name.trim()) else {
        return Ok(());
    };
    Err(ApiError::unprocessable(
        "invalid_sender",
        format!("`{field}` {problem}."),
        json!({ "field": field, "min_chars": 1, "max_chars": MAX_NAME_CHARS, "chars": chars }),
    ))
}

/// A sender who may not chat is blocked whatever the line says.
fn apply_standing(
    standing: &Standing,
    sender: &mut SenderView,
    action: &mut ActionName,
    reason: &mut Option<BlockReason>,
) {
    sender.may_chat = standing.may_chat;
    sender.chat_until = standing.chat_until;
    if !standing.may_chat {
        *action = ActionName::Block;
        *reason = Some(BlockReason::SenderBanned);
    }
}

fn check(
    analyzer: &chat::Analyzer,
    request: ChatCheckRequest,
    game: Option<Replay>,
) -> Result<ChatCheckResponse, ApiError> {
    let plies = game.as_ref().map_or(0, |g| g.plies.len());
    let ply = match request.ply {
        Some(ply) if usize::try_from(ply).map_or(true, |p| p > plies) => {
            return Err(ApiError::unprocessable(
                "ply_out_of_range",
                format!("`ply` is {ply}, but the game has {plies} plies: give 0 to {plies}."),
                json!({ "field": "ply", "ply": ply, "min": 0, "max": plies }),
            ));
        }
        Some(ply) => ply as usize,
        None => plies,
    };
    let variant = match (request.variant, &game) {
        (Some(v), _) => variant(v),
        (None, Some(game)) => variant_of(game),
        (None, None) => chat::Variant::Ffa,
    };
    // A line sent before the last ply was sent while the game was still being played.
    let in_progress = request.in_progress.unwrap_or_else(|| {
        game.as_ref()
            .is_none_or(|g| ply < plies || g.game.end().is_none())
    });
    let context = LineContext {
        variant,
        channel: match request.channel.unwrap_or(ChannelName::Game) {
            ChannelName::Game => chat::Channel::Game,
            ChannelName::Team => chat::Channel::Team,
            ChannelName::Spectator => chat::Channel::Spectator,
        },
        in_progress,
        diplomacy: request.diplomacy.unwrap_or(false),
        position: None,
    };
    let board = game.as_ref().map(|game| {
        // The sender's seat as given, else by the player names of the game's tags.
        let sender = request.sender_seat.map(seat).or_else(|| {
            request
                .sender
                .as_deref()
                .and_then(|name| chat::context::seat_of_player(game, name))
        });
        BoardContext::of_replay(game, u32::try_from(ply).ok(), sender)
    });
    let (mut analysis, position) =
        analyze_line_in_context(analyzer, &context, board, &request.text);
    let given = GivenConversation {
        earlier: request
            .earlier_lines
            .iter()
            .flatten()
            .map(String::as_str)
            .collect(),
        answering: request
            .answering
            .as_ref()
            .map(|a| (a.sender.trim(), a.text.as_str())),
    };
    read_in_given_conversation(analyzer, &context, &request.text, &given, &mut analysis);
    let mut response = check_response(&request.text, analysis, position);
    response.sender = request.sender.map(|name| SenderView {
        name,
        may_chat: true,
        chat_until: None,
    });
    Ok(response)
}

fn variant(v: VariantName) -> chat::Variant {
    match v {
        VariantName::Teams => chat::Variant::Teams,
        VariantName::Ffa => chat::Variant::Ffa,
        VariantName::Solo => chat::Variant::Solo,
        VariantName::Other => chat::Variant::Other,
    }
}

fn variant_of(game: &Replay) -> chat::Variant {
    if game.rules.scoring == Scoring::Teams {
        chat::Variant::Teams
    } else {
        match game.rules.name.as_str() {
            "ffa" => chat::Variant::Ffa,
            "solo" => chat::Variant::Solo,
            _ => chat::Variant::Other,
        }
    }
}

fn seat(s: SeatName) -> Seat {
    match s {
        SeatName::Red => Seat::Red,
        SeatName::Blue => Seat::Blue,
        SeatName::Yellow => Seat::Yellow,
        SeatName::Green => Seat::Green,
    }
}

fn replay_error(error: ReplayError) -> ApiError {
    match error {
        ReplayError::Parse(e) => ApiError::unprocessable(
            "invalid_pgn4",
            format!("The PGN4 could not be read: {e}."),
            json!({ "field": "pgn4", "line": e.line, "column": e.column,
                    "expected": e.expected, "found": e.found }),
        ),
        ReplayError::IllegalMove {
            ply,
            round,
            seat,
            text,
            reason,
            ..
        } => ApiError::unprocessable(
            "illegal_move",
            format!("The PGN4 has an illegal move at ply {ply} (round {round}, {seat}): {text}: {reason}."),
            json!({ "field": "pgn4", "ply": ply, "round": round, "move": text }),
        ),
        other => ApiError::unprocessable(
            "invalid_pgn4",
            format!("The PGN4 could not be replayed: {other}."),
            json!({ "field": "pgn4" }),
        ),
    }
}
