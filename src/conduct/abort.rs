//! Aborted games: a player who resigns or times out very early loses rating and the game is
//! aborted (docs/rules.md, "Aborted games"). Two presets, one per wording of the FFA rule:
//!
//! - `seed001` (the site's newer help-centre wording, the default): FFA games abort when the
//!   leaver resigned or timed out before **all** players had made at least 3 moves, nobody had
//!   points yet, and the leaver was not in check.
//! - `seed000` (the site's older rules page): before **the leaver** had made at least 4 moves,
//!   with the same two conditions.
//!
//! Both: Teams games, custom start positions and time controls of one minute or less without
//! increment abort only when the player leaves on their first move (before making one).
//!
//! Only the game's first departure is judged: once a player has left for good, later leavers
//! play in a game that has already counted. This is the one abort rule of the service: the
//! archive's `games.aborted*` columns and the conduct outcomes both come from
//! [`classify_with_leaves`].

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

/// Why the game counts as aborted. Serialised by its `as_str` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
    pub const ALL: [AbortReason; 4] = [
        AbortReason::TeamsFirstMove,
        AbortReason::CustomStartFirstMove,
        AbortReason::BulletFirstMove,
        AbortReason::EarlyLeave,
    ];

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

/// A `TimeControl` tag: base time and per-move extra time (increment or delay).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    pub base_seconds: u32,
    pub increment_seconds: u32,
    /// The extra time is a delay (`1+15D`) rather than an increment.
    pub delay: bool,
}

impl TimeControl {
    /// Reads minutes `+` seconds, optional `D` for delay (`1+15D`, `1+7`, `10+0`, `0.5+0`,
    /// `0.5`). `None` when the text is not of that shape.
    pub fn parse(text: &str) -> Option<TimeControl> {
        let text = text.trim();
        let (base, extra) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = base.trim().parse().ok()?;
        if !(0.0..=10_000.0).contains(&minutes) {
            return None;
        }
        let extra = extra.trim();
        let (extra, delay) = match extra.strip_suffix(['D', 'd']) {
            Some(e) => (e, true),
            None => (extra, false),
        };
        let increment_seconds: u32 = extra.trim().parse().ok()?;
        Some(TimeControl {
            base_seconds: (minutes * 60.0).round() as u32,
            increment_seconds,
            delay,
        })
    }

    /// One minute or less with neither increment nor delay.
    pub fn is_bullet_without_increment(&self) -> bool {
        self.base_seconds <= 60 && self.increment_seconds == 0
    }
}

/// What the abort rule needs to know about a game besides its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbortContext {
    pub time_control: Option<TimeControl>,
    /// The game began from a position other than the standard set-ups.
    pub custom_start: bool,
    pub preset: AbortPreset,
}

/// A player leaving the game early by their own doing: a resignation, a timeout or a forfeit
/// after a disconnect, at `ply` plies played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leave {
    pub seat: Seat,
    pub ply: usize,
    pub timed_out: bool,
}

/// Classifies the game from its record alone (resignation and timeout markers).
pub fn classify(
    replay: &Replay,
    time_control: Option<&TimeControl>,
    custom_start: bool,
    preset: AbortPreset,
) -> Option<Abort> {
    let context = AbortContext {
        time_control: time_control.copied(),
        custom_start,
        preset,
    };
    classify_with_leaves(replay, &context, &[])
}

/// Classifies the game: the first player to leave (a departure the game server reported in
/// `leaves`, or an elimination the record shows, whichever comes first) decides. A game whose
/// first elimination is a mate, stalemate, claim or king capture never aborts.
pub fn classify_with_leaves(
    replay: &Replay,
    context: &AbortContext,
    leaves: &[Leave],
) -> Option<Abort> {
    let from_record = replay.eliminations().first().map(|e| {
        let leave = match e.cause {
            EliminationCause::Resigned => Some(false),
            EliminationCause::TimedOut => Some(true),
            _ => None,
        };
        (e.ply, e.seat, leave)
    });
    let from_events = leaves
        .iter()
        .map(|l| (l.ply, l.seat, Some(l.timed_out)))
        .min_by_key(|(ply, seat, _)| (*ply, seat.index()));
    let first = match (from_record, from_events) {
        (Some(r), Some(e)) => {
            if (e.0, e.1.index()) < (r.0, r.1.index()) || (e.0 == r.0 && e.1 == r.1) {
                e
            } else {
                r
            }
        }
        (r, e) => r.or(e)?,
    };
    let (ply, seat, Some(timed_out)) = first else {
        return None;
    };
    judge(replay, context, seat, ply).map(|reason| Abort {
        seat,
        ply,
        timed_out,
        reason,
    })
}

/// Whether `seat` leaving at `ply` aborts the game under the rule, and why.
fn judge(replay: &Replay, context: &AbortContext, seat: Seat, ply: usize) -> Option<AbortReason> {
    let made = replay.moves_made_at(ply)?;
    let first_move_rule = if replay.rules.scoring == Scoring::Teams {
        Some(AbortReason::TeamsFirstMove)
    } else if context.custom_start {
        Some(AbortReason::CustomStartFirstMove)
    } else if context
        .time_control
        .is_some_and(|tc| tc.is_bullet_without_increment())
    {
        Some(AbortReason::BulletFirstMove)
    } else {
        None
    };
    if let Some(reason) = first_move_rule {
        return (made[seat.index()] == 0).then_some(reason);
    }
    let nobody_scored = replay.points_at(ply)?.iter().all(|&p| p == 0);
    let in_check = replay.in_check_at(ply, seat).unwrap_or(false);
    let early = match context.preset {
        AbortPreset::Seed000 => made[seat.index()] < 4,
        AbortPreset::Seed001 => made.iter().any(|&m| m < 3),
    };
    (early && nobody_scored && !in_check).then_some(AbortReason::EarlyLeave)
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
    fn reasons_serialise_by_their_names() {
        for reason in AbortReason::ALL {
            let written = serde_json::to_string(&reason).unwrap_or_default();
            assert_eq!(written, format!("\"{}\"", reason.as_str()));
        }
    }

    #[test]
    fn time_controls() {
        let tc = TimeControl::parse("1+15D").expect("parses");
        assert!(tc.delay && tc.increment_seconds == 15 && !tc.is_bullet_without_increment());
        assert_eq!(
            TimeControl::parse("0.5+0").map(|t| t.base_seconds),
            Some(30)
        );
        assert!(TimeControl::parse("-1+0").is_none());
        assert!(TimeControl::parse("1+x").is_none());
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
        // Everyone makes three moves; Red resigns before its fourth: `Seed000` (leaver made
        // < 4) aborts, `Seed001` (all players made >= 3) does not.
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
