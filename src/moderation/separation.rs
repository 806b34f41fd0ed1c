//! Separations: a measure that keeps two or more players apart at the table, decided from a
//! teaming or self-partnering case (issue #42, item 4; docs/moderation.md, "Separations").
//! The decision names the others to keep apart from the case's accused; each must be named
//! in the case, so an admin cannot separate a bystander through someone else's case.

use serde::{Deserialize, Serialize};
use std::fmt;

use super::types::{PlayerId, ReportReason, SanctionKind};

/// A player the admin names to keep apart from the accused, as the decision gives them: the
/// name, and the player it resolved to (`None`: moderation never saw that name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeparationMember {
    pub name: String,
    pub player: Option<PlayerId>,
}

/// Why the members of a separation are refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum SeparationProblem {
    /// Separations answer collusion: a teaming or self-partnering case.
    SeparationNotForReason { reason: ReportReason },
    /// A separation needs at least one other player.
    SeparationMembersRequired,
    /// The player is not among the case's accused and co-accused.
    SeparationMemberNotInCase { name: String },
    /// The accused, or a player named twice.
    SeparationMemberRepeated { name: String },
    /// Members go only with a separation.
    MembersWithoutSeparation,
}

impl SeparationProblem {
    /// The decision body's field the problem is about.
    pub fn field(&self) -> &'static str {
        match self {
            SeparationProblem::SeparationNotForReason { .. } => "sanction.kind",
            _ => "sanction.members",
        }
    }

    pub fn message(&self) -> String {
        match self {
            SeparationProblem::SeparationNotForReason { reason } => format!(
                "A separation answers prearranged teaming or self-partnering, not \"{}\".",
                reason.label()
            ),
            SeparationProblem::SeparationMembersRequired => {
                "A separation names at least one other player in `members`.".into()
            }
            SeparationProblem::SeparationMemberNotInCase { name } => format!(
                "{name:?} is not accused in this case; only the case's accused and co-accused may be separated."
            ),
            SeparationProblem::SeparationMemberRepeated { name } => format!(
                "{name:?} is named twice, or is the accused (who is always a member)."
            ),
            SeparationProblem::MembersWithoutSeparation => {
                "`members` goes only with a sanction of kind `separation`.".into()
            }
        }
    }
}

impl fmt::Display for SeparationProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// The separation's members, the accused first, when `kind` is a separation; empty for any
/// other measure. `accused` is the case's accused (always a member), `named_in_case` every
/// player the case's entries name (`CaseFacts::parties`), `others` what the admin chose.
pub fn separation_members(
    kind: Option<SanctionKind>,
    reason: ReportReason,
    accused: PlayerId,
    named_in_case: &[PlayerId],
    others: &[SeparationMember],
) -> Result<Vec<PlayerId>, Vec<SeparationProblem>> {
    if kind != Some(SanctionKind::Separation) {
        return if others.is_empty() {
            Ok(Vec::new())
        } else {
            Err(vec![SeparationProblem::MembersWithoutSeparation])
        };
    }
    let mut problems = Vec::new();
    if !matches!(
        reason,
        ReportReason::PrearrangedTeaming | ReportReason::SelfPartnering
    ) {
        problems.push(SeparationProblem::SeparationNotForReason { reason });
    }
    if others.is_empty() {
        problems.push(SeparationProblem::SeparationMembersRequired);
    }
    let mut members = vec![accused];
    for other in others {
        match other.player {
            Some(player) if members.contains(&player) => {
                problems.push(SeparationProblem::SeparationMemberRepeated {
                    name: other.name.clone(),
                })
            }
            Some(player) if named_in_case.contains(&player) => members.push(player),
            _ => problems.push(SeparationProblem::SeparationMemberNotInCase {
                name: other.name.clone(),
            }),
        }
    }
    if problems.is_empty() {
        Ok(members)
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ACCUSED: PlayerId = PlayerId(1);
    const PARTNER: PlayerId = PlayerId(2);
    const THIRD: PlayerId = PlayerId(3);

    fn member(name: &str, player: Option<i64>) -> SeparationMember {
        SeparationMember {
            name: name.into(),
            player: player.map(PlayerId),
        }
    }

    fn check(
        kind: Option<SanctionKind>,
        reason: ReportReason,
        others: &[SeparationMember],
    ) -> Result<Vec<PlayerId>, Vec<SeparationProblem>> {
        separation_members(kind, reason, ACCUSED, &[ACCUSED, PARTNER, THIRD], others)
    }

    #[test]
    fn a_ring_is_separated_at_once_with_the_accused_first() {
        let ring = [member("b", Some(2)), member("c", Some(3))];
        assert_eq!(
            check(
                Some(SanctionKind::Separation),
                ReportReason::PrearrangedTeaming,
                &ring
            ),
            Ok(vec![ACCUSED, PARTNER, THIRD])
        );
        assert_eq!(
            check(
                Some(SanctionKind::Separation),
                ReportReason::SelfPartnering,
                &ring[..1]
            ),
            Ok(vec![ACCUSED, PARTNER])
        );
    }

    #[test]
    fn members_must_be_named_in_the_case_once() {
        let problems = check(
            Some(SanctionKind::Separation),
            ReportReason::PrearrangedTeaming,
            &[
                member("stranger", Some(9)),
                member("unknown", None),
                member("a", Some(1)),
                member("b", Some(2)),
                member("b", Some(2)),
            ],
        )
        .err()
        .unwrap_or_default();
        assert_eq!(
            problems,
            vec![
                SeparationProblem::SeparationMemberNotInCase {
                    name: "stranger".into()
                },
                SeparationProblem::SeparationMemberNotInCase {
                    name: "unknown".into()
                },
                SeparationProblem::SeparationMemberRepeated { name: "a".into() },
                SeparationProblem::SeparationMemberRepeated { name: "b".into() },
            ]
        );
        assert!(problems.iter().all(|p| p.field() == "sanction.members"));
    }

    #[test]
    fn only_collusion_cases_and_only_with_members() {
        assert_eq!(
            check(
                Some(SanctionKind::Separation),
                ReportReason::OffensiveChat,
                &[]
            ),
            Err(vec![
                SeparationProblem::SeparationNotForReason {
                    reason: ReportReason::OffensiveChat
                },
                SeparationProblem::SeparationMembersRequired,
            ])
        );
        assert_eq!(
            check(
                Some(SanctionKind::PlayBan),
                ReportReason::PrearrangedTeaming,
                &[member("b", Some(2))]
            ),
            Err(vec![SeparationProblem::MembersWithoutSeparation])
        );
        assert_eq!(
            check(None, ReportReason::PrearrangedTeaming, &[]),
            Ok(vec![])
        );
        assert_eq!(
            SeparationProblem::SeparationNotForReason {
                reason: ReportReason::Other
            }
            .field(),
            "sanction.kind"
        );
    }
}
