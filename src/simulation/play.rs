//! Playing one table to a definite end on the rules core, and writing its PGN4 as the site
//! exports FFA games.

use chrono::Duration;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::rules::draw_reason::DrawReason;
use crate::rules::game::{EliminationCause, Game, GameEnd, PlyReport};
use crate::rules::geometry::{Geometry, Seat};
use crate::rules::pgn4::{
    self, Marker, MoveText, Pgn4, PlyAction, PlyText, SquareText, Suffix, Tag,
};
use crate::rules::piece::PieceKind;
use crate::rules::position::{Move, MoveKind, MoveList, Position, SeatStatus};
use crate::rules::ruleset::RuleSet;

use super::bot::Chooser;
use super::population::{Plan, Stance, Table};
use super::ratings::{elo_deltas, elo_tag};
use super::simulated_game::{SimulatedGame, SimulatedSeat};

/// The site's FFA rule variants, as most real FFA exports carry them; the replay builds the
/// same rule set from this tag.
pub(super) const RULE_VARIANTS: &str = "Anonymous DeadKingWalking EnPassant PromoteTo=D";

/// Game numbers of simulated games start here: far above the real ones in the test data, and
/// in the modern era (`4PC` setup, 2026 multiple-check bonus).
pub(super) const FIRST_GAME_NR: u64 = 900_000_000;

/// Chance per turn that a feeder tries to leave a gift.
const FEED_CHANCE: f64 = 0.3;
/// Chance per turn that a hopelessly behind player resigns.
const RESIGN_CHANCE: f64 = 0.05;
/// Share of leavings that are time-outs rather than resignations.
const TIMEOUT_SHARE: f64 = 0.25;

fn ffa_rules() -> RuleSet {
    let mut rules = RuleSet::ffa();
    if let Err(e) = rules.apply_variants(RULE_VARIANTS) {
        panic!("the site's FFA variants are supported: {e}");
    }
    rules
}

/// A game's own random stream: a splitmix64 mix of the seed and the index, so games are
/// independent of each other and of the order they are played in.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut z = seed
        ^ (index as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Plan {
    /// Play game `index` (0-based, `< self.len()`; panics otherwise). Depends only on the
    /// plan's seed and `index`. Ratings are provisional (see [`super::rate`]).
    pub fn play(&self, index: usize) -> SimulatedGame {
        let table = &self.tables[index];
        let mut run = TableRun::new(self, table, index);
        while run.game.end().is_none() {
            if !run.play_turn() {
                break;
            }
        }
        let points = run.game.standing().scores.map(|s| s as i32);
        let seats = self.provisional_seats(table, points);
        let site_game_id = FIRST_GAME_NR + index as u64;
        let termination = termination(&run.game, run.claim);
        let pgn = Pgn4 {
            tags: game_tags(site_game_id, table, &seats, points, termination),
            plies: run.plies,
        };
        SimulatedGame {
            site_game_id,
            pgn4: pgn4::write(&pgn),
            seats,
            started_at: table.started_at,
            ended_at: table.started_at + Duration::seconds(run.seconds),
        }
    }

    /// The table's players with their rating before the game and the Elo change that this
    /// game alone gives them.
    fn provisional_seats(&self, table: &Table, points: [i32; 4]) -> [SimulatedSeat; 4] {
        let players = table.players.map(|p| &self.players[p]);
        let before = players.map(|p| p.rating);
        let deltas = elo_deltas(before, points);
        std::array::from_fn(|i| SimulatedSeat {
            player: players[i].name.clone(),
            device_fp: players[i].device_fp.clone(),
            network_fp: players[i].network_fp.clone(),
            rating_before: before[i],
            rating_after: before[i] + deltas[i],
        })
    }
}

/// One table in play: the game and what the loop carries from turn to turn.
struct TableRun {
    game: Game,
    /// The game's own random stream (see [`game_seed`]).
    rng: StdRng,
    /// Per seat, its stance toward each seat.
    stances: [[Stance; 4]; 4],
    noise: [f64; 4],
    max_rounds: u32,
    plies: Vec<PlyText>,
    round: u32,
    /// The mover's place in the round.
    slot: u8,
    last_mover: Option<usize>,
    list: Box<MoveList>,
    scratch: Box<MoveList>,
    /// A clear leader's claim of the win, with the points it brought.
    claim: Option<(Seat, i32)>,
    /// Past the cap, the one player who stays while the others leave.
    keeper: Option<Seat>,
    /// Seconds played so far.
    seconds: i64,
}

impl TableRun {
    fn new(plan: &Plan, table: &Table, index: usize) -> TableRun {
        let rules = ffa_rules();
        let start = Position::from_setup("4PC", &rules)
            .unwrap_or_else(|e| panic!("the 4PC setup builds: {e}"));
        TableRun {
            game: Game::new(rules, start),
            rng: StdRng::seed_from_u64(game_seed(plan.seed, index)),
            stances: std::array::from_fn(|s| plan.stances(table, s)),
            noise: table.players.map(|p| plan.players[p].noise),
            max_rounds: plan.max_rounds,
            plies: Vec::with_capacity(4 * plan.max_rounds as usize + 8),
            round: 1,
            slot: 0,
            last_mover: None,
            list: Box::new(MoveList::new()),
            scratch: Box::new(MoveList::new()),
            claim: None,
            keeper: None,
            seconds: 0,
        }
    }

    /// One turn of the seat to move, written as a ply; false when a clear leader claimed the
    /// win instead (no ply: the Termination tag says it).
    fn play_turn(&mut self) -> bool {
        let seat = self.game.to_move();
        self.advance_clock(seat);
        let pos = *self.game.position();
        pos.legal_moves(&mut self.list);
        let active = pos.status(seat) == SeatStatus::Active;
        let over_time = self.round > self.max_rounds;
        if over_time
            && self
                .keeper
                .is_none_or(|k| pos.status(k) != SeatStatus::Active)
        {
            self.keeper = Some(leader(&pos));
        }
        if over_time && active && self.leader_claims(&pos, seat) {
            return false;
        }
        let action = if self.list.is_empty() {
            self.no_move(&pos, seat)
        } else if active
            && ((over_time && self.keeper != Some(seat))
                || (self.round > 8 && hopeless(&pos, seat) && self.rng.gen_bool(RESIGN_CHANCE)))
        {
            // Past the cap every player but the leader leaves; before it, the hopeless may.
            self.leave()
        } else {
            self.move_piece(&pos, seat)
        };
        self.plies.push(PlyText {
            round: self.round,
            index_in_round: self.slot,
            line: 0,
            column: 0,
            raw: action.to_string(),
            action,
        });
        true
    }

    /// Counts rounds and slots as the seats take turns, and the seconds the turn takes.
    fn advance_clock(&mut self, seat: Seat) {
        if let Some(last) = self.last_mover {
            if seat.index() <= last {
                self.round += 1;
                self.slot = 0;
            } else {
                self.slot += 1;
            }
        }
        self.last_mover = Some(seat.index());
        self.seconds += self.rng.gen_range(1..=6);
    }

    /// Whether `seat` leads by more than 20 points and so claims the win (recorded in
    /// `claim` when the game accepts it).
    fn leader_claims(&mut self, pos: &Position, seat: Seat) -> bool {
        let leader = leader(pos);
        if leader != seat || lead(pos, leader) <= 20 {
            return false;
        }
        let before = pos.points()[seat.index()];
        if let Ok(report) = self.game.claim_win(seat) {
            self.claim = Some((seat, report.points_after[seat.index()] - before));
        }
        true
    }

    /// The seat to move has no move: mated when in check, stalemated otherwise.
    fn no_move(&mut self, pos: &Position, seat: Seat) -> PlyAction {
        let cause = if pos.in_check(seat) {
            EliminationCause::Mated
        } else {
            EliminationCause::Stalemated
        };
        match self.game.no_move(cause) {
            Ok(_) if cause == EliminationCause::Mated => PlyAction::Eliminated(Marker::Mated),
            Ok(_) => PlyAction::Eliminated(Marker::Stalemated),
            Err(e) => panic!("a seat without moves is mated or stalemated: {e}"),
        }
    }

    /// The seat to move resigns, or (at times) lets its clock run out.
    fn leave(&mut self) -> PlyAction {
        let timed_out = self.rng.gen_bool(TIMEOUT_SHARE);
        if let Err(e) = self.game.resign(timed_out) {
            panic!("a running game accepts a resignation: {e}");
        }
        PlyAction::Eliminated(if timed_out {
            Marker::TimedOut
        } else {
            Marker::Resigned
        })
    }

    /// The seat's bot picks a move from the legal ones (feeding on some turns) and plays it.
    fn move_piece(&mut self, pos: &Position, seat: Seat) -> PlyAction {
        let stances = &self.stances[seat.index()];
        let chooser = Chooser {
            me: seat,
            stances,
            noise: self.noise[seat.index()],
            feed_now: stances.iter().any(|s| s.gifts) && self.rng.gen_bool(FEED_CHANCE),
        };
        let Some(mv) = chooser.choose(pos, self.list.as_slice(), &mut self.scratch, &mut self.rng)
        else {
            panic!("a non-empty move list gives a move");
        };
        let report = self.game.play_unchecked(mv);
        move_action(pos, mv, &report)
    }
}

/// The PGN4 tags of a simulated game, as the site exports an FFA game.
fn game_tags(
    site_game_id: u64,
    table: &Table,
    seats: &[SimulatedSeat; 4],
    points: [i32; 4],
    termination: String,
) -> Vec<Tag> {
    let mut tags = vec![
        ("GameNr", site_game_id.to_string()),
        ("TimeControl", "1+15D".to_string()),
        ("Variant", "FFA".to_string()),
        ("RuleVariants", RULE_VARIANTS.to_string()),
        ("StartFen4", "4PC".to_string()),
    ];
    for seat in Seat::ALL {
        let i = seat.index();
        tags.push((seat.name(), seats[i].player.clone()));
        tags.push((elo_tag(seat), seats[i].rating_before.to_string()));
    }
    let result = Seat::ALL
        .map(|s| format!("{}: {}", seats[s.index()].player, points[s.index()]))
        .join(" - ");
    tags.push(("Result", result));
    tags.push(("Termination", termination));
    tags.push((
        "Date",
        table
            .started_at
            .format("%a %b %d %Y %H:%M:%S GMT+0000 (Coordinated Universal Time)")
            .to_string(),
    ));
    tags.into_iter()
        .map(|(name, value)| Tag {
            name: name.to_string(),
            value,
            line: 0,
        })
        .collect()
}

/// The active seat with the most points (then material; ties to the earlier seat).
fn leader(pos: &Position) -> Seat {
    let mut best = (Seat::Red, i32::MIN, i32::MIN);
    for seat in Seat::ALL {
        if pos.status(seat) != SeatStatus::Active {
            continue;
        }
        let (p, m) = (pos.points()[seat.index()], pos.material(seat).1);
        if (p, m) > (best.1, best.2) {
            best = (seat, p, m);
        }
    }
    best.0
}

/// Points ahead of the next active seat.
fn lead(pos: &Position, leader: Seat) -> i32 {
    let points = pos.points();
    let next = Seat::ALL
        .into_iter()
        .filter(|&s| s != leader && pos.status(s) == SeatStatus::Active)
        .map(|s| points[s.index()])
        .max()
        .unwrap_or(0);
    points[leader.index()] - next
}

/// Less than a third of the material of the richest other active player.
fn hopeless(pos: &Position, seat: Seat) -> bool {
    let mine = pos.material(seat).1;
    let richest = Seat::ALL
        .into_iter()
        .filter(|&s| s != seat && pos.status(s) == SeatStatus::Active)
        .map(|s| pos.material(s).1)
        .max()
        .unwrap_or(0);
    mine * 3 < richest
}

/// The ply as the site writes it: `Nj1-i3`, `d3xBc4`, `Qj4xj10+`, `g7-g8=D`, `O-O`, `Rf1-f4+#`.
fn move_action(before: &Position, mv: Move, report: &PlyReport) -> PlyAction {
    let mates = report
        .eliminations
        .iter()
        .filter(|e| e.cause == EliminationCause::Mated)
        .count();
    let suffix = Suffix {
        checks: report.checks.len() as u8,
        mates: mates as u8,
        stalemate: false,
        auto_move: None,
    };
    match mv.kind {
        MoveKind::CastleShort => PlyAction::Castle {
            long: false,
            suffix,
        },
        MoveKind::CastleLong => PlyAction::Castle { long: true, suffix },
        _ => {
            // The site writes the 1-point queen with `Q`, moving or captured.
            let letter = |kind: PieceKind| match kind {
                PieceKind::OnePointQueen => 'Q',
                other => other.letter(),
            };
            let piece = before.piece_at(mv.from).map_or('P', |p| letter(p.kind));
            let captured = report.captured.map(|(p, _)| p.kind);
            PlyAction::Move(MoveText {
                piece,
                from: square_text(mv.from),
                to: square_text(mv.to),
                capture: captured.is_some(),
                captured: captured.filter(|&k| k != PieceKind::Pawn).map(letter),
                promotion: mv.promotion_kind().map(PieceKind::letter),
                suffix,
            })
        }
    }
}

fn square_text(sq: u16) -> SquareText {
    let (file, rank) = Geometry::file_rank(sq);
    SquareText {
        file: file as u8,
        rank: rank as u8,
    }
}

/// The Termination tag in the site's words. A claimed win is stated here only (the replay
/// applies it from this tag); other ends show in the moves.
fn termination(game: &Game, claim: Option<(Seat, i32)>) -> String {
    if let Some((seat, bonus)) = claim {
        return format!("({} +{bonus})", seat.name());
    }
    match game.end() {
        Some(GameEnd::LastPlayer(Some(last))) => {
            let walking = Seat::ALL
                .into_iter()
                .filter(|&s| game.position().status(s) == SeatStatus::Walking)
                .count() as i32;
            let mated = game
                .eliminations()
                .iter()
                .any(|e| e.cause == EliminationCause::Mated);
            if walking > 0 {
                format!(
                    "({} +{})",
                    last.name(),
                    walking * game.rules().walking_king_bonus
                )
            } else if mated {
                "Checkmate".to_string()
            } else {
                "Game over.".to_string()
            }
        }
        Some(GameEnd::Draw(DrawReason::FiftyMoves)) => "Game over. (50-move-rule)".to_string(),
        Some(GameEnd::Draw(DrawReason::Repetition)) => "Game over. (3-fold repetition)".to_string(),
        Some(GameEnd::Draw(DrawReason::InsufficientMaterial)) => {
            "Insufficient material".to_string()
        }
        Some(GameEnd::Draw(DrawReason::Stalemate)) => "Stalemate".to_string(),
        _ => "Game over.".to_string(),
    }
}
