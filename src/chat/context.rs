//! Chat judged against the board: the mentions of a line (moves such as `Qe7`, `nxf5`,
//! `Nj1-i3`; "the knight on f4"; "red's queen is hanging"; seats; "check red") are checked
//! against the position at the ply the line was sent, with the rules core.
//!
//! What is checked:
//! - a move or castling: is it legal now for a player other than the sender (which seat,
//!   and how many plies until that seat moves), and would it clearly lose material at once
//!   (the moved piece ends on a square an opponent attacks, undefended or attacked by a
//!   cheaper piece, and the exchange loses at least two points);
//! - "check <seat>": has any other player a legal move that checks that seat;
//! - a named piece: is it attacked by an opponent and undefended, or attacked by a cheaper
//!   piece (hanging);
//! - a named seat: is it still playing;
//! - for a bare "check" (`FfaClass::CheckAnnouncement` without the board): did the sender's
//!   last move, within the last round, give check (then it is the sender's announcement),
//!   and could another player give check now.
//!
//! Move and hanging checks only feed lines that read as a suggestion or as talk about the
//! past: for begging, offering, intentions and collusion only the seats are checked (an
//! intention about one's own move is not refuted by that move being illegal for others).
//! Pure: positions in, verdicts out.

use super::analyzer::Analyzer;
use super::ffa::FfaClass;
use super::game_chat::{analyze_game_chat, ChatLine, GameChatAnalysis, GameChatContext};
use super::line_analysis::{analyze_line, LineAnalysis};
use super::line_context::LineContext;
use super::mention::{Mention, MentionKind, SquareName};
use super::position_verdict::PositionVerdict;
use crate::rules::geometry::{Geometry, Seat, Square};
use crate::rules::piece::PieceKind;
use crate::rules::position::{Move, MoveKind, MoveList, Position, SeatStatus};
use crate::rules::replay::Replay;

/// The board a line is judged against.
#[derive(Clone, Copy, Debug)]
pub struct BoardContext<'a> {
    /// The position when the line was sent.
    pub position: &'a Position,
    /// Plies played before the line was sent.
    pub ply: u32,
    /// The sender's seat, when the sender plays in the game.
    pub sender: Option<Seat>,
    /// Whether the sender's last move, within the last round before the line, gave check
    /// (None when the sender is not known). See [`sender_gave_check`].
    pub sender_gave_check: Option<bool>,
}

impl<'a> BoardContext<'a> {
    /// The board of a replayed game for a line sent after `ply` plies (default: the end),
    /// by `sender`.
    pub fn of_replay(replay: &'a Replay, ply: Option<u32>, sender: Option<Seat>) -> Self {
        let (position, ply) = position_for(replay, ply);
        BoardContext {
            position,
            ply,
            sender,
            sender_gave_check: sender_gave_check(replay, ply, sender),
        }
    }
}

/// Whether `sender`'s last move among the first `ply` plies gave check, counting only a
/// move within the last round (four plies): a bare "check" sent after it announces it.
/// None without a sender; false when the sender has not moved within the last round.
pub fn sender_gave_check(replay: &Replay, ply: u32, sender: Option<Seat>) -> Option<bool> {
    let seat = sender?;
    let ply = (ply as usize).min(replay.plies.len());
    let last = replay.plies[..ply]
        .iter()
        .rev()
        .take(4)
        .find(|p| p.mover == seat && p.played.is_some());
    Some(last.is_some_and(|p| !p.checks.is_empty()))
}

/// What the position check found: the verdict for the classifier and one sentence per
/// finding (added to the flag's evidence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCheck {
    pub verdict: PositionVerdict,
    pub findings: Vec<String>,
}

fn kind_matches(said: PieceKind, actual: PieceKind) -> bool {
    match said {
        // "queen" covers the promoted 1-point queen too; `D` names only that one.
        PieceKind::Queen => actual.is_queenlike(),
        _ => actual == said,
    }
}

fn cell(position: &Position, square: SquareName) -> Option<Square> {
    position
        .geometry()
        .square(i16::from(square.file), i16::from(square.rank) - 1)
}

/// Plies until `seat` is to move (0: it is to move now).
fn plies_until(position: &Position, seat: Seat) -> usize {
    let turn = position.turn().index();
    let mut distance = 0;
    for i in 0..4 {
        let s = Seat::from_index(turn + i);
        if s == seat {
            return distance;
        }
        if position.status(s) != SeatStatus::Out {
            distance += 1;
        }
    }
    distance
}

fn when(plies: usize) -> String {
    match plies {
        0 => "to move now".to_string(),
        1 => "moves next".to_string(),
        n => format!("moves in {n} plies"),
    }
}

/// Seats other than the sender that still choose moves.
fn other_players(position: &Position, sender: Option<Seat>) -> Vec<Seat> {
    Seat::ALL
        .into_iter()
        .filter(|&s| Some(s) != sender && position.status(s) == SeatStatus::Active)
        .collect()
}

fn value(kind: PieceKind) -> i32 {
    kind.ffa_value()
}

/// Cheapest live attacker of `sq` among the opponents of `owner` still in play, and whether
/// `owner` (or a Teams partner) defends it.
fn exchange_view(position: &Position, sq: Square, owner: Seat) -> (Option<i32>, bool) {
    let mut cheapest: Option<i32> = None;
    let mut defended = false;
    for s in Seat::ALL {
        if position.status(s) == SeatStatus::Out {
            continue;
        }
        let attackers = position.attackers_of_seat(sq, s);
        if attackers.is_empty() {
            continue;
        }
        if position.are_opponents(s, owner) {
            let min = attackers.iter().map(|&(_, k)| value(k)).min();
            cheapest = match (cheapest, min) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        } else {
            defended = true;
        }
    }
    (cheapest, defended)
}

/// A live piece that an opponent can take for free or for less than it is worth.
fn is_hanging(position: &Position, sq: Square) -> Option<bool> {
    let piece = position.piece_at(sq)?;
    if piece.dead {
        return Some(false);
    }
    if piece.kind == PieceKind::King {
        return Some(position.in_check(piece.seat));
    }
    let (cheapest, defended) = exchange_view(position, sq, piece.seat);
    Some(match cheapest {
        Some(attacker) => !defended || attacker < value(piece.kind),
        None => false,
    })
}

/// Whether playing `mv` (by the side to move of `position`) loses at least two points at
/// once by a simple exchange on the destination square.
fn clearly_bad(position: &Position, mv: Move) -> bool {
    let Some(moved) = position.piece_at(mv.from) else {
        return false;
    };
    if moved.kind == PieceKind::King {
        return false;
    }
    let gained = position
        .piece_at(mv.to)
        .filter(|p| !p.dead)
        .map(|p| value(p.kind))
        .unwrap_or(0);
    let moved_value = mv.promotion_kind().map(value).unwrap_or(value(moved.kind));
    let mut after = *position;
    after.make(mv);
    let (cheapest, defended) = exchange_view(&after, mv.to, moved.seat);
    let Some(attacker) = cheapest else {
        return false;
    };
    let net = if defended {
        if attacker >= moved_value {
            return false;
        }
        gained - moved_value + attacker
    } else {
        gained - moved_value
    };
    net <= -2
}

struct MoveMention {
    piece: Option<PieceKind>,
    from: Option<Square>,
    to: Square,
    capture: bool,
    captured: Option<PieceKind>,
    promotion: Option<PieceKind>,
}

impl MoveMention {
    /// The mentioned move on this board; None when a square it names is off the board
    /// (or the mention is no move).
    fn on_board(position: &Position, kind: &MentionKind) -> Option<MoveMention> {
        let MentionKind::Move {
            piece,
            from,
            to,
            capture,
            captured,
            promotion,
        } = kind
        else {
            return None;
        };
        let to = cell(position, *to)?;
        let from = match from {
            Some(f) => Some(cell(position, *f)?),
            None => None,
        };
        Some(MoveMention {
            piece: *piece,
            from,
            to,
            capture: *capture,
            captured: *captured,
            promotion: *promotion,
        })
    }

    fn matches(&self, position: &Position, mv: &Move) -> bool {
        if matches!(mv.kind, MoveKind::CastleShort | MoveKind::CastleLong) {
            return false;
        }
        if mv.to != self.to || self.from.is_some_and(|f| f != mv.from) {
            return false;
        }
        let Some(moved) = position.piece_at(mv.from) else {
            return false;
        };
        if self.piece.is_some_and(|k| !kind_matches(k, moved.kind)) {
            return false;
        }
        if self.capture {
            let target = position.piece_at(mv.to);
            if target.is_none() && mv.kind != MoveKind::EnPassant {
                return false;
            }
            if let (Some(said), Some(target)) = (self.captured, target) {
                if !kind_matches(said, target.kind) {
                    return false;
                }
            }
        }
        match (self.promotion, mv.promotion_kind()) {
            (Some(said), Some(actual)) => kind_matches(said, actual),
            (Some(_), None) => false,
            _ => true,
        }
    }
}

/// Everything the checks found, before it becomes a verdict.
#[derive(Default)]
struct Tally {
    legal: Option<bool>,
    bad: Option<bool>,
    hanging: Option<bool>,
    seat_active: Option<bool>,
    findings: Vec<String>,
}

impl Tally {
    fn legal(&mut self, yes: bool) {
        self.legal = Some(self.legal == Some(true) || yes);
    }

    fn hanging(&mut self, yes: bool) {
        self.hanging = Some(self.hanging == Some(true) || yes);
    }

    fn seat(&mut self, active: bool) {
        self.seat_active = Some(self.seat_active == Some(true) || active);
    }

    /// A legal suggested move that is (not) clearly bad: bad only if every legal
    /// suggestion is.
    fn bad(&mut self, yes: bool) {
        self.bad = Some(self.bad.unwrap_or(true) && yes);
    }

    /// Nothing could be checked.
    fn is_empty(&self) -> bool {
        self.legal.is_none()
            && self.hanging.is_none()
            && self.seat_active.is_none()
            && self.bad.is_none()
    }

    /// A live move or threat outweighs other mentions that are dead: the line still points
    /// at something that matters.
    fn forget_dead_beside_live(&mut self) {
        if self.legal == Some(true) || self.hanging == Some(true) {
            if self.legal == Some(false) {
                self.legal = None;
            }
            if self.hanging == Some(false) {
                self.hanging = None;
            }
            if self.seat_active == Some(false) {
                self.seat_active = None;
            }
        }
    }

    fn into_check(self, board: BoardContext<'_>) -> PositionCheck {
        PositionCheck {
            verdict: PositionVerdict {
                ply: board.ply,
                fen4: crate::rules::fen4::write(&board.position.to_fen4()),
                move_legal_for_other: self.legal,
                piece_hanging: self.hanging,
                seat_active: self.seat_active,
                move_clearly_bad: if self.legal == Some(true) {
                    self.bad
                } else {
                    None
                },
                sender_gave_check: None,
            },
            findings: self.findings,
        }
    }
}

/// Checks a line's mentions against the position. `class` is how the line reads without
/// the board (from a first pass); it decides which checks apply. None when nothing
/// could be checked.
pub fn check_mentions(
    board: BoardContext<'_>,
    class: Option<FfaClass>,
    mentions: &[Mention],
) -> Option<PositionCheck> {
    let about_moves = matches!(
        class,
        Some(FfaClass::MoveSuggestion | FfaClass::PastMoveDiscussion)
    );
    let others = other_players(board.position, board.sender);
    let mut tally = Tally::default();
    let mut buf = MoveList::new();
    if class == Some(FfaClass::CheckAnnouncement) {
        return check_bare_check(board, &others, &mut buf, tally);
    }
    for mention in mentions {
        check_mention(board, &others, about_moves, mention, &mut buf, &mut tally);
    }
    if tally.is_empty() {
        return None;
    }
    tally.forget_dead_beside_live();
    Some(tally.into_check(board))
}

/// A bare "check": the sender's own announcement, or a hint to another player. None when
/// the sender is not known.
fn check_bare_check(
    board: BoardContext<'_>,
    others: &[Seat],
    buf: &mut MoveList,
    mut tally: Tally,
) -> Option<PositionCheck> {
    let gave = board.sender_gave_check?;
    if gave {
        tally
            .findings
            .push("the sender's last move gave check".to_string());
    } else {
        tally
            .findings
            .push("the sender's last move gave no check".to_string());
        check_checks(board.position, others, None, buf, &mut tally);
    }
    Some(PositionCheck {
        verdict: PositionVerdict {
            ply: board.ply,
            fen4: crate::rules::fen4::write(&board.position.to_fen4()),
            move_legal_for_other: tally.legal,
            move_clearly_bad: None,
            piece_hanging: None,
            seat_active: None,
            sender_gave_check: Some(gave),
        },
        findings: tally.findings,
    })
}

/// Checks one mention: moves, checks and pieces only for a line `about_moves`; seats always.
fn check_mention(
    board: BoardContext<'_>,
    others: &[Seat],
    about_moves: bool,
    mention: &Mention,
    buf: &mut MoveList,
    tally: &mut Tally,
) {
    let position = board.position;
    match &mention.kind {
        MentionKind::Move { .. } if about_moves => {
            match MoveMention::on_board(position, &mention.kind) {
                Some(wanted) => check_move(position, others, buf, tally, mention, |p, mv| {
                    wanted.matches(p, mv)
                }),
                None => tally.legal(false),
            }
        }
        MentionKind::Castle { long } if about_moves => {
            let kind = if *long {
                MoveKind::CastleLong
            } else {
                MoveKind::CastleShort
            };
            check_move(position, others, buf, tally, mention, |_, mv| {
                mv.kind == kind
            });
        }
        MentionKind::Check { target } if about_moves => {
            check_checks(position, others, *target, buf, tally);
            if let Some(seat) = target {
                seat_status(position, *seat, tally);
            }
        }
        MentionKind::Piece {
            piece,
            owner,
            square,
        } if about_moves => {
            check_piece(position, board.sender, *piece, *owner, *square, tally);
        }
        MentionKind::Seat { seat } => seat_status(position, *seat, tally),
        MentionKind::Check {
            target: Some(seat), ..
        } => seat_status(position, *seat, tally),
        _ => {}
    }
}

/// The verdict alone (see [`check_mentions`]).
pub fn verdict_for(
    board: BoardContext<'_>,
    class: Option<FfaClass>,
    mentions: &[Mention],
) -> Option<PositionVerdict> {
    check_mentions(board, class, mentions).map(|c| c.verdict)
}

fn check_move(
    position: &Position,
    others: &[Seat],
    buf: &mut MoveList,
    tally: &mut Tally,
    mention: &Mention,
    wanted: impl Fn(&Position, &Move) -> bool,
) {
    let mut found = false;
    for &seat in others {
        let p = position.with_turn(seat);
        p.legal_moves(buf);
        let Some(mv) = buf.iter().copied().find(|mv| wanted(&p, mv)) else {
            continue;
        };
        found = true;
        let bad = clearly_bad(&p, mv);
        tally.bad(bad);
        let piece = p
            .piece_at(mv.from)
            .map(|x| x.kind.name())
            .unwrap_or("piece");
        tally.findings.push(format!(
            "{} is legal for {} ({}, {}){}",
            mv.coordinate_text(),
            seat.name(),
            piece,
            when(plies_until(position, seat)),
            if bad {
                "; it loses material at once"
            } else {
                ""
            }
        ));
    }
    if !found {
        tally.findings.push(format!(
            "no other player can play {} here",
            mention_text(mention)
        ));
    }
    tally.legal(found);
}

fn mention_text(mention: &Mention) -> String {
    match &mention.kind {
        MentionKind::Move {
            from, to, piece, ..
        } => {
            let from = from.map(|f| format!("{f}-")).unwrap_or_default();
            let piece = piece.map(piece_word).unwrap_or("");
            format!("{piece}{from}{to}")
        }
        MentionKind::Castle { long: true } => "O-O-O".to_string(),
        MentionKind::Castle { long: false } => "O-O".to_string(),
        _ => "the mentioned move".to_string(),
    }
}

fn piece_word(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "K",
        PieceKind::Queen => "Q",
        PieceKind::Rook => "R",
        PieceKind::Bishop => "B",
        PieceKind::Knight => "N",
        PieceKind::Pawn => "",
        PieceKind::OnePointQueen => "D",
    }
}

fn check_checks(
    position: &Position,
    others: &[Seat],
    target: Option<Seat>,
    buf: &mut MoveList,
    tally: &mut Tally,
) {
    let mut found = None;
    'seats: for &seat in others {
        let p = position.with_turn(seat);
        p.legal_moves(buf);
        for &mv in buf.iter() {
            let mut after = p;
            after.make(mv);
            let victim = Seat::ALL.into_iter().find(|&v| {
                target.is_none_or(|t| t == v)
                    && v != seat
                    && p.are_opponents(seat, v)
                    && after.status(v) == SeatStatus::Active
                    && after.in_check(v)
            });
            if let Some(victim) = victim {
                found = Some((seat, mv, victim));
                break 'seats;
            }
        }
    }
    match found {
        Some((seat, mv, victim)) => {
            tally.legal(true);
            tally.bad(false);
            tally.findings.push(format!(
                "{} can check {} with {} ({})",
                seat.name(),
                victim.name(),
                mv.coordinate_text(),
                when(plies_until(position, seat))
            ));
        }
        None => {
            tally.legal(false);
            tally
                .findings
                .push("no other player has a checking move".to_string());
        }
    }
}

fn check_piece(
    position: &Position,
    sender: Option<Seat>,
    piece: PieceKind,
    owner: Option<Seat>,
    square: Option<SquareName>,
    tally: &mut Tally,
) {
    let mut candidates: Vec<Square> = Vec::new();
    match square {
        Some(square) => {
            if let Some(sq) = cell(position, square) {
                let fits = position.piece_at(sq).is_some_and(|p| {
                    !p.dead && kind_matches(piece, p.kind) && owner.is_none_or(|o| o == p.seat)
                });
                if fits {
                    candidates.push(sq);
                }
            }
        }
        None => {
            for seat in Seat::ALL {
                if owner.is_some_and(|o| o != seat) || (owner.is_none() && Some(seat) == sender) {
                    continue;
                }
                for &sq in position.pieces_of(seat) {
                    if position
                        .piece_at(sq)
                        .is_some_and(|p| !p.dead && kind_matches(piece, p.kind))
                    {
                        candidates.push(sq);
                    }
                }
            }
        }
    }
    if candidates.is_empty() {
        tally.hanging(false);
        tally
            .findings
            .push("no such piece is on the board".to_string());
        return;
    }
    let hanging = candidates
        .iter()
        .copied()
        .find(|&sq| is_hanging(position, sq) == Some(true));
    match hanging {
        Some(sq) => {
            tally.hanging(true);
            if let Some(p) = position.piece_at(sq) {
                tally.findings.push(format!(
                    "{}'s {} on {} is attacked and not adequately defended",
                    p.seat.name(),
                    p.kind.name(),
                    Geometry::name(sq)
                ));
            }
        }
        None => {
            tally.hanging(false);
            tally
                .findings
                .push("the mentioned piece is not hanging".to_string());
        }
    }
}

fn seat_status(position: &Position, seat: Seat, tally: &mut Tally) {
    let s = seat;
    let active = position.status(s) == SeatStatus::Active;
    if !active {
        tally
            .findings
            .push(format!("{} is no longer playing", s.name()));
    }
    tally.seat(active);
}

/// Appends the position findings to the evidence of the flags that carry one.
fn annotate(analysis: &mut LineAnalysis, check: &PositionCheck) {
    if check.findings.is_empty() {
        return;
    }
    let details = check.findings.join("; ");
    for flag in &mut analysis.flags {
        if let Some(evidence) = flag.evidence.as_mut() {
            evidence.finding = format!("{}: {details}", evidence.finding);
        }
    }
}

/// Analyses one line, then, when it mentions the board and a position is given, checks the
/// mentions against the position and analyses it again with the verdict.
pub fn analyze_line_in_context(
    analyzer: &Analyzer,
    context: &LineContext,
    board: Option<BoardContext<'_>>,
    text: &str,
) -> (LineAnalysis, Option<PositionCheck>) {
    let first = analyze_line(analyzer, context, text);
    let Some(board) = board else {
        return (first, None);
    };
    if first.mentions.is_empty() && first.ffa != Some(FfaClass::CheckAnnouncement) {
        return (first, None);
    }
    let Some(check) = check_mentions(board, first.ffa, &first.mentions) else {
        return (first, None);
    };
    let mut with_board = context.clone();
    with_board.position = Some(check.verdict.clone());
    let mut analysis = analyze_line(analyzer, &with_board, text);
    annotate(&mut analysis, &check);
    (analysis, Some(check))
}

/// The seat a sender plays, by the player names in the record's tags.
pub fn seat_of_player(replay: &Replay, name: &str) -> Option<Seat> {
    [
        ("Red", Seat::Red),
        ("Blue", Seat::Blue),
        ("Yellow", Seat::Yellow),
        ("Green", Seat::Green),
    ]
    .into_iter()
    .find(|(tag, _)| {
        replay
            .pgn
            .tag(tag)
            .is_some_and(|player| player.trim().eq_ignore_ascii_case(name.trim()))
    })
    .map(|(_, seat)| seat)
}

/// The position a line with `ply` (plies played when it was sent) refers to.
pub fn position_for(replay: &Replay, ply: Option<u32>) -> (&Position, u32) {
    let last = replay.plies.len();
    let index = ply.map_or(0, |p| (p as usize).min(last));
    match replay.position_at(index) {
        Some(position) => (position, index as u32),
        None => (
            // `position_at(plies.len())` is the final position and always exists.
            replay.game.position(),
            last as u32,
        ),
    }
}

/// A whole chat log judged with the board: every line's mentions are checked against the
/// position at its ply (senders are seated by the player names of the record), then the
/// log is analysed as by [`analyze_game_chat`], with the verdicts.
pub fn analyze_game_chat_in_context(
    analyzer: &Analyzer,
    game: &GameChatContext,
    replay: &Replay,
    lines: &[ChatLine],
) -> GameChatAnalysis {
    let mut verdicts = Vec::with_capacity(lines.len());
    let mut findings = Vec::with_capacity(lines.len());
    for chat in lines {
        let ended = match (chat.ply, game.ended_at_ply) {
            (Some(ply), Some(end)) => ply >= end,
            _ => game.ended_at_ms.is_some_and(|end| chat.time_ms >= end),
        };
        let context = LineContext {
            variant: game.variant,
            channel: chat.channel,
            in_progress: !ended,
            diplomacy: game.diplomacy,
            position: None,
        };
        let first = analyze_line(analyzer, &context, &chat.text);
        let check = if first.mentions.is_empty() && first.ffa != Some(FfaClass::CheckAnnouncement) {
            None
        } else {
            let sender = seat_of_player(replay, &chat.sender);
            let board = BoardContext::of_replay(replay, chat.ply, sender);
            check_mentions(board, first.ffa, &first.mentions)
        };
        verdicts.push(check.as_ref().map(|c| c.verdict.clone()));
        findings.push(check);
    }
    let mut out = analyze_game_chat(analyzer, game, lines, &verdicts);
    for line in &mut out.lines {
        if let Some(Some(check)) = findings.get(line.index) {
            annotate(&mut line.analysis, check);
        }
    }
    out
}
