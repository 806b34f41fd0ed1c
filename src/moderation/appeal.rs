//! Appeals: a player may appeal their own sanction once; an admin upholds, reduces or lifts it.

use super::policy::{AppealPolicy, ModerationPolicy};
use super::types::{add_saturating, days, AppealId, PlayerId, Sanction, SanctionId};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// An earlier appeal, as far as the once-only rule needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppealRecord {
    pub id: AppealId,
    pub sanction: SanctionId,
    pub filed_at: DateTime<Utc>,
}

/// An appeal that may be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidAppeal {
    pub sanction: SanctionId,
    pub appellant: PlayerId,
    /// Trimmed.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppealProblem {
    NotOwnSanction,
    AlreadyAppealed { appeal: AppealId },
    AlreadyLifted,
    WindowClosed { closed_at: DateTime<Utc> },
    TextTooShort { chars: usize, min: u32 },
    TextTooLong { chars: usize, max: u32 },
}

impl AppealProblem {
    pub fn field(&self) -> &'static str {
        match self {
            AppealProblem::TextTooShort { .. } | AppealProblem::TextTooLong { .. } => "text",
            _ => "sanction",
        }
    }

    pub fn message(&self) -> String {
        match self {
            AppealProblem::NotOwnSanction => "You can only appeal your own sanctions.".into(),
            AppealProblem::AlreadyAppealed { .. } => {
                "This sanction has already been appealed; each sanction may be appealed once."
                    .into()
            }
            AppealProblem::AlreadyLifted => "This sanction has already been lifted.".into(),
            AppealProblem::WindowClosed { closed_at } => {
                format!(
                    "Appeals for this sanction closed at {}.",
                    closed_at.to_rfc3339()
                )
            }
            AppealProblem::TextTooShort { min, .. } => {
                format!("Please explain your appeal in at least {min} characters.")
            }
            AppealProblem::TextTooLong { chars, max } => {
                format!("The appeal is {chars} characters long; at most {max} are allowed.")
            }
        }
    }
}

impl fmt::Display for AppealProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// Own sanction only, once, within the appeal window, with a text of bounded length.
/// Expired sanctions may still be appealed inside the window: they climb the escalation
/// ladder, so clearing one still matters.
pub fn validate_appeal(
    sanction: &Sanction,
    appellant: PlayerId,
    earlier_appeals: &[AppealRecord],
    text: &str,
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> Result<ValidAppeal, Vec<AppealProblem>> {
    let rules = &policy.appeal;
    let mut problems = Vec::new();
    if sanction.player != appellant {
        problems.push(AppealProblem::NotOwnSanction);
    }
    if let Some(earlier) = earlier_appeals.iter().find(|a| a.sanction == sanction.id) {
        problems.push(AppealProblem::AlreadyAppealed { appeal: earlier.id });
    }
    if sanction.is_lifted() {
        problems.push(AppealProblem::AlreadyLifted);
    }
    let closes = add_saturating(sanction.starts_at, days(rules.window_days));
    if now >= closes {
        problems.push(AppealProblem::WindowClosed { closed_at: closes });
    }
    let text = text.trim();
    let chars = text.chars().count();
    if chars < rules.text_min_chars.max(1) as usize {
        problems.push(AppealProblem::TextTooShort {
            chars,
            min: rules.text_min_chars.max(1),
        });
    }
    if chars > rules.text_max_chars as usize {
        problems.push(AppealProblem::TextTooLong {
            chars,
            max: rules.text_max_chars,
        });
    }
    if problems.is_empty() {
        Ok(ValidAppeal {
            sanction: sanction.id,
            appellant,
            text: text.to_string(),
        })
    } else {
        Err(problems)
    }
}

/// Why an admin may not decide an appeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppealConflict {
    /// The admin is the appellant.
    OwnSanction,
    /// The admin imposed the sanction, and the policy wants a second pair of eyes.
    ImposedIt,
}

/// Whether `admin` may decide an appeal by `appellant` against a sanction `issued_by` imposed.
pub fn may_decide_appeal(
    admin: PlayerId,
    appellant: PlayerId,
    issued_by: PlayerId,
    policy: &AppealPolicy,
) -> Result<(), AppealConflict> {
    if admin == appellant {
        Err(AppealConflict::OwnSanction)
    } else if policy.four_eyes && admin == issued_by {
        Err(AppealConflict::ImposedIt)
    } else {
        Ok(())
    }
}

/// An admin's answer to an appeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum AppealDecision {
    Uphold,
    /// Shorten the sanction to end at `new_end` (also turns a permanent one temporary).
    Reduce {
        new_end: DateTime<Utc>,
    },
    /// End the sanction now and take it off the record (it no longer climbs the ladder).
    Lift,
}

impl AppealDecision {
    /// The event game servers are sent when this decision is applied (none for upholding).
    pub fn sanction_event(&self) -> Option<super::webhook_event_kind::WebhookEventKind> {
        use super::webhook_event_kind::WebhookEventKind;
        match self {
            AppealDecision::Uphold => None,
            AppealDecision::Reduce { .. } => Some(WebhookEventKind::SanctionReduced),
            AppealDecision::Lift => Some(WebhookEventKind::SanctionLifted),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum AppealDecisionProblem {
    AlreadyLifted,
    /// A reduction must end the sanction earlier than it ends now.
    NotShorter {
        current_end: Option<DateTime<Utc>>,
    },
    /// A reduction cannot end before the sanction started.
    BeforeStart {
        starts_at: DateTime<Utc>,
    },
}

impl fmt::Display for AppealDecisionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppealDecisionProblem::AlreadyLifted => f.write_str("The sanction is already lifted."),
            AppealDecisionProblem::NotShorter { .. } => {
                f.write_str("A reduction must end the sanction earlier than it ends now.")
            }
            AppealDecisionProblem::BeforeStart { .. } => {
                f.write_str("A reduction cannot end the sanction before it started.")
            }
        }
    }
}

/// The sanction after the admin's answer. Reducing to a time already past ends it at once
/// (but keeps it on the record, unlike lifting).
pub fn apply_appeal_decision(
    sanction: &Sanction,
    decision: AppealDecision,
    now: DateTime<Utc>,
) -> Result<Sanction, AppealDecisionProblem> {
    if sanction.is_lifted() {
        return Err(AppealDecisionProblem::AlreadyLifted);
    }
    let mut updated = sanction.clone();
    match decision {
        AppealDecision::Uphold => {}
        AppealDecision::Reduce { new_end } => {
            let current_end = sanction.effective_end();
            if new_end < sanction.starts_at {
                return Err(AppealDecisionProblem::BeforeStart {
                    starts_at: sanction.starts_at,
                });
            }
            if current_end.is_some_and(|end| new_end >= end) {
                return Err(AppealDecisionProblem::NotShorter { current_end });
            }
            updated.reduced_until = Some(new_end);
        }
        AppealDecision::Lift => updated.lifted_at = Some(now),
    }
    Ok(updated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::types::{Ground, ReportReason, SanctionDuration, SanctionKind};
    use chrono::{TimeDelta, TimeZone};

    #[test]
    fn neither_the_appellant_nor_with_four_eyes_the_sanctioning_admin_decides() {
        let mut policy = ModerationPolicy::default().appeal;
        let (alice, bob, player) = (PlayerId(1), PlayerId(2), PlayerId(3));
        assert_eq!(
            may_decide_appeal(player, player, alice, &policy),
            Err(AppealConflict::OwnSanction)
        );
        assert_eq!(
            may_decide_appeal(alice, player, alice, &policy),
            Err(AppealConflict::ImposedIt)
        );
        assert_eq!(may_decide_appeal(bob, player, alice, &policy), Ok(()));
        policy.four_eyes = false;
        assert_eq!(may_decide_appeal(alice, player, alice, &policy), Ok(()));
    }

    const ME: PlayerId = PlayerId(5);

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn sanction(duration: SanctionDuration) -> Sanction {
        Sanction {
            id: SanctionId(1),
            player: ME,
            kind: SanctionKind::PlayBan,
            reason: ReportReason::Abandoning,
            ground: Ground::HabitualDisconnecting,
            starts_at: t0(),
            duration,
            lifted_at: None,
            reduced_until: None,
        }
    }

    const TEXT: &str = "My connection dropped; see my other games.";

    fn check(
        s: &Sanction,
        who: PlayerId,
        earlier: &[AppealRecord],
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<ValidAppeal, Vec<AppealProblem>> {
        validate_appeal(s, who, earlier, text, now, &ModerationPolicy::default())
    }

    #[test]
    fn own_sanction_once_within_the_window() {
        let s = sanction(SanctionDuration::days(7));
        let now = t0() + TimeDelta::hours(1);
        let valid = check(&s, ME, &[], &format!("  {TEXT}  "), now);
        assert_eq!(valid.map(|v| v.text), Ok(TEXT.to_string()));
        assert_eq!(
            check(&s, PlayerId(6), &[], TEXT, now).err(),
            Some(vec![AppealProblem::NotOwnSanction])
        );
        let earlier = AppealRecord {
            id: AppealId(3),
            sanction: SanctionId(1),
            filed_at: now,
        };
        let other_sanction = AppealRecord {
            sanction: SanctionId(2),
            ..earlier
        };
        assert_eq!(
            check(&s, ME, &[other_sanction, earlier], TEXT, now).err(),
            Some(vec![AppealProblem::AlreadyAppealed {
                appeal: AppealId(3)
            }])
        );
        assert!(check(&s, ME, &[other_sanction], TEXT, now).is_ok());
        let late = t0() + TimeDelta::days(90);
        assert!(matches!(
            check(&s, ME, &[], TEXT, late).err().as_deref(),
            Some([AppealProblem::WindowClosed { .. }])
        ));
    }

    #[test]
    fn text_limits_and_lifted() {
        let mut s = sanction(SanctionDuration::Permanent);
        let now = t0();
        assert!(matches!(
            check(&s, ME, &[], "   why ", now).err().as_deref(),
            Some([AppealProblem::TextTooShort { chars: 3, min: 10 }])
        ));
        let long = "ü".repeat(2001);
        assert!(matches!(
            check(&s, ME, &[], &long, now).err().as_deref(),
            Some([AppealProblem::TextTooLong {
                chars: 2001,
                max: 2000
            }])
        ));
        s.lifted_at = Some(now);
        let problems = check(&s, PlayerId(9), &[], "", now)
            .err()
            .unwrap_or_default();
        assert_eq!(problems.len(), 3);
        assert!(problems.iter().all(|p| !p.message().is_empty()));
    }

    #[test]
    fn uphold_reduce_lift() {
        let s = sanction(SanctionDuration::days(7));
        let now = t0() + TimeDelta::days(1);
        assert_eq!(
            apply_appeal_decision(&s, AppealDecision::Uphold, now),
            Ok(s.clone())
        );
        let reduced = apply_appeal_decision(
            &s,
            AppealDecision::Reduce {
                new_end: t0() + TimeDelta::days(2),
            },
            now,
        );
        assert_eq!(
            reduced.map(|r| r.effective_end()),
            Ok(Some(t0() + TimeDelta::days(2)))
        );
        let lifted = apply_appeal_decision(&s, AppealDecision::Lift, now);
        assert_eq!(lifted.as_ref().map(|l| l.is_active(now)), Ok(false));
        assert_eq!(
            lifted.and_then(|l| apply_appeal_decision(&l, AppealDecision::Uphold, now)),
            Err(AppealDecisionProblem::AlreadyLifted)
        );
    }

    #[test]
    fn reductions_must_shorten_and_not_precede_the_start() {
        let s = sanction(SanctionDuration::days(7));
        let now = t0();
        assert_eq!(
            apply_appeal_decision(
                &s,
                AppealDecision::Reduce {
                    new_end: t0() + TimeDelta::days(7)
                },
                now
            ),
            Err(AppealDecisionProblem::NotShorter {
                current_end: Some(t0() + TimeDelta::days(7))
            })
        );
        assert!(matches!(
            apply_appeal_decision(
                &s,
                AppealDecision::Reduce {
                    new_end: t0() - TimeDelta::days(1)
                },
                now
            ),
            Err(AppealDecisionProblem::BeforeStart { .. })
        ));
        // A permanent sanction can be reduced to any end after its start.
        let p = sanction(SanctionDuration::Permanent);
        let reduced = apply_appeal_decision(
            &p,
            AppealDecision::Reduce {
                new_end: t0() + TimeDelta::days(365),
            },
            now,
        );
        assert_eq!(
            reduced.map(|r| r.effective_end()),
            Ok(Some(t0() + TimeDelta::days(365)))
        );
    }
}
