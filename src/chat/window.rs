//! The rolling-window report rule: chat that is report-worthy now and then, but in too many
//! of a player's recent games.
//!
//! The per-game rules (`severe_line`, `repeated_lines`) judge one game at a time. This rule
//! looks at the sender's last `games` games in the archive (ordered by played time, the game
//! being ingested included) and reports when at least `min_games` of them hold report-worthy
//! flags for the same reason.
//!
//! **Once per episode.** A window report lists every supporting game of the window. A later
//! game raises another one only when the window again holds at least `min_games` supporting
//! games that no earlier window report of the player and reason already lists: a run of
//! misconduct is reported once, and reported again only after as much new evidence has
//! accumulated as the first report needed. The game being ingested must itself support the
//! window (it is the game whose ingest raises the report), so a clean game never raises one.
//!
//! Pure: the store loads the recent games, their flags and the earlier window reports.

use chrono::NaiveDateTime;

use super::types::{Category, CategoryGroup};

/// The rule name stored with the report.
pub const RULE: &str = "rolling_window";

/// Review-queue reason for offensive chat (insults, slurs, personal information, ...).
pub const OFFENSIVE_CHAT: &str = "offensive_chat";
/// Review-queue reason for chat against the FFA chat rules (move suggestions, collusion, ...).
pub const RULE_VIOLATING_CHAT: &str = "rule_violating_chat";

/// The reasons the window is judged for, in report order.
pub const REASONS: [&str; 2] = [OFFENSIVE_CHAT, RULE_VIOLATING_CHAT];

/// The review-queue reason a flag of this category counts toward; `None` for spam, which the
/// per-game rate rules handle and which is never reported on its own.
pub fn report_reason(category: Category) -> Option<&'static str> {
    match category.group() {
        CategoryGroup::Offensive => Some(OFFENSIVE_CHAT),
        CategoryGroup::RuleViolating => Some(RULE_VIOLATING_CHAT),
        CategoryGroup::Spam => None,
    }
}

/// `[chat] window_games` and `[chat] window_min_games`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowRule {
    /// How many of the player's most recent games form the window.
    pub games: u32,
    /// How many of them must hold report-worthy flags of one reason.
    pub min_games: u32,
}

impl WindowRule {
    /// Either value at 0 disables the rule.
    pub fn enabled(self) -> bool {
        self.games > 0 && self.min_games > 0
    }
}

/// One of the player's games as the window sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowGame {
    /// Archive id.
    pub game_id: i64,
    pub played_at: NaiveDateTime,
    /// The reasons ([`REASONS`]) for which the player's lines in this game were report-worthy.
    pub worthy_reasons: Vec<&'static str>,
}

/// An earlier window report of the same player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlierWindowReport {
    pub reason: String,
    /// Its supporting games (only those still in the window matter).
    pub games: Vec<i64>,
}

/// A window report to raise.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowReport {
    pub reason: &'static str,
    /// Every supporting game of the window, oldest first.
    pub supporting_games: Vec<i64>,
    /// Supporting games no earlier window report lists.
    pub new_games: usize,
    /// Games in the window (at most `rule.games`; fewer for a new player).
    pub window_len: usize,
    /// 0.5 for `min_games` of a full window up to 1.0 when every game supports it.
    pub score: f64,
}

/// The window reports `current_game`'s ingest raises, at most one per reason.
///
/// `games` are the player's games (any order; the most recent `rule.games` by played time,
/// then id, form the window; the store may pass exactly those). `earlier` are the player's
/// earlier window reports (any reason).
pub fn window_reports(
    rule: WindowRule,
    current_game: i64,
    games: &[WindowGame],
    earlier: &[EarlierWindowReport],
) -> Vec<WindowReport> {
    if !rule.enabled() {
        return Vec::new();
    }
    let mut window: Vec<&WindowGame> = games.iter().collect();
    window.sort_by(|a, b| {
        (b.played_at, b.game_id)
            .cmp(&(a.played_at, a.game_id))
            .then(b.worthy_reasons.len().cmp(&a.worthy_reasons.len()))
    });
    window.dedup_by_key(|g| g.game_id);
    window.truncate(usize::try_from(rule.games).unwrap_or(usize::MAX));
    let min = usize::try_from(rule.min_games).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    for reason in REASONS {
        // Oldest first.
        let supporting: Vec<i64> = window
            .iter()
            .rev()
            .filter(|g| g.worthy_reasons.contains(&reason))
            .map(|g| g.game_id)
            .collect();
        if supporting.len() < min || !supporting.contains(&current_game) {
            continue;
        }
        let covered = |game: i64| {
            earlier
                .iter()
                .any(|r| r.reason == reason && r.games.contains(&game))
        };
        let new_games = supporting.iter().filter(|&&g| !covered(g)).count();
        if new_games < min {
            continue;
        }
        let share = supporting.len() as f64 / rule.games as f64;
        out.push(WindowReport {
            reason,
            new_games,
            window_len: window.len(),
            score: (0.5 + 0.5 * share).min(1.0),
            supporting_games: supporting,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, NaiveDate};

    const RULE3OF10: WindowRule = WindowRule {
        games: 10,
        min_games: 3,
    };

    fn at(day: i64) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 1, 1)
            .and_then(|d| d.and_hms_opt(12, 0, 0))
            .expect("date")
            + Duration::days(day)
    }

    /// Games 1..=n played on consecutive days; `bad` hold offensive lines.
    fn history(n: i64, bad: &[i64]) -> Vec<WindowGame> {
        (1..=n)
            .map(|id| WindowGame {
                game_id: id,
                played_at: at(id),
                worthy_reasons: if bad.contains(&id) {
                    vec![OFFENSIVE_CHAT]
                } else {
                    Vec::new()
                },
            })
            .collect()
    }

    fn earlier(reason: &str, games: &[i64]) -> EarlierWindowReport {
        EarlierWindowReport {
            reason: reason.to_string(),
            games: games.to_vec(),
        }
    }

    #[test]
    fn fires_on_the_game_that_completes_the_window() {
        let games = history(5, &[1, 3]);
        assert!(window_reports(RULE3OF10, 5, &games, &[]).is_empty());
        let games = history(5, &[1, 3, 5]);
        let reports = window_reports(RULE3OF10, 5, &games, &[]);
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].reason, OFFENSIVE_CHAT);
        assert_eq!(reports[0].supporting_games, vec![1, 3, 5]);
        assert_eq!(reports[0].new_games, 3);
        assert_eq!(reports[0].window_len, 5);
        assert!(
            (reports[0].score - 0.65).abs() < 1e-9,
            "{}",
            reports[0].score
        );
    }

    #[test]
    fn only_the_last_games_by_played_time_count() {
        // Game 1 falls out of a 10-game window once game 11 is played.
        let games = history(11, &[1, 6, 11]);
        assert!(window_reports(RULE3OF10, 11, &games, &[]).is_empty());
        // Ids do not decide the order: a game with a low id played last is in the window.
        let mut games = history(11, &[1, 6, 11]);
        games[0].played_at = at(20);
        let reports = window_reports(RULE3OF10, 11, &games, &[]);
        assert_eq!(reports[0].supporting_games, vec![6, 11, 1]);
    }

    #[test]
    fn one_bad_game_among_many_never_fires() {
        let games = history(30, &[17]);
        for current in 1..=30 {
            assert!(window_reports(RULE3OF10, current, &games, &[]).is_empty());
        }
    }

    #[test]
    fn a_clean_current_game_raises_nothing() {
        let games = history(4, &[1, 2, 3]);
        assert!(window_reports(RULE3OF10, 4, &games, &[]).is_empty());
    }

    #[test]
    fn does_not_repeat_until_enough_new_games() {
        let first = earlier(OFFENSIVE_CHAT, &[1, 2, 3]);
        // Game 4 is bad too: only one new game since the report on 1..3.
        let games = history(4, &[1, 2, 3, 4]);
        assert!(window_reports(RULE3OF10, 4, &games, std::slice::from_ref(&first)).is_empty());
        let games = history(5, &[1, 2, 3, 4, 5]);
        assert!(window_reports(RULE3OF10, 5, &games, std::slice::from_ref(&first)).is_empty());
        // Three games no report lists: a new report, listing the whole window's evidence.
        let games = history(6, &[1, 2, 3, 4, 5, 6]);
        let reports = window_reports(RULE3OF10, 6, &games, std::slice::from_ref(&first));
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].supporting_games, vec![1, 2, 3, 4, 5, 6]);
        assert_eq!(reports[0].new_games, 3);
    }

    #[test]
    fn reasons_are_judged_apart() {
        let mut games = history(3, &[1, 2, 3]);
        games[2].worthy_reasons.push(RULE_VIOLATING_CHAT);
        // An earlier report of the other reason does not cover these games.
        let reports = window_reports(
            RULE3OF10,
            3,
            &games,
            &[earlier(RULE_VIOLATING_CHAT, &[1, 2, 3])],
        );
        assert_eq!(reports.len(), 1);
        assert_eq!(reports[0].reason, OFFENSIVE_CHAT);
        let reports = window_reports(RULE3OF10, 3, &games, &[earlier(OFFENSIVE_CHAT, &[1])]);
        assert!(reports.is_empty(), "{reports:?}");
    }

    #[test]
    fn disabled_by_zero_and_duplicates_ignored() {
        let games = history(3, &[1, 2, 3]);
        for rule in [
            WindowRule {
                games: 0,
                min_games: 3,
            },
            WindowRule {
                games: 10,
                min_games: 0,
            },
        ] {
            assert!(window_reports(rule, 3, &games, &[]).is_empty());
        }
        // The same game twice (a player in two seats) counts once.
        let mut games = history(2, &[1, 2]);
        games.push(games[1].clone());
        assert!(window_reports(RULE3OF10, 2, &games, &[]).is_empty());
    }

    #[test]
    fn spam_does_not_count() {
        assert_eq!(report_reason(Category::Insult), Some(OFFENSIVE_CHAT));
        assert_eq!(
            report_reason(Category::MoveSuggestion),
            Some(RULE_VIOLATING_CHAT)
        );
        assert_eq!(report_reason(Category::Flooding), None);
    }
}
