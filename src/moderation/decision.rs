//! Deciding a case: validation (including docs/moderation.md, "The several-games rule") and
//! the suggested next step of the escalation ladder.

use super::abuse::ReportOutcome;
use super::case::{may_decide, CaseFacts, Conflict};
use super::decision_action::DecisionAction;
use super::policy::{DecisionPolicy, ModerationPolicy};
use super::preset::DecisionPreset;
use super::report::CaseKey;
use super::separation::{separation_members, SeparationMember, SeparationProblem};
use super::types::{
    add_saturating, days, DecisionKind, GameNumber, Ground, LadderTrack, NewSanction, PlayerId,
    ReportReason, Sanction, SanctionDuration, SanctionKind,
};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A decision as an admin submits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub admin: PlayerId,
    pub action: DecisionAction,
    /// What the accused did; required to warn or sanction (it settles the (*) rule).
    pub ground: Option<Ground>,
    pub note: Option<String>,
    /// What the reporters are told, after the preset's reporter text.
    pub reporter_note: Option<String>,
    /// Further games the admin found in the archive, beyond those the reports cite.
    pub evidence_games: Vec<GameNumber>,
    /// The message preset chosen for the player, if any.
    pub preset: Option<DecisionPreset>,
    /// With a separation: the others to keep apart from the accused.
    pub separate_from: Vec<SeparationMember>,
}

/// A decision that may be carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidDecision {
    pub case: CaseKey,
    pub admin: PlayerId,
    pub kind: DecisionKind,
    pub action: DecisionAction,
    pub ground: Option<Ground>,
    /// Trimmed; absent when blank.
    pub note: Option<String>,
    /// Trimmed; absent when blank.
    pub reporter_note: Option<String>,
    /// Distinct games behind the decision: the reports' and the admin's.
    pub evidence_games: Vec<GameNumber>,
    /// Record this for every report entry of the case (accuracy, report timeouts).
    pub report_outcome: ReportOutcome,
    /// The preset that fits this decision, if one was chosen.
    pub preset: Option<DecisionPreset>,
    /// A separation's members, the accused first; empty for any other decision.
    pub separated: Vec<PlayerId>,
}

impl ValidDecision {
    /// The sanction to store, starting `now`; `None` unless the decision sanctions.
    pub fn new_sanction(&self, now: DateTime<Utc>) -> Option<NewSanction> {
        match self.action {
            DecisionAction::Sanction { sanction, duration } => Some(NewSanction {
                player: self.case.accused,
                kind: sanction,
                reason: self.case.reason,
                ground: self.ground.unwrap_or(self.case.reason.default_ground()),
                starts_at: now,
                duration,
            }),
            _ => None,
        }
    }
}

/// Why a decision is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum DecisionProblem {
    AdminIsAccused,
    AdminIsReporter,
    GroundRequired,
    GroundDoesNotFit {
        ground: Ground,
        reason: ReportReason,
    },
    /// No action on a single game for habitual grounds (docs/moderation.md, "The several-games
    /// rule").
    SingleGameEvidence {
        ground: Ground,
        games: usize,
        needed: u32,
    },
    NoteRequired,
    /// The chosen preset is written for another reason or kind of decision.
    PresetDoesNotFit {
        preset: String,
        reason: ReportReason,
        decision: DecisionKind,
    },
    NoteTooLong {
        chars: usize,
        max: u32,
    },
    ReporterNoteTooLong {
        chars: usize,
        max: u32,
    },
    DurationTooShort {
        minutes: u32,
        min: u32,
    },
    DurationTooLong {
        minutes: u32,
        max: u32,
    },
    /// A separation's members or reason (see [`SeparationProblem`]).
    Separation {
        problem: SeparationProblem,
    },
}

impl From<Conflict> for DecisionProblem {
    fn from(conflict: Conflict) -> Self {
        match conflict {
            Conflict::AdminIsAccused => DecisionProblem::AdminIsAccused,
            Conflict::AdminIsReporter => DecisionProblem::AdminIsReporter,
        }
    }
}

impl DecisionProblem {
    /// The decision form's field the problem is about.
    pub fn field(&self) -> &'static str {
        match self {
            DecisionProblem::AdminIsAccused | DecisionProblem::AdminIsReporter => "admin",
            DecisionProblem::GroundRequired | DecisionProblem::GroundDoesNotFit { .. } => "ground",
            DecisionProblem::SingleGameEvidence { .. } => "evidence_games",
            DecisionProblem::NoteRequired | DecisionProblem::NoteTooLong { .. } => "note",
            DecisionProblem::ReporterNoteTooLong { .. } => "reporter_note",
            DecisionProblem::PresetDoesNotFit { .. } => "preset",
            DecisionProblem::DurationTooShort { .. } | DecisionProblem::DurationTooLong { .. } => {
                "duration"
            }
            DecisionProblem::Separation { problem } => problem.field(),
        }
    }

    pub fn message(&self) -> String {
        match self {
            DecisionProblem::AdminIsAccused => Conflict::AdminIsAccused.to_string(),
            DecisionProblem::AdminIsReporter => Conflict::AdminIsReporter.to_string(),
            DecisionProblem::GroundRequired => {
                "A warning or sanction must state its ground.".into()
            }
            DecisionProblem::GroundDoesNotFit { ground, reason } => format!(
                "The ground {ground:?} is not a case of \"{reason}\"."
            ),
            DecisionProblem::SingleGameEvidence { games, needed, .. } => format!(
                "This ground needs evidence from at least {needed} different games ({games} cited); no action is taken on a single game."
            ),
            DecisionProblem::NoteRequired => {
                "A sanction needs a note explaining it, or a preset.".into()
            }
            DecisionProblem::PresetDoesNotFit {
                preset,
                reason,
                decision,
            } => format!(
                "Preset {preset:?} is written for a {} decision on a {} case; choose one for                  this case's reason and decision.",
                crate::moderation::preset::words(decision),
                reason.label()
            ),
            DecisionProblem::NoteTooLong { chars, max } => {
                format!("The note is {chars} characters long; at most {max} are allowed.")
            }
            DecisionProblem::ReporterNoteTooLong { chars, max } => format!(
                "The note to reporters is {chars} characters long; at most {max} are allowed."
            ),
            DecisionProblem::DurationTooShort { minutes, min } => {
                format!("{minutes} minutes is shorter than the minimum of {min} minutes.")
            }
            DecisionProblem::DurationTooLong { minutes, max } => format!(
                "{minutes} minutes is longer than the maximum of {max} minutes; use a permanent sanction instead."
            ),
            DecisionProblem::Separation { problem } => problem.message(),
        }
    }
}

impl fmt::Display for DecisionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// Checks a decision against the case. Warnings count as action too, so the (*) rule (never
/// act on a single game: docs/moderation.md, "The several-games rule") applies to
/// warnings and sanctions alike, decided by the stated ground. Admin-cited games are trusted
/// here; the caller checks that they exist and involve the accused.
pub fn validate_decision(
    decision: &Decision,
    facts: &CaseFacts,
    policy: &ModerationPolicy,
) -> Result<ValidDecision, Vec<DecisionProblem>> {
    let rules = &policy.decision;
    let reason = facts.key.reason;
    let mut problems = Vec::new();
    if let Err(conflict) = may_decide(decision.admin, &facts.parties()) {
        problems.push(conflict.into());
    }
    let evidence = combined_evidence(facts, decision);
    let acts = matches!(
        decision.action,
        DecisionAction::Warn | DecisionAction::Sanction { .. }
    );
    if acts {
        check_ground(
            decision.ground,
            reason,
            evidence.len(),
            rules,
            &mut problems,
        );
    }
    let note = check_note(
        decision.note.as_deref(),
        rules,
        &mut problems,
        |chars, max| DecisionProblem::NoteTooLong { chars, max },
    );
    let reporter_note = check_note(
        decision.reporter_note.as_deref(),
        rules,
        &mut problems,
        |chars, max| DecisionProblem::ReporterNoteTooLong { chars, max },
    );
    check_preset(decision, reason, &mut problems);
    if let DecisionAction::Sanction { duration, .. } = decision.action {
        if note.is_none() && decision.preset.is_none() {
            problems.push(DecisionProblem::NoteRequired);
        }
        check_duration(duration, rules, &mut problems);
    }
    let separated = check_separation(decision, facts, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(ValidDecision {
        case: facts.key,
        admin: decision.admin,
        kind: decision.action.kind(),
        action: decision.action,
        ground: decision.ground,
        note,
        reporter_note,
        evidence_games: evidence,
        report_outcome: decision.action.report_outcome(),
        preset: decision.preset.clone(),
        separated,
    })
}

/// A separation's members, the accused first, each named in the case
/// ([`separation_members`]); empty for any other decision.
fn check_separation(
    decision: &Decision,
    facts: &CaseFacts,
    problems: &mut Vec<DecisionProblem>,
) -> Vec<PlayerId> {
    let kind = match decision.action {
        DecisionAction::Sanction { sanction, .. } => Some(sanction),
        _ => None,
    };
    let named = facts.parties().accused;
    separation_members(
        kind,
        facts.key.reason,
        facts.key.accused,
        &named,
        &decision.separate_from,
    )
    .unwrap_or_else(|found| {
        problems.extend(
            found
                .into_iter()
                .map(|problem| DecisionProblem::Separation { problem }),
        );
        Vec::new()
    })
}

/// The games the reports cite, then those the admin adds, without repeats.
fn combined_evidence(facts: &CaseFacts, decision: &Decision) -> Vec<GameNumber> {
    let mut evidence = facts.evidence_games();
    for game in &decision.evidence_games {
        if !evidence.contains(game) {
            evidence.push(*game);
        }
    }
    evidence
}

/// A warning or sanction states a ground that fits the case's reason, with evidence from
/// several games where the ground needs it (the (*) rule).
fn check_ground(
    ground: Option<Ground>,
    reason: ReportReason,
    games: usize,
    rules: &DecisionPolicy,
    problems: &mut Vec<DecisionProblem>,
) {
    let Some(ground) = ground else {
        problems.push(DecisionProblem::GroundRequired);
        return;
    };
    if !ground.fits(reason) {
        problems.push(DecisionProblem::GroundDoesNotFit { ground, reason });
    }
    let needed = rules.several_games_min.max(2);
    if ground.needs_several_games() && games < needed as usize {
        problems.push(DecisionProblem::SingleGameEvidence {
            ground,
            games,
            needed,
        });
    }
}

/// A note, trimmed (absent when blank), within the policy's length; `too_long` names the
/// problem otherwise.
fn check_note(
    note: Option<&str>,
    rules: &DecisionPolicy,
    problems: &mut Vec<DecisionProblem>,
    too_long: impl Fn(usize, u32) -> DecisionProblem,
) -> Option<String> {
    let note = note
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    let chars = note.as_deref().map_or(0, |n| n.chars().count());
    if chars > rules.note_max_chars as usize {
        problems.push(too_long(chars, rules.note_max_chars));
    }
    note
}

/// A chosen preset must be written for this case's reason and this kind of decision.
fn check_preset(decision: &Decision, reason: ReportReason, problems: &mut Vec<DecisionProblem>) {
    if let Some(preset) = &decision.preset {
        if !preset.fits(reason, decision.action.kind()) {
            problems.push(DecisionProblem::PresetDoesNotFit {
                preset: preset.key.clone(),
                reason: preset.reason,
                decision: preset.decision,
            });
        }
    }
}

/// A temporary sanction lasts between the policy's minimum and maximum.
fn check_duration(
    duration: SanctionDuration,
    rules: &DecisionPolicy,
    problems: &mut Vec<DecisionProblem>,
) {
    if let SanctionDuration::Temporary { minutes } = duration {
        if minutes < rules.min_temporary_minutes {
            problems.push(DecisionProblem::DurationTooShort {
                minutes,
                min: rules.min_temporary_minutes,
            });
        }
        if minutes > rules.max_temporary_minutes {
            problems.push(DecisionProblem::DurationTooLong {
                minutes,
                max: rules.max_temporary_minutes,
            });
        }
    }
}

/// An earlier warning or sanction of the accused, as the ladder sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriorMeasure {
    pub reason: ReportReason,
    pub measure: Measure,
    pub issued_at: DateTime<Utc>,
    /// Lifted on appeal: as if it never happened.
    pub lifted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Warning,
    /// `ends_at` after appeals; `None` for a permanent sanction.
    Sanction {
        kind: SanctionKind,
        ends_at: Option<DateTime<Utc>>,
    },
}

impl PriorMeasure {
    pub fn warning(reason: ReportReason, issued_at: DateTime<Utc>) -> Self {
        PriorMeasure {
            reason,
            measure: Measure::Warning,
            issued_at,
            lifted: false,
        }
    }

    /// Still counts at `now`: not lifted, and either issued within the decay period or still
    /// in force (a long ban does not decay while it runs).
    fn counts(&self, now: DateTime<Utc>, policy: &ModerationPolicy) -> bool {
        if self.lifted {
            return false;
        }
        let fresh = add_saturating(self.issued_at, days(policy.ladder.decay_days)) > now;
        let in_force = match self.measure {
            Measure::Warning => false,
            Measure::Sanction { ends_at, .. } => ends_at.is_none_or(|end| end > now),
        };
        fresh || in_force
    }
}

impl From<&Sanction> for PriorMeasure {
    fn from(sanction: &Sanction) -> Self {
        PriorMeasure {
            reason: sanction.reason,
            measure: Measure::Sanction {
                kind: sanction.kind,
                ends_at: sanction.effective_end(),
            },
            issued_at: sanction.starts_at,
            lifted: sanction.is_lifted(),
        }
    }
}

/// The action a ladder step suggests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Suggestion {
    Warn,
    Sanction {
        sanction: SanctionKind,
        duration: SanctionDuration,
    },
}

impl Suggestion {
    pub fn action(&self) -> DecisionAction {
        match *self {
            Suggestion::Warn => DecisionAction::Warn,
            Suggestion::Sanction { sanction, duration } => {
                DecisionAction::Sanction { sanction, duration }
            }
        }
    }
}

/// The suggested next step for the accused, shown with a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderStep {
    pub track: LadderTrack,
    /// 1-based position on the ladder.
    pub step: u32,
    pub steps: u32,
    /// Earlier measures on the same track that still count.
    pub counted_earlier: u32,
    pub suggestion: Suggestion,
}

/// Next step of the reason's ladder: one step per earlier measure on the same track that
/// still counts (not lifted; issued within `ladder.decay_days` or still in force), repeating
/// the last step once the ladder is climbed. A suggestion only: the admin decides.
pub fn suggest_next_sanction(
    earlier: &[PriorMeasure],
    reason: ReportReason,
    now: DateTime<Utc>,
    policy: &ModerationPolicy,
) -> LadderStep {
    let track = reason.ladder_track();
    let ladder = match track {
        LadderTrack::Chat => &policy.ladder.chat,
        LadderTrack::Play => &policy.ladder.play,
        LadderTrack::Other => &policy.ladder.other,
    };
    let counted = earlier
        .iter()
        .filter(|m| m.reason.ladder_track() == track && m.counts(now, policy))
        .count();
    let index = counted.min(ladder.len().saturating_sub(1));
    let suggestion = ladder
        .get(index)
        .and_then(|rung| rung.sanction())
        .map_or(Suggestion::Warn, |(sanction, duration)| {
            Suggestion::Sanction { sanction, duration }
        });
    LadderStep {
        track,
        step: u32::try_from(index + 1).unwrap_or(u32::MAX),
        steps: u32::try_from(ladder.len()).unwrap_or(u32::MAX),
        counted_earlier: u32::try_from(counted).unwrap_or(u32::MAX),
        suggestion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::case::CaseEntry;
    use crate::moderation::report::case_key;
    use crate::moderation::types::{ReportId, Reporter, SanctionId};
    use chrono::{TimeDelta, TimeZone};

    const ACCUSED: PlayerId = PlayerId(2);
    const REPORTER: PlayerId = PlayerId(10);
    const ADMIN: PlayerId = PlayerId(99);

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn case(reason: ReportReason, games: &[i64]) -> CaseFacts {
        CaseFacts {
            key: case_key(ACCUSED, reason),
            opened_at: t0(),
            entries: vec![CaseEntry {
                report: ReportId(1),
                reporter: Reporter::Player { player: REPORTER },
                accused: vec![ACCUSED],
                game: games.first().map(|g| GameNumber(*g)),
                supporting_games: games.iter().skip(1).map(|g| GameNumber(*g)).collect(),
                filed_at: t0(),
                reporter_accuracy: None,
            }],
            accused_earlier_sanctions: 0,
        }
    }

    fn sanction(ground: Ground, minutes: u32) -> Decision {
        Decision {
            admin: ADMIN,
            action: DecisionAction::Sanction {
                sanction: SanctionKind::ChatBan,
                duration: SanctionDuration::Temporary { minutes },
            },
            ground: Some(ground),
            note: Some("repeated insults in games 1 and 2".into()),
            reporter_note: None,
            evidence_games: vec![],
            preset: None,
            separate_from: vec![],
        }
    }

    fn check(
        decision: &Decision,
        facts: &CaseFacts,
    ) -> Result<ValidDecision, Vec<DecisionProblem>> {
        validate_decision(decision, facts, &ModerationPolicy::default())
    }

    #[test]
    fn single_game_habit_is_refused_but_harassment_is_not() {
        let one_game = case(ReportReason::OffensiveChat, &[1]);
        let problems = check(&sanction(Ground::AbusiveLanguageHabit, 1440), &one_game).err();
        assert_eq!(
            problems,
            Some(vec![DecisionProblem::SingleGameEvidence {
                ground: Ground::AbusiveLanguageHabit,
                games: 1,
                needed: 2
            }])
        );
        assert!(check(&sanction(Ground::Harassment, 1440), &one_game).is_ok());
        assert!(check(&sanction(Ground::Spamming, 1440), &one_game).is_ok());
        // Two games from the reports, or one plus one the admin found: fine.
        assert!(check(
            &sanction(Ground::AbusiveLanguageHabit, 1440),
            &case(ReportReason::OffensiveChat, &[1, 2])
        )
        .is_ok());
        let mut with_archive = sanction(Ground::AbusiveLanguageHabit, 1440);
        with_archive.evidence_games = vec![GameNumber(1), GameNumber(7)];
        let valid = check(&with_archive, &one_game).ok();
        assert_eq!(
            valid.map(|v| v.evidence_games),
            Some(vec![GameNumber(1), GameNumber(7)])
        );
    }

    #[test]
    fn several_games_rule_applies_to_warnings_and_all_habit_grounds() {
        for (reason, ground) in [
            (ReportReason::Abandoning, Ground::HabitualDisconnecting),
            (ReportReason::Abandoning, Ground::Sandbagging),
            (ReportReason::Abandoning, Ground::GameSpoiling),
            (ReportReason::SelfPartnering, Ground::SelfPartnering),
            (ReportReason::PrearrangedTeaming, Ground::PrearrangedTeaming),
        ] {
            let warn = Decision {
                action: DecisionAction::Warn,
                ground: Some(ground),
                note: None,
                ..sanction(ground, 60)
            };
            assert!(check(&warn, &case(reason, &[1])).is_err(), "{ground:?}");
            assert!(check(&warn, &case(reason, &[])).is_err(), "{ground:?}");
            assert!(check(&warn, &case(reason, &[1, 2])).is_ok(), "{ground:?}");
        }
        // Chat collusion in one game is enough.
        let collusion = sanction(Ground::ChatCollusion, 60);
        assert!(check(&collusion, &case(ReportReason::PrearrangedTeaming, &[1])).is_ok());
    }

    #[test]
    fn dismissals_need_neither_ground_nor_note() {
        let facts = case(ReportReason::SelfPartnering, &[1]);
        for action in [
            DecisionAction::DismissUnjustified,
            DecisionAction::DismissNotActionable,
        ] {
            let decision = Decision {
                admin: ADMIN,
                action,
                ground: None,
                note: Some("   ".into()),
                reporter_note: Some("  ".into()),
                evidence_games: vec![],
                preset: None,
                separate_from: vec![],
            };
            let valid = check(&decision, &facts).ok();
            assert_eq!(valid.as_ref().and_then(|v| v.note.clone()), None);
            assert_eq!(valid.as_ref().and_then(|v| v.reporter_note.clone()), None);
            assert_eq!(
                valid.map(|v| v.report_outcome),
                Some(action.report_outcome())
            );
        }
        assert_eq!(
            DecisionAction::DismissUnjustified.report_outcome(),
            ReportOutcome::DismissedUnjustified
        );
        assert_eq!(DecisionAction::Warn.report_outcome(), ReportOutcome::Upheld);
    }

    #[test]
    fn a_preset_replaces_the_required_note_when_it_fits() {
        let facts = case(ReportReason::OffensiveChat, &[1]);
        let preset = |reason, decision| crate::moderation::DecisionPreset {
            key: "p".into(),
            reason,
            decision,
            title: "P".into(),
            text: "Banned.".into(),
            reporter_text: None,
        };
        let mut with_preset = sanction(Ground::Harassment, 60);
        with_preset.note = None;
        with_preset.preset = Some(preset(ReportReason::OffensiveChat, DecisionKind::Sanction));
        assert!(check(&with_preset, &facts).is_ok());

        with_preset.preset = Some(preset(ReportReason::OffensiveChat, DecisionKind::Warn));
        assert_eq!(
            check(&with_preset, &facts).err(),
            Some(vec![DecisionProblem::PresetDoesNotFit {
                preset: "p".into(),
                reason: ReportReason::OffensiveChat,
                decision: DecisionKind::Warn,
            },])
        );
    }

    #[test]
    fn sanction_form_problems() {
        let facts = case(ReportReason::OffensiveChat, &[1]);
        let mut bad = sanction(Ground::Sandbagging, 5);
        bad.note = None;
        let problems = check(&bad, &facts).err().unwrap_or_default();
        assert_eq!(
            problems,
            vec![
                DecisionProblem::GroundDoesNotFit {
                    ground: Ground::Sandbagging,
                    reason: ReportReason::OffensiveChat
                },
                DecisionProblem::SingleGameEvidence {
                    ground: Ground::Sandbagging,
                    games: 1,
                    needed: 2
                },
                DecisionProblem::NoteRequired,
                DecisionProblem::DurationTooShort {
                    minutes: 5,
                    min: 10
                },
            ]
        );
        let long = sanction(Ground::Harassment, 525_601);
        assert_eq!(
            check(&long, &facts).err(),
            Some(vec![DecisionProblem::DurationTooLong {
                minutes: 525_601,
                max: 525_600
            }])
        );
        let mut no_ground = sanction(Ground::Harassment, 60);
        no_ground.ground = None;
        assert_eq!(
            check(&no_ground, &facts).err(),
            Some(vec![DecisionProblem::GroundRequired])
        );
        let mut wordy = sanction(Ground::Harassment, 60);
        wordy.note = Some("x".repeat(4001));
        assert!(matches!(
            check(&wordy, &facts).err().as_deref(),
            Some([DecisionProblem::NoteTooLong { chars: 4001, .. }])
        ));
        wordy.note = Some("fine".into());
        wordy.reporter_note = Some("y".repeat(4001));
        let problems = check(&wordy, &facts).err().unwrap_or_default();
        assert!(
            matches!(
                problems.as_slice(),
                [DecisionProblem::ReporterNoteTooLong { chars: 4001, .. }]
            ),
            "{problems:?}"
        );
        assert_eq!(problems[0].field(), "reporter_note");
        let permanent = Decision {
            action: DecisionAction::Sanction {
                sanction: SanctionKind::ClubBan,
                duration: SanctionDuration::Permanent,
            },
            ..sanction(Ground::HighlyOffensiveChat, 0)
        };
        assert!(check(&permanent, &facts).is_ok());
        for problem in &problems {
            assert!(!problem.message().is_empty() && !problem.field().is_empty());
        }
    }

    #[test]
    fn parties_may_not_decide() {
        let facts = case(ReportReason::OffensiveChat, &[1]);
        let mut own = sanction(Ground::Harassment, 60);
        own.admin = REPORTER;
        assert_eq!(
            check(&own, &facts).err(),
            Some(vec![DecisionProblem::AdminIsReporter])
        );
        own.admin = ACCUSED;
        assert_eq!(
            check(&own, &facts).err(),
            Some(vec![DecisionProblem::AdminIsAccused])
        );
    }

    #[test]
    fn valid_sanction_becomes_a_row() {
        let facts = case(ReportReason::OffensiveChat, &[1]);
        let valid = check(&sanction(Ground::Harassment, 1440), &facts).ok();
        let row = valid.and_then(|v| v.new_sanction(t0()));
        assert_eq!(
            row.map(|s| (s.player, s.kind, s.effective_end())),
            Some((
                ACCUSED,
                SanctionKind::ChatBan,
                Some(t0() + TimeDelta::days(1))
            ))
        );
    }

    fn chat_ban(issued_days_ago: i64, hours: i64) -> PriorMeasure {
        let issued_at = t0() - TimeDelta::days(issued_days_ago);
        PriorMeasure {
            reason: ReportReason::OffensiveChat,
            measure: Measure::Sanction {
                kind: SanctionKind::ChatBan,
                ends_at: Some(issued_at + TimeDelta::hours(hours)),
            },
            issued_at,
            lifted: false,
        }
    }

    #[test]
    fn ladder_climbs_with_earlier_measures() {
        let policy = ModerationPolicy::default();
        let now = t0();
        let first = suggest_next_sanction(&[], ReportReason::OffensiveChat, now, &policy);
        assert_eq!(
            (first.step, first.steps, first.suggestion),
            (1, 5, Suggestion::Warn)
        );
        let history = [PriorMeasure::warning(
            ReportReason::RuleViolatingChat,
            now - TimeDelta::days(3),
        )];
        let second = suggest_next_sanction(&history, ReportReason::OffensiveChat, now, &policy);
        assert_eq!(
            second.suggestion,
            Suggestion::Sanction {
                sanction: SanctionKind::ChatBan,
                duration: SanctionDuration::hours(24)
            }
        );
        let many = vec![chat_ban(5, 24); 9];
        let top = suggest_next_sanction(&many, ReportReason::OffensiveChat, now, &policy);
        assert_eq!(top.step, 5);
        assert_eq!(top.counted_earlier, 9);
        assert_eq!(
            top.suggestion.action(),
            DecisionAction::Sanction {
                sanction: SanctionKind::ChatBan,
                duration: SanctionDuration::Permanent
            }
        );
    }

    #[test]
    fn ladder_tracks_decay_and_lifts() {
        let policy = ModerationPolicy::default();
        let now = t0();
        // A chat ban does not climb the play ladder.
        let play =
            suggest_next_sanction(&[chat_ban(5, 24)], ReportReason::Abandoning, now, &policy);
        assert_eq!((play.track, play.step), (LadderTrack::Play, 1));
        // Decayed after 180 days...
        let old = suggest_next_sanction(
            &[chat_ban(200, 24)],
            ReportReason::OffensiveChat,
            now,
            &policy,
        );
        assert_eq!(old.counted_earlier, 0);
        // ...unless still in force.
        let long = suggest_next_sanction(
            &[chat_ban(200, 24 * 365)],
            ReportReason::OffensiveChat,
            now,
            &policy,
        );
        assert_eq!(long.counted_earlier, 1);
        // Lifted on appeal: does not count.
        let mut lifted = chat_ban(5, 24);
        lifted.lifted = true;
        assert_eq!(
            suggest_next_sanction(&[lifted], ReportReason::OffensiveChat, now, &policy)
                .counted_earlier,
            0
        );
        // The play ladder ends in a club ban.
        let history = vec![PriorMeasure::warning(ReportReason::SelfPartnering, now); 4];
        let step = suggest_next_sanction(&history, ReportReason::SelfPartnering, now, &policy);
        assert_eq!(
            step.suggestion,
            Suggestion::Sanction {
                sanction: SanctionKind::ClubBan,
                duration: SanctionDuration::Permanent
            }
        );
    }

    #[test]
    fn empty_ladder_suggests_a_warning_without_panicking() {
        let mut policy = ModerationPolicy::default();
        policy.ladder.other.clear();
        let step = suggest_next_sanction(&[], ReportReason::Other, t0(), &policy);
        assert_eq!(
            (step.step, step.steps, step.suggestion),
            (1, 0, Suggestion::Warn)
        );
    }

    #[test]
    fn prior_measure_from_sanction() {
        let row = Sanction {
            id: SanctionId(1),
            player: ACCUSED,
            kind: SanctionKind::PlayBan,
            reason: ReportReason::Abandoning,
            ground: Ground::Sandbagging,
            starts_at: t0(),
            duration: SanctionDuration::Permanent,
            lifted_at: None,
            reduced_until: Some(t0() + TimeDelta::days(2)),
        };
        let prior = PriorMeasure::from(&row);
        assert_eq!(
            prior.measure,
            Measure::Sanction {
                kind: SanctionKind::PlayBan,
                ends_at: Some(t0() + TimeDelta::days(2))
            }
        );
        assert!(!prior.lifted);
    }
}
