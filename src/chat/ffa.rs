//! Rule-violating FFA chat: begging for points, offering points, suggesting moves,
//! revealing intentions, proposing collusion; with the site's exemptions (moves
//! that can no longer matter, turn reminders, telling someone to resign or claim).
//!
//! The classifier reads the word cues of each token (from the lexicon pass), splits
//! the line into clauses at punctuation and "but", sets aside clauses about the past
//! and turn reminders, and applies structural rules to what is left. A position
//! verdict from the rules engine, when there is one, raises or lowers the result.

use serde::{Deserialize, Serialize};

use super::lexicon::CueNames;
use super::mention::{Mention, MentionKind};
use super::normalize::NormalizedLine;
use super::types::{Category, PositionEvidence, Severity};

/// How a line reads under the FFA chat rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FfaClass {
    Begging,
    Offering,
    MoveSuggestion,
    Intention,
    Collusion,
    /// "resign", "claim": allowed though not encouraged; not report-worthy.
    ResignOrClaim,
    /// Talk about moves that can no longer matter ("the queen was hanging").
    PastMoveDiscussion,
    /// "your turn", "hurry up".
    TurnReminder,
    /// Nothing about the game's decisions.
    Neutral,
}

impl FfaClass {
    pub const ALL: [FfaClass; 9] = [
        FfaClass::Begging,
        FfaClass::Offering,
        FfaClass::MoveSuggestion,
        FfaClass::Intention,
        FfaClass::Collusion,
        FfaClass::ResignOrClaim,
        FfaClass::PastMoveDiscussion,
        FfaClass::TurnReminder,
        FfaClass::Neutral,
    ];

    /// The flag category of a rule-violating class.
    pub fn category(self) -> Option<Category> {
        Some(match self {
            FfaClass::Begging => Category::Begging,
            FfaClass::Offering => Category::Offering,
            FfaClass::MoveSuggestion => Category::MoveSuggestion,
            FfaClass::Intention => Category::Intention,
            FfaClass::Collusion => Category::Collusion,
            FfaClass::ResignOrClaim => Category::ResignOrClaim,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            FfaClass::Begging => "begging",
            FfaClass::Offering => "offering",
            FfaClass::MoveSuggestion => "move_suggestion",
            FfaClass::Intention => "intention",
            FfaClass::Collusion => "collusion",
            FfaClass::ResignOrClaim => "resign_or_claim",
            FfaClass::PastMoveDiscussion => "past_move_discussion",
            FfaClass::TurnReminder => "turn_reminder",
            FfaClass::Neutral => "neutral",
        }
    }
}

/// What the rules engine found when it checked the line's mentions against the
/// position at the line's ply. Every field is optional: fill in what was checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct PositionVerdict {
    pub ply: u32,
    pub fen4: String,
    /// A mentioned move is legal now for a player other than the sender.
    pub move_legal_for_other: Option<bool>,
    /// A mentioned piece is attacked and undefended now.
    pub piece_hanging: Option<bool>,
    /// A mentioned seat is still in the game.
    pub seat_active: Option<bool>,
    /// A mentioned move would clearly be bad for the player it is suggested to.
    pub move_clearly_bad: Option<bool>,
}

impl PositionVerdict {
    /// The position shows the mentioned thing still matters for the game.
    fn confirms(&self) -> bool {
        self.move_legal_for_other == Some(true) || self.piece_hanging == Some(true)
    }

    /// The position shows the line can no longer influence the game.
    fn refutes(&self) -> bool {
        self.move_legal_for_other == Some(false)
            || self.piece_hanging == Some(false)
            || self.seat_active == Some(false)
    }

    fn evidence(&self, finding: &str) -> PositionEvidence {
        PositionEvidence {
            ply: self.ply,
            fen4: self.fen4.clone(),
            finding: finding.to_string(),
        }
    }
}

/// The outcome of the FFA classifier for one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfaOutcome {
    pub class: FfaClass,
    pub rule: &'static str,
    pub explanation: &'static str,
    pub severity: Severity,
    pub report_worthy: bool,
    /// Byte range of the matching form the rule looked at (tokens it used).
    pub norm_span: (usize, usize),
    pub evidence: Option<PositionEvidence>,
}

/// Cue bits resolved once from the cue file.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cues {
    points: u64,
    give: u64,
    let_: u64,
    letus: u64,
    have: u64,
    take: u64,
    need: u64,
    please: u64,
    just: u64,
    num: u64,
    subj: u64,
    me: u64,
    you: u64,
    seat: u64,
    piece: u64,
    attack: u64,
    go: u64,
    after: u64,
    check: u64,
    state: u64,
    defend: u64,
    support: u64,
    move_: u64,
    past: u64,
    modal: u64,
    future: u64,
    neg: u64,
    turn: u64,
    resign: u64,
    team: u64,
    versus: u64,
    we: u64,
    and: u64,
    leave: u64,
    win: u64,
    can: u64,
    so: u64,
    /// Any cue that can start a violation: the gate for the whole classifier.
    pub trigger: u64,
    /// Cues of words that can name a piece, a seat or a check.
    pub board_words: u64,
}

impl Cues {
    pub fn new(names: &CueNames) -> Cues {
        let b = |n: &str| names.bit(n);
        let mut cues = Cues {
            points: b("points"),
            give: b("give"),
            let_: b("let"),
            letus: b("letus"),
            have: b("have"),
            take: b("take"),
            need: b("need"),
            please: b("please"),
            just: b("just"),
            num: b("num"),
            subj: b("subj"),
            me: b("me"),
            you: b("you"),
            seat: b("seat"),
            piece: b("piece"),
            attack: b("attack"),
            go: b("go"),
            after: b("after"),
            check: b("check"),
            state: b("state"),
            defend: b("defend"),
            support: b("support"),
            move_: b("move"),
            past: b("past"),
            modal: b("modal"),
            future: b("future"),
            neg: b("neg"),
            turn: b("turn"),
            resign: b("resign"),
            team: b("team"),
            versus: b("versus"),
            we: b("we"),
            and: b("and"),
            leave: b("leave"),
            win: b("win"),
            can: b("can"),
            so: b("so"),
            trigger: 0,
            board_words: 0,
        };
        cues.board_words = cues.piece | cues.seat | cues.check;
        cues.trigger = cues.points
            | cues.give
            | cues.let_
            | cues.letus
            | cues.take
            | cues.need
            | cues.piece
            | cues.attack
            | cues.check
            | cues.state
            | cues.defend
            | cues.support
            | cues.turn
            | cues.resign
            | cues.team
            | cues.versus
            | cues.leave
            | cues.seat
            | cues.move_;
        cues
    }
}

/// The tokens of one clause, as indices into the line's tokens.
#[derive(Clone, Copy, Debug)]
struct Clause {
    start: usize,
    end: usize,
}

struct View<'a> {
    line: &'a NormalizedLine,
    cues: &'a [u64],
    c: &'a Cues,
    /// Tokens that are still live (not in a past or turn-reminder clause).
    live: &'a [usize],
}

/// Reusable buffers of the classifier.
#[derive(Clone, Debug, Default)]
pub(crate) struct FfaScratch {
    clauses: Vec<Clause>,
    live: Vec<usize>,
}

impl View<'_> {
    fn bits(&self, token: usize) -> u64 {
        self.cues.get(token).copied().unwrap_or(0)
    }

    fn word(&self, token: usize) -> &str {
        self.line.token_text(&self.line.tokens[token])
    }

    /// Position in `live` of the first token at or after `from` with any of `bits`.
    fn find(&self, from: usize, bits: u64) -> Option<usize> {
        (from..self.live.len()).find(|&i| self.bits(self.live[i]) & bits != 0)
    }

    fn has(&self, bits: u64) -> bool {
        self.find(0, bits).is_some()
    }

    /// The cue sets appear in this order among the live tokens.
    fn seq(&self, sets: &[u64]) -> Option<(usize, usize)> {
        let mut at = 0;
        let mut first = None;
        for &set in sets {
            let i = self.find(at, set)?;
            first.get_or_insert(i);
            at = i + 1;
        }
        Some((first.unwrap_or(0), at))
    }

    /// Like `seq`, but each next cue must come within `gap` tokens of the previous one.
    fn near(&self, sets: &[u64], gap: usize) -> Option<(usize, usize)> {
        'start: for begin in 0..self.live.len() {
            if self.bits(self.live[begin]) & sets[0] == 0 {
                continue;
            }
            let mut at = begin + 1;
            for &set in &sets[1..] {
                let limit = (at + gap).min(self.live.len());
                match (at..limit).find(|&i| self.bits(self.live[i]) & set != 0) {
                    Some(i) => at = i + 1,
                    None => continue 'start,
                }
            }
            return Some((begin, at));
        }
        None
    }

    /// A live token that starts a clause (or follows a seat name / "please" / "just"
    /// at the start): the imperative position.
    fn imperative(&self, set: u64) -> Option<usize> {
        let lead = self.c.seat | self.c.please | self.c.just | self.c.go;
        for (i, &token) in self.live.iter().enumerate() {
            let starts = i == 0 || self.line.tokens[token].after_clause_break;
            if !starts {
                continue;
            }
            let mut j = i;
            while j < self.live.len() && j < i + 3 {
                let bits = self.bits(self.live[j]);
                if bits & set != 0 {
                    return Some(j);
                }
                if bits & lead == 0 {
                    break;
                }
                j += 1;
            }
        }
        None
    }

    fn span(&self, (from, to): (usize, usize)) -> (usize, usize) {
        let tokens = &self.line.tokens;
        let first = self.live.get(from).copied().unwrap_or(0);
        let last = self
            .live
            .get(to.saturating_sub(1))
            .copied()
            .unwrap_or(first);
        match (tokens.get(first), tokens.get(last)) {
            (Some(a), Some(b)) => (a.start as usize, b.end.max(a.start) as usize),
            _ => (0, 0),
        }
    }
}

/// Classifies a line under the FFA chat rules. `cues` are the per-token cue bits.
pub(crate) fn classify(
    scratch: &mut FfaScratch,
    c: &Cues,
    line: &NormalizedLine,
    cues: &[u64],
    line_cues: u64,
    mentions: &[Mention],
    verdict: Option<&PositionVerdict>,
) -> FfaOutcome {
    let has_move_mention = mentions.iter().any(|m| {
        matches!(
            m.kind,
            MentionKind::Move { .. } | MentionKind::Castle { .. } | MentionKind::MateIn { .. }
        )
    });
    let neutral = FfaOutcome {
        class: FfaClass::Neutral,
        rule: "ffa:neutral",
        explanation: "nothing about other players' decisions",
        severity: Severity::Low,
        report_worthy: false,
        norm_span: (0, 0),
        evidence: None,
    };
    if line_cues & c.trigger == 0 && !has_move_mention {
        return neutral;
    }

    // Clauses: split at punctuation and at "but".
    let FfaScratch { clauses, live } = scratch;
    clauses.clear();
    live.clear();
    for (i, token) in line.tokens.iter().enumerate() {
        let word = line.token_text(token);
        if i == 0 || token.after_clause_break || word == "but" {
            clauses.push(Clause {
                start: i,
                end: i + 1,
            });
        } else if let Some(last) = clauses.last_mut() {
            last.end = i + 1;
        }
    }
    let move_content = c.piece | c.check | c.seat | c.state | c.take | c.attack | c.move_;
    let mut past_move_clause = None;
    let mut turn_clause = None;
    for clause in clauses.iter() {
        let bits =
            (clause.start..clause.end).fold(0u64, |acc, t| acc | cues.get(t).copied().unwrap_or(0));
        let mention_here = mentions.iter().any(|m| {
            let (s, e) = (m.span.start, m.span.end);
            let (cs, ce) = clause_original_span(line, clause);
            s >= cs && e <= ce && matches!(m.kind, MentionKind::Move { .. })
        });
        let past = bits & c.past != 0 || counterfactual(line, cues, c, clause);
        if past {
            if bits & move_content != 0 || mention_here {
                past_move_clause.get_or_insert(*clause);
            }
            continue;
        }
        let turn = (bits & c.turn != 0
            || (bits & c.you != 0 && bits & c.move_ != 0 && bits & c.take == 0))
            && bits & (c.piece | c.check | c.state | c.attack | c.points) == 0;
        if turn {
            turn_clause.get_or_insert(*clause);
            continue;
        }
        live.extend(clause.start..clause.end);
    }
    let view = View {
        line,
        cues,
        c,
        live: live.as_slice(),
    };

    let found = find_violation(&view, mentions);
    match found {
        Some((class, rule, explanation, span)) => {
            let mut outcome = FfaOutcome {
                class,
                rule,
                explanation,
                severity: if class == FfaClass::ResignOrClaim {
                    Severity::Low
                } else {
                    Severity::High
                },
                report_worthy: class != FfaClass::ResignOrClaim,
                norm_span: view.span(span),
                evidence: None,
            };
            if let Some(verdict) = verdict {
                apply_verdict(&mut outcome, verdict);
            }
            outcome
        }
        None => {
            if let Some(clause) = turn_clause {
                return FfaOutcome {
                    class: FfaClass::TurnReminder,
                    rule: "ffa:turn_reminder",
                    explanation: "a turn reminder is allowed",
                    norm_span: clause_span(line, &clause),
                    ..neutral
                };
            }
            if let Some(clause) = past_move_clause {
                let mut outcome = FfaOutcome {
                    class: FfaClass::PastMoveDiscussion,
                    rule: "ffa:past_move",
                    explanation: "talk about a move that can no longer be changed is allowed",
                    norm_span: clause_span(line, &clause),
                    ..neutral
                };
                // "the queen was hanging" while it still hangs is pointing it out.
                if let Some(verdict) = verdict {
                    if verdict.piece_hanging == Some(true)
                        || verdict.move_legal_for_other == Some(true)
                    {
                        outcome.class = FfaClass::MoveSuggestion;
                        outcome.rule = "ffa:past_tense_but_still_relevant";
                        outcome.explanation =
                            "phrased as the past, but the position shows it still matters";
                        outcome.severity = Severity::Medium;
                        outcome.report_worthy = true;
                        outcome.evidence =
                            Some(verdict.evidence("the mentioned piece or move is still live"));
                    }
                }
                return outcome;
            }
            neutral
        }
    }
}

fn apply_verdict(outcome: &mut FfaOutcome, verdict: &PositionVerdict) {
    if verdict.move_clearly_bad == Some(true) && outcome.class == FfaClass::MoveSuggestion {
        outcome.severity = Severity::Low;
        outcome.report_worthy = false;
        outcome.explanation = "suggests a clearly bad move (not report-worthy)";
        outcome.evidence = Some(verdict.evidence("the suggested move is clearly bad"));
    } else if verdict.refutes() {
        outcome.severity = outcome.severity.lower().lower();
        outcome.report_worthy = false;
        outcome.evidence = Some(
            verdict
                .evidence("the position shows the mentioned move, piece or seat no longer matters"),
        );
    } else if verdict.confirms() {
        outcome.severity = outcome.severity.raise();
        outcome.evidence = Some(verdict.evidence(
            "the position confirms the mentioned move or threat is live for another player",
        ));
    }
}

/// "should have", "could've", "should of": a counterfactual about the past.
fn counterfactual(line: &NormalizedLine, cues: &[u64], c: &Cues, clause: &Clause) -> bool {
    let word = |t: usize| line.token_text(&line.tokens[t]);
    (clause.start..clause.end).any(|t| {
        let w = word(t);
        if matches!(w, "shouldve" | "couldve" | "wouldve" | "shoulda" | "coulda") {
            return true;
        }
        cues.get(t).copied().unwrap_or(0) & c.modal != 0
            && (t + 1..clause.end.min(t + 3))
                .any(|n| matches!(word(n), "haue" | "hau" | "have" | "hav" | "of"))
    })
}

fn clause_span(line: &NormalizedLine, clause: &Clause) -> (usize, usize) {
    let a = line.tokens[clause.start].start as usize;
    let b = line.tokens[clause.end - 1].end as usize;
    (a, b)
}

fn clause_original_span(line: &NormalizedLine, clause: &Clause) -> (usize, usize) {
    let (a, b) = clause_span(line, clause);
    line.original_span(a, b)
}

type Found = (FfaClass, &'static str, &'static str, (usize, usize));

fn find_violation(v: &View<'_>, mentions: &[Mention]) -> Option<Found> {
    let c = v.c;
    if v.live.is_empty() {
        return None;
    }
    let negated_before = |i: usize| i > 0 && v.bits(v.live[i - 1]) & c.neg != 0;

    // Offering points.
    if let Some(s) = v.seq(&[c.you, c.can, c.have | c.take, c.me]) {
        return Some((
            FfaClass::Offering,
            "ffa:offer_you_can_have_mine",
            "offers own material or points to another player",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.subj, c.give | c.let_, c.you], 3) {
        if !v.has(c.neg) {
            return Some((
                FfaClass::Offering,
                "ffa:offer_i_will_give",
                "offers to give or allow another player something",
                s,
            ));
        }
    }
    if let Some(i) = v.imperative(c.take) {
        if !negated_before(i) && i + 1 < v.live.len() && v.bits(v.live[i + 1]) & c.me != 0 {
            return Some((
                FfaClass::Offering,
                "ffa:offer_take_mine",
                "invites another player to take own material",
                (i, i + 2),
            ));
        }
    }
    if let (Some(request), Some(promise)) = (
        v.near(&[c.give | c.let_, c.me], 2),
        v.near(&[c.subj, c.resign], 3),
    ) {
        if promise.0 > request.0 {
            return Some((
                FfaClass::Offering,
                "ffa:offer_deal",
                "proposes a deal: something in return for resigning or points",
                (request.0, promise.1),
            ));
        }
    }

    // A non-aggression pact: "don't attack me and I won't attack you".
    if let (Some(request), Some(promise)) = (
        v.near(&[c.neg, c.attack | c.take | c.check, c.me], 2),
        v.near(&[c.subj, c.neg | c.future, c.attack | c.take | c.check], 3),
    ) {
        if promise.0 > request.0 {
            return Some((
                FfaClass::Collusion,
                "ffa:collusion_pact",
                "proposes not to attack each other",
                (request.0, promise.1),
            ));
        }
    }

    // Begging for points.
    if let Some(s) = v.near(&[c.need, c.points | c.num], 3) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_need_points",
            "asks for points or a place",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.give, c.points | c.num | c.piece], 4) {
        let word = v.word(v.live[s.0]);
        let to_me = word.starts_with("gim") || v.find(s.0, c.me).is_some_and(|m| m < s.1);
        if to_me {
            return Some((
                FfaClass::Begging,
                "ffa:beg_give_me",
                "asks another player to give points, material or a place",
                s,
            ));
        }
    }
    if let Some(s) = v.near(&[c.let_, c.me, c.take | c.have | c.check | c.attack], 2) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_let_me",
            "asks to be allowed to take material",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.just, c.num, c.points], 2) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_just_points",
            "asks for a few points",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.points, c.please], 3) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_points_please",
            "pleads for points",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.neg, c.take | c.attack | c.check, c.me], 2) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_spare_me",
            "pleads with another player to spare own material",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.resign, c.so | c.points, c.subj | c.me | c.points], 3) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_resign_for_me",
            "asks another player to resign for own benefit",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.can, c.subj, c.have | c.take, c.you], 2) {
        return Some((
            FfaClass::Begging,
            "ffa:beg_can_i_have",
            "asks for another player's material",
            s,
        ));
    }

    // Collusion.
    if let Some(s) = v.near(&[c.letus, c.attack | c.take | c.check | c.team | c.go], 2) {
        return Some((
            FfaClass::Collusion,
            "ffa:collusion_lets",
            "proposes acting together against a player",
            s,
        ));
    }
    if let Some(i) = v.find(0, c.team) {
        if !negated_before(i) && v.has(c.seat | c.attack | c.versus | c.you | c.we) {
            return Some((
                FfaClass::Collusion,
                "ffa:collusion_team_up",
                "proposes teaming up",
                (i, i + 1),
            ));
        }
    }
    if let Some(s) = v.seq(&[c.and, c.versus, c.seat]) {
        return Some((
            FfaClass::Collusion,
            "ffa:collusion_us_versus",
            "proposes two players against another",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.support | c.defend, c.me], 1) {
        return Some((
            FfaClass::Collusion,
            "ffa:collusion_support_me",
            "asks another player to support own pieces",
            s,
        ));
    }
    if let Some(s) = v.near(&[c.we, c.attack | c.take | c.go, c.seat], 3) {
        return Some((
            FfaClass::Collusion,
            "ffa:collusion_we_attack",
            "proposes a joint attack",
            s,
        ));
    }
    if let Some(i) = v.imperative(c.attack) {
        if !negated_before(i) && v.find(i, c.seat).is_some() {
            return Some((
                FfaClass::Collusion,
                "ffa:collusion_attack_seat",
                "directs another player's attack at a seat",
                (i, i + 2),
            ));
        }
    }

    // Revealing intentions.
    if let Some(s) = v.near(
        &[
            c.subj,
            c.future | c.neg | c.go | c.just | c.leave | c.attack | c.take | c.check,
            c.attack | c.take | c.check | c.leave | c.after | c.seat,
        ],
        3,
    ) {
        let word = v.word(v.live[s.0]);
        let future_subject = matches!(word, "il" | "ima" | "imma");
        let marked =
            (s.0 + 1..s.1).any(|i| v.bits(v.live[i]) & (c.future | c.neg | c.go | c.just) != 0);
        if future_subject || marked {
            return Some((
                FfaClass::Intention,
                "ffa:intention_first_person",
                "announces own plans towards other players",
                s,
            ));
        }
    }

    // Suggesting moves.
    if let Some(m) = mentions
        .iter()
        .find(|m| matches!(m.kind, MentionKind::MateIn { .. }))
    {
        let _ = m;
        if let Some(i) = v.find(0, c.check) {
            return Some((
                FfaClass::MoveSuggestion,
                "ffa:suggest_mate_in",
                "points out a forced mate",
                (i, i + 1),
            ));
        }
    }
    if let Some(i) = v.imperative(c.check) {
        return Some((
            FfaClass::MoveSuggestion,
            "ffa:suggest_check",
            "tells a player to give check or mate",
            (i, i + 2),
        ));
    }
    // "the knight on f4 is hanging": room for "on <square> is" between piece and state.
    if let Some(s) = v.near(&[c.piece, c.state], 5) {
        return Some((
            FfaClass::MoveSuggestion,
            "ffa:suggest_hanging_piece",
            "points out a piece that can be won",
            s,
        ));
    }
    if let Some(i) = v.imperative(c.take | c.attack) {
        if !negated_before(i) {
            if let Some(j) = v.find(i + 1, c.piece | c.state) {
                if j <= i + 4 {
                    return Some((
                        FfaClass::MoveSuggestion,
                        "ffa:suggest_take",
                        "tells a player what to capture",
                        (i, j + 1),
                    ));
                }
            }
        }
    }
    if let Some(s) = v.near(&[c.defend, c.you, c.piece], 2) {
        return Some((
            FfaClass::MoveSuggestion,
            "ffa:suggest_defend",
            "warns a player about their piece",
            s,
        ));
    }
    let live_mention = mentions.iter().any(|m| {
        matches!(
            m.kind,
            MentionKind::Move { .. } | MentionKind::Castle { .. }
        ) && v.live.iter().any(|&t| {
            let tok = &v.line.tokens[t];
            let (a, b) = v.line.original_span(tok.start as usize, tok.end as usize);
            a < m.span.end && m.span.start < b
        })
    });
    if live_mention {
        let at = v
            .live
            .iter()
            .position(|&t| v.bits(t) & c.win != 0)
            .unwrap_or(0);
        return Some((
            FfaClass::MoveSuggestion,
            "ffa:suggest_move_notation",
            "names a move while it can still be played",
            (at, at + 1),
        ));
    }

    // Telling someone to resign or claim: classified, not report-worthy.
    if let Some(i) = v.find(0, c.resign) {
        if !v.has(c.subj) || v.has(c.you) {
            return Some((
                FfaClass::ResignOrClaim,
                "ffa:resign_or_claim",
                "tells a player to resign or claim (allowed, not report-worthy)",
                (i, i + 1),
            ));
        }
    }
    None
}
