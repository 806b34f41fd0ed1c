//! Every conduct threshold as data. The documented defaults live in `config/conduct.toml`;
//! [`ConductPolicy::default`] equals that file (a test keeps them in step).

use serde::{Deserialize, Serialize};
use std::fmt;

/// The documented default policy file, embedded so tests can compare it with `Default`.
pub const DEFAULT_CONDUCT_TOML: &str = include_str!("../../config/conduct.toml");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConductPolicy {
    pub qualifiers: QualifierPolicy,
    pub record: RecordPolicy,
    pub signals: SignalPolicies,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualifierPolicy {
    pub early_moves: u32,
    pub ffa_reachable_share: f64,
    pub teams_lost_material_deficit: i32,
    pub teams_unsafe_material_deficit: i32,
    pub teams_unsafe_king_max_moves: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordPolicy {
    pub recent_games: u32,
    pub short_window_days: u32,
    pub long_window_days: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignalPolicies {
    pub lost_position_quitting: LostPositionQuittingRule,
    pub abandonment: AbandonmentRule,
    pub sandbagging: SandbaggingRule,
    pub teams_spoiling: HabitRule,
}

/// The conditions every signal shares: a habit over several games on several days.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HabitRule {
    pub window_days: u32,
    pub min_games: u32,
    pub min_rate: f64,
    pub min_days: u32,
    pub full_strength_rate: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LostPositionQuittingRule {
    pub window_days: u32,
    pub min_games: u32,
    pub min_rate: f64,
    pub min_days: u32,
    pub full_strength_rate: f64,
    pub count_resignations: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbandonmentRule {
    pub window_days: u32,
    pub min_games: u32,
    pub min_rate: f64,
    pub min_days: u32,
    pub full_strength_rate: f64,
    pub reconnect_weight: f64,
    pub min_forfeit_share: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandbaggingRule {
    pub window_days: u32,
    pub min_games: u32,
    pub min_rate: f64,
    pub min_days: u32,
    pub full_strength_rate: f64,
    pub min_rating_lost: i64,
}

macro_rules! habit_of {
    ($($rule:ty),*) => {$(
        impl $rule {
            /// The conditions this rule shares with every signal.
            pub fn habit(&self) -> HabitRule {
                HabitRule {
                    window_days: self.window_days,
                    min_games: self.min_games,
                    min_rate: self.min_rate,
                    min_days: self.min_days,
                    full_strength_rate: self.full_strength_rate,
                }
            }
        }
    )*};
}

habit_of!(
    LostPositionQuittingRule,
    AbandonmentRule,
    SandbaggingRule,
    HabitRule
);

/// Why a policy text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConductPolicyError {
    Parse(String),
    Invalid(Vec<String>),
}

impl fmt::Display for ConductPolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConductPolicyError::Parse(e) => write!(f, "conduct policy does not parse: {e}"),
            ConductPolicyError::Invalid(problems) => {
                write!(f, "conduct policy is invalid: {}", problems.join("; "))
            }
        }
    }
}

impl std::error::Error for ConductPolicyError {}

impl ConductPolicy {
    pub fn from_toml_str(text: &str) -> Result<Self, ConductPolicyError> {
        let policy: ConductPolicy =
            toml::from_str(text).map_err(|e| ConductPolicyError::Parse(e.to_string()))?;
        let problems = policy.problems();
        if problems.is_empty() {
            Ok(policy)
        } else {
            Err(ConductPolicyError::Invalid(problems))
        }
    }

    /// Values that would make the rules meaningless; empty when the policy is usable.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let q = &self.qualifiers;
        if !(q.ffa_reachable_share > 0.0 && q.ffa_reachable_share <= 1.0) {
            out.push("qualifiers.ffa_reachable_share must be in (0, 1]".to_string());
        }
        if q.teams_unsafe_material_deficit > q.teams_lost_material_deficit {
            out.push(
                "qualifiers.teams_unsafe_material_deficit must not exceed teams_lost_material_deficit"
                    .to_string(),
            );
        }
        let r = &self.record;
        if r.recent_games == 0 || r.recent_games > 1000 {
            out.push("record.recent_games must be in 1..=1000".to_string());
        }
        if r.short_window_days == 0 || r.short_window_days > r.long_window_days {
            out.push("record.short_window_days must be in 1..=long_window_days".to_string());
        }
        if r.long_window_days > 3660 {
            out.push("record.long_window_days must be at most 3660".to_string());
        }
        let s = &self.signals;
        for (name, habit) in [
            ("lost_position_quitting", s.lost_position_quitting.habit()),
            ("abandonment", s.abandonment.habit()),
            ("sandbagging", s.sandbagging.habit()),
            ("teams_spoiling", s.teams_spoiling.habit()),
        ] {
            // Never act on a single game (docs/moderation.md, "The several-games rule").
            if habit.min_games < 2 {
                out.push(format!("signals.{name}.min_games must be at least 2"));
            }
            if habit.min_days < 1 {
                out.push(format!("signals.{name}.min_days must be at least 1"));
            }
            if habit.window_days == 0 {
                out.push(format!("signals.{name}.window_days must be positive"));
            }
            if !(habit.min_rate >= 0.0
                && habit.min_rate <= 1.0
                && habit.full_strength_rate > 0.0
                && habit.full_strength_rate <= 1.0
                && habit.min_rate <= habit.full_strength_rate)
            {
                out.push(format!(
                    "signals.{name}: need 0 <= min_rate <= full_strength_rate <= 1"
                ));
            }
        }
        if s.abandonment.reconnect_weight.is_nan() || s.abandonment.reconnect_weight < 0.0 {
            out.push("signals.abandonment.reconnect_weight must be >= 0".to_string());
        }
        if !(s.abandonment.min_forfeit_share > 0.0 && s.abandonment.min_forfeit_share <= 1.0) {
            out.push("signals.abandonment.min_forfeit_share must be in (0, 1]".to_string());
        }
        out
    }
}

impl Default for ConductPolicy {
    /// The same values as `config/conduct.toml`, where each is explained.
    fn default() -> Self {
        ConductPolicy {
            qualifiers: QualifierPolicy {
                early_moves: 10,
                ffa_reachable_share: 1.0,
                teams_lost_material_deficit: 15,
                teams_unsafe_material_deficit: 6,
                teams_unsafe_king_max_moves: 1,
            },
            record: RecordPolicy {
                recent_games: 50,
                short_window_days: 30,
                long_window_days: 90,
            },
            signals: SignalPolicies {
                lost_position_quitting: LostPositionQuittingRule {
                    window_days: 90,
                    min_games: 4,
                    min_rate: 0.15,
                    min_days: 3,
                    full_strength_rate: 0.4,
                    count_resignations: false,
                },
                abandonment: AbandonmentRule {
                    window_days: 90,
                    min_games: 4,
                    min_rate: 0.15,
                    min_days: 3,
                    full_strength_rate: 0.4,
                    reconnect_weight: 1.0,
                    min_forfeit_share: 0.5,
                },
                sandbagging: SandbaggingRule {
                    window_days: 90,
                    min_games: 4,
                    min_rate: 0.2,
                    min_days: 2,
                    full_strength_rate: 0.5,
                    min_rating_lost: 30,
                },
                teams_spoiling: HabitRule {
                    window_days: 90,
                    min_games: 3,
                    min_rate: 0.2,
                    min_days: 2,
                    full_strength_rate: 0.5,
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_equals_the_documented_file() {
        assert_eq!(
            ConductPolicy::from_toml_str(DEFAULT_CONDUCT_TOML),
            Ok(ConductPolicy::default())
        );
    }

    #[test]
    fn default_has_no_problems() {
        assert!(ConductPolicy::default().problems().is_empty());
    }

    #[test]
    fn unknown_keys_are_refused() {
        let text = DEFAULT_CONDUCT_TOML.replace("early_moves = 10", "early_moves = 10\nearly = 3");
        assert!(matches!(
            ConductPolicy::from_toml_str(&text),
            Err(ConductPolicyError::Parse(_))
        ));
        let text = DEFAULT_CONDUCT_TOML.replace(
            "count_resignations = false",
            "count_resignations = false\nmin_gams = 2",
        );
        assert!(matches!(
            ConductPolicy::from_toml_str(&text),
            Err(ConductPolicyError::Parse(_))
        ));
    }

    #[test]
    fn a_single_game_can_never_be_a_signal() {
        let mut policy = ConductPolicy::default();
        policy.signals.abandonment.min_games = 1;
        assert_eq!(policy.problems().len(), 1);
    }

    #[test]
    fn the_abort_rule_is_not_a_conduct_setting() {
        // One abort rule for the archive and conduct: `[archive] abort_rule`.
        let text = format!("[abort]\npreset = \"help_centre\"\n{DEFAULT_CONDUCT_TOML}");
        assert!(matches!(
            ConductPolicy::from_toml_str(&text),
            Err(ConductPolicyError::Parse(_))
        ));
    }
}
