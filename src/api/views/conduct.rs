//! A player's conduct record in the caller's view.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::conduct::{
    admin_view, player_summary, server_view, AdminConductView, ConductPolicy, PlayerConductSummary,
    PlayerRecord, ServerConductView,
};

/// Which shape `conduct` has: the caller's role decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConductViewName {
    Admin,
    Player,
    Server,
}

/// The conduct record as one audience sees it (`conduct::view`), written as that view alone:
/// the JSON holds no tag, `ConductResponse::view` names the shape.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ConductRecordView {
    Admin(AdminConductView),
    Player(PlayerConductSummary),
    Server(ServerConductView),
}

impl ConductRecordView {
    /// `record` in the view of `audience` at `now`.
    pub fn of(
        audience: ConductViewName,
        record: &PlayerRecord,
        now: DateTime<Utc>,
        policy: &ConductPolicy,
    ) -> ConductRecordView {
        match audience {
            ConductViewName::Admin => ConductRecordView::Admin(admin_view(record, now, policy)),
            ConductViewName::Player => {
                ConductRecordView::Player(player_summary(record, now, policy))
            }
            ConductViewName::Server => ConductRecordView::Server(server_view(record, now, policy)),
        }
    }
}

/// A player's conduct record. `view` says which shape `conduct` has:
/// - `admin`: the full record (totals, the recent outcomes with their game ids and
///   qualifiers, per-day counts), the recent/short/long window summaries, and every signal
///   with its strength, explanation and supporting game ids;
/// - `player` (the caller's own record only): counts and rates per window, the recent outcome
///   sequence `[game id, outcome]`, and notices (signal kind, explanation, games);
/// - `server`: aborts caused, the recent abandonment rate and the active signal kinds.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConductResponse {
    pub player: String,
    pub view: ConductViewName,
    #[schema(value_type = Object)]
    pub conduct: ConductRecordView,
}
