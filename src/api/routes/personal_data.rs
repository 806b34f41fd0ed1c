//! A player's personal data: the export (`GET /api/v1/players/{name}/export`, an admin or the
//! player themselves) and the erasure (`POST /api/v1/admin/players/{name}/erase`, admins).

use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use chrono::Utc;
use futures_util::stream::{self, Stream};
use serde::Serialize;
use serde_json::json;

use crate::api::auth::AdminCaller;
use crate::api::auth::AnyCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::player_names::checked_name;
use crate::api::state::AppState;
use crate::api::views::conduct::{ConductRecordView, ConductViewName};
use crate::api::views::player_export::{
    ErasureBody, ErasureView, ExportAppealView, ExportCaseView, ExportChatLineView, ExportGameView,
    ExportNoteView, ExportReportView, ExportSanctionView, ExportScope, PlayerExport,
};
use crate::api::views::refunds::RefundLineView;
use crate::api::views::warnings::WarningView;
use crate::moderation::erasure::{validate_erasure, ErasureProblem};
use crate::store::modlog::{LogActor, LogActorKind};
use crate::store::player_export::{self, ExportRecords};
use crate::store::{self};
use crate::usecases::erase_player::{self, EraseError, ErasureRequest};
use crate::usecases::export_player::{self, HeldRecords};

/// Games and chat lines are read this many rows at a time.
const EXPORT_PAGE: i64 = 500;

/// Everything held about a player, as one JSON document: games with the player's seat and
/// result, their chat lines still held, reports filed and received, cases, sanctions,
/// appeals, admins' notes and the conduct record. Streamed: a player with many games costs
/// the service one page of rows at a time. The player's own export leaves out what the API
/// hides from them elsewhere: who reported them, the reporters' messages, the other players a
/// report names, and the admins' notes. Logged as `player_exported`.
#[utoipa::path(get, path = "/api/v1/players/{name}/export", tag = "moderation",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    responses(
        (status = 200, description = "The whole document", body = PlayerExport),
        (status = 400, description = "Bad name", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "A game server, or a player asking for another player's data", body = ErrorEnvelope),
        (status = 404, description = "Nothing is held under this name", body = ErrorEnvelope),
    ))]
pub async fn export_player(
    caller: AnyCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let player = checked_name(&name)?;
    let (scope, actor_kind, actor_name) = match caller {
        AnyCaller::Admin(admin) => (ExportScope::Admin, LogActorKind::Admin, admin.name),
        AnyCaller::Player(own) if own.player == player => {
            (ExportScope::Own, LogActorKind::Player, own.player)
        }
        AnyCaller::Player(_) => {
            return Err(ApiError::Forbidden {
                allowed: &["admin"],
                actual: "player",
            })
        }
        AnyCaller::Server(_) => {
            return Err(ApiError::Forbidden {
                allowed: &["admin", "player"],
                actual: "server",
            })
        }
    };
    let lookup = player.clone();
    let HeldRecords {
        moderation: records,
        conduct: record,
    } = state
        .read(move |conn| export_player::held_records(conn, &lookup))
        .await?
        .ok_or_else(|| {
            ApiError::not_found(
                "player_not_found",
                format!("Nothing is held about player {player:?}."),
            )
        })?;
    let now = Utc::now();
    let audience = match scope {
        ExportScope::Admin => ConductViewName::Admin,
        ExportScope::Own => ConductViewName::Player,
    };
    let conduct =
        record.map(|record| ConductRecordView::of(audience, &record, now, &state.conduct));
    let logged = player.clone();
    state
        .write(move |conn| {
            let actor = LogActor {
                kind: actor_kind,
                name: Some(&actor_name),
            };
            export_player::log_export(conn, actor, &logged, store::now())
        })
        .await?;

    let head = format!(
        "{{\"player\":{},\"scope\":{},\"exported_at\":{},\"games\":[",
        to_json(&player)?,
        to_json(&scope)?,
        to_json(&now)?
    );
    let rest = rest_of_document(records, scope, &player, conduct)?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .streaming(export_stream(state, player, head, rest)))
}

/// The moderation records and the conduct record: the document's closing fields, as
/// `"reports_filed":...}` (the object's opening brace dropped).
fn rest_of_document(
    records: ExportRecords,
    scope: ExportScope,
    player: &str,
    conduct: Option<ConductRecordView>,
) -> Result<String, ApiError> {
    #[derive(Serialize)]
    struct Rest {
        reports_filed: Vec<ExportReportView>,
        reports_received: Vec<ExportReportView>,
        cases: Vec<ExportCaseView>,
        sanctions: Vec<ExportSanctionView>,
        appeals: Vec<ExportAppealView>,
        warnings: Vec<WarningView>,
        refunds_owed: Vec<RefundLineView>,
        #[serde(skip_serializing_if = "Option::is_none")]
        notes: Option<Vec<ExportNoteView>>,
        conduct: Option<ConductRecordView>,
    }
    let rest = Rest {
        reports_filed: records
            .reports_filed
            .into_iter()
            .map(|r| ExportReportView::filed(r, scope))
            .collect::<Result<_, _>>()?,
        reports_received: records
            .reports_received
            .into_iter()
            .map(|r| ExportReportView::received(r, scope, player))
            .collect::<Result<_, _>>()?,
        cases: records
            .cases
            .into_iter()
            .map(ExportCaseView::from_row)
            .collect::<Result<_, _>>()?,
        sanctions: records
            .sanctions
            .into_iter()
            .map(ExportSanctionView::from_row)
            .collect::<Result<_, _>>()?,
        appeals: records
            .appeals
            .into_iter()
            .map(ExportAppealView::from_row)
            .collect::<Result<_, _>>()?,
        warnings: records.warnings.into_iter().map(Into::into).collect(),
        refunds_owed: records.refunds.into_iter().map(Into::into).collect(),
        notes: (scope == ExportScope::Admin)
            .then(|| records.notes.into_iter().map(Into::into).collect()),
        conduct,
    };
    let text = to_json(&rest)?;
    Ok(text.strip_prefix('{').unwrap_or(&text).to_string())
}

fn to_json<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(ApiError::internal)
}

/// Where the streamed document stands.
enum Part {
    Games(Option<i64>),
    Chat(Option<(i64, i32)>),
    Rest,
    Done,
}

/// The document: the head, the games page by page, the chat lines page by page, the rest.
/// A failed read ends the body early; the client sees a truncated document.
fn export_stream(
    state: web::Data<AppState>,
    player: String,
    head: String,
    rest: String,
) -> impl Stream<Item = Result<Bytes, actix_web::Error>> {
    let first = stream::once(async move { Ok::<Bytes, ApiError>(Bytes::from(head)) });
    let pages = stream::try_unfold((Part::Games(None), true), move |(part, first_item)| {
        let state = state.clone();
        let player = player.clone();
        let rest = rest.clone();
        async move {
            match part {
                Part::Games(after) => {
                    let name = player.clone();
                    let rows = state
                        .read(move |conn| {
                            player_export::games_page(conn, &name, after, EXPORT_PAGE)
                        })
                        .await?;
                    let next = rows.last().map(|g| g.game_id);
                    let full = rows.len() as i64 == EXPORT_PAGE;
                    let mut text = items(rows.iter().map(ExportGameView::from_row), first_item)?;
                    let first_item = first_item && rows.is_empty();
                    if full {
                        Ok(Some((Bytes::from(text), (Part::Games(next), first_item))))
                    } else {
                        text.push_str("],\"chat_lines\":[");
                        Ok(Some((Bytes::from(text), (Part::Chat(None), true))))
                    }
                }
                Part::Chat(after) => {
                    let name = player.clone();
                    let rows = state
                        .read(move |conn| player_export::chat_page(conn, &name, after, EXPORT_PAGE))
                        .await?;
                    let next = rows.last().map(|l| (l.game_id, l.idx));
                    let full = rows.len() as i64 == EXPORT_PAGE;
                    let text = items(
                        rows.into_iter().map(ExportChatLineView::from_row),
                        first_item,
                    )?;
                    let first_item = first_item && text.is_empty();
                    let part = if full { Part::Chat(next) } else { Part::Rest };
                    Ok(Some((Bytes::from(text), (part, first_item))))
                }
                Part::Rest => Ok(Some((
                    Bytes::from(format!("],{rest}")),
                    (Part::Done, false),
                ))),
                Part::Done => Ok(None),
            }
        }
    });
    futures_util::TryStreamExt::map_err(
        futures_util::StreamExt::chain(first, pages),
        actix_web::Error::from,
    )
}

/// Array items as JSON, each preceded by a comma unless it is the array's first.
fn items<T: Serialize>(
    views: impl Iterator<Item = Result<T, ApiError>>,
    first_item: bool,
) -> Result<String, ApiError> {
    let mut text = String::new();
    let mut first = first_item;
    for view in views {
        if !first {
            text.push(',');
        }
        first = false;
        text.push_str(&to_json(&view?)?);
    }
    Ok(text)
}

/// Erase a player: their chat lines and fingerprints are deleted and their name is replaced
/// by the pseudonym `erased-<id>` everywhere (games, PGN4 tags, reports, notes, cases, the
/// moderation log, conduct and collusion records). Their sanctions keep answering the
/// standing check for the old name through a keyed hash of it. One transaction; logged as
/// `player_erased`. Needs `[privacy] erasure_key`.
#[utoipa::path(post, path = "/api/v1/admin/players/{name}/erase", tag = "moderation",
    security(("bearer" = [])),
    params(("name" = String, Path, description = "Player name", example = "Spaksi")),
    request_body = ErasureBody,
    responses(
        (status = 200, description = "What the erasure changed", body = ErasureView),
        (status = 400, description = "Malformed body or name", body = ErrorEnvelope),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "Nothing is held under this name", body = ErrorEnvelope),
        (status = 409, description = "Erasure is not configured ([privacy] erasure_key is empty), or earlier erasures were made under another key", body = ErrorEnvelope),
        (status = 422, description = "`confirm` is not the name, `why` is empty or too long, or the name is already a pseudonym", body = ErrorEnvelope),
    ))]
pub async fn erase_player(
    admin: AdminCaller,
    state: web::Data<AppState>,
    name: web::Path<String>,
    body: ApiJson<ErasureBody>,
) -> Result<web::Json<ErasureView>, ApiError> {
    let player = checked_name(&name)?;
    let body = body.into_inner();
    validate_erasure(&player, body.confirm.trim(), &body.why).map_err(erasure_problem)?;
    let privacy = &state.settings.privacy;
    let (Some(name_key), Some(key_check)) = (
        privacy.erased_name_key(&player),
        privacy.erasure_key_check(),
    ) else {
        return Err(ApiError::conflict(
            "erasure_not_configured",
            "Erasure needs [privacy] erasure_key (ARBITER_PRIVACY__ERASURE_KEY): the key of \
             the hash that keeps the erased name answering the standing check.",
        ));
    };
    let why = body.why.trim().to_string();
    let erased = state
        .write(move |conn| {
            let request = ErasureRequest {
                name: &player,
                name_key: &name_key,
                key_check: &key_check,
                admin: &admin.name,
                why: &why,
            };
            erase_player::erase(conn, &request, store::now()).map_err(|e| match e {
                EraseError::UnknownPlayer => ApiError::not_found(
                    "player_not_found",
                    format!("Nothing is held about player {player:?}."),
                ),
                EraseError::KeyMismatch => ApiError::conflict(
                    "erasure_key_mismatch",
                    "Earlier erasures were made under another [privacy] erasure_key \
                     (ARBITER_PRIVACY__ERASURE_KEY): every instance must run with the key they \
                     were made under.",
                ),
                EraseError::Db(e) => e.into(),
            })
        })
        .await?;
    tracing::info!(
        pseudonym = %erased.pseudonym,
        games = erased.games,
        chat_lines_deleted = erased.chat_lines_deleted,
        texts_rewritten = erased.texts_rewritten,
        "player erased"
    );
    Ok(web::Json(ErasureView {
        pseudonym: erased.pseudonym,
        games: erased.games,
        chat_lines_deleted: erased.chat_lines_deleted,
        texts_rewritten: erased.texts_rewritten,
    }))
}

fn erasure_problem(problem: ErasureProblem) -> ApiError {
    match problem {
        ErasureProblem::ConfirmMismatch => ApiError::unprocessable(
            "confirm_mismatch",
            "`confirm` must repeat the player's name exactly.",
            json!({ "field": "confirm" }),
        ),
        ErasureProblem::Why { max } => ApiError::unprocessable(
            "invalid_why",
            format!("`why` must say why, in 1 to {max} characters."),
            json!({ "field": "why", "max_chars": max }),
        ),
        ErasureProblem::AlreadyErased => ApiError::unprocessable(
            "already_erased",
            "This name is an erasure's pseudonym already.",
            json!({ "field": "name" }),
        ),
    }
}
