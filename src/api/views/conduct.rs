//! A player's conduct record in the caller's view.

use serde::Serialize;
use utoipa::ToSchema;

/// Which shape `conduct` has: the caller's role decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConductViewName {
    Admin,
    Player,
    Server,
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
    pub conduct: serde_json::Value,
}
