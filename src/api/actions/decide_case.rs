//! Decide a case the admin holds: dismiss (unjustified counts against the reporters; not
//! actionable does not), warn, or sanction.

use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::api::actions::acting_admin::admin_id;
use crate::api::actions::claim_case::{case_decided, case_not_found};
use crate::api::error::ApiError;
use crate::api::player_names::check_player_name;
use crate::api::state::AppState;
use crate::api::views::cases::{DecisionView, TimeoutView};
use crate::api::views::sanctions::SanctionView;
use crate::api::views::warnings::WarningView;
use crate::moderation::{
    CaseId, DecisionAction, DecisionProblem, GameNumber, Ground, SanctionDuration, SanctionKind,
    GAME_NUMBER_RULE,
};
use crate::store::{self, to_utc};
use crate::usecases::decide_case::{decide_case, DecideError, Decided, DecisionInput};

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
    /// With `kind: separation`: the other players to keep apart from the accused (each
    /// accused or co-accused in the case; a ring's members at once).
    #[serde(default)]
    #[schema(example = json!(["Ally"]), max_items = 8)]
    pub members: Vec<String>,
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
    /// What the reporters of the case's reports are told, after the preset's reporter text
    /// (`GET /api/v1/reports/mine`, `report_decided`). Never the note to the accused.
    #[serde(default)]
    #[schema(example = "Thank you: we looked at every game you listed.")]
    pub reporter_note: Option<String>,
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

/// A ring is a few players; the case names them all, so more is a malformed body.
const MAX_SEPARATION_MEMBERS: usize = 8;

/// The separation's other members, trimmed, each a possible player name (whether each is
/// named in the case is the policy's check).
fn separation_names(body: &DecisionBody) -> Result<Vec<String>, ApiError> {
    let Some(sanction) = &body.sanction else {
        return Ok(Vec::new());
    };
    if sanction.members.len() > MAX_SEPARATION_MEMBERS {
        return Err(ApiError::unprocessable(
            "invalid_separation",
            format!("A separation names at most {MAX_SEPARATION_MEMBERS} other players."),
            json!({ "field": "sanction.members" }),
        ));
    }
    let mut names = Vec::with_capacity(sanction.members.len());
    for (index, name) in sanction.members.iter().enumerate() {
        let name = name.trim();
        check_player_name(&format!("sanction.members[{index}]"), name)
            .map_err(|_| invalid_member(index, name))?;
        names.push(name.to_string());
    }
    Ok(names)
}

fn invalid_member(index: usize, name: &str) -> ApiError {
    ApiError::unprocessable(
        "invalid_separation",
        format!("`sanction.members[{index}]` ({name:?}) is not a possible player name."),
        json!({ "field": format!("sanction.members[{index}]") }),
    )
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

/// `admin` decides case `id`, which they hold. The several-games rule (docs/moderation.md)
/// applies to habitual grounds.
pub async fn decide(
    state: &AppState,
    admin: &str,
    id: i64,
    body: DecisionBody,
) -> Result<DecisionView, ApiError> {
    let action = action_of(&body)?;
    check_evidence_numbers(&body.evidence_games)?;
    let separate_from = separation_names(&body)?;
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
    let texts = state.texts.clone();
    let admin_name = admin.to_string();
    let decided = state
        .write(move |conn| {
            let me = admin_id(conn, &admin_name)?;
            let input = DecisionInput {
                admin_id: me,
                admin_name,
                action,
                ground: body.ground,
                note: body.note,
                reporter_note: body.reporter_note,
                evidence_games: body.evidence_games,
                preset,
                separate_from,
            };
            decide_case(conn, CaseId(id), &input, &policy, &texts, store::now())
                .map_err(|e| decide_error(id, e))
        })
        .await?;
    state.webhooks_wake.notify_one();
    decision_view(decided)
}

fn decision_view(decided: Decided) -> Result<DecisionView, ApiError> {
    Ok(DecisionView {
        decision_id: decided.decision_id,
        case_id: decided.case_id.0,
        accused: decided.accused,
        kind: decided.kind,
        ground: decided.ground,
        evidence_games: decided.evidence_games.iter().map(|g| g.0).collect(),
        report_outcome: decided.report_outcome,
        sanction: decided.sanction.map(SanctionView::from_row).transpose()?,
        warning: decided.warning.map(WarningView::from),
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
        separated: decided.separated,
        decided_at: to_utc(decided.decided_at),
    })
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
        DecideError::Invalid(problems) => invalid_decision(&problems),
        DecideError::Db(err) => err.into(),
    }
}

/// The decision rules' problems as one answer: a refusal for a party to the case, else a
/// 422 with the first problem's code and field and every problem listed.
fn invalid_decision(problems: &[DecisionProblem]) -> ApiError {
    let first = problems.first();
    if let Some(problem @ (DecisionProblem::AdminIsAccused | DecisionProblem::AdminIsReporter)) =
        first
    {
        return ApiError::Refused {
            code: "conflict_of_interest",
            message: problem.message(),
            details: json!({ "conflict": problem }),
        };
    }
    let code = match first {
        Some(DecisionProblem::SingleGameEvidence { .. }) => "single_game_evidence",
        Some(DecisionProblem::GroundRequired) => "ground_required",
        Some(DecisionProblem::PresetDoesNotFit { .. }) => "preset_does_not_fit",
        Some(DecisionProblem::Separation { .. }) => "invalid_separation",
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
