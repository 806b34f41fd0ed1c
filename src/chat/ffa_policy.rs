//! Where the site's policy documents disagree, the FFA chat rules take a setting
//! (`[ffa]` in `config/chat.toml`). Pure: text in, policy out; outcome in, outcome out.
//!
//! `resign_talk`: the help page lists "Resign!" and "Don't resign" among the prohibited FFA
//! phrases; the reporting guide says not to report players who tell others to resign or
//! claim a win. `"allowed"` (the default) follows the reporting guide: such lines are
//! classified `resign_or_claim`, low and not report-worthy. `"prohibited"` follows the help
//! page: they are flagged like the other FFA violations (high, report-worthy). The setting
//! covers the whole class, telling someone to claim as well as to resign or not to resign;
//! announcing one's own resignation ("I resign") is never resign talk.

use super::ffa::{FfaClass, FfaOutcome};
use super::types::Severity;

/// How telling another player to resign or claim is judged during an FFA game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ResignTalk {
    /// The reporting guide: allowed though not encouraged; recorded, not report-worthy.
    #[default]
    Allowed,
    /// The help page: a prohibited phrase, like suggesting a move.
    Prohibited,
}

impl ResignTalk {
    pub fn name(self) -> &'static str {
        match self {
            ResignTalk::Allowed => "allowed",
            ResignTalk::Prohibited => "prohibited",
        }
    }
}

/// The FFA chat policy settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FfaPolicy {
    pub resign_talk: ResignTalk,
}

impl FfaPolicy {
    /// Reads the `[ffa]` table of the chat settings (TOML subset: `key = "value"` lines and
    /// comments; other tables are skipped). Unknown keys and values are an error.
    pub fn parse(text: &str) -> Result<FfaPolicy, String> {
        let mut policy = FfaPolicy::default();
        let mut in_ffa = false;
        for (index, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                in_ffa = name.trim() == "ffa";
                continue;
            }
            if !in_ffa {
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .ok_or_else(|| format!("line {}: expected key = value", index + 1))?;
            let (key, value) = (key.trim(), value.trim());
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: {key} takes a quoted string", index + 1))?;
            match key {
                "resign_talk" => {
                    policy.resign_talk = match value {
                        "allowed" => ResignTalk::Allowed,
                        "prohibited" => ResignTalk::Prohibited,
                        other => {
                            return Err(format!(
                                "line {}: resign_talk must be \"allowed\" or \"prohibited\", \
                                 not {other:?}",
                                index + 1
                            ))
                        }
                    }
                }
                _ => return Err(format!("line {}: unknown key ffa.{key}", index + 1)),
            }
        }
        Ok(policy)
    }

    /// Applies the policy to the classifier's outcome for a line (only resign talk is
    /// affected).
    pub fn judge(&self, outcome: &mut FfaOutcome) {
        if outcome.class != FfaClass::ResignOrClaim {
            return;
        }
        match self.resign_talk {
            ResignTalk::Allowed => {
                outcome.rule = "ffa:resign_or_claim";
                outcome.explanation =
                    "tells a player to resign or claim (allowed, not report-worthy)";
                outcome.severity = Severity::Low;
                outcome.report_worthy = false;
            }
            ResignTalk::Prohibited => {
                outcome.rule = "ffa:resign_or_claim_prohibited";
                outcome.explanation =
                    "tells a player to resign or claim (prohibited by the FFA policy)";
                outcome.severity = Severity::High;
                outcome.report_worthy = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resign_outcome() -> FfaOutcome {
        FfaOutcome {
            class: FfaClass::ResignOrClaim,
            rule: "ffa:resign_or_claim",
            explanation: "",
            severity: Severity::Low,
            report_worthy: false,
            norm_span: (0, 6),
            evidence: None,
        }
    }

    #[test]
    fn default_and_both_settings() {
        assert_eq!(
            FfaPolicy::parse("").unwrap().resign_talk,
            ResignTalk::Allowed
        );
        let text = "[spam]\nflood_window_ms = 10_000\n\n[ffa]\n# help page\nresign_talk = \"prohibited\"\n";
        assert_eq!(
            FfaPolicy::parse(text).unwrap().resign_talk,
            ResignTalk::Prohibited
        );
        let text = "[ffa]\nresign_talk = \"allowed\" # reporting guide\n";
        assert_eq!(
            FfaPolicy::parse(text).unwrap().resign_talk,
            ResignTalk::Allowed
        );
        // Keys of other tables are not the policy's.
        assert!(FfaPolicy::parse("[spam]\nresign_talk = 3\n").is_ok());
    }

    #[test]
    fn bad_values_and_keys_are_errors() {
        let err = FfaPolicy::parse("[ffa]\nresign_talk = \"maybe\"\n").unwrap_err();
        assert!(err.contains("allowed") && err.contains("line 2"), "{err}");
        let err = FfaPolicy::parse("[ffa]\nresign_talk = prohibited\n").unwrap_err();
        assert!(err.contains("quoted"), "{err}");
        let err = FfaPolicy::parse("[ffa]\nresign = \"allowed\"\n").unwrap_err();
        assert!(err.contains("ffa.resign"), "{err}");
    }

    #[test]
    fn judging_resign_talk() {
        let allowed = FfaPolicy::default();
        let mut outcome = resign_outcome();
        allowed.judge(&mut outcome);
        assert_eq!(
            (outcome.severity, outcome.report_worthy),
            (Severity::Low, false)
        );

        let prohibited = FfaPolicy {
            resign_talk: ResignTalk::Prohibited,
        };
        let mut outcome = resign_outcome();
        prohibited.judge(&mut outcome);
        assert_eq!(
            (outcome.severity, outcome.report_worthy),
            (Severity::High, true)
        );
        assert_eq!(outcome.rule, "ffa:resign_or_claim_prohibited");

        // Other classes are left alone.
        let mut other = FfaOutcome {
            class: FfaClass::MoveSuggestion,
            ..resign_outcome()
        };
        prohibited.judge(&mut other);
        assert_eq!(
            (other.severity, other.report_worthy),
            (Severity::Low, false)
        );
    }
}
