//! Every moderation threshold as data. The documented defaults live in `config/moderation.toml`;
//! [`ModerationPolicy::default`] equals that file (a test keeps them in step).

use super::alert_policy::AlertPolicy;
use super::refund_policy::RefundPolicy;
use super::reporter_policy::ReporterPolicy;
use super::returning_player_policy::ReturningPlayerPolicy;
use super::types::{ReportReason, SanctionDuration, SanctionKind};
use super::warning_policy::WarningPolicy;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The documented default policy file, embedded so tests can compare it with `Default`.
pub const DEFAULT_POLICY_TOML: &str = include_str!("../../config/moderation.toml");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModerationPolicy {
    pub report: ReportPolicy,
    pub rate_limit: RateLimitPolicy,
    pub accuracy: AccuracyPolicy,
    pub report_timeout: ReportTimeoutPolicy,
    pub priority: PriorityPolicy,
    pub claim: ClaimPolicy,
    pub decision: DecisionPolicy,
    pub appeal: AppealPolicy,
    pub ladder: LadderPolicy,
    /// Optional in a deployment's file written before refunds existed: the defaults apply.
    #[serde(default)]
    pub refunds: RefundPolicy,
    /// Optional likewise (before warnings reached players): the defaults apply.
    #[serde(default)]
    pub warnings: WarningPolicy,
    /// Optional likewise (before reporters were told): the defaults apply.
    #[serde(default)]
    pub reporters: ReporterPolicy,
    /// Optional likewise (before admins were alerted): the defaults apply.
    #[serde(default)]
    pub alerts: AlertPolicy,
    /// Optional likewise (before returning players were noticed): the defaults apply.
    #[serde(default)]
    pub returning_players: ReturningPlayerPolicy,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportPolicy {
    pub max_accused: u32,
    pub max_supporting_games: u32,
    pub message_max_chars: u32,
    pub required_message_min_chars: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitPolicy {
    pub per_hour: u32,
    pub per_day: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccuracyPolicy {
    pub prior_upheld: f64,
    pub prior_unjustified: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportTimeoutPolicy {
    pub window_reports: u32,
    pub unjustified_threshold: u32,
    pub window_days: u32,
    pub ladder_days: Vec<u32>,
    pub clean_period_days: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriorityPolicy {
    pub severity_weight: f64,
    pub reporters_weight: f64,
    pub reporters_saturation: u32,
    pub accuracy_weight: f64,
    pub accuracy_saturation: f64,
    pub automatic_weight: f64,
    pub history_weight: f64,
    pub history_saturation: u32,
    pub age_weight: f64,
    pub age_saturation_hours: u32,
}

impl PriorityPolicy {
    fn weights(&self) -> [(&'static str, f64); 6] {
        [
            ("severity_weight", self.severity_weight),
            ("reporters_weight", self.reporters_weight),
            ("accuracy_weight", self.accuracy_weight),
            ("automatic_weight", self.automatic_weight),
            ("history_weight", self.history_weight),
            ("age_weight", self.age_weight),
        ]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimPolicy {
    pub expiry_minutes: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionPolicy {
    pub several_games_min: u32,
    pub min_temporary_minutes: u32,
    pub max_temporary_minutes: u32,
    pub note_max_chars: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppealPolicy {
    pub text_max_chars: u32,
    pub text_min_chars: u32,
    pub window_days: u32,
    /// The admin who imposed a sanction may not decide its appeal.
    #[serde(default = "four_eyes_by_default")]
    pub four_eyes: bool,
}

fn four_eyes_by_default() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderPolicy {
    pub decay_days: u32,
    pub chat: Vec<LadderRung>,
    pub play: Vec<LadderRung>,
    pub other: Vec<LadderRung>,
}

/// What a ladder step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RungAction {
    Warn,
    ChatBan,
    PlayBan,
    ClubBan,
}

/// One step of an escalation ladder: a warning, or a ban for `hours` (permanent without).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LadderRung {
    pub action: RungAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours: Option<u32>,
}

impl LadderRung {
    const fn warn() -> Self {
        LadderRung {
            action: RungAction::Warn,
            hours: None,
        }
    }

    const fn ban(action: RungAction, hours: Option<u32>) -> Self {
        LadderRung { action, hours }
    }

    /// The sanction this step stands for; `None` for a warning.
    pub fn sanction(&self) -> Option<(SanctionKind, SanctionDuration)> {
        let kind = match self.action {
            RungAction::Warn => return None,
            RungAction::ChatBan => SanctionKind::ChatBan,
            RungAction::PlayBan => SanctionKind::PlayBan,
            RungAction::ClubBan => SanctionKind::ClubBan,
        };
        let duration = match self.hours {
            Some(hours) => SanctionDuration::hours(hours),
            None => SanctionDuration::Permanent,
        };
        Some((kind, duration))
    }
}

/// Why a policy file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyError {
    /// Not valid TOML, a missing or unknown key, or a value of the wrong type.
    Parse(String),
    /// Well-formed, but the values contradict each other; one sentence per problem.
    Invalid(Vec<String>),
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::Parse(message) => write!(f, "moderation policy: {message}"),
            PolicyError::Invalid(problems) => {
                write!(f, "moderation policy: {}", problems.join("; "))
            }
        }
    }
}

impl std::error::Error for PolicyError {}

impl ModerationPolicy {
    /// Parses and checks a policy file.
    pub fn from_toml_str(text: &str) -> Result<Self, PolicyError> {
        let policy: ModerationPolicy =
            toml::from_str(text).map_err(|e| PolicyError::Parse(e.to_string()))?;
        let problems = policy.problems();
        if problems.is_empty() {
            Ok(policy)
        } else {
            Err(PolicyError::Invalid(problems))
        }
    }

    /// Contradictions that would make the rules meaningless (empty ladders, weights that do
    /// not add up to 100, a threshold above its window...).
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        self.filing_problems(&mut problems);
        self.priority_problems(&mut problems);
        self.decision_problems(&mut problems);
        problems.extend(self.alerts.problems());
        problems.extend(self.returning_players.problems());
        need(
            &mut problems,
            self.refunds.reasons.iter().all(|r| {
                matches!(
                    r,
                    ReportReason::PrearrangedTeaming
                        | ReportReason::SelfPartnering
                        | ReportReason::Abandoning
                )
            }),
            "refunds.reasons may list only prearranged_teaming, self_partnering and abandoning",
        );
        for (name, ladder) in [
            ("chat", &self.ladder.chat),
            ("play", &self.ladder.play),
            ("other", &self.ladder.other),
        ] {
            ladder_problems(name, ladder, &self.decision, &mut problems);
        }
        problems
    }

    /// Reports, their rate limit, reporters' accuracy and report timeouts.
    fn filing_problems(&self, problems: &mut Vec<String>) {
        need(
            problems,
            self.report.max_accused >= 1,
            "report.max_accused must be at least 1",
        );
        need(
            problems,
            self.report.required_message_min_chars <= self.report.message_max_chars,
            "report.required_message_min_chars must not exceed report.message_max_chars",
        );
        need(
            problems,
            self.rate_limit.per_hour >= 1 && self.rate_limit.per_day >= 1,
            "rate_limit.per_hour and rate_limit.per_day must be at least 1",
        );
        need(
            problems,
            finite_non_negative(self.accuracy.prior_upheld)
                && finite_non_negative(self.accuracy.prior_unjustified)
                && self.accuracy.prior_upheld + self.accuracy.prior_unjustified > 0.0,
            "accuracy priors must be finite, non-negative and not both zero",
        );
        let timeout = &self.report_timeout;
        need(
            problems,
            timeout.unjustified_threshold >= 1
                && timeout.unjustified_threshold <= timeout.window_reports,
            "report_timeout.unjustified_threshold must be between 1 and report_timeout.window_reports",
        );
        need(
            problems,
            !timeout.ladder_days.is_empty() && timeout.ladder_days.iter().all(|d| *d >= 1),
            "report_timeout.ladder_days must list at least one length of one day or more",
        );
    }

    /// The queue's priority weights and saturations.
    fn priority_problems(&self, problems: &mut Vec<String>) {
        let priority = &self.priority;
        let weights = priority.weights();
        need(
            problems,
            weights.iter().all(|(_, w)| finite_non_negative(*w)),
            "priority weights must be finite and non-negative",
        );
        let total: f64 = weights.iter().map(|(_, w)| w).sum();
        need(
            problems,
            (total - 100.0).abs() < 1e-6,
            "priority weights must add up to 100",
        );
        need(
            problems,
            priority.reporters_saturation >= 1
                && priority.history_saturation >= 1
                && priority.age_saturation_hours >= 1
                && priority.accuracy_saturation.is_finite()
                && priority.accuracy_saturation > 0.0,
            "priority saturations must be positive",
        );
    }

    /// Claims, decisions and appeals.
    fn decision_problems(&self, problems: &mut Vec<String>) {
        need(
            problems,
            self.claim.expiry_minutes >= 1,
            "claim.expiry_minutes must be at least 1",
        );
        let decision = &self.decision;
        need(
            problems,
            decision.several_games_min >= 2,
            "decision.several_games_min must be at least 2 (docs/moderation.md, 'The several-games rule')",
        );
        need(
            problems,
            decision.min_temporary_minutes >= 1
                && decision.min_temporary_minutes <= decision.max_temporary_minutes,
            "decision.min_temporary_minutes must be at least 1 and not above max_temporary_minutes",
        );
        need(
            problems,
            self.appeal.text_min_chars <= self.appeal.text_max_chars,
            "appeal.text_min_chars must not exceed appeal.text_max_chars",
        );
    }
}

/// Adds `sentence` to the problems unless `ok`.
fn need(problems: &mut Vec<String>, ok: bool, sentence: &str) {
    if !ok {
        problems.push(sentence.to_string());
    }
}

/// One escalation ladder: at least one step, warnings without hours, ban lengths within the
/// decision limits.
fn ladder_problems(
    name: &str,
    ladder: &[LadderRung],
    decision: &DecisionPolicy,
    problems: &mut Vec<String>,
) {
    if ladder.is_empty() {
        problems.push(format!("ladder.{name} must have at least one step"));
    }
    for (index, rung) in ladder.iter().enumerate() {
        if rung.action == RungAction::Warn && rung.hours.is_some() {
            problems.push(format!(
                "ladder.{name} step {}: a warning has no hours",
                index + 1
            ));
        }
        if let Some(hours) = rung.hours {
            let minutes = u64::from(hours) * 60;
            if minutes < u64::from(decision.min_temporary_minutes)
                || minutes > u64::from(decision.max_temporary_minutes)
            {
                problems.push(format!(
                    "ladder.{name} step {}: {hours} hours is outside the decision limits",
                    index + 1
                ));
            }
        }
    }
}

fn finite_non_negative(value: f64) -> bool {
    value.is_finite() && value >= 0.0
}

impl Default for ModerationPolicy {
    /// The same values as `config/moderation.toml`, where each is explained.
    fn default() -> Self {
        use RungAction::{ChatBan, ClubBan, PlayBan};
        ModerationPolicy {
            report: ReportPolicy {
                max_accused: 3,
                max_supporting_games: 10,
                message_max_chars: 2000,
                required_message_min_chars: 10,
            },
            rate_limit: RateLimitPolicy {
                per_hour: 5,
                per_day: 20,
            },
            accuracy: AccuracyPolicy {
                prior_upheld: 1.5,
                prior_unjustified: 1.5,
            },
            report_timeout: ReportTimeoutPolicy {
                window_reports: 10,
                unjustified_threshold: 5,
                window_days: 30,
                ladder_days: vec![1, 7, 30],
                clean_period_days: 90,
            },
            priority: PriorityPolicy {
                severity_weight: 30.0,
                reporters_weight: 20.0,
                reporters_saturation: 4,
                accuracy_weight: 15.0,
                accuracy_saturation: 2.0,
                automatic_weight: 15.0,
                history_weight: 10.0,
                history_saturation: 3,
                age_weight: 10.0,
                age_saturation_hours: 72,
            },
            claim: ClaimPolicy { expiry_minutes: 20 },
            decision: DecisionPolicy {
                several_games_min: 2,
                min_temporary_minutes: 10,
                max_temporary_minutes: 525_600,
                note_max_chars: 4000,
            },
            appeal: AppealPolicy {
                text_max_chars: 2000,
                text_min_chars: 10,
                window_days: 90,
                four_eyes: true,
            },
            ladder: LadderPolicy {
                decay_days: 180,
                chat: vec![
                    LadderRung::warn(),
                    LadderRung::ban(ChatBan, Some(24)),
                    LadderRung::ban(ChatBan, Some(168)),
                    LadderRung::ban(ChatBan, Some(720)),
                    LadderRung::ban(ChatBan, None),
                ],
                play: vec![
                    LadderRung::warn(),
                    LadderRung::ban(PlayBan, Some(24)),
                    LadderRung::ban(PlayBan, Some(168)),
                    LadderRung::ban(PlayBan, Some(720)),
                    LadderRung::ban(ClubBan, None),
                ],
                other: vec![
                    LadderRung::warn(),
                    LadderRung::ban(ChatBan, Some(24)),
                    LadderRung::ban(PlayBan, Some(168)),
                    LadderRung::ban(ClubBan, None),
                ],
            },
            refunds: RefundPolicy::default(),
            warnings: WarningPolicy::default(),
            reporters: ReporterPolicy::default(),
            alerts: AlertPolicy::default(),
            returning_players: ReturningPlayerPolicy::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_equals_the_documented_file() {
        let parsed = ModerationPolicy::from_toml_str(DEFAULT_POLICY_TOML);
        assert_eq!(parsed, Ok(ModerationPolicy::default()));
    }

    #[test]
    fn default_has_no_problems() {
        assert!(ModerationPolicy::default().problems().is_empty());
    }

    #[test]
    fn unknown_keys_are_refused() {
        let text = DEFAULT_POLICY_TOML.replace("per_day = 20", "per_day = 20\nper_week = 50");
        assert!(matches!(
            ModerationPolicy::from_toml_str(&text),
            Err(PolicyError::Parse(message)) if message.contains("per_week")
        ));
        let text = DEFAULT_POLICY_TOML.replace(
            "{ action = \"warn\" },",
            "{ action = \"warn\", minutes = 5 },",
        );
        assert!(matches!(
            ModerationPolicy::from_toml_str(&text),
            Err(PolicyError::Parse(_))
        ));
    }

    #[test]
    fn missing_keys_are_refused() {
        let text = DEFAULT_POLICY_TOML.replace("expiry_minutes = 20", "");
        assert!(matches!(
            ModerationPolicy::from_toml_str(&text),
            Err(PolicyError::Parse(_))
        ));
    }

    #[test]
    fn contradictions_are_reported() {
        let text = DEFAULT_POLICY_TOML
            .replace("severity_weight = 30.0", "severity_weight = 31.0")
            .replace("unjustified_threshold = 5", "unjustified_threshold = 11")
            .replace("ladder_days = [1, 7, 30]", "ladder_days = []");
        match ModerationPolicy::from_toml_str(&text) {
            Err(PolicyError::Invalid(problems)) => {
                assert_eq!(problems.len(), 3, "{problems:?}");
            }
            other => panic!("expected invalid, got {other:?}"),
        }
        let mut policy = ModerationPolicy::default();
        policy.ladder.chat.clear();
        policy.ladder.play[0].hours = Some(5);
        policy.ladder.other[1].hours = Some(0);
        assert_eq!(policy.problems().len(), 3);
    }

    #[test]
    fn garbage_is_a_parse_error_not_a_panic() {
        for text in ["", "[report", "report = 3", "\u{0}\u{ffff}"] {
            assert!(ModerationPolicy::from_toml_str(text).is_err());
        }
    }

    #[test]
    fn rung_sanctions() {
        assert_eq!(LadderRung::warn().sanction(), None);
        assert_eq!(
            LadderRung::ban(RungAction::ChatBan, Some(24)).sanction(),
            Some((SanctionKind::ChatBan, SanctionDuration::hours(24)))
        );
        assert_eq!(
            LadderRung::ban(RungAction::ClubBan, None).sanction(),
            Some((SanctionKind::ClubBan, SanctionDuration::Permanent))
        );
    }
}
