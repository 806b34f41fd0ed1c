//! Conduct: PURE functions over plain data (no I/O, no clock; "now" is always an argument).
//!
//! - [`outcomes`]: what became of each seat of a replayed game (completed, aborted, resigned,
//!   timed out, forfeited after a disconnect, claimed win) with qualifiers (early, in check,
//!   lost position, partner still playing, rating change);
//! - [`PlayerRecord`]: a bounded per-player record updated incrementally, equal to a rebuild;
//! - [`signals`]: habits, never single games (docs/moderation.md, "The several-games rule");
//! - views for the admin, the player and a game server;
//! - [`stored`]: the compact text a record is stored as.
//!
//! Thresholds come from [`ConductPolicy`] (`config/conduct.toml`).

pub mod abort;
pub mod facts;
pub mod outcome;
pub mod policy;
pub mod record;
pub mod settings;
pub mod signal;
pub mod stored;
pub mod view;

pub use facts::{ConductFacts, ConductSeat, GameEvent, GameEventKind, SeatColor, TimeControl};
pub use outcome::{
    leaves, outcomes, Departure, DepartureKind, OutcomeKind, PositionAssessment, SeatOutcome,
};
pub use policy::{
    AbandonmentRule, ConductPolicy, ConductPolicyError, HabitRule, LostPositionQuittingRule,
    QualifierPolicy, RecordPolicy, SandbaggingRule, SignalPolicies, DEFAULT_CONDUCT_TOML,
};
pub use record::{day_of, Applied, DayBucket, OutcomeCounts, OutcomeRates, PlayerRecord};
pub use settings::{ConductSettings, MAX_CONDUCT_APPLY_BATCH, MAX_CONDUCT_APPLY_INTERVAL_MS};
pub use signal::{is_new_signal, signals, Signal, SignalKind};
pub use view::{
    admin_view, player_summary, server_view, AdminConductView, ConductNotice, PlayerConductSummary,
    ServerConductView, WindowSummary,
};
