//! Replay: from a PGN4 text to a timeline of plies (mover, move, captures, checks, points,
//! eliminations), queries at any ply, and the computed result next to the tags' `Result`.
//!
//! Setup when `StartFen4` is missing: games numbered below 50,000,000 (`GameNr`) used the
//! classic `4PCo` setup, later ones and records without a number (fragments) the modern `4PC`
//! (domain notes: "4PCo, used until roughly game number 50M").

use std::fmt;

use super::draw_reason::DrawReason;
use super::game::{Elimination, EliminationCause, FinalStanding, Game, GameEnd, PlyReport};
use super::geometry::Seat;
use super::pgn4::{self, Marker, MoveText, ParseError, Pgn4, PlyAction, PlyText, SquareText};
use super::piece::{Piece, PieceKind};
use super::position::{MoveKind, MoveList, Position, SeatStatus, SetupError};
use super::ruleset::{ReducedCheckBonus, RuleSet, RuleSetError, Scoring};

/// Game number below which a record without `StartFen4` is taken to use `4PCo`.
pub const CLASSIC_SETUP_BEFORE_GAME: u64 = 50_000_000;

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    Parse(ParseError),
    IllegalMove {
        /// 0-based index of the ply in the main line.
        ply: usize,
        round: u32,
        seat: Seat,
        text: String,
        fen4_before: String,
        reason: String,
    },
    Unsupported {
        what: String,
    },
    Setup(SetupError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Parse(e) => write!(f, "parse error: {e}"),
            ReplayError::IllegalMove {
                ply,
                round,
                seat,
                text,
                fen4_before,
                reason,
            } => write!(
                f,
                "illegal move at ply {ply} (round {round}, {seat}): {text}: {reason}; position before: {fen4_before}"
            ),
            ReplayError::Unsupported { what } => write!(f, "unsupported: {what}"),
            ReplayError::Setup(e) => write!(f, "setup error: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// One ply of the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct PlyRecord {
    pub index: usize,
    pub round: u32,
    pub mover: Seat,
    /// The move played (`None` for a marker slot); `Display` gives its coordinate text.
    pub played: Option<super::position::Move>,
    pub captured: Option<Piece>,
    /// Seats whose kings the move attacks afterwards.
    pub checks: Vec<Seat>,
    pub points_after: [i32; 4],
    pub eliminations: Vec<Elimination>,
    pub end: Option<GameEnd>,
}

/// The `Result` tag, read.
#[derive(Debug, Clone, PartialEq)]
pub enum TagResult {
    /// Teams: winning team (`Red` for Red+Yellow, `Blue` for Blue+Green), `None` for a draw.
    Teams(Option<Seat>),
    /// FFA points per seat, mapped by player name.
    Points([i32; 4]),
    /// A value this reader does not understand (kept as written).
    Other(String),
}

/// A replayed game.
#[derive(Debug, Clone)]
pub struct Replay {
    pub pgn: Pgn4,
    pub rules: RuleSet,
    /// `4PC`, `4PCo` or the FEN4 of the start.
    pub setup: String,
    /// The setup was inferred (no `StartFen4` tag).
    pub setup_inferred: bool,
    pub plies: Vec<PlyRecord>,
    /// Position before ply i; the last entry is the final position.
    positions: Vec<Position>,
    moves_made: Vec<[u32; 4]>,
    pub game: Game,
    pub standing: FinalStanding,
    pub tag_result: Option<TagResult>,
}

impl Replay {
    /// Position before ply `ply` (0-based); `ply == plies.len()` is the final position.
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    pub fn in_check_at(&self, ply: usize, seat: Seat) -> Option<bool> {
        self.position_at(ply)
            .map(|p| p.status(seat) != SeatStatus::Out && p.in_check(seat))
    }

    pub fn points_at(&self, ply: usize) -> Option<[i32; 4]> {
        self.position_at(ply).map(|p| p.points())
    }

    /// Moves each seat had made before ply `ply`.
    pub fn moves_made_at(&self, ply: usize) -> Option<[u32; 4]> {
        self.moves_made.get(ply).copied()
    }

    /// Legal moves of the side to move before ply `ply`, as coordinate text.
    pub fn legal_moves_at(&self, ply: usize) -> Option<Vec<String>> {
        let pos = self.position_at(ply)?;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        Some(list.iter().map(|m| m.coordinate_text()).collect())
    }

    /// Live pieces and their FFA value (kings excluded) per seat before ply `ply`.
    pub fn material_at(&self, ply: usize) -> Option<[(usize, i32); 4]> {
        self.position_at(ply)
            .map(|p| Seat::ALL.map(|s| p.material(s)))
    }

    pub fn fen4_at(&self, ply: usize) -> Option<String> {
        self.position_at(ply).map(pgn4_fen)
    }

    pub fn eliminations(&self) -> &[Elimination] {
        self.game.eliminations()
    }

    /// The token of ply `ply` as written.
    pub fn ply_text(&self, ply: usize) -> Option<&str> {
        self.pgn.plies.get(ply).map(|p| p.raw.as_str())
    }

    /// Export as PGN4: the original tags and the main line as replayed (comments and
    /// variations dropped). Reads back to the same game.
    pub fn to_pgn4(&self) -> String {
        pgn4::write(&self.pgn)
    }
}

fn pgn4_fen(p: &Position) -> String {
    super::fen4::write(&p.to_fen4())
}

/// Replay a PGN4 text. Stops at the first illegal move with a precise error.
pub fn replay(text: &str) -> Result<Replay, ReplayError> {
    let pgn = pgn4::parse(text).map_err(ReplayError::Parse)?;
    replay_parsed(pgn)
}

/// The rule set named by the tags: `Variant` picks the preset (`Teams`, `FFA`, `Solo`; without
/// the tag: FFA when the `Result` lists points, else Teams), `RuleVariants` applies on top.
pub fn rules_for(pgn: &Pgn4) -> Result<RuleSet, RuleSetError> {
    let variant = pgn.tag("Variant").unwrap_or("");
    let mut rules = match variant.trim().to_ascii_lowercase().as_str() {
        "teams" => RuleSet::teams(),
        "ffa" | "free-for-all" => RuleSet::ffa(),
        "solo" => RuleSet::solo(),
        "" => {
            if pgn.tag("Result").is_some_and(|r| r.contains(':')) {
                RuleSet::ffa()
            } else {
                RuleSet::teams()
            }
        }
        other => RuleSet::preset(other)?,
    };
    if let Some(variants) = pgn.tag("RuleVariants") {
        rules.apply_variants(variants)?;
    }
    if rules.scoring == Scoring::Points && is_classic_era(pgn) {
        rules.multi_check_points.reduced_when = ReducedCheckBonus::WhenAQueenChecks;
    }
    Ok(rules)
}

/// Games numbered below `CLASSIC_SETUP_BEFORE_GAME`. Besides the setup, the site's multiple
/// check bonus differs between its games of 2022 (a knight's double check +5) and of 2026
/// (every double check +1); the data place the change between games 12.0M and 97.9M, and
/// the setup's boundary is used until a game in between says otherwise (`docs/scoring.md`).
fn is_classic_era(pgn: &Pgn4) -> bool {
    pgn.tag("GameNr")
        .and_then(|n| n.trim().parse::<u64>().ok())
        .is_some_and(|n| n < CLASSIC_SETUP_BEFORE_GAME)
}

/// The preset a `Variant` tag names beyond the site's own (`quatro`, `points`, ...).
fn named_preset(pgn: &Pgn4) -> Option<RuleSet> {
    let variant = pgn.tag("Variant")?.trim().to_ascii_lowercase();
    match variant.as_str() {
        "teams" | "ffa" | "free-for-all" | "solo" => None,
        other => RuleSet::preset(other).ok(),
    }
}

fn setup_for(pgn: &Pgn4) -> (String, bool) {
    if let Some(fen) = pgn.tag("StartFen4") {
        return (fen.trim().to_string(), false);
    }
    if let Some(rules) = named_preset(pgn) {
        return (rules.default_setup.to_string(), true);
    }
    let classic = is_classic_era(pgn);
    (if classic { "4PCo" } else { "4PC" }.to_string(), true)
}

/// Replay an already parsed record.
pub fn replay_parsed(pgn: Pgn4) -> Result<Replay, ReplayError> {
    let (setup, setup_inferred) = setup_for(&pgn);
    // Build the position before judging rule variants: an unsupported piece in the setup is the
    // more precise message.
    let base_rules = named_preset(&pgn).unwrap_or_else(RuleSet::teams);
    if let Err(e) = Position::from_setup(&setup, &base_rules) {
        return Err(setup_error(e));
    }
    let rules = rules_for(&pgn).map_err(|e| match e {
        RuleSetError::UnsupportedVariant(v) => ReplayError::Unsupported {
            what: format!("rule variant '{v}'"),
        },
        RuleSetError::UnknownPreset(v) => ReplayError::Unsupported {
            what: format!("variant '{v}'"),
        },
        // Not raised for a record's tags (they are kept in `unknown_variants`).
        RuleSetError::UnknownVariants(words) => ReplayError::Unsupported {
            what: format!("rule variants '{}'", words.join(" ")),
        },
    })?;
    let start = Position::from_setup(&setup, &rules).map_err(setup_error)?;
    let mut game = Game::new(rules.clone(), start);
    let mut plies = Vec::with_capacity(pgn.plies.len());
    let mut positions = Vec::with_capacity(pgn.plies.len() + 1);
    let mut moves_made = Vec::with_capacity(pgn.plies.len() + 1);
    let mut buffer = MoveList::new();
    for (index, ply) in pgn.plies.iter().enumerate() {
        positions.push(*game.position());
        moves_made.push(game.moves_made());
        if game.end().is_some() {
            return Err(illegal(
                index,
                ply,
                &game,
                "the game is already over".into(),
            ));
        }
        let report = play_ply(&mut game, index, ply, &mut buffer)?;
        plies.push(PlyRecord {
            index,
            round: ply.round,
            mover: report.mover,
            played: report.mv,
            captured: report.captured.map(|(p, _)| p),
            checks: report.checks,
            points_after: report.points_after,
            eliminations: report.eliminations,
            end: report.end,
        });
    }
    if game.end().is_none() {
        apply_termination(&mut game, pgn.tag("Termination").unwrap_or(""));
    }
    positions.push(*game.position());
    moves_made.push(game.moves_made());
    let tag_result = pgn.tag("Result").map(|r| read_result(&pgn, r, &rules));
    let standing = game.standing();
    Ok(Replay {
        pgn,
        rules,
        setup,
        setup_inferred,
        plies,
        positions,
        moves_made,
        game,
        standing,
        tag_result,
    })
}

/// Ends the record does not show as plies, read from the `Termination` tag: a claimed win
/// (`(Green +20)`, `Game over. (Red +40)` while several players are still in), the site's
/// 50-move rule, a claimed repetition or insufficient material.
fn apply_termination(game: &mut Game, termination: &str) {
    let t = termination.to_ascii_lowercase();
    let draw = if t.contains("50-move") {
        Some(DrawReason::FiftyMoves)
    } else if t.contains("3-fold") || t.contains("repetition") {
        Some(DrawReason::Repetition)
    } else if t.contains("insuff") {
        Some(DrawReason::InsufficientMaterial)
    } else {
        None
    };
    if let Some(reason) = draw {
        // Where draws are claimed, the claim must hold in the final position; a refused claim
        // leaves the game unfinished and the check reports it.
        if game.rules().draws_claimed && reason != DrawReason::InsufficientMaterial {
            let _ = game.claim_draw(game.to_move());
        } else {
            let _ = game.declare_draw(reason);
        }
        return;
    }
    if let Some(open) = termination.find('(') {
        let inner = &termination[open + 1..];
        if let Some((name, rest)) = inner.split_once(" +") {
            let seat = Seat::ALL.into_iter().find(|s| s.name() == name.trim());
            let is_bonus = rest.trim_end_matches(')').trim().parse::<u32>().is_ok();
            if let (Some(seat), true) = (seat, is_bonus) {
                if game.position().status(seat) == SeatStatus::Active {
                    let _ = game.claim_win(seat);
                }
            }
        }
    }
}

fn setup_error(e: SetupError) -> ReplayError {
    match e {
        SetupError::UnsupportedPiece { .. } | SetupError::UnsupportedWall { .. } => {
            ReplayError::Unsupported {
                what: e.to_string(),
            }
        }
        other => ReplayError::Setup(other),
    }
}

fn illegal(index: usize, ply: &PlyText, game: &Game, reason: String) -> ReplayError {
    ReplayError::IllegalMove {
        ply: index,
        round: ply.round,
        seat: game.to_move(),
        text: ply.raw.clone(),
        fen4_before: pgn4_fen(game.position()),
        reason,
    }
}

fn play_ply(
    game: &mut Game,
    index: usize,
    ply: &PlyText,
    list: &mut MoveList,
) -> Result<PlyReport, ReplayError> {
    let mover = game.to_move();
    match &ply.action {
        PlyAction::Eliminated(marker) => {
            let result = match marker {
                Marker::Resigned => game.resign(false),
                Marker::TimedOut => game.resign(true),
                Marker::Stalemated => game.no_move(EliminationCause::Stalemated),
                Marker::Mated => game.no_move(EliminationCause::Mated),
            };
            result.map_err(|e| illegal(index, ply, game, e.to_string()))
        }
        PlyAction::Castle { long, suffix } => {
            if let Some(marker) = suffix.auto_move {
                start_walking(game, marker, index, ply)?;
            }
            let wanted = if *long {
                MoveKind::CastleLong
            } else {
                MoveKind::CastleShort
            };
            game.position().legal_moves(list);
            match list.iter().find(|m| m.kind == wanted) {
                Some(&mv) => Ok(game.play_unchecked(mv)),
                None => Err(illegal(
                    index,
                    ply,
                    game,
                    format!(
                        "{mover} cannot castle {} here",
                        if *long { "long" } else { "short" }
                    ),
                )),
            }
        }
        PlyAction::Move(text) => {
            if let Some(marker) = text.suffix.auto_move {
                start_walking(game, marker, index, ply)?;
            }
            let mv =
                find_move(game.position(), game.rules(), text, list).map_err(
                    |reason| match reason {
                        MoveProblem::Unsupported(what) => ReplayError::Unsupported { what },
                        MoveProblem::Illegal(reason) => illegal(index, ply, game, reason),
                    },
                )?;
            Ok(game.play_unchecked(mv))
        }
    }
}

/// A move suffixed `R`/`T`: the player resigned or timed out and this is the king's first
/// automatic move.
fn start_walking(
    game: &mut Game,
    marker: Marker,
    index: usize,
    ply: &PlyText,
) -> Result<(), ReplayError> {
    let seat = game.to_move();
    if game.position().status(seat) == SeatStatus::Active {
        game.start_walking(seat, marker == Marker::TimedOut)
            .map_err(|e| illegal(index, ply, game, e.to_string()))?;
    }
    Ok(())
}

enum MoveProblem {
    Unsupported(String),
    Illegal(String),
}

fn square_of(position: &Position, text: SquareText) -> Option<u16> {
    position
        .geometry()
        .square(i16::from(text.file), i16::from(text.rank))
}

fn find_move(
    position: &Position,
    rules: &RuleSet,
    text: &MoveText,
    list: &mut MoveList,
) -> Result<super::position::Move, MoveProblem> {
    let mover = position.turn();
    let Some(kind) = PieceKind::from_letter(text.piece) else {
        return Err(MoveProblem::Unsupported(format!(
            "piece type '{}' (supported: P N B R Q K D)",
            text.piece
        )));
    };
    let promotion = match text.promotion {
        Some(c) => match PieceKind::from_letter(c) {
            Some(k) => Some(promotion_as_meant(k, rules)),
            None => {
                return Err(MoveProblem::Unsupported(format!(
                    "promotion to piece type '{c}'"
                )))
            }
        },
        None => None,
    };
    let from = square_of(position, text.from)
        .ok_or_else(|| MoveProblem::Illegal(format!("{} is not a square", text.from)))?;
    let to = square_of(position, text.to)
        .ok_or_else(|| MoveProblem::Illegal(format!("{} is not a square", text.to)))?;
    let Some(piece) = position.piece_at(from) else {
        return Err(MoveProblem::Illegal(format!("no piece on {}", text.from)));
    };
    if piece.seat != mover {
        return Err(MoveProblem::Illegal(format!(
            "the piece on {} is {}'s, and it is {mover}'s turn",
            text.from, piece.seat
        )));
    }
    // The site writes a promoted 1-point queen with `Q` (`Qg8-g7` after `g7-g8=D`).
    let same_kind = piece.kind == kind || (piece.kind.is_queenlike() && kind.is_queenlike());
    if !same_kind {
        return Err(MoveProblem::Illegal(format!(
            "the piece on {} is a {}, not a {}",
            text.from,
            piece.kind.letter(),
            kind.letter()
        )));
    }
    position.legal_moves_from(from, list);
    let mut candidates = list.iter().filter(|m| m.from == from && m.to == to);
    let Some(&first) = candidates.clone().next() else {
        let reason = if piece.dead {
            "the piece is dead".to_string()
        } else if position.in_check(mover) {
            format!("{mover} is in check and this move does not resolve it, or the piece cannot move there")
        } else {
            "the piece cannot move there (blocked, wrong geometry, pinned, or the king would be attacked)"
                .to_string()
        };
        return Err(MoveProblem::Illegal(reason));
    };
    let chosen = match promotion {
        None if first.promotion == 0 => Some(&first),
        Some(p) => candidates.find(|m| m.promotion_kind() == Some(p)),
        None => candidates.find(|m| m.promotion == 0),
    };
    chosen.copied().ok_or_else(|| {
        MoveProblem::Illegal(match promotion {
            Some(p) => format!("promotion to '{}' is not allowed here", p.letter()),
            None => "a promotion piece must be given".to_string(),
        })
    })
}

/// The piece a written promotion letter means. The site's older exports (2018) wrote the
/// promotion to the FFA 1-point queen as `=Q` under `PromoteTo=D`: where the rules promote to
/// `D` and not to `Q`, a written `Q` can only mean the `D`. Every other letter means itself, so
/// a promotion the rules do not allow (`=N` under `PromoteTo=D`) stays illegal.
fn promotion_as_meant(written: PieceKind, rules: &RuleSet) -> PieceKind {
    let moves = &rules.moves;
    if written == PieceKind::Queen
        && !moves.may_promote_to(PieceKind::Queen)
        && moves.may_promote_to(PieceKind::OnePointQueen)
    {
        PieceKind::OnePointQueen
    } else {
        written
    }
}

/// Read the `Result` tag: Teams `1-0`/`0-1`/`1/2-1/2`; FFA `name: points - name: points ...`
/// mapped by player name (in anonymous games the names are not in seat order).
pub fn read_result(pgn: &Pgn4, text: &str, rules: &RuleSet) -> TagResult {
    let t = text.trim();
    if rules.scoring == Scoring::Teams || !t.contains(':') {
        return match t {
            "1-0" => TagResult::Teams(Some(Seat::Red)),
            "0-1" => TagResult::Teams(Some(Seat::Blue)),
            "1/2-1/2" => TagResult::Teams(None),
            _ => TagResult::Other(t.to_string()),
        };
    }
    let names: Vec<Option<&str>> = Seat::ALL.iter().map(|s| pgn.tag(s.name())).collect();
    let mut points = [0i32; 4];
    let mut filled = [false; 4];
    let entries: Vec<&str> = t.split(" - ").collect();
    for (position, entry) in entries.iter().enumerate() {
        let Some((name, value)) = entry.rsplit_once(':') else {
            return TagResult::Other(t.to_string());
        };
        let Ok(value) = value.trim().parse::<i32>() else {
            return TagResult::Other(t.to_string());
        };
        let name = name.trim();
        let by_name: Vec<usize> = (0..4)
            .filter(|&i| names[i].map(str::trim) == Some(name) && !filled[i])
            .collect();
        let seat = match by_name.first() {
            Some(&i) => i,
            // Unknown or repeated names: fall back to the written order.
            None if position < 4 && !filled[position] => position,
            None => return TagResult::Other(t.to_string()),
        };
        points[seat] = value;
        filled[seat] = true;
    }
    if filled.iter().all(|&f| f) {
        TagResult::Points(points)
    } else {
        TagResult::Other(t.to_string())
    }
}

/// Outcome of checking one PGN4 file (see [`check`]).
#[derive(Debug, Clone)]
pub struct GameCheck {
    pub variant: String,
    pub setup: String,
    pub plies: usize,
    pub eliminations: Vec<Elimination>,
    pub computed: Option<FinalStanding>,
    pub tag_result: Option<TagResult>,
    pub termination: Option<String>,
    pub error: Option<ReplayError>,
    /// Disagreements between the record's tags and the replay.
    pub mismatches: Vec<String>,
    /// Rule variants kept but not understood.
    pub unknown_variants: Vec<String>,
}

impl GameCheck {
    /// True when the record replays with every move legal and the computed result matches the
    /// tags.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.mismatches.is_empty()
    }
}

/// Check one PGN4 file for `arbiter replay FILE`: replay it and compare the computed result
/// with the `Result` and `Termination` tags. Never panics; print the returned value.
pub fn check(text: &str) -> GameCheck {
    let mut out = GameCheck::empty();
    let pgn = match pgn4::parse(text) {
        Ok(p) => p,
        Err(e) => {
            out.error = Some(ReplayError::Parse(e));
            return out;
        }
    };
    out.variant = pgn.tag("Variant").unwrap_or("(none)").to_string();
    out.termination = pgn.tag("Termination").map(str::to_string);
    out.plies = pgn.plies.len();
    let replay = match replay_parsed(pgn) {
        Ok(r) => r,
        Err(e) => {
            out.error = Some(e);
            return out;
        }
    };
    out.setup = setup_label(&replay);
    out.eliminations = replay.eliminations().to_vec();
    out.unknown_variants = replay.rules.unknown_variants.clone();
    out.mismatches = tag_mismatches(&replay);
    out.computed = Some(replay.standing.clone());
    out.tag_result = replay.tag_result.clone();
    out
}

impl GameCheck {
    /// Nothing known yet: the fields are filled as far as the record gets.
    fn empty() -> GameCheck {
        GameCheck {
            variant: String::new(),
            setup: String::new(),
            plies: 0,
            eliminations: Vec::new(),
            computed: None,
            tag_result: None,
            termination: None,
            error: None,
            mismatches: Vec::new(),
            unknown_variants: Vec::new(),
        }
    }
}

/// The setup as reported: its name (marked when inferred), or "custom FEN4" for a position.
fn setup_label(replay: &Replay) -> String {
    if replay.setup_inferred {
        format!("{} (inferred)", replay.setup)
    } else if replay.setup.len() > 8 {
        "custom FEN4".to_string()
    } else {
        replay.setup.clone()
    }
}

/// Every way the `Result` and `Termination` tags disagree with the replay, one sentence each
/// (empty when they agree). `check` reports them; the archive refuses a game that has any.
pub fn tag_mismatches(replay: &Replay) -> Vec<String> {
    let mut mismatches = Vec::new();
    result_mismatches(replay, &replay.standing, &mut mismatches);
    if let Some(term) = replay.pgn.tag("Termination") {
        termination_mismatches(replay, term, &mut mismatches);
    }
    mismatches
}

/// Where the `Result` tag disagrees with the computed standing (points, or the winning team).
fn result_mismatches(replay: &Replay, standing: &FinalStanding, mismatches: &mut Vec<String>) {
    match &replay.tag_result {
        Some(TagResult::Points(points)) => {
            let computed = standing.scores.map(|s| s as i32);
            if &computed != points {
                mismatches.push(format!(
                    "points: computed {} but Result says {}",
                    seat_list(&computed),
                    seat_list(points)
                ));
            }
        }
        Some(TagResult::Teams(winner)) if replay.rules.scoring == Scoring::Teams => {
            let computed = standing.team_winner;
            if replay.game.end().is_none() {
                if winner.is_some() {
                    mismatches.push(format!(
                        "Result says {} won but the record ends with no result",
                        team_name(*winner)
                    ));
                }
            } else if computed != *winner {
                mismatches.push(format!(
                    "winner: computed {} but Result says {}",
                    team_name(computed),
                    team_name(*winner)
                ));
            }
        }
        Some(TagResult::Other(text)) if text != "*" => {
            mismatches.push(format!("Result tag not understood: {text}"));
        }
        _ => {}
    }
}

/// A `Checkmate` termination must show in the record: the game over, ended by a mate.
/// A record that stops while the game is still running (`quirks/cc_game_0235`: 187 plies,
/// `CurrentMove` 111, last move gives no check) replays, but is reported as truncated.
fn termination_mismatches(replay: &Replay, term: &str, mismatches: &mut Vec<String>) {
    if !term.contains("Checkmate") {
        return;
    }
    let mated = replay
        .eliminations()
        .iter()
        .any(|e| e.cause == EliminationCause::Mated);
    if replay.game.end().is_none() {
        mismatches.push(format!(
            "Termination says \"{term}\" but the record ends with the game still running (truncated export?)"
        ));
    } else if !mated {
        mismatches.push(format!(
            "Termination says \"{term}\" but no player is mated in the record"
        ));
    }
}

fn team_name(winner: Option<Seat>) -> &'static str {
    match winner {
        Some(Seat::Red) | Some(Seat::Yellow) => "Red+Yellow",
        Some(_) => "Blue+Green",
        None => "a draw",
    }
}

fn seat_list(values: &[i32; 4]) -> String {
    Seat::ALL
        .iter()
        .zip(values)
        .map(|(s, v)| format!("{s} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for GameCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "variant: {}  setup: {}  plies: {}",
            self.variant, self.setup, self.plies
        )?;
        if !self.unknown_variants.is_empty() {
            writeln!(
                f,
                "unknown rule variants (ignored): {}",
                self.unknown_variants.join(" ")
            )?;
        }
        for e in &self.eliminations {
            write!(f, "eliminated: {} {} at ply {}", e.seat, e.cause, e.ply)?;
            if let Some(by) = e.by {
                write!(f, " by {by}")?;
            }
            writeln!(f)?;
        }
        if let Some(s) = &self.computed {
            match s.team_winner {
                Some(_) => writeln!(f, "computed: {} won", team_name(s.team_winner))?,
                None => writeln!(
                    f,
                    "computed: {} (placement {})",
                    Seat::ALL
                        .iter()
                        .zip(s.scores)
                        .map(|(seat, v)| format!("{seat} {v}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    s.placement.map(|p| p.to_string()).join("/")
                )?,
            }
        }
        match &self.tag_result {
            Some(TagResult::Teams(w)) => writeln!(f, "Result tag: {} won", team_name(*w))?,
            Some(TagResult::Points(p)) => writeln!(f, "Result tag: {}", seat_list(p))?,
            Some(TagResult::Other(t)) => writeln!(f, "Result tag: {t}")?,
            None => writeln!(f, "Result tag: (none)")?,
        }
        if let Some(t) = &self.termination {
            writeln!(f, "Termination tag: {t}")?;
        }
        if let Some(e) = &self.error {
            writeln!(f, "error: {e}")?;
        }
        for m in &self.mismatches {
            writeln!(f, "mismatch: {m}")?;
        }
        write!(f, "{}", if self.ok() { "OK" } else { "NOT OK" })
    }
}
