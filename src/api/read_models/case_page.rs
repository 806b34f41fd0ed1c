//! What the console's case page shows, from one read: the case with its evidence (as the
//! JSON route answers it), the ladder's suggestion for the accused, and the stored games
//! behind each flagged line the chat check judged on the board.

use crate::api::error::ApiError;
use crate::api::read_models::case_detail::{case_detail, case_not_found, CasePolicies};
use crate::api::state::AppState;
use crate::api::views::queue::CaseDetailView;
use crate::moderation::{suggest_next_sanction, LadderStep, ModerationPolicy};
use crate::store::{games, players, sanctions, to_utc, DbConnection};

/// A flagged line whose flag names a move on the board, with the game it was sent in.
pub struct FlaggedBoard {
    pub game_id: i64,
    pub line_idx: i32,
    pub ply: i32,
    /// What the check found on the board.
    pub finding: String,
    /// The game's record as stored, to replay to the line's ply.
    pub pgn4: String,
}

pub struct CasePageContent {
    pub case: CaseDetailView,
    /// The ladder's next step for the accused and this case's reason; `None` for an accused
    /// who has no player row.
    pub ladder: Option<LadderStep>,
    pub boards: Vec<FlaggedBoard>,
}

/// The ladder's suggestion for the case's accused and reason at `now`.
fn ladder(
    conn: &mut DbConnection,
    case: &CaseDetailView,
    now: chrono::NaiveDateTime,
    policy: &ModerationPolicy,
) -> Result<Option<LadderStep>, ApiError> {
    let Some(accused) = players::find_id(conn, &case.case.accused)? else {
        return Ok(None);
    };
    let measures = sanctions::prior_measures(conn, accused)?;
    Ok(Some(suggest_next_sanction(
        &measures,
        case.case.reason,
        to_utc(now),
        policy,
    )))
}

/// The flagged lines with a board finding, each with its game's stored record.
fn boards(conn: &mut DbConnection, case: &CaseDetailView) -> Result<Vec<FlaggedBoard>, ApiError> {
    let mut boards = Vec::new();
    for line in &case.flagged_lines {
        let Some(finding) = line.flags.iter().find_map(|f| f.evidence_finding.clone()) else {
            continue;
        };
        if let Some(pgn4) = games::pgn4(conn, line.game_id)? {
            boards.push(FlaggedBoard {
                game_id: line.game_id,
                line_idx: line.line.line_idx,
                ply: line.line.ply,
                finding,
                pgn4,
            });
        }
    }
    Ok(boards)
}

/// Case `id`'s page, now; 404 when there is no such case.
pub async fn read_case_page(state: &AppState, id: i64) -> Result<CasePageContent, ApiError> {
    let (conduct, moderation) = (state.conduct.clone(), state.moderation.clone());
    state
        .read(move |conn| {
            let now = crate::store::now();
            let policies = CasePolicies {
                conduct: &conduct,
                moderation: &moderation,
            };
            let case = case_detail(conn, id, now, policies)?.ok_or_else(|| case_not_found(id))?;
            Ok::<_, ApiError>(CasePageContent {
                ladder: ladder(conn, &case, now, &moderation)?,
                boards: boards(conn, &case)?,
                case,
            })
        })
        .await
}
