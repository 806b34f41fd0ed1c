//! How long personal data of a game is kept: the `[retention]` settings and the rule that
//! keeps a game's evidence while a case or its sanction still matters.
//!
//! Two kinds of data go: the chat text, and the connection data (connection events and the
//! seats' device and network fingerprints). Moves, seats, results and points stay: the archive,
//! conduct records and collusion statistics are built from them. A game's data of one kind is
//! purged once the kind's period has passed since the game was played and since every case
//! citing the game stopped mattering: a case matters until it is decided, and its sanctions
//! until they end (a permanent sanction, until it is lifted or shortened).

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// `[retention]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionSettings {
    /// Whether the background job purges (`arbiter retention` runs either way).
    pub enabled: bool,
    /// Days a game's chat text is kept.
    pub chat_days: u32,
    /// Days a game's connection events and fingerprints are kept.
    pub connection_days: u32,
    /// Seconds between the job's passes.
    pub interval_secs: u64,
    /// Games purged at most per transaction.
    pub batch: u32,
}

impl Default for RetentionSettings {
    fn default() -> Self {
        RetentionSettings {
            enabled: true,
            chat_days: 180,
            connection_days: 90,
            interval_secs: 3600,
            batch: 200,
        }
    }
}

/// Longest period that can be configured: 100 years.
pub const MAX_RETENTION_DAYS: u32 = 36_500;

impl RetentionSettings {
    /// The first problem with the values, as (key, message).
    pub fn problem(&self) -> Option<(&'static str, &'static str)> {
        if !(1..=MAX_RETENTION_DAYS).contains(&self.chat_days) {
            return Some(("retention.chat_days", "must be 1-36500"));
        }
        if !(1..=MAX_RETENTION_DAYS).contains(&self.connection_days) {
            return Some(("retention.connection_days", "must be 1-36500"));
        }
        if !(1..=86_400).contains(&self.interval_secs) {
            return Some(("retention.interval_secs", "must be 1-86400"));
        }
        if !(1..=5_000).contains(&self.batch) {
            return Some(("retention.batch", "must be 1-5000"));
        }
        None
    }

    pub fn period(&self, kind: PersonalData) -> TimeDelta {
        let days = match kind {
            PersonalData::ChatText => self.chat_days,
            PersonalData::Connections => self.connection_days,
        };
        TimeDelta::days(i64::from(days))
    }
}

/// What the retention rule purges from a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PersonalData {
    /// The text of the chat lines (the lines go; the chat flags, which hold no text, stay).
    ChatText,
    /// Connection events and the seats' device and network fingerprints.
    Connections,
}

impl PersonalData {
    pub const ALL: [PersonalData; 2] = [PersonalData::ChatText, PersonalData::Connections];

    pub fn as_str(self) -> &'static str {
        match self {
            PersonalData::ChatText => "chat text",
            PersonalData::Connections => "connection data",
        }
    }
}

/// Until when a case citing a game keeps the game's evidence alive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matters {
    /// Open, or a sanction of it is in force with no end.
    Indefinitely,
    /// Decided, and its sanctions (if any) ended, at this moment.
    Until(DateTime<Utc>),
}

/// Until when a case matters: while undecided, then until the last of its sanctions ends
/// (`effective_end`s; `None` for a permanent one in force).
pub fn case_matters(
    decided_at: Option<DateTime<Utc>>,
    sanction_ends: &[Option<DateTime<Utc>>],
) -> Matters {
    let Some(decided) = decided_at else {
        return Matters::Indefinitely;
    };
    let mut last = decided;
    for end in sanction_ends {
        match end {
            None => return Matters::Indefinitely,
            Some(end) => last = last.max(*end),
        }
    }
    Matters::Until(last)
}

/// When a game's data of one kind may be purged: `period` after the game was played and after
/// every citing case stopped mattering; `None` while a citing case still matters indefinitely.
pub fn purge_after(
    played_at: DateTime<Utc>,
    citing: &[Matters],
    period: TimeDelta,
) -> Option<DateTime<Utc>> {
    let mut from = played_at;
    for matters in citing {
        match matters {
            Matters::Indefinitely => return None,
            Matters::Until(end) => from = from.max(*end),
        }
    }
    Some(from + period)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0)
            .single()
            .expect("date")
            + TimeDelta::days(d.into())
    }

    #[test]
    fn an_uncited_game_is_purged_one_period_after_it_was_played() {
        assert_eq!(purge_after(day(0), &[], TimeDelta::days(90)), Some(day(90)));
    }

    #[test]
    fn a_cited_game_waits_for_its_cases_and_their_sanctions() {
        let period = TimeDelta::days(90);
        let open = case_matters(None, &[]);
        assert_eq!(open, Matters::Indefinitely);
        assert_eq!(purge_after(day(0), &[open], period), None);
        // Decided on day 10 with a sanction to day 40: kept until day 130.
        let banned = case_matters(Some(day(10)), &[Some(day(40))]);
        assert_eq!(banned, Matters::Until(day(40)));
        assert_eq!(purge_after(day(0), &[banned], period), Some(day(130)));
        // Dismissed on day 5: kept one period from the decision, to day 95.
        let dismissed = case_matters(Some(day(5)), &[]);
        assert_eq!(purge_after(day(0), &[dismissed], period), Some(day(95)));
        // A permanent sanction in force holds the evidence; two cases, the later one counts.
        assert_eq!(
            case_matters(Some(day(10)), &[Some(day(20)), None]),
            Matters::Indefinitely
        );
        assert_eq!(
            purge_after(day(0), &[dismissed, banned], period),
            Some(day(130))
        );
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(RetentionSettings::default().problem(), None);
        let zero = RetentionSettings {
            chat_days: 0,
            ..RetentionSettings::default()
        };
        assert_eq!(zero.problem().map(|p| p.0), Some("retention.chat_days"));
        let huge = RetentionSettings {
            batch: 10_000,
            ..RetentionSettings::default()
        };
        assert_eq!(huge.problem().map(|p| p.0), Some("retention.batch"));
    }
}
