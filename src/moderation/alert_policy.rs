//! When admins are alerted (`config/moderation.toml`, `[alerts]`): rules, each naming one
//! trigger (a case reaching a priority, a case of given reasons opening, a case left
//! unclaimed or undecided, the queue growing past a depth), optionally narrowed to some
//! reasons. A file of its own so the policy holds it without importing the alerts' logic.

use serde::{Deserialize, Serialize};

use super::types::ReportReason;

/// The alert rules and how often they are looked at (`[alerts]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlertPolicy {
    /// Seconds between two looks at the queue by each instance's alert job.
    pub check_every_secs: u64,
    pub rules: Vec<AlertRuleConfig>,
}

/// One rule as written in the file: a name, exactly one trigger, and optionally reasons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlertRuleConfig {
    /// Lowercase letters, digits and `_`: stored with each alert it fired.
    pub name: String,
    /// Only cases of these reasons (all reasons when absent or empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<ReportReason>,
    /// A case's priority (0-100, age included) reaches this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_priority: Option<f64>,
    /// A case has had no running claim for this many hours since it opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unclaimed_hours: Option<u32>,
    /// A case is still open this many hours after it opened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undecided_hours: Option<u32>,
    /// More than this many cases are open (of `reasons`, when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_depth_over: Option<u32>,
    /// Fire when a case of `reasons` opens (needs `reasons`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_open: bool,
}

/// What makes a rule fire, checked: exactly one per rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AlertTrigger {
    Opened,
    Priority(f64),
    Unclaimed { hours: u32 },
    Undecided { hours: u32 },
    QueueDepth { over: u32 },
}

impl AlertTrigger {
    /// Whether the rule fires per case (once each) rather than for the queue as a whole.
    pub fn is_per_case(self) -> bool {
        !matches!(self, AlertTrigger::QueueDepth { .. })
    }

    /// The hours a case must wait before the rule fires, for the rules that wait.
    pub fn waiting_hours(self) -> Option<u32> {
        match self {
            AlertTrigger::Unclaimed { hours } | AlertTrigger::Undecided { hours } => Some(hours),
            AlertTrigger::Opened => Some(0),
            _ => None,
        }
    }
}

/// A checked rule.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertRule {
    pub name: String,
    pub reasons: Vec<ReportReason>,
    pub trigger: AlertTrigger,
}

impl AlertRule {
    /// Whether a case of `reason` is one the rule looks at.
    pub fn covers(&self, reason: ReportReason) -> bool {
        self.reasons.is_empty() || self.reasons.contains(&reason)
    }
}

impl AlertRuleConfig {
    /// The rule's one trigger, or why it has none or several.
    pub fn trigger(&self) -> Result<AlertTrigger, String> {
        let mut triggers = Vec::new();
        if let Some(p) = self.min_priority {
            triggers.push(AlertTrigger::Priority(p));
        }
        if let Some(hours) = self.unclaimed_hours {
            triggers.push(AlertTrigger::Unclaimed { hours });
        }
        if let Some(hours) = self.undecided_hours {
            triggers.push(AlertTrigger::Undecided { hours });
        }
        if let Some(over) = self.queue_depth_over {
            triggers.push(AlertTrigger::QueueDepth { over });
        }
        if self.on_open {
            triggers.push(AlertTrigger::Opened);
        }
        match triggers.as_slice() {
            [one] => Ok(*one),
            [] => Err(format!(
                "alerts rule {:?} needs one of min_priority, unclaimed_hours, undecided_hours, \
                 queue_depth_over, on_open",
                self.name
            )),
            _ => Err(format!(
                "alerts rule {:?} has several triggers; write one rule per trigger",
                self.name
            )),
        }
    }

    fn checked(&self) -> Result<AlertRule, String> {
        let trigger = self.trigger()?;
        let named = !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !named {
            return Err(format!(
                "alerts rule name {:?} must be 1-64 lowercase letters, digits or _",
                self.name
            ));
        }
        if let AlertTrigger::Priority(p) = trigger {
            if !(p.is_finite() && (0.0..=100.0).contains(&p)) {
                return Err(format!(
                    "alerts rule {:?}: min_priority must be 0-100",
                    self.name
                ));
            }
        }
        if trigger == AlertTrigger::Opened && self.reasons.is_empty() {
            return Err(format!(
                "alerts rule {:?}: on_open needs reasons (every new case would alert)",
                self.name
            ));
        }
        Ok(AlertRule {
            name: self.name.clone(),
            reasons: self.reasons.clone(),
            trigger,
        })
    }
}

impl AlertPolicy {
    /// The checked rules (a policy with problems never loads, so none is skipped).
    pub fn rules(&self) -> Vec<AlertRule> {
        self.rules.iter().filter_map(|r| r.checked().ok()).collect()
    }

    /// What makes the rules meaningless: a bad name, a name used twice, no trigger or
    /// several, a priority outside 0-100, a zero interval.
    pub fn problems(&self) -> Vec<String> {
        let mut problems: Vec<String> = self
            .rules
            .iter()
            .filter_map(|r| r.checked().err())
            .collect();
        for (i, rule) in self.rules.iter().enumerate() {
            if self.rules[..i].iter().any(|r| r.name == rule.name) {
                problems.push(format!("alerts rule name {:?} is used twice", rule.name));
            }
        }
        if self.check_every_secs == 0 || self.check_every_secs > 86_400 {
            problems.push("alerts.check_every_secs must be 1-86400".to_string());
        }
        problems
    }
}

impl Default for AlertPolicy {
    fn default() -> Self {
        let rule = |name: &str| AlertRuleConfig {
            name: name.to_string(),
            reasons: Vec::new(),
            min_priority: None,
            unclaimed_hours: None,
            undecided_hours: None,
            queue_depth_over: None,
            on_open: false,
        };
        AlertPolicy {
            check_every_secs: 15,
            rules: vec![
                AlertRuleConfig {
                    min_priority: Some(60.0),
                    ..rule("high_priority")
                },
                AlertRuleConfig {
                    unclaimed_hours: Some(24),
                    ..rule("unclaimed_for_a_day")
                },
                AlertRuleConfig {
                    undecided_hours: Some(72),
                    ..rule("undecided_for_three_days")
                },
                AlertRuleConfig {
                    queue_depth_over: Some(200),
                    ..rule("queue_over_200")
                },
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> AlertPolicy {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn default_rules_are_sound() {
        let policy = AlertPolicy::default();
        assert!(policy.problems().is_empty(), "{:?}", policy.problems());
        assert_eq!(policy.rules().len(), 4);
    }

    #[test]
    fn each_rule_needs_exactly_one_trigger_and_a_clean_name() {
        let policy = parse(
            r#"check_every_secs = 10
            rules = [
              { name = "none" },
              { name = "two", min_priority = 50, unclaimed_hours = 2 },
              { name = "Bad Name", undecided_hours = 1 },
              { name = "open_any", on_open = true },
              { name = "too_high", min_priority = 101 },
              { name = "ok", reasons = ["self_partnering"], on_open = true },
              { name = "ok", queue_depth_over = 5 },
            ]"#,
        );
        let problems = policy.problems();
        assert_eq!(problems.len(), 6, "{problems:?}");
        for needle in [
            "\"none\"", "several", "Bad Name", "on_open", "0-100", "twice",
        ] {
            assert!(problems.iter().any(|p| p.contains(needle)), "{needle}");
        }
    }

    #[test]
    fn reasons_narrow_a_rule() {
        let policy = parse(
            r#"check_every_secs = 10
            rules = [{ name = "teaming", reasons = ["prearranged_teaming"], min_priority = 40 }]"#,
        );
        let rule = &policy.rules()[0];
        assert!(rule.covers(ReportReason::PrearrangedTeaming));
        assert!(!rule.covers(ReportReason::OffensiveChat));
        assert_eq!(rule.trigger, AlertTrigger::Priority(40.0));
    }
}
