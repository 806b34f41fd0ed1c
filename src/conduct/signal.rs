//! Signals: habits seen across several games on several days, never a single game: admins do
//! not act on one game, and losing the connection or timing out in one game is not worth a
//! report (docs/moderation.md, "The several-games rule" and "Report reasons").

use std::collections::BTreeSet;

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::outcome::{DepartureKind, SeatOutcome};
use super::policy::{
    AbandonmentRule, ConductPolicy, HabitRule, LostPositionQuittingRule, SandbaggingRule,
};
use super::record::{day_of, share, PlayerRecord};
use crate::moderation::{GameNumber, Variant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalKind {
    /// "A bad habit of disconnecting in lost positions."
    LostPositionQuitting,
    /// Forfeits after disconnects that did not reconnect.
    Abandonment,
    /// "Intentionally and frequently abandon, abort or throw games to lower their rating."
    Sandbagging,
    /// Teams: "resign prematurely and throw games to spoil other players' games".
    TeamsSpoiling,
}

impl SignalKind {
    pub const ALL: [SignalKind; 4] = [
        SignalKind::LostPositionQuitting,
        SignalKind::Abandonment,
        SignalKind::Sandbagging,
        SignalKind::TeamsSpoiling,
    ];

    /// The name used in storage and as an automatic report's rule.
    pub fn as_str(self) -> &'static str {
        match self {
            SignalKind::LostPositionQuitting => "lost_position_quitting",
            SignalKind::Abandonment => "abandonment",
            SignalKind::Sandbagging => "sandbagging",
            SignalKind::TeamsSpoiling => "teams_spoiling",
        }
    }

    /// The habit conditions of this kind's rule.
    pub fn habit(self, policy: &ConductPolicy) -> HabitRule {
        let rules = &policy.signals;
        match self {
            SignalKind::LostPositionQuitting => rules.lost_position_quitting.habit(),
            SignalKind::Abandonment => rules.abandonment.habit(),
            SignalKind::Sandbagging => rules.sandbagging.habit(),
            SignalKind::TeamsSpoiling => rules.teams_spoiling.habit(),
        }
    }
}

/// Whether a signal is news for the review queue, given every game already listed by earlier
/// reports of the same kind about the same player: it is when at least the rule's `min_games`
/// of its supporting games were never reported, i.e. the new games alone would make a habit.
/// A habit that goes on is thus reported again after each fresh habit's worth of games, and
/// the same games never raise two reports of one kind.
pub fn is_new_signal(
    signal: &Signal,
    already_reported: &BTreeSet<GameNumber>,
    policy: &ConductPolicy,
) -> bool {
    let fresh = signal
        .supporting_games
        .iter()
        .filter(|g| !already_reported.contains(g))
        .count();
    fresh >= signal.kind.habit(policy).min_games.max(2) as usize
}

/// A habit worth a moderator's look.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signal {
    pub kind: SignalKind,
    /// 0..=1: how far the rate goes towards the rule's `full_strength_rate`.
    pub strength: f64,
    pub explanation: String,
    /// Every game that supports the signal, oldest first.
    pub supporting_games: Vec<GameNumber>,
}

/// The games a habit rule looked at and the ones that support it.
struct Evidence<'a> {
    considered: Vec<&'a SeatOutcome>,
    supporting: Vec<&'a SeatOutcome>,
    days: usize,
    rate: f64,
}

impl<'a> Evidence<'a> {
    fn gather(
        considered: Vec<&'a SeatOutcome>,
        supports: impl Fn(&SeatOutcome) -> bool,
    ) -> Evidence<'a> {
        let supporting: Vec<&SeatOutcome> =
            considered.iter().copied().filter(|o| supports(o)).collect();
        let days = supporting
            .iter()
            .map(|o| day_of(o.ended_at))
            .collect::<BTreeSet<_>>()
            .len();
        let rate = share(supporting.len() as u32, considered.len() as u32);
        Evidence {
            considered,
            supporting,
            days,
            rate,
        }
    }

    /// The shared habit conditions: several games, a real share of the games, several days.
    fn is_habit(&self, rule: &HabitRule) -> bool {
        self.supporting.len() >= rule.min_games.max(2) as usize
            && self.rate >= rule.min_rate
            && self.days >= rule.min_days.max(1) as usize
    }

    fn strength(&self, rule: &HabitRule) -> f64 {
        (self.rate / rule.full_strength_rate).clamp(0.0, 1.0)
    }

    fn games(&self) -> Vec<GameNumber> {
        self.supporting.iter().map(|o| o.game).collect()
    }

    fn summary(&self, what: &str, rule: &HabitRule) -> String {
        format!(
            "{} of the last {} games within {} days ({:.0}%) {what}, on {} different days",
            self.supporting.len(),
            self.considered.len(),
            rule.window_days,
            self.rate * 100.0,
            self.days
        )
    }
}

/// The record's recent games that ended within `window_days` before `now`.
fn in_window(record: &PlayerRecord, now: DateTime<Utc>, window_days: u32) -> Vec<&SeatOutcome> {
    let since = now - TimeDelta::days(i64::from(window_days));
    record
        .recent
        .iter()
        .filter(|o| o.ended_at > since && o.ended_at <= now)
        .collect()
}

/// Every signal the record supports at `now`, in [`SignalKind`] order.
pub fn signals(record: &PlayerRecord, now: DateTime<Utc>, policy: &ConductPolicy) -> Vec<Signal> {
    let rules = &policy.signals;
    [
        lost_position_quitting(record, now, &rules.lost_position_quitting),
        abandonment(record, now, &rules.abandonment),
        sandbagging(record, now, &rules.sandbagging),
        teams_spoiling(record, now, &rules.teams_spoiling),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A habit of disconnecting in lost positions is report-worthy; resigning a lost position
/// is good manners, counted only when the policy says so (docs/moderation.md, "Report
/// reasons").
fn lost_position_quitting(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    rule: &LostPositionQuittingRule,
) -> Option<Signal> {
    let habit = rule.habit();
    let evidence = Evidence::gather(in_window(record, now, habit.window_days), |o| {
        o.departure.as_ref().is_some_and(|d| {
            d.lost_position && (rule.count_resignations || d.kind != DepartureKind::Resigned)
        })
    });
    if !evidence.is_habit(&habit) {
        return None;
    }
    Some(Signal {
        kind: SignalKind::LostPositionQuitting,
        strength: evidence.strength(&habit),
        explanation: evidence.summary(
            if rule.count_resignations {
                "were left in a lost position"
            } else {
                "were abandoned (disconnect or timeout) in a lost position"
            },
            &habit,
        ),
        supporting_games: evidence.games(),
    })
}

/// Abandonment: forfeits after a disconnect; every disconnect that reconnected counts in the
/// player's favour (a bad connection is not a habit of abandoning).
fn abandonment(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    rule: &AbandonmentRule,
) -> Option<Signal> {
    let habit = rule.habit();
    let evidence = Evidence::gather(
        in_window(record, now, habit.window_days),
        SeatOutcome::forfeited_after_disconnect,
    );
    let forfeits = evidence.supporting.len() as f64;
    let reconnects: u32 = evidence.considered.iter().map(|o| o.reconnects).sum();
    let weighed = forfeits + rule.reconnect_weight * f64::from(reconnects);
    let forfeit_share = if weighed > 0.0 {
        forfeits / weighed
    } else {
        0.0
    };
    if !evidence.is_habit(&habit) || forfeit_share < rule.min_forfeit_share {
        return None;
    }
    Some(Signal {
        kind: SignalKind::Abandonment,
        strength: evidence.strength(&habit) * forfeit_share,
        explanation: format!(
            "{}; {reconnects} disconnects in those games reconnected ({:.0}% of weighed disconnects ended in a forfeit)",
            evidence.summary("were forfeited after a disconnect without reconnecting", &habit),
            forfeit_share * 100.0
        ),
        supporting_games: evidence.games(),
    })
}

/// Sandbagging: aborts caused and early departures that cost rating.
fn sandbagging(
    record: &PlayerRecord,
    now: DateTime<Utc>,
    rule: &SandbaggingRule,
) -> Option<Signal> {
    let habit = rule.habit();
    let evidence = Evidence::gather(in_window(record, now, habit.window_days), |o| {
        o.rating_lost_leaving_early() > 0
    });
    let rating_lost: i64 = evidence
        .supporting
        .iter()
        .map(|o| o.rating_lost_leaving_early())
        .sum();
    let aborts = evidence
        .supporting
        .iter()
        .filter(|o| o.caused_abort)
        .count();
    if !evidence.is_habit(&habit) || rating_lost < rule.min_rating_lost {
        return None;
    }
    Some(Signal {
        kind: SignalKind::Sandbagging,
        strength: evidence.strength(&habit),
        explanation: format!(
            "{} ({aborts} aborted by the player), losing {rating_lost} rating in total",
            evidence.summary("were aborted or left early with a rating loss", &habit)
        ),
        supporting_games: evidence.games(),
    })
}

/// Teams spoiling: early resignations, partner still playing, position not lost. The rate
/// is over Teams games only.
fn teams_spoiling(record: &PlayerRecord, now: DateTime<Utc>, habit: &HabitRule) -> Option<Signal> {
    let teams_games: Vec<&SeatOutcome> = in_window(record, now, habit.window_days)
        .into_iter()
        .filter(|o| o.variant == Variant::Teams)
        .collect();
    let evidence = Evidence::gather(teams_games, SeatOutcome::teams_early_resignation);
    if !evidence.is_habit(habit) {
        return None;
    }
    Some(Signal {
        kind: SignalKind::TeamsSpoiling,
        strength: evidence.strength(habit),
        explanation: evidence
            .summary(
                "(Teams) were resigned early, not in a lost position, while the partner still played",
                habit,
            )
            .replacen("games", "Teams games", 1),
        supporting_games: evidence.games(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signal(games: &[i64]) -> Signal {
        Signal {
            kind: SignalKind::Abandonment,
            strength: 1.0,
            explanation: String::new(),
            supporting_games: games.iter().map(|&g| GameNumber(g)).collect(),
        }
    }

    #[test]
    fn a_signal_is_new_only_with_a_habits_worth_of_unreported_games() {
        let policy = ConductPolicy::default();
        assert_eq!(policy.signals.abandonment.min_games, 4);
        let none = BTreeSet::new();
        assert!(is_new_signal(&signal(&[1, 2, 3, 4]), &none, &policy));
        let reported: BTreeSet<GameNumber> = [1, 2, 3, 4].map(GameNumber).into();
        // The same games, or one more game on top of them: not news.
        assert!(!is_new_signal(&signal(&[1, 2, 3, 4]), &reported, &policy));
        assert!(!is_new_signal(
            &signal(&[1, 2, 3, 4, 5]),
            &reported,
            &policy
        ));
        // Four games never reported: news, even though older ones are listed too.
        assert!(is_new_signal(
            &signal(&[3, 4, 5, 6, 7, 8]),
            &reported,
            &policy
        ));
    }

    #[test]
    fn kinds_have_stable_names() {
        let names: Vec<&str> = SignalKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "lost_position_quitting",
                "abandonment",
                "sandbagging",
                "teams_spoiling"
            ]
        );
    }
}
