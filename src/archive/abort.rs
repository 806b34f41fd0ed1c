//! Aborted games: a player who resigns or times out very early loses rating and the game is
//! aborted. Two presets from the site's rule texts:
//!
//! - `seed001` (the newer help-centre text, the default): FFA games abort when the leaver
//!   resigned or timed out before **all** players had made at least 3 moves, nobody had points
//!   yet, and the leaver was not in check.
//! - `seed000` (the older rules page): before **the leaver** had made at least 4 moves, with
//!   the same two conditions.
//!
//! Both: Teams games, custom start positions and time controls of one minute or less without
//! increment abort only when the player leaves on their first move (before making one).
//!
//! Only the game's first elimination is judged: once a player has left for good, later leavers
//! play in a game that has already counted.

use serde::{Deserialize, Serialize};

use crate::rules::game::EliminationCause;
use crate::rules::geometry::Seat;
use crate::rules::replay::Replay;
use crate::rules::ruleset::Scoring;

/// Which rule text decides aborts (`[archive] abort_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AbortPreset {
    /// Before all players have made at least 3 moves.
    #[default]
    Seed001,
    /// Before the leaver has made at least 4 moves.
    Seed000,
}

/// Why the game counts as aborted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbortReason {
    /// Teams: left on the first move.
    TeamsFirstMove,
    /// Custom start position: left on the first move.
    CustomStartFirstMove,
    /// One minute or less without increment: left on the first move.
    BulletFirstMove,
    /// FFA: left early, nobody had points, not in check.
    EarlyLeave,
}

impl AbortReason {
    pub fn as_str(self) -> &'static str {
        match self {
            AbortReason::TeamsFirstMove => "teams_first_move",
            AbortReason::CustomStartFirstMove => "custom_start_first_move",
            AbortReason::BulletFirstMove => "bullet_first_move",
            AbortReason::EarlyLeave => "early_leave",
        }
    }
}

/// The leaver, the ply (0-based) of the resignation or timeout, and the rule that applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abort {
    pub seat: Seat,
    pub ply: usize,
    pub timed_out: bool,
    pub reason: AbortReason,
}

/// A `TimeControl` tag: `1+15D` (1 minute, 15 s delay), `1+7`, `10+0`, `0.5+0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeControl {
    pub minutes: f64,
    /// Seconds added (or delayed, `D`) per move.
    pub increment_secs: f64,
    pub delay: bool,
}

impl TimeControl {
    pub fn parse(text: &str) -> Option<TimeControl> {
        let text = text.trim();
        let (minutes, rest) = text.split_once('+').unwrap_or((text, "0"));
        let rest = rest.trim();
        let (inc, delay) = match rest.strip_suffix(['D', 'd']) {
            Some(inc) => (inc, true),
            None => (rest, false),
        };
        let minutes: f64 = minutes.trim().parse().ok()?;
        let increment_secs: f64 = inc.trim().parse().ok()?;
        (minutes.is_finite() && increment_secs.is_finite()).then_some(TimeControl {
            minutes,
            increment_secs,
            delay,
        })
    }

    /// One minute or less with neither increment nor delay.
    pub fn is_bullet_without_increment(&self) -> bool {
        self.minutes <= 1.0 && self.increment_secs == 0.0
    }
}

/// Classifies the game. `custom_start` is true when the game began from a position other than
/// the standard set-ups.
pub fn classify(
    replay: &Replay,
    time_control: Option<&TimeControl>,
    custom_start: bool,
    preset: AbortPreset,
) -> Option<Abort> {
    let first = replay.eliminations().first()?;
    let timed_out = match first.cause {
        EliminationCause::Resigned => false,
        EliminationCause::TimedOut => true,
        _ => return None,
    };
    let seat = first.seat;
    let ply = first.ply;
    let made = replay.moves_made_at(ply)?;
    let first_move_rule = if replay.rules.scoring == Scoring::Teams {
        Some(AbortReason::TeamsFirstMove)
    } else if custom_start {
        Some(AbortReason::CustomStartFirstMove)
    } else if time_control.is_some_and(TimeControl::is_bullet_without_increment) {
        Some(AbortReason::BulletFirstMove)
    } else {
        None
    };
    let abort = |reason| {
        Some(Abort {
            seat,
            ply,
            timed_out,
            reason,
        })
    };
    if let Some(reason) = first_move_rule {
        return if made[seat.index()] == 0 {
            abort(reason)
        } else {
            None
        };
    }
    let nobody_scored = replay.points_at(ply)?.iter().all(|&p| p == 0);
    let in_check = replay.in_check_at(ply, seat).unwrap_or(false);
    let early = match preset {
        AbortPreset::Seed000 => made[seat.index()] < 4,
        AbortPreset::Seed001 => made.iter().any(|&m| m < 3),
    };
    if early && nobody_scored && !in_check {
        abort(AbortReason::EarlyLeave)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::replay::replay;

    fn game(variant: &str, tc: &str, moves: &str) -> Replay {
        let text = format!(
            "[GameNr \"104000000\"]\n[TimeControl \"{tc}\"]\n[Variant \"{variant}\"]\n\
             [RuleVariants \"EnPassant\"]\n[StartFen4 \"4PC\"]\n\
             [Red \"r\"]\n[Blue \"b\"]\n[Yellow \"y\"]\n[Green \"g\"]\n\n{moves}\n"
        );
        replay(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn run(r: &Replay, tc: &str, preset: AbortPreset) -> Option<Abort> {
        classify(r, TimeControl::parse(tc).as_ref(), false, preset)
    }

    const STANDARD: &str = "1+15D";

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("1+15D").expect("parses");
        assert!(tc.delay && tc.increment_secs == 15.0 && !tc.is_bullet_without_increment());
        assert!(TimeControl::parse("1+0")
            .expect("parses")
            .is_bullet_without_increment());
        assert!(TimeControl::parse("0.5")
            .expect("parses")
            .is_bullet_without_increment());
        assert!(!TimeControl::parse("10+0")
            .expect("parses")
            .is_bullet_without_increment());
        assert!(TimeControl::parse("fast").is_none());
    }

    #[test]
    fn timeout_on_move_two_with_nobody_scoring_aborts_under_both_presets() {
        // Red, Blue, Yellow, Green each make one move; Red times out on its second turn.
        let r = game(
            "FFA",
            STANDARD,
            "1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. T",
        );
        for preset in [AbortPreset::Seed001, AbortPreset::Seed000] {
            let abort = run(&r, STANDARD, preset).expect("aborted");
            assert_eq!(abort.seat, Seat::Red);
            assert_eq!(abort.ply, 4);
            assert!(abort.timed_out);
            assert_eq!(abort.reason, AbortReason::EarlyLeave);
        }
    }

    #[test]
    fn resigning_in_check_is_not_an_abort() {
        // Green's m7 pawn steps aside, then h2-h3 opens the g1 queen's diagonal onto Green's
        // king: Green resigns in check, nobody has points.
        let r = game(
            "FFA",
            STANDARD,
            "1. j2-j3 .. b4-c4 .. e13-e12 .. m7-l7 2. h2-h3+ .. b5-c5 .. d13-d12 .. R",
        );
        let last = r.eliminations().first().expect("an elimination");
        assert_eq!(last.seat, Seat::Green);
        assert_eq!(r.in_check_at(last.ply, Seat::Green), Some(true));
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed001), None);
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed000), None);
    }

    #[test]
    fn nobody_may_have_scored() {
        // Red captures a pawn (1 point) on its third move, then Blue resigns.
        let r = game(
            "FFA",
            STANDARD,
            "1. h2-h4 .. b4-c4 .. e13-e12 .. m10-l10 2. h4-h5 .. b5-c5 .. d13-d12 .. l10-k10 \
             3. Qg1-j4 .. b10-c10 .. k13-k12 .. k10-j10 4. Qj4xj10 .. R",
        );
        let first = r.eliminations().first().expect("an elimination");
        assert_eq!(first.seat, Seat::Blue);
        assert!(r.points_at(first.ply).expect("ply")[0] > 0);
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed001), None);
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed000), None);
    }

    #[test]
    fn presets_differ_between_three_and_four_moves() {
        // Everyone makes three moves; Red resigns before its fourth: seed 000 (leaver made < 4)
        // aborts, seed 001 (all players made >= 3) does not.
        let r = game(
            "FFA",
            STANDARD,
            "1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. i2-i3 .. b5-c5 .. d13-d12 .. m9-l9 \
             3. j2-j3 .. b10-c10 .. k13-k12 .. m11-l11 4. R",
        );
        assert_eq!(
            run(&r, STANDARD, AbortPreset::Seed000).map(|a| a.seat),
            Some(Seat::Red)
        );
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed001), None);
        // Blue resigns after two moves while Red has three: both presets abort.
        let r = game(
            "FFA",
            STANDARD,
            "1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. i2-i3 .. b5-c5 .. d13-d12 .. m9-l9 \
             3. j2-j3 .. R",
        );
        assert_eq!(
            run(&r, STANDARD, AbortPreset::Seed001).map(|a| a.seat),
            Some(Seat::Blue)
        );
        assert_eq!(
            run(&r, STANDARD, AbortPreset::Seed000).map(|a| a.seat),
            Some(Seat::Blue)
        );
    }

    #[test]
    fn bullet_custom_start_and_teams_abort_on_the_first_move_only() {
        let second = "1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10 2. R";
        let first = "1. R";
        // Bullet without increment.
        let r = game("FFA", "1+0", second);
        assert_eq!(run(&r, "1+0", AbortPreset::Seed001), None);
        let r = game("FFA", "1+0", first);
        assert_eq!(
            run(&r, "1+0", AbortPreset::Seed001).map(|a| a.reason),
            Some(AbortReason::BulletFirstMove)
        );
        // Custom start.
        let r = game("FFA", STANDARD, second);
        assert_eq!(
            classify(
                &r,
                TimeControl::parse(STANDARD).as_ref(),
                true,
                AbortPreset::Seed001
            ),
            None
        );
        let r = game("FFA", STANDARD, first);
        assert_eq!(
            classify(
                &r,
                TimeControl::parse(STANDARD).as_ref(),
                true,
                AbortPreset::Seed001
            )
            .map(|a| a.reason),
            Some(AbortReason::CustomStartFirstMove)
        );
        // Teams.
        let r = game("Teams", STANDARD, second);
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed001), None);
        let r = game("Teams", STANDARD, first);
        assert_eq!(
            run(&r, STANDARD, AbortPreset::Seed000).map(|a| a.reason),
            Some(AbortReason::TeamsFirstMove)
        );
    }

    #[test]
    fn games_without_an_early_leave_are_not_aborted() {
        let r = game("FFA", STANDARD, "1. h2-h3 .. b4-c4 .. e13-e12 .. m10-l10");
        assert_eq!(run(&r, STANDARD, AbortPreset::Seed001), None);
    }
}
