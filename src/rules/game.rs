//! The game state machine: turns skipping eliminated players, check, mate and stalemate as each
//! rule set defines them, resignation and timeouts (with dead-king-walking), draws, FFA points,
//! elimination order and the final standing.

use std::fmt;

use super::award::{Award, ScoringRule};
use super::draw_reason::DrawReason;
use super::geometry::Seat;
use super::piece::{Piece, PieceKind};
use super::position::{KingFate, Move, MoveEffect, MoveList, Position, SeatStatus};
use super::ruleset::{MateTiming, Placement, RuleSet, Scoring, StalemateRule};

/// Why a player left the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EliminationCause {
    Mated,
    Stalemated,
    Resigned,
    TimedOut,
    /// The king was captured ("caught in the shuffle", or a walking king taken).
    KingCaptured,
    /// Another player claimed the win (or the server auto-claimed it).
    Claimed,
}

impl fmt::Display for EliminationCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EliminationCause::Mated => "mated",
            EliminationCause::Stalemated => "stalemated",
            EliminationCause::Resigned => "resigned",
            EliminationCause::TimedOut => "timed out",
            EliminationCause::KingCaptured => "king captured",
            EliminationCause::Claimed => "claimed",
        })
    }
}

/// One elimination: who, why, at which ply (0-based index of the ply that caused it), and by
/// whom when a move did it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elimination {
    pub seat: Seat,
    pub cause: EliminationCause,
    pub ply: usize,
    pub by: Option<Seat>,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// Teams: the team of this seat (with its partner) won.
    TeamWin(Seat),
    Draw(DrawReason),
    /// One player (or none) left in play.
    LastPlayer(Option<Seat>),
    /// Only colours of one side are left: a player's two colours or a team (Quatro Chess
    /// seatings); the seat is one of them.
    LastSide(Seat),
}

/// The final standing.
#[derive(Debug, Clone, PartialEq)]
pub struct FinalStanding {
    /// Teams: the winning team (Red+Yellow as `Red`, Blue+Green as `Blue`), `None` for a draw.
    pub team_winner: Option<Seat>,
    /// Score per seat: FFA points, or the 0/2/4/8 or 1/N score.
    pub scores: [f64; 4],
    /// 1-based placement per seat (ties share the better place).
    pub placement: [u8; 4],
}

/// What one action did.
#[derive(Debug, Clone, PartialEq)]
pub struct PlyReport {
    pub mover: Seat,
    pub mv: Option<Move>,
    pub captured: Option<(super::piece::Piece, u16)>,
    /// Kings the move attacks afterwards (by the mover's pieces).
    pub checks: Vec<Seat>,
    pub points_after: [i32; 4],
    pub eliminations: Vec<Elimination>,
    pub end: Option<GameEnd>,
}

/// A game action was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    GameOver,
    IllegalMove(String),
    /// A marker (`S`, `#`) that the position does not bear out.
    WrongMarker(String),
    /// A draw claimed where the rules give none.
    NoDrawToClaim(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is already over"),
            GameError::IllegalMove(s) | GameError::WrongMarker(s) | GameError::NoDrawToClaim(s) => {
                f.write_str(s)
            }
        }
    }
}

impl std::error::Error for GameError {}

/// Kings attacked after a move, as a ply scores and reports them.
struct CheckScan {
    /// Opponents' kings the mover's pieces attack.
    checks: Vec<Seat>,
    /// Seats of the mover's opponents whose king is in check (from anyone).
    in_check: [bool; 4],
    /// How many of the checked kings belong to active players.
    active_checked: usize,
    /// Whether a queen gives one of those checks (the bonus may be reduced then).
    a_queen_checks: bool,
}

/// A game in progress under a rule set.
#[derive(Debug, Clone)]
pub struct Game {
    rules: RuleSet,
    position: Position,
    plies: usize,
    /// Hashes since the last irreversible move, for repetition.
    history: Vec<u64>,
    eliminations: Vec<Elimination>,
    end: Option<GameEnd>,
    moves_made: [u32; 4],
    /// Scores of stalemated players in the placement-based scorings.
    stalemated: [bool; 4],
    /// Every award of points, in order (`--explain`).
    awards: Vec<Award>,
    /// The ply the action being applied is recorded under.
    action_ply: usize,
    /// Reused move buffer.
    scratch: Box<MoveList>,
}

impl Game {
    pub fn new(rules: RuleSet, position: Position) -> Game {
        let hash = position.hash();
        Game {
            rules,
            position,
            plies: 0,
            history: vec![hash],
            eliminations: Vec::new(),
            end: None,
            moves_made: [0; 4],
            stalemated: [false; 4],
            awards: Vec::new(),
            action_ply: 0,
            scratch: Box::new(MoveList::new()),
        }
    }

    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn eliminations(&self) -> &[Elimination] {
        &self.eliminations
    }

    /// Every award of points so far, in the order given.
    pub fn awards(&self) -> &[Award] {
        &self.awards
    }

    /// Give `points` to `seat` under `rule`, recorded at the current action's ply.
    fn award(&mut self, seat: Seat, points: i32, rule: ScoringRule) {
        if points == 0 {
            return;
        }
        self.position.add_points(seat, points);
        self.awards.push(Award {
            ply: self.action_ply,
            seat,
            points,
            rule,
        });
    }

    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    pub fn moves_made(&self) -> [u32; 4] {
        self.moves_made
    }

    pub fn plies(&self) -> usize {
        self.plies
    }

    pub fn to_move(&self) -> Seat {
        self.position.turn()
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.position.legal_moves(&mut list);
        list.as_slice().to_vec()
    }

    /// Whether `seat` would have no legal move if it were its turn.
    fn has_no_moves(&mut self, seat: Seat) -> bool {
        let probe = self.position.with_turn(seat);
        !probe.has_legal_move_with(&mut self.scratch)
    }

    fn is_points(&self) -> bool {
        self.rules.scoring == Scoring::Points
    }

    fn active_seats(&self) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|&s| self.position.status(s) == SeatStatus::Active)
            .collect()
    }

    fn eliminate(
        &mut self,
        seat: Seat,
        cause: EliminationCause,
        by: Option<Seat>,
        out: &mut Vec<Elimination>,
    ) {
        let walking = matches!(
            cause,
            EliminationCause::Resigned | EliminationCause::TimedOut
        ) && self.rules.dead_king_walking
            && self.position.status(seat) == SeatStatus::Active
            && self.position.king_square(seat).is_some();
        let fate = if walking {
            KingFate::Walking
        } else if self.rules.mated_king_removed {
            KingFate::Removed
        } else {
            KingFate::Dead
        };
        if cause != EliminationCause::KingCaptured {
            self.position.eliminate(seat, fate);
        }
        if cause == EliminationCause::Stalemated {
            self.stalemated[seat.index()] = true;
        }
        let e = Elimination {
            seat,
            cause,
            ply: self.plies,
            by,
        };
        self.eliminations.push(e);
        out.push(e);
    }

    /// Play a move of the side to move; it must be legal.
    pub fn play(&mut self, mv: Move) -> Result<PlyReport, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        self.position.legal_moves(&mut self.scratch);
        if !self.scratch.iter().any(|m| *m == mv) {
            return Err(GameError::IllegalMove(format!("{mv} is not legal")));
        }
        Ok(self.play_unchecked(mv))
    }

    /// Play a move already known to be legal (from `legal_moves`).
    pub fn play_unchecked(&mut self, mv: Move) -> PlyReport {
        self.action_ply = self.plies;
        let mover = self.position.turn();
        let mover_walking = self.position.status(mover) == SeatStatus::Walking;
        let effect: MoveEffect = self.position.make(mv);
        self.moves_made[mover.index()] += 1;
        let mut eliminations = Vec::new();
        // The data show a walking king scores nothing for its automatic moves.
        let scores = self.is_points() && !mover_walking;
        if let Some((victim, _)) = effect.captured {
            if scores {
                self.score_capture(mover, victim);
            }
        }
        if let Some(victim) = effect.king_captured {
            self.eliminate(
                victim,
                EliminationCause::KingCaptured,
                Some(mover),
                &mut eliminations,
            );
        }
        let scan = self.scan_checks(mover);
        if scores && scan.active_checked >= 2 {
            self.award_multi_check(mover, &scan);
        }
        if self.rules.mate_timing == MateTiming::Immediately {
            self.mate_immediately(mover, &scan.in_check, scores, &mut eliminations);
        }
        self.close_ply();
        let end = self.check_end(&eliminations);
        PlyReport {
            mover,
            mv: Some(mv),
            captured: effect.captured,
            checks: scan.checks,
            points_after: self.position.points(),
            eliminations,
            end,
        }
    }

    /// Points for a capture: dead pieces are worth nothing; a walking king is live (+20).
    #[inline]
    fn score_capture(&mut self, mover: Seat, victim: Piece) {
        if victim.dead {
            return;
        }
        if victim.kind == PieceKind::King {
            let points = self.rules.mate_points;
            self.award(mover, points, ScoringRule::WalkingKingCaptured(victim.seat));
        } else {
            let points = victim.kind.ffa_value();
            self.award(mover, points, ScoringRule::Capture(victim.kind));
        }
    }

    /// Kings attacked by the mover's pieces after the move.
    #[inline]
    fn scan_checks(&self, mover: Seat) -> CheckScan {
        let mut scan = CheckScan {
            checks: Vec::new(),
            in_check: [false; 4],
            active_checked: 0,
            a_queen_checks: false,
        };
        for seat in Seat::ALL {
            if seat == mover
                || self.position.status(seat) == SeatStatus::Out
                || !self.position.are_opponents(mover, seat)
            {
                continue;
            }
            let Some(k) = self.position.king_square(seat) else {
                continue;
            };
            // One cheap "in check at all?" scan first: most kings are not.
            if !self.position.in_check(seat) {
                continue;
            }
            scan.in_check[seat.index()] = true;
            let checkers = self.position.attackers_of_seat(k, mover);
            if checkers.is_empty() {
                continue;
            }
            scan.checks.push(seat);
            // Only kings of active players count for the multiple-check bonus: in the real
            // games a `++` on an active and a walking (resigned) king scores nothing (e.g.
            // `ffa/cc_game_0040` ply 254 `Qf7-d9++`: the Result tag is one point lower
            // otherwise).
            if self.position.status(seat) == SeatStatus::Active {
                scan.active_checked += 1;
                scan.a_queen_checks |= checkers
                    .iter()
                    .any(|(_, kind)| matches!(kind, PieceKind::Queen | PieceKind::OnePointQueen));
            }
        }
        scan
    }

    /// The bonus for checking two or three active kings at once.
    fn award_multi_check(&mut self, mover: Seat, scan: &CheckScan) {
        let bonus = self.rules.multi_check_points;
        let rule = ScoringRule::MultiCheck {
            kings: scan.active_checked,
            reduced: bonus.is_reduced(scan.a_queen_checks),
        };
        self.award(
            mover,
            bonus.for_checks(scan.active_checked, scan.a_queen_checks),
            rule,
        );
    }

    /// Mates on the spot: every seat in play other than the mover whose king is in check
    /// and who has no move is out (with the mate points to the mover when `scores`).
    #[inline]
    fn mate_immediately(
        &mut self,
        mover: Seat,
        in_check: &[bool; 4],
        scores: bool,
        eliminations: &mut Vec<Elimination>,
    ) {
        for seat in Seat::ALL {
            if seat == mover || self.position.status(seat) == SeatStatus::Out {
                continue;
            }
            // A king the mover's move did not concern (not an opponent of the mover) can
            // still be in check from a third player's line it uncovered.
            let checked = in_check[seat.index()]
                || (!self.position.are_opponents(mover, seat) && self.position.in_check(seat));
            if checked && self.has_no_moves(seat) {
                if scores {
                    let points = self.rules.mate_points;
                    self.award(mover, points, ScoringRule::Checkmate(seat));
                }
                self.eliminate(seat, EliminationCause::Mated, Some(mover), eliminations);
            }
        }
    }

    /// Ends a ply: the turn skips a seat gone out, and the repetition history restarts after
    /// an irreversible move.
    #[inline]
    fn close_ply(&mut self) {
        if self.position.status(self.position.turn()) == SeatStatus::Out {
            self.position.advance_turn();
        }
        self.plies += 1;
        if self.position.halfmove_clock() == 0 {
            self.history.clear();
        }
        self.history.push(self.position.hash());
    }

    /// The side to move resigns or times out (`timed_out`). With dead-king-walking the king
    /// stays and moves on; otherwise the army dies in place.
    pub fn resign(&mut self, timed_out: bool) -> Result<PlyReport, GameError> {
        let seat = self.position.turn();
        self.resign_seat(seat, timed_out)
    }

    /// A given seat resigns or times out (not necessarily on its turn).
    pub fn resign_seat(&mut self, seat: Seat, timed_out: bool) -> Result<PlyReport, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        self.action_ply = self.plies;
        let mut eliminations = Vec::new();
        let cause = if timed_out {
            EliminationCause::TimedOut
        } else {
            EliminationCause::Resigned
        };
        let was_active = self.position.status(seat) == SeatStatus::Active;
        if was_active {
            self.eliminate(seat, cause, None, &mut eliminations);
            self.mate_resigned_king_in_check(seat, &mut eliminations);
        }
        if was_active && self.resignation_draws() {
            // The resigner still shares the draw, but its own king is not counted as a walking
            // king: `ffa/cc_game_0052` "(insuff. material; Yellow +10, Green +10)" right after
            // Green's `R`; `ffa/cc_game_0091` "(insuff. material; Red +30, Green +10)", Blue's
            // king walking since its time-out.
            let draw = DrawReason::InsufficientMaterial;
            self.award(seat, self.rules.draw_bonus, ScoringRule::Draw(draw));
            self.finish_draw(draw, Some(seat));
        }
        if self.position.turn() == seat && self.position.status(seat) != SeatStatus::Active {
            self.position.advance_turn();
        }
        self.plies += 1;
        let end = self.check_end(&eliminations);
        Ok(self.report_without_move(seat, eliminations, end))
    }

    /// A resignation kills the army; a king left in check with no escape is then mated at once,
    /// and the player whose piece checks it is credited. Evidence: `ffa/cc_game_0093` round 42:
    /// Green's `Qj3xk4+` checks Red, who could still block with a piece; Red resigns (`R#`) and
    /// the `Result` tag gives the 20 points to Green, not to Yellow who moves next.
    fn mate_resigned_king_in_check(&mut self, seat: Seat, eliminations: &mut Vec<Elimination>) {
        if self.position.status(seat) != SeatStatus::Walking
            || !self.position.in_check(seat)
            || !self.has_no_moves(seat)
        {
            return;
        }
        let Some(king) = self.position.king_square(seat) else {
            return;
        };
        let checker = (1..4)
            .map(|step| Seat::from_index((seat.index() + step) % 4))
            .find(|&s| {
                self.position.status(s) == SeatStatus::Active
                    && !self.position.attackers_of_seat(king, s).is_empty()
            });
        if let Some(checker) = checker {
            if self.is_points() {
                let points = self.rules.mate_points;
                self.award(checker, points, ScoringRule::Checkmate(seat));
            }
        }
        self.eliminate(seat, EliminationCause::Mated, checker, eliminations);
    }

    /// The side to move resigned or timed out and its king makes an automatic move in the same
    /// slot (`Kk1-k2R`): the army dies, the king walks, the turn stays.
    pub fn start_walking(&mut self, seat: Seat, timed_out: bool) -> Result<(), GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        let cause = if timed_out {
            EliminationCause::TimedOut
        } else {
            EliminationCause::Resigned
        };
        let mut eliminations = Vec::new();
        self.eliminate(seat, cause, None, &mut eliminations);
        Ok(())
    }

    /// FFA with dead-king-walking: a resignation that leaves one active player without mating
    /// material (see `insufficient_material`) ends the game drawn, rather than giving that player
    /// the last player's bonus.
    fn resignation_draws(&self) -> bool {
        self.is_points()
            && self.rules.dead_king_walking
            && self.active_seats().len() == 1
            && self.insufficient_material()
    }

    /// End the game drawn by a rule the record states but does not show (the site's own
    /// 50-move count, a claimed repetition): the usual draw bonuses apply.
    pub fn declare_draw(&mut self, reason: DrawReason) -> Result<(), GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        self.action_ply = self.plies;
        self.finish(GameEnd::Draw(reason));
        Ok(())
    }

    /// The side to move has no legal move: it is mated (in check) or stalemated. `claimed`
    /// says which the record claims; a claim the position does not bear out is an error.
    pub fn no_move(&mut self, claimed: EliminationCause) -> Result<PlyReport, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        self.action_ply = self.plies;
        let seat = self.position.turn();
        if self.position.has_legal_move_with(&mut self.scratch) {
            return Err(GameError::WrongMarker(format!(
                "{seat} has legal moves, so cannot be {claimed}"
            )));
        }
        let in_check = self.position.in_check(seat);
        let cause = if in_check {
            EliminationCause::Mated
        } else {
            EliminationCause::Stalemated
        };
        if cause != claimed {
            return Err(GameError::WrongMarker(format!(
                "{seat} is {cause}, not {claimed}"
            )));
        }
        let walking = self.position.status(seat) == SeatStatus::Walking;
        let mut eliminations = Vec::new();
        let mut end = None;
        if cause == EliminationCause::Stalemated && self.rules.stalemate == StalemateRule::Draw {
            end = Some(GameEnd::Draw(DrawReason::Stalemate));
        } else {
            if self.is_points() && cause == EliminationCause::Stalemated {
                if walking {
                    // A stalemated walking king's points are shared among the players still
                    // in play (docs/rules.md, "Site FFA rules").
                    let remaining = self.active_seats();
                    if !remaining.is_empty() {
                        // Rounded to the nearest point: 20 shared by three is 7 each in
                        // `ffa/cc_game_0088` (Red's walking king stalemated at ply 204).
                        let n = remaining.len() as i32;
                        let share = (self.rules.self_stalemate_points + n / 2) / n;
                        for s in remaining {
                            self.award(s, share, ScoringRule::WalkingKingStalemated(seat));
                        }
                    }
                } else {
                    let points = self.rules.self_stalemate_points;
                    self.award(seat, points, ScoringRule::SelfStalemate);
                    let others = self.rules.others_on_stalemate;
                    for s in self.active_seats() {
                        if s != seat {
                            self.award(s, others, ScoringRule::OpponentStalemated(seat));
                        }
                    }
                }
            }
            let stalemate_draw = cause == EliminationCause::Stalemated
                && self.rules.stalemate == StalemateRule::EliminatesDrawWhenTwo
                && self.active_seats().len() <= 2;
            self.eliminate(seat, cause, None, &mut eliminations);
            self.position.advance_turn();
            if stalemate_draw {
                end = Some(GameEnd::Draw(DrawReason::Stalemate));
            }
        }
        self.plies += 1;
        if let Some(e) = end {
            self.finish(e);
        }
        let end = end.or_else(|| self.check_end(&eliminations));
        Ok(self.report_without_move(seat, eliminations, end))
    }

    /// The leader claims the win (FFA claim-win / auto-claim): every other player still in play
    /// is out as if resigned; the claimer collects the walking-king bonus.
    pub fn claim_win(&mut self, claimer: Seat) -> Result<PlyReport, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        self.action_ply = self.plies;
        let mut eliminations = Vec::new();
        let mut kings = 0;
        for seat in Seat::ALL {
            if seat == claimer || self.position.status(seat) == SeatStatus::Out {
                continue;
            }
            kings += 1;
            if self.position.status(seat) == SeatStatus::Active {
                self.eliminate(
                    seat,
                    EliminationCause::Claimed,
                    Some(claimer),
                    &mut eliminations,
                );
            }
        }
        // "(Red +40)" in `ffa/cc_game_0243`: Blue still active and Yellow's king walking, so
        // the claimer collects 20 for every other king still in play, active or walking.
        if self.is_points() {
            let points = kings * self.rules.walking_king_bonus;
            self.award(claimer, points, ScoringRule::ClaimedWin(kings));
        }
        self.end = Some(GameEnd::LastPlayer(Some(claimer)));
        let end = self.end;
        Ok(self.report_without_move(claimer, eliminations, end))
    }

    fn finish(&mut self, end: GameEnd) {
        if self.end.is_some() {
            return;
        }
        match end {
            GameEnd::Draw(reason) => self.finish_draw(reason, None),
            GameEnd::LastPlayer(Some(last)) => {
                if self.is_points() {
                    let kings = self.walking_kings(None);
                    let points = kings * self.rules.walking_king_bonus;
                    self.award(last, points, ScoringRule::WalkingKingsToLastPlayer(kings));
                }
                self.end = Some(end);
            }
            _ => self.end = Some(end),
        }
    }

    /// A draw: +10 to each active player, and the 20 of every walking king still on the board
    /// (but `not_counted`'s) shared among them: `ffa/human_4pc_game_97969768` (insufficient
    /// material with Red's king walking: Blue and Green +20 each), `ffa/cc_game_0192_4pco`
    /// (50-move rule with Yellow's king walking: Red and Green +20 each).
    fn finish_draw(&mut self, reason: DrawReason, not_counted: Option<Seat>) {
        if self.is_points() {
            let active = self.active_seats();
            let kings = self.walking_kings(not_counted);
            let n = active.len() as i32;
            let share = if n > 0 {
                (kings * self.rules.walking_king_bonus + n / 2) / n
            } else {
                0
            };
            for s in active {
                self.award(s, self.rules.draw_bonus, ScoringRule::Draw(reason));
                self.award(s, share, ScoringRule::WalkingKingsAtDraw(kings));
            }
        }
        self.end = Some(GameEnd::Draw(reason));
    }

    /// What an action other than a move did (resignation, no move, a claim).
    fn report_without_move(
        &self,
        mover: Seat,
        eliminations: Vec<Elimination>,
        end: Option<GameEnd>,
    ) -> PlyReport {
        PlyReport {
            mover,
            mv: None,
            captured: None,
            checks: Vec::new(),
            points_after: self.position.points(),
            eliminations,
            end,
        }
    }

    /// Walking kings on the board, `not_counted`'s excepted.
    fn walking_kings(&self, not_counted: Option<Seat>) -> i32 {
        Seat::ALL
            .into_iter()
            .filter(|&s| Some(s) != not_counted && self.position.status(s) == SeatStatus::Walking)
            .count() as i32
    }

    /// After an action: has the game ended?
    fn check_end(&mut self, new: &[Elimination]) -> Option<GameEnd> {
        if self.end.is_some() {
            return self.end;
        }
        if self.rules.scoring == Scoring::Teams {
            if let Some(e) = new.first() {
                let winner = Seat::from_index(e.seat.index() + 1);
                self.finish(GameEnd::TeamWin(winner));
                return self.end;
            }
        } else {
            let active = self.active_seats();
            if active.len() <= 1 {
                self.finish(GameEnd::LastPlayer(active.first().copied()));
                return self.end;
            }
            let side = active[0];
            if active
                .iter()
                .all(|&s| !self.position.are_opponents(side, s))
            {
                self.finish(GameEnd::LastSide(side));
                return self.end;
            }
        }
        if let Some(reason) = self.draw_reason() {
            self.finish(GameEnd::Draw(reason));
        }
        self.end
    }

    /// A draw by rule in the current position that ends the game by itself, if any.
    pub fn draw_reason(&self) -> Option<DrawReason> {
        if !self.rules.draws_claimed {
            if let Some(reason) = self.claimable_draw() {
                return Some(reason);
            }
        }
        if self.insufficient_material() {
            return Some(DrawReason::InsufficientMaterial);
        }
        None
    }

    /// The 50-move rule or threefold repetition, whether the rules end the game by them or let
    /// a player claim them.
    pub fn claimable_draw(&self) -> Option<DrawReason> {
        if self.position.halfmove_clock() >= self.fifty_move_limit() {
            return Some(DrawReason::FiftyMoves);
        }
        let now = self.position.hash();
        if self.history.iter().filter(|&&h| h == now).count() >= 3 {
            return Some(DrawReason::Repetition);
        }
        None
    }

    /// Plies without a capture or pawn move that make the 50-move rule: per the rule set, or 50
    /// full cycles of the players in play.
    fn fifty_move_limit(&self) -> u32 {
        let players = self.position.seats_in_play().count().max(1) as u32;
        self.rules.fifty_move_plies.unwrap_or(50 * players)
    }

    /// A player still in play claims a draw by the 50-move rule or repetition (docs/rules.md,
    /// "Multiplayer chess proposal"). Refused when neither holds.
    pub fn claim_draw(&mut self, claimer: Seat) -> Result<PlyReport, GameError> {
        if self.end.is_some() {
            return Err(GameError::GameOver);
        }
        if self.position.status(claimer) != SeatStatus::Active {
            return Err(GameError::NoDrawToClaim(format!(
                "{claimer} is no longer in play and cannot claim a draw"
            )));
        }
        let Some(reason) = self.claimable_draw() else {
            let limit = self.fifty_move_limit();
            return Err(GameError::NoDrawToClaim(format!(
                "{claimer} claims a draw, but the position has not been repeated three times \
                 and only {} of the {limit} plies of the 50-move rule have passed",
                self.position.halfmove_clock()
            )));
        };
        self.action_ply = self.plies;
        self.finish(GameEnd::Draw(reason));
        Ok(self.report_without_move(claimer, Vec::new(), self.end))
    }

    /// No player still in play can mate, as the site judges it (see
    /// `Position::insufficient_material`).
    pub fn insufficient_material(&self) -> bool {
        self.position.insufficient_material()
    }

    /// The final (or current) standing under the rule set.
    pub fn standing(&self) -> FinalStanding {
        let (mut scores, team_winner) = match self.rules.scoring {
            Scoring::Teams => self.team_scores(),
            Scoring::Points => (self.position.points().map(|p| p as f64), None),
            Scoring::Placement0248 => (self.placement_0248_scores(), None),
            Scoring::OneOverN => (self.one_over_n_scores(), None),
            Scoring::LastStanding => (self.last_standing_scores(), None),
        };
        if self.rules.scoring != Scoring::Teams && self.rules.moves.has_partners() {
            scores = self.side_totals(&scores);
        }
        let placement = match self.rules.placement {
            Placement::Ranked => rank(&scores),
            Placement::WinnerTakesAll => {
                let ranks = rank(&scores);
                ranks.map(|r| if r == 1 { 1 } else { 2 })
            }
        };
        FinalStanding {
            team_winner,
            scores,
            placement,
        }
    }
}

impl Game {
    /// Teams: 1 to each seat of the winning team (Red+Yellow as `Red`, Blue+Green as `Blue`),
    /// a half to everyone in any other finish, nothing while the game goes on.
    fn team_scores(&self) -> ([f64; 4], Option<Seat>) {
        let mut scores = [0f64; 4];
        if let Some(GameEnd::TeamWin(s)) = self.end {
            let team = if s.index() % 2 == 0 {
                Seat::Red
            } else {
                Seat::Blue
            };
            for seat in Seat::ALL {
                if seat.index() % 2 == team.index() {
                    scores[seat.index()] = 1.0;
                }
            }
            return (scores, Some(team));
        }
        if self.end.is_some() {
            scores = [0.5; 4];
        }
        (scores, None)
    }

    /// Eliminated players score by elimination order (0, 2, 4); the survivor 8. A stalemated
    /// player, and everyone in a drawn finish, gets half (docs/rules.md, "Quatro Chess").
    fn placement_0248_scores(&self) -> [f64; 4] {
        let mut scores = [0f64; 4];
        let order = [0.0, 2.0, 4.0, 8.0];
        let mut next = 0;
        for e in &self.eliminations {
            let mut s = order[next.min(3)];
            if e.cause == EliminationCause::Stalemated {
                s = order[3] / 2.0;
            }
            scores[e.seat.index()] = s;
            next += 1;
        }
        let remaining: Vec<Seat> = self.active_seats();
        let drawn = matches!(self.end, Some(GameEnd::Draw(_)));
        // Colours left together (one side in Quatro's seatings) share the places left.
        let places_left: f64 = order[next.min(3)..].iter().sum();
        let share = places_left / remaining.len().max(1) as f64;
        for s in remaining {
            scores[s.index()] = if drawn { order[3] / 2.0 } else { share };
        }
        scores
    }

    /// Mated, king-captured, resigned players: 0; stalemated and remaining share 1.
    fn one_over_n_scores(&self) -> [f64; 4] {
        let mut scores = [0f64; 4];
        let sharing: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&s| {
                self.position.status(s) == SeatStatus::Active || self.stalemated[s.index()]
            })
            .collect();
        for s in &sharing {
            scores[s.index()] = 1.0 / sharing.len() as f64;
        }
        scores
    }

    /// 1 to the last player standing; a draw shared among those still active.
    fn last_standing_scores(&self) -> [f64; 4] {
        let mut scores = [0f64; 4];
        let remaining = self.active_seats();
        match self.end {
            Some(GameEnd::Draw(_)) => {
                for s in &remaining {
                    scores[s.index()] = 1.0 / remaining.len() as f64;
                }
            }
            _ if remaining.len() == 1 => scores[remaining[0].index()] = 1.0,
            _ => {}
        }
        scores
    }

    /// Each seat's score replaced by its side's total: a player with two colours, or a team,
    /// scores the sum over its colours (docs/rules.md, "Quatro Chess").
    fn side_totals(&self, scores: &[f64; 4]) -> [f64; 4] {
        Seat::ALL.map(|seat| {
            Seat::ALL
                .into_iter()
                .filter(|&other| !self.position.are_opponents(seat, other))
                .map(|other| scores[other.index()])
                .sum()
        })
    }
}

/// 1-based ranks, ties sharing the better place.
fn rank(scores: &[f64; 4]) -> [u8; 4] {
    let mut out = [1u8; 4];
    for i in 0..4 {
        out[i] = 1 + scores.iter().filter(|&&s| s > scores[i]).count() as u8;
    }
    out
}
