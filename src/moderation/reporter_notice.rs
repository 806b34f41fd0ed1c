//! What a reporter is told when their report is decided: the outcome, whether action was
//! taken, the measure itself only where the site's policy discloses it, and the note to
//! reporters (a preset's reporter text, then the admin's words). Never the admins' notes, never
//! the note to the accused (docs/moderation.md, "What each person sees").

use super::abuse::ReportOutcome;
use super::reporter_policy::{Disclosure, ReporterPolicy};
use super::types::{SanctionDuration, SanctionKind};

/// The measure a decision took against the accused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeasureTaken {
    Warning,
    Sanction {
        kind: SanctionKind,
        duration: SanctionDuration,
    },
}

/// One decided report as its reporter may learn it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReporterNotice {
    pub outcome: ReportOutcome,
    /// A warning or a sanction followed.
    pub action_taken: bool,
    /// The measure; `None` unless the policy discloses it and there was one.
    pub measure: Option<MeasureTaken>,
    /// The note to reporters, if the decision carried one.
    pub note: Option<String>,
}

/// What the reporter of a report decided with `outcome` is told, under `policy`.
pub fn reporter_notice(
    outcome: ReportOutcome,
    measure: Option<MeasureTaken>,
    note: Option<String>,
    policy: &ReporterPolicy,
) -> ReporterNotice {
    let action_taken = outcome == ReportOutcome::Upheld && measure.is_some();
    let measure = match policy.disclose {
        Disclosure::Measure if action_taken => measure,
        _ => None,
    };
    ReporterNotice {
        outcome,
        action_taken,
        measure,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAN: MeasureTaken = MeasureTaken::Sanction {
        kind: SanctionKind::ChatBan,
        duration: SanctionDuration::Temporary { minutes: 4320 },
    };

    #[test]
    fn by_default_a_reporter_learns_that_action_was_taken_not_its_length() {
        let told = reporter_notice(
            ReportOutcome::Upheld,
            Some(BAN),
            Some("Thank you.".into()),
            &ReporterPolicy::default(),
        );
        assert!(told.action_taken);
        assert_eq!(told.measure, None);
        assert_eq!(told.note.as_deref(), Some("Thank you."));
    }

    #[test]
    fn a_disclosing_site_names_the_measure_and_only_when_one_was_taken() {
        let policy = ReporterPolicy {
            disclose: Disclosure::Measure,
        };
        let told = reporter_notice(ReportOutcome::Upheld, Some(BAN), None, &policy);
        assert_eq!(told.measure, Some(BAN));
        let dismissed = reporter_notice(ReportOutcome::DismissedNotActionable, None, None, &policy);
        assert!(!dismissed.action_taken);
        assert_eq!(dismissed.measure, None);
    }
}
