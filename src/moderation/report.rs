//! Filing a report: validation, the case a report belongs to, and merging repeated filings.

use super::game_number::{GameNumberError, GAME_NUMBER_RULE};
use super::policy::{ModerationPolicy, ReportPolicy};
use super::types::{unit, GameNumber, PlayerId, ReportId, ReportReason, Reporter, Variant};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A report as submitted, before validation.
#[derive(Debug, Clone, PartialEq)]
pub struct NewReport {
    pub reporter: Reporter,
    /// Every involved player: one report, not one per player (docs/moderation.md, "Report
    /// reasons").
    pub accused: Vec<PlayerId>,
    pub reason: ReportReason,
    pub message: Option<String>,
    /// The game the report was filed from, if any.
    pub game: Option<GameNumber>,
    /// More game numbers supporting the case (docs/moderation.md, "Report reasons").
    pub supporting_games: Vec<GameNumber>,
}

/// What the service knows about the games a report cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CitedGame {
    pub number: GameNumber,
    pub variant: Variant,
    /// The players seated in the game (any order).
    pub players: Vec<PlayerId>,
}

/// The cited games, looked up by the caller. A game missing here is an unknown game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportContext {
    pub games: Vec<CitedGame>,
    /// The accused the archive knows (seated in at least one stored game). A report that
    /// cites no game may name only these; with a game, the game's seats decide.
    pub known_players: Vec<PlayerId>,
}

impl ReportContext {
    pub fn game(&self, number: GameNumber) -> Option<&CitedGame> {
        self.games.iter().find(|g| g.number == number)
    }
}

/// A report that passed validation, normalised: accused without repeats, message trimmed
/// (absent when blank), supporting games without repeats and without the main game.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidReport {
    pub reporter: Reporter,
    pub accused: Vec<PlayerId>,
    pub reason: ReportReason,
    pub message: Option<String>,
    pub game: Option<GameNumber>,
    pub supporting_games: Vec<GameNumber>,
}

impl ValidReport {
    /// One case per accused player: the report entry is linked to each.
    pub fn case_keys(&self) -> Vec<CaseKey> {
        self.accused
            .iter()
            .map(|accused| case_key(*accused, self.reason))
            .collect()
    }

    /// Every game the report cites, main game first.
    pub fn cited_games(&self) -> Vec<GameNumber> {
        self.game
            .iter()
            .chain(self.supporting_games.iter())
            .copied()
            .collect()
    }
}

/// The form field a problem is about, so a client can put the sentence next to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportField {
    Reporter,
    Accused,
    Reason,
    Message,
    Game,
    SupportingGames,
}

/// One reason a report is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ReportProblem {
    NoAccused,
    SelfReport {
        player: PlayerId,
    },
    TooManyAccused {
        count: usize,
        max: u32,
    },
    DuplicateAccused {
        player: PlayerId,
    },
    MessageMissing {
        reason: ReportReason,
        min_chars: u32,
    },
    MessageTooLong {
        chars: usize,
        max: u32,
    },
    FfaOnlyReason {
        reason: ReportReason,
        game: GameNumber,
        variant: Variant,
    },
    AccusedNotInGame {
        player: PlayerId,
        game: GameNumber,
    },
    NoAccusedInGame {
        game: GameNumber,
    },
    TooManySupportingGames {
        count: usize,
        max: u32,
    },
    UnknownGame {
        game: GameNumber,
    },
    /// A cited number breaks the game-number rule (zero, negative, too large); `field` says
    /// whether it is the main game or a supporting one.
    InvalidGameNumber {
        game: GameNumber,
        field: ReportField,
        why: GameNumberError,
    },
    /// A report citing no game names a player the archive has never seen play.
    UnknownPlayer {
        player: PlayerId,
    },
    AutomaticScoreInvalid,
}

impl ReportProblem {
    pub fn field(&self) -> ReportField {
        match self {
            ReportProblem::NoAccused
            | ReportProblem::SelfReport { .. }
            | ReportProblem::TooManyAccused { .. }
            | ReportProblem::DuplicateAccused { .. } => ReportField::Accused,
            ReportProblem::MessageMissing { .. } | ReportProblem::MessageTooLong { .. } => {
                ReportField::Message
            }
            ReportProblem::FfaOnlyReason { .. } => ReportField::Reason,
            ReportProblem::AccusedNotInGame { .. } => ReportField::Accused,
            ReportProblem::NoAccusedInGame { .. }
            | ReportProblem::TooManySupportingGames { .. } => ReportField::SupportingGames,
            ReportProblem::UnknownGame { .. } => ReportField::Game,
            ReportProblem::InvalidGameNumber { field, .. } => *field,
            ReportProblem::UnknownPlayer { .. } => ReportField::Accused,
            ReportProblem::AutomaticScoreInvalid => ReportField::Reporter,
        }
    }

    /// A sentence for the person filing.
    pub fn message(&self) -> String {
        match self {
            ReportProblem::NoAccused => "Name at least one player to report.".into(),
            ReportProblem::SelfReport { .. } => "You cannot report yourself.".into(),
            ReportProblem::TooManyAccused { count, max } => format!(
                "A report may name at most {max} players ({count} named)."
            ),
            ReportProblem::DuplicateAccused { player } => {
                format!("Player {player} is named more than once.")
            }
            ReportProblem::MessageMissing { reason, min_chars } => format!(
                "Reports for \"{reason}\" need a message of at least {min_chars} characters saying what happened."
            ),
            ReportProblem::MessageTooLong { chars, max } => format!(
                "The message is {chars} characters long; at most {max} are allowed."
            ),
            ReportProblem::FfaOnlyReason { reason, game, .. } => format!(
                "\"{reason}\" applies only to FFA and Solo games; game {game} is not one."
            ),
            ReportProblem::AccusedNotInGame { player, game } => {
                format!("Player {player} did not play in game {game}.")
            }
            ReportProblem::NoAccusedInGame { game } => {
                format!("None of the reported players played in game {game}.")
            }
            ReportProblem::TooManySupportingGames { count, max } => format!(
                "At most {max} supporting games may be cited ({count} given)."
            ),
            ReportProblem::UnknownGame { game } => format!("There is no game {game}."),
            ReportProblem::InvalidGameNumber { game, why, .. } => format!(
                "Game number {game} is invalid: {why}; a game number is {GAME_NUMBER_RULE}."
            ),
            ReportProblem::UnknownPlayer { player } => format!(
                "No player {player} has played a game here; check the spelling (names match exactly), or cite the game."
            ),
            ReportProblem::AutomaticScoreInvalid => {
                "An automatic report's score must be a number between 0 and 1.".into()
            }
        }
    }
}

impl fmt::Display for ReportProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

/// Checks a report against the reporting rules and the cited games. Every problem is
/// reported at once, so the reporter can fix them together.
///
/// The main game must have seated every accused player (the report is filed from that game's
/// player pop-up). A supporting game needs at least one of the accused: with several accused,
/// each game in a pattern of collusion or self-partnering may show any of them.
pub fn validate_report(
    report: &NewReport,
    context: &ReportContext,
    policy: &ModerationPolicy,
) -> Result<ValidReport, Vec<ReportProblem>> {
    let limits = &policy.report;
    let mut problems = Vec::new();
    check_automatic_score(report.reporter, &mut problems);
    let accused = check_accused(report, limits, &mut problems);
    let message = check_message(report, limits, &mut problems);
    // Without a game nothing else vouches for the names: each must be a player the archive
    // knows, or the report would open a case about nobody.
    if report.game.is_none() {
        for player in accused
            .iter()
            .filter(|p| !context.known_players.contains(p))
        {
            problems.push(ReportProblem::UnknownPlayer { player: *player });
        }
    }
    let supporting = check_supporting_games(report, limits, &mut problems);
    check_cited_games(
        report,
        &accused,
        &supporting,
        context,
        limits,
        &mut problems,
    );
    if problems.is_empty() {
        Ok(ValidReport {
            reporter: report.reporter,
            accused,
            reason: report.reason,
            message,
            game: report.game,
            supporting_games: supporting,
        })
    } else {
        Err(problems)
    }
}

/// An automatic reporter's score must be a probability.
fn check_automatic_score(reporter: Reporter, problems: &mut Vec<ReportProblem>) {
    if let Reporter::ChatAnalysis { score }
    | Reporter::ConductSignal { score }
    | Reporter::CollusionAnalysis { score }
    | Reporter::FingerprintMatch { score } = reporter
    {
        if !(0.0..=1.0).contains(&score) {
            problems.push(ReportProblem::AutomaticScoreInvalid);
        }
    }
}

/// Accused: at least one, at most max, no repeats, never the reporter. Returns them without
/// repeats, in the order named.
fn check_accused(
    report: &NewReport,
    limits: &ReportPolicy,
    problems: &mut Vec<ReportProblem>,
) -> Vec<PlayerId> {
    let mut accused: Vec<PlayerId> = Vec::with_capacity(report.accused.len());
    for player in &report.accused {
        if accused.contains(player) {
            let problem = ReportProblem::DuplicateAccused { player: *player };
            if !problems.contains(&problem) {
                problems.push(problem);
            }
        } else {
            accused.push(*player);
        }
    }
    if accused.is_empty() {
        problems.push(ReportProblem::NoAccused);
    }
    if accused.len() > limits.max_accused as usize {
        problems.push(ReportProblem::TooManyAccused {
            count: accused.len(),
            max: limits.max_accused,
        });
    }
    if let Some(reporter) = report.reporter.filer() {
        if accused.contains(&reporter) {
            problems.push(ReportProblem::SelfReport { player: reporter });
        }
    }
    accused
}

/// Message: required for "other", bounded always. Returns it trimmed, absent when blank.
fn check_message(
    report: &NewReport,
    limits: &ReportPolicy,
    problems: &mut Vec<ReportProblem>,
) -> Option<String> {
    let message = report
        .message
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_string);
    let chars = message.as_deref().map_or(0, |m| m.chars().count());
    if chars > limits.message_max_chars as usize {
        problems.push(ReportProblem::MessageTooLong {
            chars,
            max: limits.message_max_chars,
        });
    }
    if report.reason.needs_message() && chars < limits.required_message_min_chars.max(1) as usize {
        problems.push(ReportProblem::MessageMissing {
            reason: report.reason,
            min_chars: limits.required_message_min_chars.max(1),
        });
    }
    message
}

/// Supporting games without repeats and without the main game, at most the policy's number.
fn check_supporting_games(
    report: &NewReport,
    limits: &ReportPolicy,
    problems: &mut Vec<ReportProblem>,
) -> Vec<GameNumber> {
    let mut supporting: Vec<GameNumber> = Vec::new();
    for game in &report.supporting_games {
        if Some(*game) != report.game && !supporting.contains(game) {
            supporting.push(*game);
        }
    }
    if supporting.len() > limits.max_supporting_games as usize {
        problems.push(ReportProblem::TooManySupportingGames {
            count: supporting.len(),
            max: limits.max_supporting_games,
        });
    }
    supporting
}

/// The main game, then the supporting games (as many as allowed): valid numbers of known
/// games, of a fitting variant, showing the accused.
fn check_cited_games(
    report: &NewReport,
    accused: &[PlayerId],
    supporting: &[GameNumber],
    context: &ReportContext,
    limits: &ReportPolicy,
    problems: &mut Vec<ReportProblem>,
) {
    let cited = report.game.iter().map(|g| (*g, true)).chain(
        supporting
            .iter()
            .take(limits.max_supporting_games as usize)
            .map(|g| (*g, false)),
    );
    for (number, is_main) in cited {
        if let Err(why) = GameNumber::checked(number.0) {
            problems.push(ReportProblem::InvalidGameNumber {
                game: number,
                field: if is_main {
                    ReportField::Game
                } else {
                    ReportField::SupportingGames
                },
                why,
            });
            continue;
        }
        let Some(game) = context.game(number) else {
            problems.push(ReportProblem::UnknownGame { game: number });
            continue;
        };
        check_cited_game(report.reason, accused, game, is_main, problems);
    }
}

/// One known cited game: FFA-only reasons need an FFA game; the main game must have seated
/// every accused, a supporting game at least one of them.
fn check_cited_game(
    reason: ReportReason,
    accused: &[PlayerId],
    game: &CitedGame,
    is_main: bool,
    problems: &mut Vec<ReportProblem>,
) {
    let number = game.number;
    if reason.is_ffa_only() && !game.variant.is_free_for_all() {
        problems.push(ReportProblem::FfaOnlyReason {
            reason,
            game: number,
            variant: game.variant,
        });
    }
    if is_main {
        for player in accused.iter().filter(|p| !game.players.contains(p)) {
            problems.push(ReportProblem::AccusedNotInGame {
                player: *player,
                game: number,
            });
        }
    } else if !accused.is_empty() && !accused.iter().any(|p| game.players.contains(p)) {
        problems.push(ReportProblem::NoAccusedInGame { game: number });
    }
}

/// The open case a report joins: one per (accused player, reason).
///
/// A report naming several players is stored once and linked to each accused player's case,
/// so that each player is judged, sanctioned and appeals on their own, while the entry still
/// shows everyone the reporter named. The reason is its own category: the six reasons are
/// already the site's categories (docs/moderation.md, "Report reasons"), and they differ in
/// what evidence a decision needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CaseKey {
    pub accused: PlayerId,
    pub reason: ReportReason,
}

pub fn case_key(accused: PlayerId, reason: ReportReason) -> CaseKey {
    CaseKey { accused, reason }
}

/// A stored report entry: one reporter's contribution, as far as merging needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportEntry {
    pub id: ReportId,
    pub reporter: Reporter,
    pub accused: Vec<PlayerId>,
    pub reason: ReportReason,
    pub message: Option<String>,
    pub game: Option<GameNumber>,
    pub supporting_games: Vec<GameNumber>,
    pub filed_at: DateTime<Utc>,
    /// Already decided entries are closed: a new filing starts a new entry.
    pub decided: bool,
}

/// What to do with a new filing.
#[derive(Debug, Clone, PartialEq)]
pub enum MergeOutcome {
    /// Store a new entry and link it to every case in [`ValidReport::case_keys`].
    NewEntry,
    /// Update the existing entry instead of duplicating it.
    MergeInto {
        entry: ReportId,
        /// The entry's supporting games after the merge.
        supporting_games: Vec<GameNumber>,
        /// The entry's message after the merge (the new text appended).
        message: Option<String>,
        /// Whether the merged message was cut to the message limit.
        message_truncated: bool,
        /// Players named now but not before: link the entry to their cases as well.
        added_accused: Vec<PlayerId>,
        /// For automatic reports: the stronger of the two scores.
        automatic_score: Option<f64>,
    },
}

/// A second report by the same reporter about the same game and reason is merged into the
/// first undecided one rather than duplicated. Reports without a game merge only when they
/// name the same players (nothing else ties them to one incident).
pub fn merge_decision(
    existing: &[ReportEntry],
    new: &ValidReport,
    policy: &ModerationPolicy,
) -> MergeOutcome {
    let same_players = |entry: &ReportEntry| {
        entry.accused.len() == new.accused.len()
            && new.accused.iter().all(|p| entry.accused.contains(p))
    };
    let target = existing.iter().find(|entry| {
        !entry.decided
            && entry.reporter.same_as(&new.reporter)
            && entry.reason == new.reason
            && entry.game == new.game
            && (new.game.is_some() || same_players(entry))
    });
    let Some(entry) = target else {
        return MergeOutcome::NewEntry;
    };

    let mut supporting = entry.supporting_games.clone();
    for game in &new.supporting_games {
        if Some(*game) != entry.game && !supporting.contains(game) {
            supporting.push(*game);
        }
    }
    let (message, message_truncated) = append_message(
        entry.message.as_deref(),
        new.message.as_deref(),
        policy.report.message_max_chars as usize,
    );
    let added_accused = new
        .accused
        .iter()
        .filter(|p| !entry.accused.contains(p))
        .copied()
        .collect();
    let automatic_score = match (
        entry.reporter.automatic_score(),
        new.reporter.automatic_score(),
    ) {
        (Some(a), Some(b)) => Some(unit(a.max(b))),
        (a, b) => a.or(b),
    };
    MergeOutcome::MergeInto {
        entry: entry.id,
        supporting_games: supporting,
        message,
        message_truncated,
        added_accused,
        automatic_score,
    }
}

/// Appends `new` below `old` (unless it repeats it), cut to `max_chars` characters.
fn append_message(
    old: Option<&str>,
    new: Option<&str>,
    max_chars: usize,
) -> (Option<String>, bool) {
    let joined = match (old, new) {
        (Some(old), Some(new)) if old.contains(new) => old.to_string(),
        (Some(old), Some(new)) => format!("{old}\n\n{new}"),
        (Some(text), None) | (None, Some(text)) => text.to_string(),
        (None, None) => return (None, false),
    };
    if joined.chars().count() > max_chars {
        (Some(joined.chars().take(max_chars).collect()), true)
    } else {
        (Some(joined), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ME: PlayerId = PlayerId(1);
    const BLUE: PlayerId = PlayerId(2);
    const YELLOW: PlayerId = PlayerId(3);
    const GREEN: PlayerId = PlayerId(4);
    const STRANGER: PlayerId = PlayerId(9);

    fn context() -> ReportContext {
        ReportContext {
            games: vec![
                CitedGame {
                    number: GameNumber(100),
                    variant: Variant::Ffa,
                    players: vec![ME, BLUE, YELLOW, GREEN],
                },
                CitedGame {
                    number: GameNumber(101),
                    variant: Variant::Teams,
                    players: vec![ME, BLUE, YELLOW, GREEN],
                },
                CitedGame {
                    number: GameNumber(102),
                    variant: Variant::Solo,
                    players: vec![BLUE, STRANGER, PlayerId(10), PlayerId(11)],
                },
                CitedGame {
                    number: GameNumber(103),
                    variant: Variant::Ffa,
                    players: vec![PlayerId(10), PlayerId(11), PlayerId(12), STRANGER],
                },
            ],
            known_players: vec![
                ME,
                BLUE,
                YELLOW,
                GREEN,
                STRANGER,
                PlayerId(10),
                PlayerId(11),
                PlayerId(12),
            ],
        }
    }

    fn report(reason: ReportReason, accused: Vec<PlayerId>) -> NewReport {
        NewReport {
            reporter: Reporter::Player { player: ME },
            accused,
            reason,
            message: None,
            game: Some(GameNumber(100)),
            supporting_games: vec![],
        }
    }

    fn check(report: &NewReport) -> Result<ValidReport, Vec<ReportProblem>> {
        validate_report(report, &context(), &ModerationPolicy::default())
    }

    fn codes(result: Result<ValidReport, Vec<ReportProblem>>) -> Vec<ReportProblem> {
        result.err().unwrap_or_default()
    }

    #[test]
    fn a_plain_report_passes_and_is_normalised() {
        let mut new = report(ReportReason::PrearrangedTeaming, vec![BLUE, GREEN]);
        new.message = Some("  they attack me together every game  ".into());
        new.supporting_games = vec![GameNumber(102), GameNumber(100), GameNumber(102)];
        let valid = check(&new).expect("valid");
        assert_eq!(
            valid.message.as_deref(),
            Some("they attack me together every game")
        );
        assert_eq!(valid.supporting_games, vec![GameNumber(102)]);
        assert_eq!(valid.cited_games(), vec![GameNumber(100), GameNumber(102)]);
        assert_eq!(
            valid.case_keys(),
            vec![
                case_key(BLUE, ReportReason::PrearrangedTeaming),
                case_key(GREEN, ReportReason::PrearrangedTeaming)
            ]
        );
    }

    #[test]
    fn self_report_is_refused() {
        let problems = codes(check(&report(ReportReason::OffensiveChat, vec![ME])));
        assert_eq!(problems, vec![ReportProblem::SelfReport { player: ME }]);
        assert_eq!(problems[0].field(), ReportField::Accused);
    }

    #[test]
    fn accused_count_and_repeats() {
        assert_eq!(
            codes(check(&report(ReportReason::OffensiveChat, vec![]))),
            vec![ReportProblem::NoAccused]
        );
        let problems = codes(check(&report(
            ReportReason::OffensiveChat,
            vec![BLUE, YELLOW, GREEN, BLUE, BLUE],
        )));
        assert_eq!(
            problems,
            vec![ReportProblem::DuplicateAccused { player: BLUE }]
        );
        let mut four = report(
            ReportReason::OffensiveChat,
            vec![BLUE, YELLOW, GREEN, STRANGER],
        );
        four.game = None;
        assert_eq!(
            codes(check(&four)),
            vec![ReportProblem::TooManyAccused { count: 4, max: 3 }]
        );
    }

    #[test]
    fn other_needs_a_message_and_messages_are_bounded() {
        let mut other = report(ReportReason::Other, vec![BLUE]);
        other.message = Some("   ".into());
        let problems = codes(check(&other));
        assert!(matches!(
            problems[..],
            [ReportProblem::MessageMissing { .. }]
        ));
        assert_eq!(problems[0].field(), ReportField::Message);
        other.message = Some("uses a bot to move, see the timing".into());
        assert!(check(&other).is_ok());

        let mut long = report(ReportReason::OffensiveChat, vec![BLUE]);
        long.message = Some("é".repeat(2001));
        assert_eq!(
            codes(check(&long)),
            vec![ReportProblem::MessageTooLong {
                chars: 2001,
                max: 2000
            }]
        );
        long.message = Some("é".repeat(2000));
        assert!(check(&long).is_ok(), "limit counts characters, not bytes");
    }

    #[test]
    fn ffa_only_reasons_refuse_teams_games() {
        let mut teaming = report(ReportReason::PrearrangedTeaming, vec![BLUE]);
        teaming.game = Some(GameNumber(101));
        let problems = codes(check(&teaming));
        assert_eq!(
            problems,
            vec![ReportProblem::FfaOnlyReason {
                reason: ReportReason::PrearrangedTeaming,
                game: GameNumber(101),
                variant: Variant::Teams
            }]
        );
        assert!(problems[0].message().contains("FFA"));
        // The same reason in a Teams supporting game is refused as well.
        let mut support = report(ReportReason::RuleViolatingChat, vec![BLUE]);
        support.supporting_games = vec![GameNumber(101)];
        assert_eq!(codes(check(&support)).len(), 1);
        // Not FFA-only: fine in Teams.
        let mut abandon = report(ReportReason::Abandoning, vec![BLUE]);
        abandon.game = Some(GameNumber(101));
        assert!(check(&abandon).is_ok());
        // No game at all: nothing to check the variant against.
        let mut outside = report(ReportReason::RuleViolatingChat, vec![BLUE]);
        outside.game = None;
        assert!(check(&outside).is_ok());
    }

    #[test]
    fn accused_must_have_played() {
        let problems = codes(check(&report(
            ReportReason::OffensiveChat,
            vec![BLUE, STRANGER],
        )));
        assert_eq!(
            problems,
            vec![ReportProblem::AccusedNotInGame {
                player: STRANGER,
                game: GameNumber(100)
            }]
        );
        // A supporting game needs one of the accused, not all of them.
        let mut support = report(ReportReason::SelfPartnering, vec![BLUE, GREEN]);
        support.supporting_games = vec![GameNumber(102), GameNumber(103)];
        assert_eq!(
            codes(check(&support)),
            vec![ReportProblem::NoAccusedInGame {
                game: GameNumber(103)
            }]
        );
    }

    #[test]
    fn unknown_and_too_many_games() {
        let mut unknown = report(ReportReason::Abandoning, vec![BLUE]);
        unknown.game = Some(GameNumber(999));
        unknown.supporting_games = vec![GameNumber(998)];
        assert_eq!(
            codes(check(&unknown)),
            vec![
                ReportProblem::UnknownGame {
                    game: GameNumber(999)
                },
                ReportProblem::UnknownGame {
                    game: GameNumber(998)
                }
            ]
        );
        let mut many = report(ReportReason::Abandoning, vec![BLUE]);
        many.supporting_games = (0..11).map(|n| GameNumber(1000 + n)).collect();
        let problems = codes(check(&many));
        assert_eq!(
            problems[0],
            ReportProblem::TooManySupportingGames { count: 11, max: 10 }
        );
        // Games past the limit are not looked up one by one.
        assert_eq!(problems.len(), 11);
    }

    #[test]
    fn without_a_game_only_known_players_may_be_named() {
        const NOBODY: PlayerId = PlayerId(99);
        let mut typo = report(ReportReason::OffensiveChat, vec![BLUE, NOBODY]);
        typo.game = None;
        let problems = codes(check(&typo));
        assert_eq!(
            problems,
            vec![ReportProblem::UnknownPlayer { player: NOBODY }]
        );
        assert_eq!(problems[0].field(), ReportField::Accused);
        // Supporting games alone do not vouch for every name.
        typo.supporting_games = vec![GameNumber(102)];
        assert_eq!(
            codes(check(&typo)),
            vec![ReportProblem::UnknownPlayer { player: NOBODY }]
        );
        // With a game, its seats decide (one problem, not two).
        typo.game = Some(GameNumber(100));
        typo.supporting_games = vec![];
        assert_eq!(
            codes(check(&typo)),
            vec![ReportProblem::AccusedNotInGame {
                player: NOBODY,
                game: GameNumber(100)
            }]
        );
        let mut known = report(ReportReason::OffensiveChat, vec![STRANGER]);
        known.game = None;
        assert!(check(&known).is_ok());
    }

    #[test]
    fn malformed_game_numbers_are_refused_by_field_and_not_looked_up() {
        let mut bad = report(ReportReason::Abandoning, vec![BLUE]);
        bad.game = Some(GameNumber(-5));
        bad.supporting_games = vec![GameNumber(102), GameNumber(0)];
        let problems = codes(check(&bad));
        assert_eq!(
            problems,
            vec![
                ReportProblem::InvalidGameNumber {
                    game: GameNumber(-5),
                    field: ReportField::Game,
                    why: GameNumberError::NotPositive
                },
                ReportProblem::InvalidGameNumber {
                    game: GameNumber(0),
                    field: ReportField::SupportingGames,
                    why: GameNumberError::NotPositive
                },
            ]
        );
        assert_eq!(problems[1].field(), ReportField::SupportingGames);
        assert!(problems[0].message().contains("-5"), "{}", problems[0]);
        bad.game = Some(GameNumber(i64::MAX));
        bad.supporting_games = vec![];
        assert!(matches!(
            codes(check(&bad))[..],
            [ReportProblem::InvalidGameNumber {
                why: GameNumberError::TooLarge,
                ..
            }]
        ));
    }

    #[test]
    fn all_problems_at_once() {
        let mut bad = report(ReportReason::Other, vec![ME, ME, STRANGER]);
        bad.game = Some(GameNumber(101));
        let problems = codes(check(&bad));
        assert_eq!(problems.len(), 4, "{problems:?}");
        for problem in &problems {
            assert!(!problem.message().is_empty());
        }
    }

    #[test]
    fn automatic_scores_must_be_in_range() {
        let mut auto = report(ReportReason::OffensiveChat, vec![BLUE]);
        auto.reporter = Reporter::ChatAnalysis { score: f64::NAN };
        assert_eq!(
            codes(check(&auto)),
            vec![ReportProblem::AutomaticScoreInvalid]
        );
        auto.reporter = Reporter::ChatAnalysis { score: 0.8 };
        // Automatic reports may concern anyone, including players the "reporter" never met.
        assert!(check(&auto).is_ok());
    }

    fn entry(id: i64, game: Option<GameNumber>, reason: ReportReason) -> ReportEntry {
        ReportEntry {
            id: ReportId(id),
            reporter: Reporter::Player { player: ME },
            accused: vec![BLUE],
            reason,
            message: Some("first".into()),
            game,
            supporting_games: vec![GameNumber(102)],
            filed_at: Utc
                .with_ymd_and_hms(2024, 1, 1, 0, 0, 0)
                .single()
                .unwrap_or_default(),
            decided: false,
        }
    }

    fn valid(
        game: Option<GameNumber>,
        reason: ReportReason,
        accused: Vec<PlayerId>,
    ) -> ValidReport {
        ValidReport {
            reporter: Reporter::Player { player: ME },
            accused,
            reason,
            message: Some("second".into()),
            game,
            supporting_games: vec![GameNumber(102), GameNumber(103)],
        }
    }

    #[test]
    fn same_game_and_reason_merges() {
        let policy = ModerationPolicy::default();
        let existing = vec![
            entry(1, Some(GameNumber(101)), ReportReason::OffensiveChat),
            entry(2, Some(GameNumber(100)), ReportReason::OffensiveChat),
        ];
        let outcome = merge_decision(
            &existing,
            &valid(
                Some(GameNumber(100)),
                ReportReason::OffensiveChat,
                vec![BLUE, GREEN],
            ),
            &policy,
        );
        assert_eq!(
            outcome,
            MergeOutcome::MergeInto {
                entry: ReportId(2),
                supporting_games: vec![GameNumber(102), GameNumber(103)],
                message: Some("first\n\nsecond".into()),
                message_truncated: false,
                added_accused: vec![GREEN],
                automatic_score: None,
            }
        );
    }

    #[test]
    fn different_reason_game_reporter_or_decided_is_new() {
        let policy = ModerationPolicy::default();
        let new = valid(
            Some(GameNumber(100)),
            ReportReason::OffensiveChat,
            vec![BLUE],
        );
        let mut other_reason = entry(1, Some(GameNumber(100)), ReportReason::Abandoning);
        assert_eq!(
            merge_decision(&[other_reason.clone()], &new, &policy),
            MergeOutcome::NewEntry
        );
        other_reason.reason = ReportReason::OffensiveChat;
        other_reason.decided = true;
        assert_eq!(
            merge_decision(&[other_reason.clone()], &new, &policy),
            MergeOutcome::NewEntry
        );
        other_reason.decided = false;
        other_reason.reporter = Reporter::Player { player: GREEN };
        assert_eq!(
            merge_decision(&[other_reason], &new, &policy),
            MergeOutcome::NewEntry
        );
        assert_eq!(
            merge_decision(
                &[entry(1, Some(GameNumber(101)), ReportReason::OffensiveChat)],
                &new,
                &policy
            ),
            MergeOutcome::NewEntry
        );
    }

    #[test]
    fn game_less_reports_merge_only_for_the_same_players() {
        let policy = ModerationPolicy::default();
        let existing = [entry(5, None, ReportReason::OffensiveChat)];
        assert!(matches!(
            merge_decision(
                &existing,
                &valid(None, ReportReason::OffensiveChat, vec![BLUE]),
                &policy
            ),
            MergeOutcome::MergeInto {
                entry: ReportId(5),
                ..
            }
        ));
        assert_eq!(
            merge_decision(
                &existing,
                &valid(None, ReportReason::OffensiveChat, vec![GREEN]),
                &policy
            ),
            MergeOutcome::NewEntry
        );
    }

    #[test]
    fn merged_messages_do_not_repeat_and_are_cut_to_the_limit() {
        let mut policy = ModerationPolicy::default();
        let mut existing = entry(1, Some(GameNumber(100)), ReportReason::OffensiveChat);
        existing.message = Some("he said second".into());
        let new = valid(
            Some(GameNumber(100)),
            ReportReason::OffensiveChat,
            vec![BLUE],
        );
        let MergeOutcome::MergeInto { message, .. } =
            merge_decision(&[existing.clone()], &new, &policy)
        else {
            panic!("expected a merge");
        };
        assert_eq!(message.as_deref(), Some("he said second"));

        policy.report.message_max_chars = 8;
        existing.message = Some("first".into());
        let MergeOutcome::MergeInto {
            message,
            message_truncated,
            ..
        } = merge_decision(&[existing], &new, &policy)
        else {
            panic!("expected a merge");
        };
        assert_eq!(message.as_deref(), Some("first\n\ns"));
        assert!(message_truncated);
    }

    #[test]
    fn automatic_reports_merge_with_the_stronger_score() {
        let policy = ModerationPolicy::default();
        let mut existing = entry(3, Some(GameNumber(100)), ReportReason::OffensiveChat);
        existing.reporter = Reporter::ChatAnalysis { score: 0.4 };
        let mut new = valid(
            Some(GameNumber(100)),
            ReportReason::OffensiveChat,
            vec![BLUE],
        );
        new.reporter = Reporter::ChatAnalysis { score: 0.7 };
        assert!(matches!(
            merge_decision(&[existing.clone()], &new, &policy),
            MergeOutcome::MergeInto { automatic_score: Some(s), .. } if (s - 0.7).abs() < 1e-12
        ));
        // A conduct signal is a different reporter than chat analysis.
        new.reporter = Reporter::ConductSignal { score: 0.7 };
        assert_eq!(
            merge_decision(&[existing], &new, &policy),
            MergeOutcome::NewEntry
        );
    }

    proptest::proptest! {
        /// Any input is either accepted or refused with reasons: never a panic, and a valid
        /// report honours every limit.
        #[test]
        fn validation_never_panics(
            reporter in 0i64..6,
            accused in proptest::collection::vec(0i64..6, 0..6),
            reason in proptest::sample::select(ReportReason::ALL.to_vec()),
            message in proptest::option::of(".{0,40}"),
            game in proptest::option::of(98i64..105),
            supporting in proptest::collection::vec(98i64..120, 0..14),
            score in proptest::num::f64::ANY,
            automatic in proptest::bool::ANY,
        ) {
            let mut policy = ModerationPolicy::default();
            policy.report.max_supporting_games = 4;
            policy.report.message_max_chars = 30;
            let new = NewReport {
                reporter: if automatic {
                    Reporter::ChatAnalysis { score }
                } else {
                    Reporter::Player { player: PlayerId(reporter) }
                },
                accused: accused.into_iter().map(PlayerId).collect(),
                reason,
                message,
                game: game.map(GameNumber),
                supporting_games: supporting.into_iter().map(GameNumber).collect(),
            };
            match validate_report(&new, &context(), &policy) {
                Ok(valid) => {
                    proptest::prop_assert!(!valid.accused.is_empty() && valid.accused.len() <= 3);
                    proptest::prop_assert!(valid.supporting_games.len() <= 4);
                    proptest::prop_assert!(valid.message.as_deref().map_or(0, |m| m.chars().count()) <= 30);
                    if let Some(me) = valid.reporter.player() {
                        proptest::prop_assert!(!valid.accused.contains(&me));
                    }
                    let merged = merge_decision(&[], &valid, &policy);
                    proptest::prop_assert_eq!(merged, MergeOutcome::NewEntry);
                }
                Err(problems) => {
                    proptest::prop_assert!(!problems.is_empty());
                    for problem in problems {
                        proptest::prop_assert!(!problem.message().is_empty());
                    }
                }
            }
        }
    }
}
