//! Moderation policy: PURE functions over plain data (no I/O, no database, no clock; "now" is
//! always an argument). The service calls these to validate and merge reports, rank cases,
//! manage claims, check decisions against the reporting rules, suggest sanctions, compute a
//! player's standing and handle appeals. Thresholds come from [`ModerationPolicy`]
//! (`config/moderation.toml`).
//!
//! The site's rules enforced here (docs/moderation.md, "Policy and its source"):
//! - one report names all involved players, up to three ([`validate_report`]);
//! - "other" needs a message; FFA-only reasons need an FFA or Solo game;
//! - too many unjustified reports earn a report timeout ([`report_timeout_after_decision`]);
//! - the (*) cases are never acted on from a single game ([`validate_decision`], by [`Ground`]);
//! - sanctions are chat, play or club bans, temporary or permanent ([`standing`]).

pub mod abuse;
pub mod alert;
pub mod alert_policy;
pub mod appeal;
pub mod audit;
pub mod case;
pub mod decision;
pub mod decision_action;
pub mod erasure;
pub mod game_number;
pub mod language;
pub mod note;
pub mod policy;
pub mod preset;
pub mod preset_render;
pub mod refund;
pub mod refund_event;
pub mod refund_policy;
pub mod report;
pub mod report_decided_event;
pub mod reporter_notice;
pub mod reporter_policy;
pub mod retention;
pub mod returning_player;
pub mod returning_player_policy;
pub mod sanction_event;
pub mod separation;
pub mod standing;
pub mod stats;
pub mod table_check;
pub mod texts;
pub mod types;
pub mod warning;
pub mod warning_event;
pub mod warning_policy;
pub mod webhook_event_kind;

pub use abuse::{
    accuracy_of_counts, active_report_timeout, check_rate, report_timeout_after_decision,
    reporter_accuracy, Accuracy, DecidedReport, RateWindow, ReportOutcome, ReportTimeout,
    RetryAfter,
};
pub use appeal::{
    apply_appeal_decision, may_decide_appeal, validate_appeal, AppealConflict, AppealDecision,
    AppealDecisionProblem, AppealProblem, AppealRecord, ValidAppeal,
};
pub use audit::{Actor, AuditAction, AuditEntry};
pub use case::{
    age_points, case_priority, claim_status, max_age_points, may_decide, priority_base,
    priority_with_age, stored_parts, CaseEntry, CaseFacts, CaseParties, Claim, ClaimOutcome,
    Conflict, Priority, PriorityParts, PriorityTally,
};
pub use decision::{
    suggest_next_sanction, validate_decision, Decision, DecisionProblem, LadderStep, Measure,
    PriorMeasure, Suggestion, ValidDecision,
};
pub use decision_action::DecisionAction;
pub use game_number::{GameNumberError, GAME_NUMBER_RULE, MAX_GAME_NUMBER};
pub use language::Language;
pub use note::{validate_note, NoteProblem};
pub use policy::{AppealPolicy, ModerationPolicy, PolicyError, DEFAULT_POLICY_TOML};
pub use preset::{DecisionPreset, DecisionPresets, PresetsError, DEFAULT_PRESETS_TOML};
pub use preset_render::{
    compose_note, render_preset, render_reporter_text, render_text, PresetValues,
};
pub use refund::{
    refund_scope, refunds_owed, without_settled, RefundGame, RefundLine, RefundPolicy, RefundScope,
    RefundSeat, Refunds, VictimTotal,
};
pub use refund_event::{RefundCase, RefundsDueEvent};
pub use report::{
    case_key, merge_decision, validate_report, CaseKey, CitedGame, MergeOutcome, NewReport,
    ReportContext, ReportEntry, ReportField, ReportProblem, ValidReport,
};
pub use report_decided_event::{
    DecidedCase, DecidedReportState, DisclosedMeasure, ReportDecidedEvent,
};
pub use reporter_notice::{reporter_notice, MeasureTaken, ReporterNotice};
pub use reporter_policy::{Disclosure, ReporterPolicy};
pub use sanction_event::{SanctionEvent, SanctionState};
pub use separation::{separation_members, SeparationMember, SeparationProblem};
pub use standing::{standing, Standing};
pub use table_check::{check_table, KeptApart, SeatVerdict, TableSanction, TableVerdict};
pub use texts::{Texts, TextsError, Words};
pub use types::{
    AlertId, AppealId, AppealStatus, CaseId, CaseStatus, DecisionKind, GameNumber, Ground,
    LadderTrack, NewSanction, NoteId, PlayerId, ReportId, ReportReason, ReportSource, Reporter,
    Sanction, SanctionDuration, SanctionId, SanctionKind, SeveralGamesRule, Variant, WarningId,
    WordListEntryId,
};
pub use warning::{warning_text, Warning};
pub use warning_event::{WarningIssuedEvent, WarningState};
pub use warning_policy::WarningPolicy;
pub use webhook_event_kind::WebhookEventKind;
