//! Rule-violating FFA chat: begging for points, offering points, suggesting moves,
//! revealing intentions, proposing collusion; with the site's exemptions (moves
//! that can no longer matter, turn reminders, telling someone to resign or claim,
//! the checking player announcing its own check).
//!
//! The classifier reads the word cues of each token (from the lexicon pass), splits
//! the line into clauses at punctuation and "but", sets aside clauses about the past
//! and turn reminders, and applies structural rules to what is left. A position
//! verdict from the rules engine, when there is one, raises or lowers the result.
//!
//! The rules follow how players write: requests as questions ("can i have your rook?"),
//! offers as "yours" ("the knight is yours"), warnings about an attacked piece ("blue
//! your queen is hanging"), commands aimed at a seat ("yellow take red's queen") and
//! one-word pact offers ending in "?" ("truce?").

use serde::{Deserialize, Serialize};

use super::lexicon::CueNames;
use super::mention::{Mention, MentionKind};
use super::normalize::NormalizedLine;
use super::position_verdict::PositionVerdict;
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
    /// A bare "check" ("check!", "kill the king"): the checking player announcing the
    /// check it gave, unless the position shows its last move gave none.
    CheckAnnouncement,
    /// Nothing about the game's decisions.
    Neutral,
}

impl FfaClass {
    pub const ALL: [FfaClass; 10] = [
        FfaClass::Begging,
        FfaClass::Offering,
        FfaClass::MoveSuggestion,
        FfaClass::Intention,
        FfaClass::Collusion,
        FfaClass::ResignOrClaim,
        FfaClass::PastMoveDiscussion,
        FfaClass::TurnReminder,
        FfaClass::CheckAnnouncement,
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
            FfaClass::CheckAnnouncement => "check_announcement",
            FfaClass::Neutral => "neutral",
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
    yours: u64,
    it: u64,
    pact: u64,
    units: u64,
    for_: u64,
    lead: u64,
    ask: u64,
    blunder: u64,
    announce: u64,
    laugh: u64,
    double: u64,
    look: u64,
    free: u64,
    is: u64,
    hang: u64,
    safe: u64,
    all: u64,
    in_: u64,
    on: u64,
    /// Any cue that can start a violation: the gate for the whole classifier.
    pub trigger: u64,
    /// Cues of words that can name a piece, a seat or a check.
    pub board_words: u64,
}

impl Cues {
    pub fn new(names: &CueNames) -> Cues {
        let mut cues = Cues::named(names);
        cues.board_words = cues.piece | cues.seat | cues.check;
        cues.trigger = cues.triggers();
        cues
    }

    /// The bit of every cue set, by its name in the cue file.
    fn named(names: &CueNames) -> Cues {
        let b = |n: &str| names.bit(n);
        Cues {
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
            yours: b("yours"),
            it: b("it"),
            pact: b("pact"),
            units: b("units"),
            for_: b("for"),
            lead: b("lead"),
            ask: b("ask"),
            blunder: b("blunder"),
            announce: b("announce"),
            laugh: b("laugh"),
            double: b("double"),
            look: b("look"),
            free: b("free"),
            is: b("is"),
            hang: b("hang"),
            safe: b("safe"),
            all: b("all"),
            in_: b("in"),
            on: b("on"),
            trigger: 0,
            board_words: 0,
        }
    }

    /// The cues that can start a violation.
    fn triggers(&self) -> u64 {
        self.points
            | self.give
            | self.let_
            | self.letus
            | self.take
            | self.need
            | self.piece
            | self.attack
            | self.check
            | self.state
            | self.defend
            | self.support
            | self.turn
            | self.resign
            | self.team
            | self.versus
            | self.leave
            | self.seat
            | self.move_
            | self.yours
            | self.pact
            | self.announce
            | self.look
            | self.can
            | self.blunder
            | self.hang
            | self.safe
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
    /// For every live token, the clause it belongs to.
    clause_of: &'a [u16],
}

/// Reusable buffers of the classifier.
#[derive(Clone, Debug, Default)]
pub(crate) struct FfaScratch {
    clauses: Vec<Clause>,
    live: Vec<usize>,
    clause_of: Vec<u16>,
}

impl View<'_> {
    fn bits(&self, token: usize) -> u64 {
        self.cues.get(token).copied().unwrap_or(0)
    }

    /// Cue bits of the live token at position `i` of `live`.
    fn at(&self, i: usize) -> u64 {
        self.live.get(i).map_or(0, |&t| self.bits(t))
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

    fn same_clause(&self, a: usize, b: usize) -> bool {
        self.clause_of.get(a) == self.clause_of.get(b)
    }

    /// Position of the first live token with any of `bits` among the `n` after `i`, in
    /// `i`'s clause.
    fn ahead(&self, i: usize, n: usize, bits: u64) -> Option<usize> {
        (i + 1..(i + 1 + n).min(self.live.len()))
            .take_while(|&j| self.same_clause(i, j))
            .find(|&j| self.at(j) & bits != 0)
    }

    /// Position of the nearest live token with any of `bits` among the `n` before `i`, in
    /// `i`'s clause.
    fn behind(&self, i: usize, n: usize, bits: u64) -> Option<usize> {
        (i.saturating_sub(n)..i)
            .rev()
            .take_while(|&j| self.same_clause(i, j))
            .find(|&j| self.at(j) & bits != 0)
    }

    /// The live token before position `i` negates it ("don't take").
    fn negated_before(&self, i: usize) -> bool {
        i > 0 && self.at(i - 1) & self.c.neg != 0
    }

    /// Position of the first live token of `i`'s clause.
    fn clause_first(&self, i: usize) -> usize {
        (0..=i)
            .rev()
            .take_while(|&j| self.same_clause(j, i))
            .last()
            .unwrap_or(i)
    }

    /// `i` is the last live token of its clause.
    fn ends_clause(&self, i: usize) -> bool {
        i + 1 >= self.live.len() || !self.same_clause(i, i + 1)
    }

    /// A number that counts points: "5", "5 more points", "two points"; not "5 minutes"
    /// and not a number word on its own ("that one").
    fn num_is_points(&self, i: usize) -> bool {
        if self.ahead(i, 2, self.c.points).is_some() {
            return true;
        }
        let digits = self
            .live
            .get(i)
            .is_some_and(|&t| self.word(t).bytes().all(|b| b.is_ascii_digit()));
        digits && self.ahead(i, 2, self.c.units).is_none()
    }

    /// Material or points among the `n` tokens after `i`: a piece, a place, "it", "my ...".
    fn gift_ahead(&self, i: usize, n: usize) -> bool {
        let c = self.c;
        if self.ahead(i, n, c.piece | c.points | c.it).is_some() {
            return true;
        }
        self.ahead(i, n, c.me).is_some_and(|j| self.owned(j))
            || self
                .ahead(i, n, c.num)
                .is_some_and(|j| self.num_is_points(j))
    }

    /// "mine", or "my" before a piece, a place or a number: own material or points.
    fn owned(&self, i: usize) -> bool {
        let c = self.c;
        self.ahead(i, 2, c.piece | c.points | c.num).is_some()
            || self.ends_clause(i)
            || self.ahead(i, 1, c.laugh | c.please).is_some()
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

    /// A live token that starts a clause (or follows a seat name / "please" / "just" /
    /// "go ahead" at the start): the imperative position.
    fn imperative(&self, set: u64) -> Option<usize> {
        let lead = self.c.seat | self.c.please | self.c.just | self.c.go | self.c.lead;
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

/// Classifies a line under the FFA chat rules. `text` is the line as written, `cues` the
/// per-token cue bits.
#[allow(clippy::too_many_arguments)]
pub(crate) fn classify(
    scratch: &mut FfaScratch,
    c: &Cues,
    line: &NormalizedLine,
    text: &str,
    cues: &[u64],
    line_cues: u64,
    mentions: &[Mention],
    verdict: Option<&PositionVerdict>,
) -> FfaOutcome {
    if line_cues & c.trigger == 0 && !has_move_mention(mentions) {
        return neutral();
    }
    if let Some(span) = bare_check(line, cues, c) {
        return announcement(span, verdict);
    }
    let set_aside = sort_clauses(scratch, c, line, text, cues, mentions);
    let view = View {
        line,
        cues,
        c,
        live: scratch.live.as_slice(),
        clause_of: scratch.clause_of.as_slice(),
    };
    match find_violation(&view, mentions, set_aside.pact) {
        Some(found) => violation(found, view.span(found.3), verdict),
        None => allowed_talk(line, &set_aside, verdict),
    }
}

fn has_move_mention(mentions: &[Mention]) -> bool {
    mentions.iter().any(|m| {
        matches!(
            m.kind,
            MentionKind::Move { .. } | MentionKind::Castle { .. } | MentionKind::MateIn { .. }
        )
    })
}

fn neutral() -> FfaOutcome {
    FfaOutcome {
        class: FfaClass::Neutral,
        rule: "ffa:neutral",
        explanation: "nothing about other players' decisions",
        severity: Severity::Low,
        report_worthy: false,
        norm_span: (0, 0),
        evidence: None,
    }
}

/// What the clause pass set aside: the first clause about a past move, the first turn
/// reminder, and a pact question among the live tokens.
struct SetAside {
    past_move_clause: Option<Clause>,
    turn_clause: Option<Clause>,
    /// Positions in the live tokens of the pact word.
    pact: Option<(usize, usize)>,
}

/// Splits the line into clauses and keeps the tokens of the clauses that are neither about
/// the past nor turn reminders as the live tokens (`scratch.live`, `scratch.clause_of`).
fn sort_clauses(
    scratch: &mut FfaScratch,
    c: &Cues,
    line: &NormalizedLine,
    text: &str,
    cues: &[u64],
    mentions: &[Mention],
) -> SetAside {
    let FfaScratch {
        clauses,
        live,
        clause_of,
    } = scratch;
    split_clauses(line, clauses);
    live.clear();
    clause_of.clear();
    let move_content = c.piece | c.check | c.seat | c.state | c.take | c.attack | c.move_;
    let mut set_aside = SetAside {
        past_move_clause: None,
        turn_clause: None,
        pact: None,
    };
    for (index, clause) in clauses.iter().enumerate() {
        let bits =
            (clause.start..clause.end).fold(0u64, |acc, t| acc | cues.get(t).copied().unwrap_or(0));
        let mention_here = mentions.iter().any(|m| {
            let (s, e) = (m.span.start, m.span.end);
            let (cs, ce) = clause_original_span(line, clause);
            s >= cs && e <= ce && matches!(m.kind, MentionKind::Move { .. })
        });
        let past = bits & c.past != 0 || counterfactual(line, cues, c, clause);
        if past {
            if bits & (move_content | c.blunder) != 0 || mention_here {
                set_aside.past_move_clause.get_or_insert(*clause);
            }
            continue;
        }
        if is_turn_reminder(cues, c, clause, bits, mention_here) {
            set_aside.turn_clause.get_or_insert(*clause);
            continue;
        }
        if set_aside.pact.is_none() {
            if let Some(k) = pact_question(text, line, cues, c, clause) {
                set_aside.pact = Some((live.len() + k, live.len() + k + 1));
            }
        }
        live.extend(clause.start..clause.end);
        let index = u16::try_from(index).unwrap_or(u16::MAX);
        clause_of.extend(std::iter::repeat_n(index, clause.end - clause.start));
    }
    set_aside
}

/// Clauses: split at punctuation and at "but".
fn split_clauses(line: &NormalizedLine, clauses: &mut Vec<Clause>) {
    clauses.clear();
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
}

/// "your turn", "you move" (no piece, check, threat or points named), or a bare command to
/// move that names no move.
fn is_turn_reminder(
    cues: &[u64],
    c: &Cues,
    clause: &Clause,
    bits: u64,
    mention_here: bool,
) -> bool {
    ((bits & c.turn != 0 || (bits & c.you != 0 && bits & c.move_ != 0 && bits & c.take == 0))
        && bits & (c.piece | c.check | c.state | c.attack | c.points) == 0)
        || (!mention_here && bare_move_command(cues, c, clause, bits))
}

/// The outcome of a rule violation, raised or lowered by the position verdict.
fn violation(
    (class, rule, explanation, _): Found,
    norm_span: (usize, usize),
    verdict: Option<&PositionVerdict>,
) -> FfaOutcome {
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
        norm_span,
        evidence: None,
    };
    if let Some(verdict) = verdict {
        apply_verdict(&mut outcome, verdict);
    }
    outcome
}

/// No violation: a turn reminder, talk about a past move, or nothing at all.
fn allowed_talk(
    line: &NormalizedLine,
    set_aside: &SetAside,
    verdict: Option<&PositionVerdict>,
) -> FfaOutcome {
    if let Some(clause) = set_aside.turn_clause {
        return FfaOutcome {
            class: FfaClass::TurnReminder,
            rule: "ffa:turn_reminder",
            explanation: "a turn reminder is allowed",
            norm_span: clause_span(line, &clause),
            ..neutral()
        };
    }
    if let Some(clause) = set_aside.past_move_clause {
        return past_move_talk(line, &clause, verdict);
    }
    neutral()
}

/// Talk about a past move, unless the position shows it still matters: "the queen was
/// hanging" while it still hangs is pointing it out.
fn past_move_talk(
    line: &NormalizedLine,
    clause: &Clause,
    verdict: Option<&PositionVerdict>,
) -> FfaOutcome {
    let mut outcome = FfaOutcome {
        class: FfaClass::PastMoveDiscussion,
        rule: "ffa:past_move",
        explanation: "talk about a move that can no longer be changed is allowed",
        norm_span: clause_span(line, clause),
        ..neutral()
    };
    if let Some(verdict) = verdict {
        if verdict.piece_hanging == Some(true) || verdict.move_legal_for_other == Some(true) {
            outcome.class = FfaClass::MoveSuggestion;
            outcome.rule = "ffa:past_tense_but_still_relevant";
            outcome.explanation = "phrased as the past, but the position shows it still matters";
            outcome.severity = Severity::Medium;
            outcome.report_worthy = true;
            outcome.evidence = Some(verdict.evidence("the mentioned piece or move is still live"));
        }
    }
    outcome
}

/// A line that is only a check: "check", "check!", "CHECK", "double check", "checkmate",
/// "mate!", "kill the king" (optionally followed by laughter). Returns its byte span in
/// the matching form.
fn bare_check(line: &NormalizedLine, cues: &[u64], c: &Cues) -> Option<(usize, usize)> {
    let bits = |t: usize| cues.get(t).copied().unwrap_or(0);
    let word = |t: usize| line.token_text(&line.tokens[t]);
    let mut end = line.tokens.len();
    while end > 0 && bits(end - 1) & c.laugh != 0 {
        end -= 1;
    }
    let start = usize::from(end > 1 && bits(0) & c.double != 0);
    if start >= end {
        return None;
    }
    let words = end - start;
    let announce = words <= 3 && (start..end).all(|t| bits(t) & c.announce != 0);
    // "kill" folds to "kil" (repeated letters are collapsed).
    let kill_the_king = words == 3
        && bits(start) & c.attack != 0
        && word(start).starts_with("kil")
        && word(start + 1) == "the"
        && word(start + 2) == "king";
    if !(announce || kill_the_king) {
        return None;
    }
    let (first, last) = (&line.tokens[start], &line.tokens[end - 1]);
    Some((first.start as usize, last.end as usize))
}

/// A bare check is the checking player's announcement unless the position shows that the
/// sender's last move gave no check; then it tells another player to check.
fn announcement(span: (usize, usize), verdict: Option<&PositionVerdict>) -> FfaOutcome {
    let gave = verdict.and_then(|v| v.sender_gave_check);
    if let (Some(false), Some(verdict)) = (gave, verdict) {
        let mut outcome = FfaOutcome {
            class: FfaClass::MoveSuggestion,
            rule: "ffa:suggest_check_bare",
            explanation: "a bare \"check\" from a player whose last move gave none: tells \
                          another player to check",
            severity: Severity::High,
            report_worthy: true,
            norm_span: span,
            evidence: Some(verdict.evidence("the sender's last move gave no check")),
        };
        apply_verdict(&mut outcome, verdict);
        return outcome;
    }
    FfaOutcome {
        class: FfaClass::CheckAnnouncement,
        rule: "ffa:check_announcement",
        explanation: if gave == Some(true) {
            "the sender's last move gave check: this announces it (allowed)"
        } else {
            "a bare \"check\" reads as the checking player's announcement (allowed)"
        },
        severity: Severity::Low,
        report_worthy: false,
        norm_span: span,
        evidence: verdict
            .filter(|_| gave == Some(true))
            .map(|v| v.evidence("the sender's last move gave check")),
    }
}

/// "yellow move pls", "move!", "come on red, play": a bare command to move is a turn
/// reminder (no piece, square, target or capture named).
fn bare_move_command(cues: &[u64], c: &Cues, clause: &Clause, bits: u64) -> bool {
    if bits & (c.piece | c.check | c.state | c.attack | c.points | c.take | c.me) != 0 {
        return false;
    }
    let lead = c.seat | c.please | c.lead | c.just;
    for t in clause.start..clause.end.min(clause.start + 3) {
        let b = cues.get(t).copied().unwrap_or(0);
        if b & c.move_ != 0 {
            return true;
        }
        if b & lead == 0 {
            return false;
        }
    }
    false
}

/// A short clause ending in "?" that opens with a pact word ("truce?", "team?", "peace
/// green?", "wanna team vs red?", "non aggression pact?"): offers a pact. Not a question
/// about teaming ("is this teams?", "can i play teams next?"). Returns the pact word's
/// position in the clause.
fn pact_question(
    text: &str,
    line: &NormalizedLine,
    cues: &[u64],
    c: &Cues,
    clause: &Clause,
) -> Option<usize> {
    if clause.end - clause.start > 6 {
        return None;
    }
    let last = &line.tokens[clause.end - 1];
    let (_, after_last) = line.original_span(last.start as usize, last.end as usize);
    let next = line.tokens.get(clause.end).map_or(text.len(), |t| {
        line.original_span(t.start as usize, t.end as usize).0
    });
    if next <= after_last || !text.get(after_last..next)?.contains('?') {
        return None;
    }
    let stop = c.subj | c.can | c.ask | c.modal | c.neg | c.past;
    for (k, t) in (clause.start..clause.end).enumerate().take(3) {
        let bits = cues.get(t).copied().unwrap_or(0);
        if bits & c.pact != 0 {
            return Some(k);
        }
        if bits & stop != 0 {
            return None;
        }
    }
    None
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

/// "should have", "could've", "should of": a counterfactual about the past. Not a
/// question ("could i have your rook?").
fn counterfactual(line: &NormalizedLine, cues: &[u64], c: &Cues, clause: &Clause) -> bool {
    let word = |t: usize| line.token_text(&line.tokens[t]);
    (clause.start..clause.end).any(|t| {
        let w = word(t);
        if matches!(w, "shouldve" | "couldve" | "wouldve" | "shoulda" | "coulda") {
            return true;
        }
        let bits = |t: usize| cues.get(t).copied().unwrap_or(0);
        bits(t) & c.modal != 0
            && (t + 1..clause.end.min(t + 3))
                .take_while(|&n| bits(n) & c.subj == 0)
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

fn offering(rule: &'static str, explanation: &'static str, span: (usize, usize)) -> Found {
    (FfaClass::Offering, rule, explanation, span)
}

fn begging(rule: &'static str, explanation: &'static str, span: (usize, usize)) -> Found {
    (FfaClass::Begging, rule, explanation, span)
}

fn collusion(rule: &'static str, explanation: &'static str, span: (usize, usize)) -> Found {
    (FfaClass::Collusion, rule, explanation, span)
}

fn suggestion(rule: &'static str, explanation: &'static str, span: (usize, usize)) -> Found {
    (FfaClass::MoveSuggestion, rule, explanation, span)
}

fn find_violation(
    v: &View<'_>,
    mentions: &[Mention],
    pact: Option<(usize, usize)>,
) -> Option<Found> {
    if v.live.is_empty() {
        return None;
    }
    find_offering(v)
        .or_else(|| find_pact(v, pact))
        .or_else(|| find_begging(v))
        .or_else(|| find_collusion(v))
        .or_else(|| find_intention(v))
        .or_else(|| find_suggestion(v, mentions))
        .or_else(|| find_resign_or_claim(v))
}

fn find_offering(v: &View<'_>) -> Option<Found> {
    offer_you_can_have(v)
        .or_else(|| offer_want_mine(v))
        .or_else(|| offer_hang(v))
        .or_else(|| offer_i_will_give(v))
        .or_else(|| offer_take(v))
        .or_else(|| offer_handing_over(v))
        .or_else(|| offer_deal(v))
}

/// "you can have my rook", "you can take my queen", "you can have 2nd", "u can have it".
fn offer_you_can_have(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let s = v.near(&[c.you, c.can, c.have | c.take], 2)?;
    let verb = s.1 - 1;
    if let Some(m) = v.ahead(verb, 2, c.me) {
        if v.owned(m) {
            return Some(offering(
                "ffa:offer_you_can_have_mine",
                "offers own material or points to another player",
                (s.0, m + 1),
            ));
        }
    }
    if v.at(verb) & c.have != 0 && v.gift_ahead(verb, 2) {
        return Some(offering(
            "ffa:offer_you_can_have",
            "tells another player they may have material or a place",
            s,
        ));
    }
    None
}

/// "want my queen?", "do you want my rook, blue?", "you want mine?": own material offered
/// as a question; not "i want my queen back".
fn offer_want_mine(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let opener = c.you | c.ask | c.seat | c.lead | c.please;
    (0..v.live.len()).find_map(|i| {
        if v.at(i) & c.need == 0 {
            return None;
        }
        let first = v.clause_first(i);
        if i - first > 3 || (first..i).any(|j| v.at(j) & opener == 0) {
            return None;
        }
        let mine = v.ahead(i, 1, c.me).filter(|&m| v.owned(m))?;
        Some(offering(
            "ffa:offer_want_mine",
            "asks another player whether they want own material",
            (first, mine + 1),
        ))
    })
}

/// "i'll hang my queen for you", "gonna hang my knight for red", "hanging my bishop for
/// you": own material left to be taken on purpose. Not "i always hang my pieces" (no
/// promise, no one it is for) nor "i won't hang my queen".
fn offer_hang(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    (0..v.live.len()).find_map(|h| {
        if v.at(h) & c.hang == 0 || v.negated_before(h) {
            return None;
        }
        let mine = v.ahead(h, 1, c.me).filter(|&m| v.owned(m))?;
        let promised = v.behind(h, 3, c.future | c.go).is_some()
            || (h > 0 && matches!(v.word(v.live[h - 1]), "il" | "ima" | "imma"));
        let for_someone = v
            .ahead(mine, 4, c.for_ | c.so)
            .is_some_and(|f| v.ahead(f, 2, c.you | c.seat).is_some());
        (promised || for_someone).then(|| {
            offering(
                "ffa:offer_hang_mine",
                "promises to leave own material for another player to take",
                (h, mine + 2),
            )
        })
    })
}

/// "I'll give you 2nd place", "I will let you mate me"; not "I'll give you a tip".
fn offer_i_will_give(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let s = v.near(&[c.subj, c.give | c.let_, c.you], 3)?;
    let you = s.1 - 1;
    if !v.has(c.neg)
        && (v.gift_ahead(you, 3) || v.ahead(you, 3, c.have | c.take | c.check).is_some())
    {
        return Some(offering(
            "ffa:offer_i_will_give",
            "offers to give or allow another player something",
            s,
        ));
    }
    None
}

/// "take my rook"; "take it, I don't mind", but not "take it easy", nor "red's queen is
/// free, take it".
fn offer_take(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let i = v.imperative(c.take)?;
    if !v.negated_before(i) && v.ahead(i, 1, c.me).is_some() {
        return Some(offering(
            "ffa:offer_take_mine",
            "invites another player to take own material",
            (i, i + 2),
        ));
    }
    if !v.negated_before(i)
        && v.ahead(i, 1, c.it).is_some()
        && v.ends_clause(i + 1)
        && !v.has(c.state | c.piece)
    {
        return Some(offering(
            "ffa:offer_take_it",
            "invites another player to take it",
            (i, i + 2),
        ));
    }
    None
}

/// Own material or a place handed to another player: "have my queen green", "the knight
/// is yours", "free queen for you".
fn offer_handing_over(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    if let Some(i) = v.imperative(c.have) {
        if v.ahead(i, 1, c.me).is_some() && v.ahead(i + 1, 1, c.piece | c.points).is_some() {
            return Some(offering(
                "ffa:offer_have_mine",
                "hands own material to another player",
                (i, i + 3),
            ));
        }
    }
    // "the knight is yours", "it's yours"; not "the game is yours".
    if let Some(y) = v.find(0, c.yours) {
        if let Some(t) = v.behind(y, 4, c.piece | c.points | c.it) {
            return Some(offering(
                "ffa:offer_yours",
                "tells another player own material or a place is theirs",
                (t, y + 1),
            ));
        }
    }
    // "free queen for you", "2nd place for you".
    let s = v.near(&[c.piece | c.points, c.for_, c.you], 1)?;
    Some(offering(
        "ffa:offer_for_you",
        "offers material or a place to another player",
        s,
    ))
}

/// A request followed by a promise to resign: a deal.
fn offer_deal(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let request = v.near(&[c.give | c.let_, c.me], 2)?;
    let promise = v.near(&[c.subj, c.resign], 3)?;
    (promise.0 > request.0).then(|| {
        offering(
            "ffa:offer_deal",
            "proposes a deal: something in return for resigning or points",
            (request.0, promise.1),
        )
    })
}

fn find_pact(v: &View<'_>, pact: Option<(usize, usize)>) -> Option<Found> {
    let c = v.c;
    if let Some(s) = pact {
        return Some(collusion(
            "ffa:collusion_pact_question",
            "offers a pact (\"truce?\", \"team?\")",
            s,
        ));
    }
    // A non-aggression pact: "don't attack me and I won't attack you".
    if let (Some(request), Some(promise)) = (
        v.near(&[c.neg, c.attack | c.take | c.check, c.me], 2),
        v.near(&[c.subj, c.neg | c.future, c.attack | c.take | c.check], 3),
    ) {
        if promise.0 > request.0 {
            return Some(collusion(
                "ffa:collusion_pact",
                "proposes not to attack each other",
                (request.0, promise.1),
            ));
        }
    }
    // "no attacks between us", "no attacking each other".
    if let Some(s) = v.near(&[c.neg, c.attack], 1) {
        if let Some(w) = v.ahead(s.1 - 1, 3, c.we) {
            return Some(collusion(
                "ffa:collusion_pact",
                "proposes not to attack each other",
                (s.0, w + 1),
            ));
        }
    }
    None
}

fn find_begging(v: &View<'_>) -> Option<Found> {
    beg_need(v)
        .or_else(|| beg_give_or_let_me(v))
        .or_else(|| beg_few_points(v))
        .or_else(|| beg_spare_me(v))
        .or_else(|| beg_resign_for_me(v))
        .or_else(|| beg_can_i_have(v))
}

/// "i need 5 points", "i need your queen".
fn beg_need(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    if let Some(s) = v.near(&[c.need, c.points | c.num], 3) {
        let last = s.1 - 1;
        if v.at(last) & c.points != 0 || v.num_is_points(last) {
            return Some(begging(
                "ffa:beg_need_points",
                "asks for points or a place",
                s,
            ));
        }
    }
    let s = v.near(&[c.need, c.you, c.piece], 2)?;
    Some(begging(
        "ffa:beg_need_yours",
        "asks for another player's material",
        s,
    ))
}

/// "give me points", "gimme your rook", "let me take it".
fn beg_give_or_let_me(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    if let Some(s) = v.near(&[c.give, c.points | c.num | c.piece], 4) {
        let word = v.word(v.live[s.0]);
        let to_me = word.starts_with("gim") || v.find(s.0, c.me).is_some_and(|m| m < s.1);
        if to_me {
            return Some(begging(
                "ffa:beg_give_me",
                "asks another player to give points, material or a place",
                s,
            ));
        }
    }
    let s = v.near(&[c.let_, c.me, c.take | c.have | c.check | c.attack], 2)?;
    Some(begging(
        "ffa:beg_let_me",
        "asks to be allowed to take material",
        s,
    ))
}

/// "just 5 points", "only 3 more points" (not "I only have 2 points"); "points pls".
fn beg_few_points(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    for i in 0..v.live.len().saturating_sub(1) {
        if v.at(i) & c.just != 0 && v.at(i + 1) & c.num != 0 && v.same_clause(i, i + 1) {
            if let Some(p) = v.ahead(i + 1, 2, c.points) {
                return Some(begging(
                    "ffa:beg_just_points",
                    "asks for a few points",
                    (i, p + 1),
                ));
            }
        }
    }
    let s = v.near(&[c.points, c.please], 3)?;
    Some(begging("ffa:beg_points_please", "pleads for points", s))
}

/// "don't take my queen", "leave my rook alone", "spare my knight".
fn beg_spare_me(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let spare_me = |s| {
        begging(
            "ffa:beg_spare_me",
            "pleads with another player to spare own material",
            s,
        )
    };
    if let Some(s) = v.near(&[c.neg, c.take | c.attack | c.check, c.me], 2) {
        return Some(spare_me(s));
    }
    let s = v.near(&[c.leave, c.me, c.piece], 1)?;
    v.behind(s.0, 2, c.subj).is_none().then(|| spare_me(s))
}

fn beg_resign_for_me(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let s = v.near(&[c.resign, c.so | c.points, c.subj | c.me | c.points], 3)?;
    Some(begging(
        "ffa:beg_resign_for_me",
        "asks another player to resign for own benefit",
        s,
    ))
}

/// "can i have your rook?", "could i take the free pawn", "can i have 2nd?".
fn beg_can_i_have(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let s = v.near(&[c.can, c.subj, c.have | c.take], 1)?;
    let verb = s.1 - 1;
    let end = match v.ahead(verb, 3, c.you | c.piece | c.points | c.it) {
        Some(t) => t,
        None => v.ahead(verb, 2, c.num).filter(|&n| v.num_is_points(n))?,
    };
    Some(begging(
        "ffa:beg_can_i_have",
        "asks for another player's material or a place",
        (s.0, end + 1),
    ))
}

fn find_collusion(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    if let Some(s) = v.near(&[c.letus, c.attack | c.take | c.check | c.team | c.go], 2) {
        return Some(collusion(
            "ffa:collusion_lets",
            "proposes acting together against a player",
            s,
        ));
    }
    if let Some(i) = v.find(0, c.team) {
        // "together" alone is not a proposal ("together we are all bad at this").
        let partner = if v.word(v.live[i]).starts_with("toget") {
            c.seat | c.attack | c.versus
        } else {
            c.seat | c.attack | c.versus | c.you | c.we
        };
        if !v.negated_before(i) && v.has(partner) {
            return Some(collusion(
                "ffa:collusion_team_up",
                "proposes teaming up",
                (i, i + 1),
            ));
        }
    }
    if let Some(s) = v.seq(&[c.and, c.versus, c.seat]) {
        return Some(collusion(
            "ffa:collusion_us_versus",
            "proposes two players against another",
            s,
        ));
    }
    // "support my rook", "help me vs blue"; not "help me understand the scoring".
    if let Some(s) = v.near(&[c.support | c.defend, c.me], 1) {
        let me = s.1 - 1;
        if v.ahead(me, 1, c.piece).is_some() || v.ahead(me, 2, c.versus | c.attack).is_some() {
            return Some(collusion(
                "ffa:collusion_support_me",
                "asks another player to support own pieces",
                s,
            ));
        }
    }
    if let Some(s) = v.near(&[c.we, c.attack | c.take | c.go, c.seat], 3) {
        return Some(collusion(
            "ffa:collusion_we_attack",
            "proposes a joint attack",
            s,
        ));
    }
    if let Some(i) = v.imperative(c.attack) {
        // "attack red" directs an attack at a seat; "kill blue's king" names a piece: a
        // move suggestion.
        if let Some(seat) = v.find(i, c.seat) {
            if !v.negated_before(i) && v.ahead(seat, 2, c.piece).is_none() {
                return Some(collusion(
                    "ffa:collusion_attack_seat",
                    "directs another player's attack at a seat",
                    (i, i + 2),
                ));
            }
        }
    }
    None
}

/// "I won't take your queen", "im going after blue", "i'll leave you alone", "gonna take
/// your queen": the sender announcing what it will (not) do to another player.
fn find_intention(v: &View<'_>) -> Option<Found> {
    intention_first_person(v)
        .or_else(|| intention_safe_from_me(v))
        .or_else(|| intention_all_in(v))
}

/// "your queen is safe", "you're safe from me green": tells another player the sender will
/// leave them alone. Not a question ("is your rook safe?") nor "you played it safe".
fn intention_safe_from_me(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    (1..v.live.len()).find_map(|s| {
        if v.at(s) & c.safe == 0 || v.at(s - 1) & (c.is | c.you) == 0 {
            return None;
        }
        if v.at(v.clause_first(s)) & c.ask != 0 || v.negated_before(s) {
            return None;
        }
        let you = v
            .behind(s, 4, c.you)
            .or((v.at(s - 1) & c.you != 0).then(|| s - 1))?;
        Some((
            FfaClass::Intention,
            "ffa:intention_safe_from_me",
            "tells another player their material is safe from the sender",
            (you, s + 1),
        ))
    })
}

/// "all in on red", "everything i have on yellow": announces throwing everything at one
/// player.
fn intention_all_in(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    (0..v.live.len()).find_map(|a| {
        if v.at(a) & c.all == 0 {
            return None;
        }
        let from = v.ahead(a, 1, c.in_).unwrap_or(a);
        let on = v.ahead(from, 3, c.on)?;
        let target = v.ahead(on, 2, c.seat | c.you)?;
        Some((
            FfaClass::Intention,
            "ffa:intention_all_in",
            "announces going all in against one player",
            (a, target + 1),
        ))
    })
}

/// "im going after blue", "i won't take your queen", "gonna take your queen": the sender's
/// own plans in the first person.
fn intention_first_person(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let verbs = c.attack | c.take | c.check | c.leave | c.after;
    let marker = c.future | c.neg | c.go | c.just;
    for s in 0..v.live.len() {
        let bits = v.at(s);
        let clause_start = s == 0 || !v.same_clause(s - 1, s);
        // A first-person subject, or "gonna"/"going" opening a clause without one.
        let subject = bits & c.subj != 0;
        let bare_future = clause_start && bits & (c.go | c.future) != 0 && bits & c.subj == 0;
        if !subject && !bare_future {
            continue;
        }
        let subject_word = v.word(v.live[s]);
        for k in s + 1..(s + 5).min(v.live.len()) {
            if !v.same_clause(s, k) {
                break;
            }
            let kb = v.at(k);
            // "coming for you", "go for green's king".
            let go_for = kb & c.for_ != 0 && v.at(k - 1) & c.go != 0;
            if kb & verbs == 0 && !go_for {
                continue;
            }
            let verb_word = v.word(v.live[k]);
            let marked = bare_future
                || matches!(subject_word, "il" | "ima" | "imma")
                || (subject_word == "im" && verb_word.ends_with("ing"))
                || (s + 1..k).any(|j| v.at(j) & marker != 0)
                || (v.clause_first(s)..s).any(|j| v.at(j) & c.future != 0);
            if !marked {
                continue;
            }
            let object = if kb & (c.after | c.for_) != 0 {
                c.seat | c.you | c.piece | c.me
            } else {
                c.seat | c.you | c.piece | c.me | c.after
            };
            if let Some(o) = v.ahead(k, 3, object) {
                if v.at(o) & c.after != 0 && v.ahead(o, 2, c.seat | c.you | c.piece).is_none() {
                    continue;
                }
                return Some((
                    FfaClass::Intention,
                    "ffa:intention_first_person",
                    "announces own plans towards other players",
                    (s, o + 1),
                ));
            }
        }
    }
    None
}

fn find_suggestion(v: &View<'_>, mentions: &[Mention]) -> Option<Found> {
    suggest_check(v, mentions)
        .or_else(|| suggest_hanging_piece(v))
        .or_else(|| suggest_what_you_can(v))
        .or_else(|| suggest_take(v))
        .or_else(|| suggest_piece_to_move(v))
        .or_else(|| suggest_defend(v))
        .or_else(|| suggest_move_notation(v, mentions))
}

/// "check" next to a forced mate ("mate in 2"), or "check" in the imperative position.
fn suggest_check(v: &View<'_>, mentions: &[Mention]) -> Option<Found> {
    let c = v.c;
    if mentions
        .iter()
        .any(|m| matches!(m.kind, MentionKind::MateIn { .. }))
    {
        if let Some(i) = v.find(0, c.check) {
            return Some(suggestion(
                "ffa:suggest_mate_in",
                "points out a forced mate",
                (i, i + 1),
            ));
        }
    }
    let i = v.imperative(c.check)?;
    Some(suggestion(
        "ffa:suggest_check",
        "tells a player to give check or mate",
        (i, i + 2),
    ))
}

fn suggest_hanging_piece(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    // "the knight on f4 is hanging": room for "on <square> is" between piece and state;
    // "free queen on e5".
    let s = v
        .near(&[c.piece, c.state], 5)
        .or_else(|| v.near(&[c.free, c.piece], 1))?;
    Some(suggestion(
        "ffa:suggest_hanging_piece",
        "points out a piece that can be won",
        s,
    ))
}

/// "red can take a free knight", "green, you can checkmate yellow"; "you have mate in one",
/// "you have a free rook".
fn suggest_what_you_can(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    if let Some(s) = v.near(&[c.you | c.seat, c.can, c.take | c.attack | c.check], 1) {
        if let Some(o) = v.ahead(s.1 - 1, 3, c.piece | c.seat | c.state) {
            return Some(suggestion(
                "ffa:suggest_you_can_take",
                "tells a player what they can capture or check",
                (s.0, o + 1),
            ));
        }
    }
    let s = v.near(&[c.you, c.have, c.state | c.check], 2)?;
    Some(suggestion(
        "ffa:suggest_you_have",
        "tells a player what they have on the board",
        s,
    ))
}

/// "take the rook", "attack the queen": a capture command naming a piece or state within
/// four tokens.
fn suggest_take(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let i = v.imperative(c.take | c.attack)?;
    if v.negated_before(i) {
        return None;
    }
    let j = v.find(i + 1, c.piece | c.state).filter(|&j| j <= i + 4)?;
    Some(suggestion(
        "ffa:suggest_take",
        "tells a player what to capture",
        (i, j + 1),
    ))
}

/// "look at red's king", "move your queen".
fn suggest_piece_to_move(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    for (set, rule, explanation) in [
        (
            c.look,
            "ffa:suggest_look",
            "points a player at a piece on the board",
        ),
        (
            c.move_,
            "ffa:suggest_move_piece",
            "tells a player which piece to move",
        ),
    ] {
        if let Some(i) = v.imperative(set) {
            if let Some(j) = v.ahead(i, 4, c.piece) {
                return Some(suggestion(rule, explanation, (i, j + 1)));
            }
        }
    }
    None
}

fn suggest_defend(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let s = v.near(&[c.defend, c.you, c.piece], 2)?;
    Some(suggestion(
        "ffa:suggest_defend",
        "warns a player about their piece",
        s,
    ))
}

/// A move or castling in notation among the live tokens (not in a clause about the past).
fn suggest_move_notation(v: &View<'_>, mentions: &[Mention]) -> Option<Found> {
    let c = v.c;
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
    if !live_mention {
        return None;
    }
    let at = v
        .live
        .iter()
        .position(|&t| v.bits(t) & c.win != 0)
        .unwrap_or(0);
    Some(suggestion(
        "ffa:suggest_move_notation",
        "names a move while it can still be played",
        (at, at + 1),
    ))
}

/// Telling someone to resign or claim: classified; whether it is allowed is the policy's
/// (`[ffa] resign_talk`, see `ffa_policy`).
fn find_resign_or_claim(v: &View<'_>) -> Option<Found> {
    let c = v.c;
    let i = v.find(0, c.resign)?;
    if !v.has(c.subj) || v.has(c.you) {
        return Some((
            FfaClass::ResignOrClaim,
            "ffa:resign_or_claim",
            "tells a player to resign or claim (allowed, not report-worthy)",
            (i, i + 1),
        ));
    }
    None
}
