//! Refunds owed to the victims of teaming, self-partnering and (Teams) sandbagging: which
//! upheld cases owe them, which games count, and per game and victim the rating points lost
//! (docs/moderation.md, "Refunds"). Pure: the use case `owe_refunds` loads the games and
//! stores what this computes; the game site applies it.
//!
//! It lives in `moderation`, not `collusion`: a refund follows an admin's decision on a case
//! (sandbagging included, which no collusion statistic finds), and its policy is part of the
//! moderation policy (`config/moderation.toml`, `[refunds]`).
//!
//! Who is a victim: every seat of a game concerned that is not an offender (the case's accused
//! and everyone its reports named alongside them) and lost rating in it. Rules of conduct 1, 5,
//! 6 and 7 of the site (docs/moderation.md, "Rules of conduct"): in FFA the players a pair
//! teamed against; with self-partnering, the players the two accounts sat with; in Teams, a
//! sandbagger's own partner loses with them and is a victim as much as the opponents, unless
//! the reports named the partner too (rule 6: partnering a sandbagged account to gain rating
//! makes the partner an offender). An offender's own loss is never refunded.

use std::collections::BTreeMap;

use serde::Serialize;

use super::abuse::ReportOutcome;
pub use super::refund_policy::RefundPolicy;
use super::types::{GameNumber, Ground, ReportReason, Variant};

/// Which games of an upheld case can owe refunds, by variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundScope {
    /// Prearranged teaming: FFA and Solo only (rule 7 of conduct).
    FreeForAll,
    /// Sandbagging and game spoiling: Teams only, where a partner loses with the sandbagger.
    Teams,
    /// Self-partnering: every variant.
    Every,
}

impl RefundScope {
    pub fn covers(self, variant: Variant) -> bool {
        match self {
            RefundScope::FreeForAll => variant.is_free_for_all(),
            RefundScope::Teams => variant == Variant::Teams,
            RefundScope::Every => true,
        }
    }
}

/// Whether a decided case owes refunds, and in which games; `None` when it owes none: the
/// policy is off or leaves the reason out, the reports were not upheld, or the ground found is
/// not one that takes rating from others (habitual disconnecting hurts a game, not a rating
/// list; `other` says nothing a refund could rest on).
pub fn refund_scope(
    reason: ReportReason,
    ground: Option<Ground>,
    outcome: ReportOutcome,
    policy: &RefundPolicy,
) -> Option<RefundScope> {
    if !policy.enabled || outcome != ReportOutcome::Upheld || !policy.reasons.contains(&reason) {
        return None;
    }
    match (reason, ground?) {
        (ReportReason::PrearrangedTeaming, Ground::PrearrangedTeaming | Ground::ChatCollusion) => {
            Some(RefundScope::FreeForAll)
        }
        (ReportReason::SelfPartnering, Ground::SelfPartnering) => Some(RefundScope::Every),
        (ReportReason::Abandoning, Ground::Sandbagging | Ground::GameSpoiling) => {
            Some(RefundScope::Teams)
        }
        _ => None,
    }
}

/// One seat of a game concerned, as the archive holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundSeat {
    /// 0..=3: red, blue, yellow, green (red and yellow, blue and green are partners in Teams).
    pub seat: i16,
    pub player: String,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    /// The seat's final standing (1 = first).
    pub placement: i16,
}

/// One game concerned with its seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundGame {
    /// The archive's id.
    pub game_id: i64,
    pub number: GameNumber,
    pub variant: Variant,
    pub seats: Vec<RefundSeat>,
}

/// What one victim is owed for one game; `amount` is `None` when the game server sent no
/// rating for the seat (listed, so the site can work it out itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefundLine {
    pub game_id: i64,
    pub number: GameNumber,
    pub seat: i16,
    pub player: String,
    pub placement: i16,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    pub amount: Option<i64>,
}

/// What one victim is owed over every game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VictimTotal {
    pub player: String,
    /// Sum of the amounts of their rated losses.
    pub amount: i64,
    /// Games with an amount.
    pub games: u32,
    /// Games listed without an amount (no rating sent).
    pub unrated_games: u32,
}

/// Everything a case owes: lines in the games' order then seat order, totals largest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Refunds {
    pub lines: Vec<RefundLine>,
    pub totals: Vec<VictimTotal>,
}

impl Refunds {
    /// The sum of every amount.
    pub fn total(&self) -> i64 {
        self.totals.iter().map(|t| t.amount).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// The refunds owed in `games` (each counted once, in the order given) to every seat that is
/// no offender: `rating_before - rating_after` where that is a loss; a seat without both
/// ratings is listed without an amount; a seat that gained or kept its rating is owed nothing.
/// Games outside `scope` owe nothing.
pub fn refunds_owed(offenders: &[String], games: &[RefundGame], scope: RefundScope) -> Refunds {
    let mut lines = Vec::new();
    let mut seen = Vec::with_capacity(games.len());
    for game in games {
        if seen.contains(&game.game_id) || !scope.covers(game.variant) {
            continue;
        }
        seen.push(game.game_id);
        let mut seats: Vec<&RefundSeat> = game
            .seats
            .iter()
            .filter(|s| !offenders.contains(&s.player))
            .collect();
        seats.sort_by_key(|s| s.seat);
        for seat in seats {
            let amount = match (seat.rating_before, seat.rating_after) {
                (Some(before), Some(after)) => {
                    let lost = i64::from(before) - i64::from(after);
                    if lost <= 0 {
                        continue;
                    }
                    Some(lost)
                }
                _ => None,
            };
            lines.push(RefundLine {
                game_id: game.game_id,
                number: game.number,
                seat: seat.seat,
                player: seat.player.clone(),
                placement: seat.placement,
                rating_before: seat.rating_before,
                rating_after: seat.rating_after,
                amount,
            });
        }
    }
    let totals = totals_of(&lines);
    Refunds { lines, totals }
}

/// The refunds without the seats already refunded (by archive game id and seat): a seat's
/// loss in a game is owed once, though both cases of a pair reported together cover it.
pub fn without_settled(refunds: Refunds, settled: &[(i64, i16)]) -> Refunds {
    let lines: Vec<RefundLine> = refunds
        .lines
        .into_iter()
        .filter(|l| !settled.contains(&(l.game_id, l.seat)))
        .collect();
    let totals = totals_of(&lines);
    Refunds { lines, totals }
}

/// Per victim: the sum of their amounts and the games counted, largest sum first, then by name.
pub fn totals_of(lines: &[RefundLine]) -> Vec<VictimTotal> {
    let mut by_player: BTreeMap<&str, VictimTotal> = BTreeMap::new();
    for line in lines {
        let total = by_player
            .entry(line.player.as_str())
            .or_insert_with(|| VictimTotal {
                player: line.player.clone(),
                amount: 0,
                games: 0,
                unrated_games: 0,
            });
        match line.amount {
            Some(amount) => {
                total.amount = total.amount.saturating_add(amount);
                total.games += 1;
            }
            None => total.unrated_games += 1,
        }
    }
    let mut totals: Vec<VictimTotal> = by_player.into_values().collect();
    totals.sort_by(|a, b| {
        b.amount
            .cmp(&a.amount)
            .then_with(|| a.player.cmp(&b.player))
    });
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: i16, player: &str, ratings: Option<(i32, i32)>, placement: i16) -> RefundSeat {
        RefundSeat {
            seat,
            player: player.to_string(),
            rating_before: ratings.map(|r| r.0),
            rating_after: ratings.map(|r| r.1),
            placement,
        }
    }

    fn game(id: i64, variant: Variant, seats: Vec<RefundSeat>) -> RefundGame {
        RefundGame {
            game_id: id,
            number: GameNumber(1000 + id),
            variant,
            seats,
        }
    }

    fn offenders() -> Vec<String> {
        vec!["ann".to_string(), "bob".to_string()]
    }

    /// Three FFA games of the pair ann + bob: two rated, one not.
    fn ffa_games() -> Vec<RefundGame> {
        vec![
            // carl loses 18, dora loses 7; ann's own loss (-5) is ignored.
            game(
                1,
                Variant::Ffa,
                vec![
                    seat(0, "ann", Some((1600, 1595)), 2),
                    seat(1, "carl", Some((1500, 1482)), 4),
                    seat(2, "bob", Some((1550, 1580)), 1),
                    seat(3, "dora", Some((1450, 1443)), 3),
                ],
            ),
            // carl loses 11 again; eve gains and is owed nothing.
            game(
                2,
                Variant::Ffa,
                vec![
                    seat(0, "carl", Some((1482, 1471)), 3),
                    seat(1, "ann", Some((1595, 1620)), 1),
                    seat(2, "eve", Some((1400, 1405)), 2),
                    seat(3, "bob", Some((1580, 1570)), 4),
                ],
            ),
            // Unrated: carl and eve listed without an amount.
            game(
                3,
                Variant::Solo,
                vec![
                    seat(0, "bob", None, 1),
                    seat(1, "carl", None, 4),
                    seat(2, "ann", None, 2),
                    seat(3, "eve", None, 3),
                ],
            ),
        ]
    }

    #[test]
    fn victims_are_owed_their_losses_summed_by_hand() {
        let refunds = refunds_owed(&offenders(), &ffa_games(), RefundScope::FreeForAll);
        let owed: Vec<(i64, &str, Option<i64>, i16)> = refunds
            .lines
            .iter()
            .map(|l| (l.game_id, l.player.as_str(), l.amount, l.placement))
            .collect();
        assert_eq!(
            owed,
            vec![
                (1, "carl", Some(18), 4),
                (1, "dora", Some(7), 3),
                (2, "carl", Some(11), 3),
                (3, "carl", None, 4),
                (3, "eve", None, 3),
            ]
        );
        // carl: 18 + 11 = 29 over two rated games and one unrated; dora 7; eve nothing rated.
        let totals: Vec<(&str, i64, u32, u32)> = refunds
            .totals
            .iter()
            .map(|t| (t.player.as_str(), t.amount, t.games, t.unrated_games))
            .collect();
        assert_eq!(
            totals,
            vec![("carl", 29, 2, 1), ("dora", 7, 1, 0), ("eve", 0, 0, 1)]
        );
        assert_eq!(refunds.total(), 36);
    }

    #[test]
    fn seats_refunded_by_an_earlier_case_are_owed_nothing_more() {
        let refunds = refunds_owed(&offenders(), &ffa_games(), RefundScope::FreeForAll);
        // The partner's case came first and refunded carl's seat in game 1.
        let rest = without_settled(refunds, &[(1, 1)]);
        assert_eq!(rest.total(), 18);
        assert_eq!(rest.totals[0].player, "carl");
        assert_eq!(rest.totals[0].amount, 11);
        assert_eq!(rest.lines.len(), 4);
        assert!(without_settled(rest.clone(), &[(1, 3), (2, 0), (3, 1), (3, 3)]).is_empty());
    }

    #[test]
    fn a_game_counts_once_and_games_outside_the_scope_not_at_all() {
        let mut games = ffa_games();
        games.push(games[0].clone());
        games.push(game(
            4,
            Variant::Teams,
            vec![
                seat(0, "ann", Some((1600, 1590)), 2),
                seat(1, "carl", Some((1500, 1400)), 1),
                seat(2, "bob", Some((1550, 1540)), 2),
                seat(3, "dora", Some((1450, 1350)), 1),
            ],
        ));
        let refunds = refunds_owed(&offenders(), &games, RefundScope::FreeForAll);
        assert_eq!(refunds.total(), 36);
        assert_eq!(refunds.lines.len(), 5);
        let every = refunds_owed(&offenders(), &games, RefundScope::Every);
        assert_eq!(every.total(), 36 + 200);
    }

    #[test]
    fn a_sandbaggers_partner_is_a_victim_unless_named_with_them() {
        // Teams: red (ann) and yellow (pat) are partners; ann throws the game.
        let games = vec![game(
            7,
            Variant::Teams,
            vec![
                seat(0, "ann", Some((1300, 1290)), 2),
                seat(1, "carl", Some((1500, 1510)), 1),
                seat(2, "pat", Some((1800, 1760)), 2),
                seat(3, "dora", Some((1450, 1460)), 1),
            ],
        )];
        let alone = refunds_owed(&["ann".to_string()], &games, RefundScope::Teams);
        assert_eq!(alone.total(), 40);
        assert_eq!(alone.lines[0].player, "pat");
        // Rule 6: pat partnered the sandbagged account to gain rating: no victim.
        let both = refunds_owed(
            &["ann".to_string(), "pat".to_string()],
            &games,
            RefundScope::Teams,
        );
        assert!(both.is_empty());
        assert!(refunds_owed(&["ann".to_string()], &games, RefundScope::FreeForAll).is_empty());
    }

    #[test]
    fn only_upheld_cases_on_a_rating_ground_owe_refunds() {
        let policy = RefundPolicy::default();
        let upheld = ReportOutcome::Upheld;
        let teaming = ReportReason::PrearrangedTeaming;
        assert_eq!(
            refund_scope(teaming, Some(Ground::PrearrangedTeaming), upheld, &policy),
            Some(RefundScope::FreeForAll)
        );
        assert_eq!(
            refund_scope(teaming, Some(Ground::ChatCollusion), upheld, &policy),
            Some(RefundScope::FreeForAll)
        );
        assert_eq!(
            refund_scope(
                ReportReason::SelfPartnering,
                Some(Ground::SelfPartnering),
                upheld,
                &policy
            ),
            Some(RefundScope::Every)
        );
        assert_eq!(
            refund_scope(
                ReportReason::Abandoning,
                Some(Ground::GameSpoiling),
                upheld,
                &policy
            ),
            Some(RefundScope::Teams)
        );
        let none = [
            (teaming, Some(Ground::Other), upheld),
            (
                teaming,
                Some(Ground::PrearrangedTeaming),
                ReportOutcome::DismissedNotActionable,
            ),
            (teaming, None, upheld),
            (
                ReportReason::Abandoning,
                Some(Ground::HabitualDisconnecting),
                upheld,
            ),
            (
                ReportReason::OffensiveChat,
                Some(Ground::Harassment),
                upheld,
            ),
        ];
        for (reason, ground, outcome) in none {
            assert_eq!(refund_scope(reason, ground, outcome, &policy), None);
        }
        let narrow = RefundPolicy {
            reasons: vec![ReportReason::SelfPartnering],
            ..RefundPolicy::default()
        };
        assert_eq!(
            refund_scope(teaming, Some(Ground::PrearrangedTeaming), upheld, &narrow),
            None
        );
        let off = RefundPolicy {
            enabled: false,
            ..RefundPolicy::default()
        };
        assert_eq!(
            refund_scope(teaming, Some(Ground::PrearrangedTeaming), upheld, &off),
            None
        );
    }
}
