//! One case with its evidence gathered: entries, games, flagged chat with context, the
//! accused's history, conduct record and notes, and for pair reasons the pair's shared games
//! and fingerprints, and once upheld what it owes the victims (refunds).

use chrono::NaiveDateTime;

use crate::api::error::ApiError;
use crate::api::read_models::conduct::admin_record;
use crate::api::state::AppState;
use crate::api::views::queue::CaseDetailView;
use crate::api::views::refunds::RefundsView;
use crate::conduct::ConductPolicy;
use crate::moderation::{CaseId, ModerationPolicy};
use crate::store::{case_evidence, player_notes, refunds, to_utc, DbConnection};

/// Notes on the accused shown in a case.
const CASE_NOTES: i64 = 50;

/// The policies a case's view is computed with.
#[derive(Clone, Copy)]
pub struct CasePolicies<'a> {
    pub conduct: &'a ConductPolicy,
    pub moderation: &'a ModerationPolicy,
}

pub fn case_not_found(id: i64) -> ApiError {
    ApiError::not_found("case_not_found", format!("No case has id {id}."))
}

/// Case `id` as it stands at `now`; `None` when there is no such case.
pub fn case_detail(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
    policies: CasePolicies<'_>,
) -> Result<Option<CaseDetailView>, ApiError> {
    let Some(evidence) = case_evidence::case_evidence(conn, CaseId(id))? else {
        return Ok(None);
    };
    let conduct = admin_record(conn, &evidence.accused, to_utc(now), policies.conduct)?;
    let notes = player_notes::of_player(conn, &evidence.accused, None, CASE_NOTES)?;
    let refunds = RefundsView::from_lines(refunds::of_case(conn, CaseId(id))?);
    let mut view =
        CaseDetailView::from_evidence(evidence, conduct, notes, now, policies.moderation)?;
    view.refunds = refunds;
    Ok(Some(view))
}

/// `case_detail` on a pooled connection, now; 404 when there is no such case.
pub async fn read_case(state: &AppState, id: i64) -> Result<CaseDetailView, ApiError> {
    let (conduct, moderation) = (state.conduct.clone(), state.moderation.clone());
    state
        .read(move |conn| {
            let policies = CasePolicies {
                conduct: &conduct,
                moderation: &moderation,
            };
            case_detail(conn, id, crate::store::now(), policies)
        })
        .await?
        .ok_or_else(|| case_not_found(id))
}
