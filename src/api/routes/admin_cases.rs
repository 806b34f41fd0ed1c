//! Working a case (admin role): claim, release, decide.

use actix_web::web;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::auth::AdminCaller;
use crate::api::error::{ApiError, ErrorEnvelope};
use crate::api::json::ApiJson;
use crate::api::state::AppState;
use crate::api::views::cases::{ClaimOutcomeName, ClaimView, DecisionView, Released, TimeoutView};
use crate::api::views::sanctions::SanctionView;
use crate::moderation::{
    ClaimOutcome, Conflict, DecisionAction, GameNumber, Ground, SanctionDuration, SanctionKind,
    GAME_NUMBER_RULE,
};
use crate::store::{self, players, to_utc, DbConnection};
use crate::usecases::claim_case::{self, ClaimResult, ReleaseResult};
use crate::usecases::decide_case::{decide_case as decide, DecideError, DecisionInput};

fn case_not_found(id: i64) -> ApiError {
    ApiError::not_found("case_not_found", format!("There is no case {id}."))
}

fn case_decided(id: i64) -> ApiError {
    ApiError::conflict("case_decided", format!("Case {id} is already decided."))
}

/// The admin's player id (admins act under their player name).
pub(crate) fn admin_id(conn: &mut DbConnection, name: &str) -> Result<i64, ApiError> {
    Ok(players::id_or_create(conn, name, store::now())?)
}

fn party_refusal(conflict: Conflict) -> ApiError {
    ApiError::Refused {
        code: "conflict_of_interest",
        message: conflict.to_string(),
        details: json!({ "conflict": conflict }),
    }
}

/// Claim a case: only the holder may decide it until the claim expires
/// (`[claim] expiry_minutes`). Claiming again renews.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/claim", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "The caller holds the case", body = ClaimView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin, or the admin is a party to the case (`conflict_of_interest`)", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "Another admin holds it (`case_claimed`, with `holder` and `until`), or it is decided", body = ErrorEnvelope),
    ))]
pub async fn claim_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<ClaimView>, ApiError> {
    let id = id.into_inner();
    let policy = state.moderation.clone();
    let name = admin.name.clone();
    let result = state
        .write(move |conn| {
            let me = admin_id(conn, &name)?;
            Ok::<_, ApiError>(claim_case::claim(
                conn,
                id,
                (me, &name),
                &policy,
                store::now(),
            )?)
        })
        .await?;
    match result {
        ClaimResult::Granted { until, outcome } => Ok(web::Json(ClaimView {
            case_id: id,
            claimed_by: admin.name,
            claimed_until: until,
            outcome: match outcome {
                ClaimOutcome::TakeOver { .. } => ClaimOutcomeName::TakenOver,
                ClaimOutcome::Renew { .. } => ClaimOutcomeName::Renewed,
                _ => ClaimOutcomeName::Claimed,
            },
        })),
        ClaimResult::Held { holder, until } => Err(ApiError::Conflict {
            code: "case_claimed",
            message: format!(
                "Case {id} is claimed by {holder} until {}.",
                until.to_rfc3339()
            ),
            details: json!({ "holder": holder, "until": until }),
        }),
        ClaimResult::Party(conflict) => Err(party_refusal(conflict)),
        ClaimResult::Decided => Err(case_decided(id)),
        ClaimResult::NotFound => Err(case_not_found(id)),
    }
}

/// Give up the caller's claim on a case.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/release", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    responses(
        (status = 200, description = "Released", body = Released),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "The caller holds no running claim on it", body = ErrorEnvelope),
    ))]
pub async fn release_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<web::Json<Released>, ApiError> {
    let id = id.into_inner();
    let result = state
        .write(move |conn| {
            let me = admin_id(conn, &admin.name)?;
            Ok::<_, ApiError>(claim_case::release(
                conn,
                id,
                (me, &admin.name),
                store::now(),
            )?)
        })
        .await?;
    match result {
        ReleaseResult::Released => Ok(web::Json(Released {
            case_id: id,
            released: true,
        })),
        ReleaseResult::NotHeld => Err(ApiError::conflict(
            "claim_required",
            format!("You hold no running claim on case {id}."),
        )),
        ReleaseResult::NotFound => Err(case_not_found(id)),
    }
}

/// The sanction of a `sanction` decision.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SanctionBody {
    pub kind: SanctionKind,
    /// Length in minutes (temporary); or `permanent: true`.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 4294967295.0)]
    pub minutes: Option<u32>,
    #[serde(default)]
    pub permanent: bool,
}

/// What the admin decides.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionChoice {
    DismissUnjustified,
    DismissNotActionable,
    Warn,
    Sanction,
}

/// A decision on a claimed case.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisionBody {
    pub decision: DecisionChoice,
    /// Required with `decision: sanction`.
    #[serde(default)]
    pub sanction: Option<SanctionBody>,
    /// What the accused did (required to warn or sanction).
    #[serde(default)]
    pub ground: Option<Ground>,
    /// Required for a sanction.
    #[serde(default)]
    pub note: Option<String>,
    /// Further game numbers the admin found, beyond those the reports cite.
    #[serde(default)]
    pub evidence_games: Vec<i64>,
    /// A message preset's key (`GET /api/v1/admin/presets`): the player is told its text,
    /// then `note` if given. It must fit the case's reason and the decision.
    #[serde(default)]
    #[schema(example = "offensive_chat_warn")]
    pub preset: Option<String>,
}

/// Evidence game numbers follow the game-number rule; checked before the case is touched.
fn check_evidence_numbers(games: &[i64]) -> Result<(), ApiError> {
    for (index, &game) in games.iter().enumerate() {
        if let Err(why) = GameNumber::checked(game) {
            return Err(ApiError::unprocessable(
                "invalid_game_number",
                format!(
                    "Game number {game} is invalid: {why}; a game number is {GAME_NUMBER_RULE}."
                ),
                json!({ "field": format!("evidence_games[{index}]"), "game": game }),
            ));
        }
    }
    Ok(())
}

fn action_of(body: &DecisionBody) -> Result<DecisionAction, ApiError> {
    let invalid = |field: &str, message: &str| {
        ApiError::unprocessable(
            "invalid_decision",
            message.to_string(),
            json!({ "field": field }),
        )
    };
    match (body.decision, &body.sanction) {
        (DecisionChoice::Sanction, None) => Err(invalid(
            "sanction",
            "A sanction decision needs `sanction` with its `kind` and `minutes` or `permanent`.",
        )),
        (DecisionChoice::Sanction, Some(s)) => {
            let duration = match (s.minutes, s.permanent) {
                (Some(minutes), false) => SanctionDuration::Temporary { minutes },
                (None, true) => SanctionDuration::Permanent,
                _ => {
                    return Err(invalid(
                        "sanction.minutes",
                        "Give either `minutes` or `permanent: true`.",
                    ))
                }
            };
            Ok(DecisionAction::Sanction {
                sanction: s.kind,
                duration,
            })
        }
        (_, Some(_)) => Err(invalid(
            "sanction",
            "`sanction` goes only with `decision: sanction`.",
        )),
        (DecisionChoice::DismissUnjustified, None) => Ok(DecisionAction::DismissUnjustified),
        (DecisionChoice::DismissNotActionable, None) => Ok(DecisionAction::DismissNotActionable),
        (DecisionChoice::Warn, None) => Ok(DecisionAction::Warn),
    }
}

/// Decide a case the caller holds: dismiss (unjustified counts against the reporters; not
/// actionable does not), warn, or sanction. The several-games rule (docs/moderation.md)
/// applies to habitual grounds.
#[utoipa::path(post, path = "/api/v1/admin/cases/{id}/decision", tag = "cases",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "Case id", example = 1)),
    request_body = DecisionBody,
    responses(
        (status = 200, description = "Decided", body = DecisionView),
        (status = 401, description = "No valid credentials", body = ErrorEnvelope),
        (status = 403, description = "Not an admin, or a party to the case", body = ErrorEnvelope),
        (status = 404, description = "No such case", body = ErrorEnvelope),
        (status = 409, description = "Already decided, or the caller holds no running claim", body = ErrorEnvelope),
        (status = 422, description = "The decision breaks a rule (`single_game_evidence`, `ground_required`...); `details.field` names it", body = ErrorEnvelope),
    ))]
pub async fn decide_case(
    admin: AdminCaller,
    state: web::Data<AppState>,
    id: web::Path<i64>,
    body: ApiJson<DecisionBody>,
) -> Result<web::Json<DecisionView>, ApiError> {
    let id = id.into_inner();
    let body = body.into_inner();
    let action = action_of(&body)?;
    check_evidence_numbers(&body.evidence_games)?;
    let preset = match body.preset.as_deref() {
        None => None,
        Some(key) => Some(state.presets.find(key).cloned().ok_or_else(|| {
            ApiError::unprocessable(
                "unknown_preset",
                format!("There is no preset {key:?}; GET /api/v1/admin/presets lists them."),
                json!({ "field": "preset" }),
            )
        })?),
    };
    let policy = state.moderation.clone();
    let decided = state
        .write(move |conn| {
            let me = admin_id(conn, &admin.name)?;
            let input = DecisionInput {
                admin_id: me,
                admin_name: admin.name,
                action,
                ground: body.ground,
                note: body.note,
                evidence_games: body.evidence_games,
                preset,
            };
            decide(conn, id, &input, &policy, store::now()).map_err(|e| decide_error(id, e))
        })
        .await?;
    state.webhooks_wake.notify_one();
    Ok(web::Json(DecisionView {
        decision_id: decided.decision_id,
        case_id: decided.case_id,
        accused: decided.accused,
        kind: decided.kind,
        ground: decided.ground,
        evidence_games: decided.evidence_games.iter().map(|g| g.0).collect(),
        report_outcome: decided.report_outcome,
        sanction: decided.sanction.map(SanctionView::from_row).transpose()?,
        report_timeouts: decided
            .report_timeouts
            .into_iter()
            .map(|(player, t)| TimeoutView {
                player,
                level: t.level,
                starts_at: t.starts_at,
                until: t.until,
            })
            .collect(),
        next_step: decided.next_step,
        decided_at: to_utc(decided.decided_at),
    }))
}

fn decide_error(id: i64, err: DecideError) -> ApiError {
    match err {
        DecideError::NotFound => case_not_found(id),
        DecideError::AlreadyDecided => case_decided(id),
        DecideError::NotClaimed { holder } => match holder {
            Some((holder, until)) => ApiError::Conflict {
                code: "claim_required",
                message: format!(
                    "Claim case {id} before deciding it; {holder} holds it until {}.",
                    until.to_rfc3339()
                ),
                details: json!({ "holder": holder, "until": until }),
            },
            None => ApiError::conflict(
                "claim_required",
                format!("Claim case {id} before deciding it."),
            ),
        },
        DecideError::UnknownEvidenceGame(game) => ApiError::unprocessable(
            "unknown_game",
            format!("There is no game {game}."),
            json!({ "field": "evidence_games", "game": game }),
        ),
        DecideError::EvidenceGameWithoutAccused(game) => ApiError::unprocessable(
            "invalid_decision",
            format!("The accused did not play in game {game}."),
            json!({ "field": "evidence_games", "game": game }),
        ),
        DecideError::Invalid(problems) => {
            let first = problems.first();
            if let Some(
                problem @ (crate::moderation::DecisionProblem::AdminIsAccused
                | crate::moderation::DecisionProblem::AdminIsReporter),
            ) = first
            {
                return ApiError::Refused {
                    code: "conflict_of_interest",
                    message: problem.message(),
                    details: json!({ "conflict": problem }),
                };
            }
            let code = match first {
                Some(crate::moderation::DecisionProblem::SingleGameEvidence { .. }) => {
                    "single_game_evidence"
                }
                Some(crate::moderation::DecisionProblem::GroundRequired) => "ground_required",
                Some(crate::moderation::DecisionProblem::PresetDoesNotFit { .. }) => {
                    "preset_does_not_fit"
                }
                _ => "invalid_decision",
            };
            let listed: Vec<serde_json::Value> = problems
                .iter()
                .map(|p| {
                    let mut v = serde_json::to_value(p).unwrap_or_else(|_| json!({}));
                    if let Some(o) = v.as_object_mut() {
                        o.insert("field".into(), json!(p.field()));
                        o.insert("message".into(), json!(p.message()));
                    }
                    v
                })
                .collect();
            ApiError::unprocessable(
                code,
                problems
                    .iter()
                    .map(|p| p.message())
                    .collect::<Vec<_>>()
                    .join(" "),
                json!({ "field": first.map(|p| p.field()), "problems": listed }),
            )
        }
        DecideError::Db(err) => err.into(),
    }
}
