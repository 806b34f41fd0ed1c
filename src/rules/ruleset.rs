//! Rule sets as named presets: a small struct of switches, each documented with the section
//! of `docs/rules.md` that states its rule (the site's Teams and FFA rules, the multiplayer
//! proposal, Quatro Chess, 4 Man Chess; their public sources are under "Sources" there). PGN4
//! `RuleVariants` tags are applied on top of a preset.

use std::fmt;

use super::geometry::{Geometry, Seat};
use super::piece::PieceKind;

/// Who may capture en passant, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnPassant {
    /// No en-passant captures (docs/rules.md, "4 Man Chess").
    Off,
    /// Only the player moving right after the pusher.
    NextPlayer,
    /// Any opponent until the pushing player moves again (the site's `EnPassant`; real games
    /// `ffa/cc_game_0037` and `ffa/cc_game_0252` show captures by a player not next in turn).
    UntilPusherMoves,
}

/// When a player with no legal move while in check is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MateTiming {
    /// Only once the player's own turn is reached, so a partner may rescue (docs/rules.md,
    /// "Site Teams rules", "Multiplayer chess proposal", "4 Man Chess").
    OnOwnTurn,
    /// As soon as any move leaves the player mated (the site's FFA: the real games mark the
    /// mating move `#` and the mated player's next turn simply vanishes).
    Immediately,
}

/// What a stalemate does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// The game is drawn (docs/rules.md, "Site Teams rules"; "4 Man Chess", Team Play).
    Draw,
    /// The stalemated player is out but keeps a share of the result (docs/rules.md: +20 in
    /// "Site FFA rules", a share in "Multiplayer chess proposal", half in "Quatro Chess").
    EliminatesAndScores,
    /// The stalemated player is out; with only two players left the game is drawn
    /// (docs/rules.md, "4 Man Chess", Last Player Standing).
    EliminatesDrawWhenTwo,
}

/// How the final standing is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// First team to mate an opponent wins (docs/rules.md, "Site Teams rules", "4 Man Chess").
    Teams,
    /// FFA points; placement by points (docs/rules.md, "Site FFA rules", "4 Man Chess").
    Points,
    /// Last player standing wins (docs/rules.md, "4 Man Chess").
    LastStanding,
    /// 0/2/4/8 by elimination order, half on stalemate and draws (docs/rules.md, "Quatro Chess").
    Placement0248,
    /// Mated, king-captured or resigned players get 0; the others share 1 (docs/rules.md,
    /// "Multiplayer chess proposal").
    OneOverN,
}

/// How rating placement follows from the final standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// 1st..4th by score.
    Ranked,
    /// Only the winner wins, 2nd-4th lose equally (docs/rules.md, "Solo").
    WinnerTakesAll,
}

/// Who plays with whom, per seat (R, B, Y, G): the seats whose pieces it never captures or
/// checks, itself included, as a bit mask.
pub type Friends = [u8; 4];

/// Every colour plays for itself.
pub const NO_PARTNERS: Friends = [0b0001, 0b0010, 0b0100, 0b1000];
/// Red+Yellow against Blue+Green, partners seated opposite (docs/rules.md, "Site Teams rules",
/// "4 Man Chess" Team Play, "Quatro Chess" two teams).
pub const OPPOSITE_PARTNERS: Friends = [0b0101, 0b1010, 0b0101, 0b1010];
/// One player with Red+Blue, the other with Yellow+Green: two adjacent colours each
/// (docs/rules.md, "Quatro Chess", two players).
pub const ADJACENT_PAIRS: Friends = [0b0011, 0b0011, 0b1100, 0b1100];
/// One player with Red+Blue, Yellow and Green each alone (docs/rules.md, "Quatro Chess": with
/// three players, the strongest plays two colours).
pub const ONE_ADJACENT_PAIR: Friends = [0b0011, 0b0011, 0b0100, 0b1000];

/// The switches the move generator needs; small and `Copy` so positions carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveRules {
    /// Per seat, the seats it plays with (never captured, never checked).
    pub friends: Friends,
    pub en_passant: EnPassant,
    /// Relative rank (1-based from the pawn's own edge) on which pawns promote.
    pub promotion_rank: u8,
    /// Bit `1 << kind` for each kind a pawn may promote to.
    pub promotion_pieces: u8,
    /// A pawn also promotes on an opponent's back rank (docs/rules.md, "4 Man Chess", Team
    /// Play).
    pub promotes_on_opponents_back_rank: bool,
    /// Relative rank (1-based) from which pawns may double-step.
    pub pawn_base_rank: u8,
    /// Pieces of eliminated players may be captured (docs/rules.md, "Site FFA rules": for no
    /// points; "Quatro Chess": no, they are statues).
    pub dead_capturable: bool,
}

impl MoveRules {
    pub fn may_promote_to(&self, kind: PieceKind) -> bool {
        self.promotion_pieces & (1 << kind as u8) != 0
    }

    /// Some colours play together (teams, or one player with two colours).
    pub fn has_partners(&self) -> bool {
        self.friends != NO_PARTNERS
    }
}

/// When a multiple check earns the reduced ("with a queen") bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReducedCheckBonus {
    /// When a queen of either kind gives one of the checks: the rule as the site's rules page,
    /// its help centre and 4 Man Chess write it, and what the site scored in 2022 (see
    /// `docs/scoring.md`, "Multiple checks").
    WhenAQueenChecks,
    /// Always: the site's games of 2026 score double checks by bishops, rooks and knights +1,
    /// whether or not the checker has a queen (see `docs/scoring.md`).
    Always,
}

/// Points for checking two or three active kings with one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MultiCheckPoints {
    pub double: i32,
    pub double_reduced: i32,
    pub triple: i32,
    pub triple_reduced: i32,
    pub reduced_when: ReducedCheckBonus,
}

impl MultiCheckPoints {
    /// No bonus (games not scored by points).
    pub const NONE: MultiCheckPoints = MultiCheckPoints {
        double: 0,
        double_reduced: 0,
        triple: 0,
        triple_reduced: 0,
        reduced_when: ReducedCheckBonus::WhenAQueenChecks,
    };

    /// The site's values: +5 / +20, reduced +1 / +5.
    pub const SITE: MultiCheckPoints = MultiCheckPoints {
        double: 5,
        double_reduced: 1,
        triple: 20,
        triple_reduced: 5,
        reduced_when: ReducedCheckBonus::Always,
    };

    /// Whether checking with (or without) a queen earns the reduced bonus.
    pub fn is_reduced(&self, a_queen_checks: bool) -> bool {
        match self.reduced_when {
            ReducedCheckBonus::Always => true,
            ReducedCheckBonus::WhenAQueenChecks => a_queen_checks,
        }
    }

    /// The bonus for checking `kings` active kings at once (0 unless two or three).
    pub fn for_checks(&self, kings: usize, a_queen_checks: bool) -> i32 {
        let reduced = self.is_reduced(a_queen_checks);
        match (kings, reduced) {
            (2, false) => self.double,
            (2, true) => self.double_reduced,
            (3, false) => self.triple,
            (3, true) => self.triple_reduced,
            _ => 0,
        }
    }
}

/// A full rule set: movement switches plus turn, elimination, draw and scoring rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSet {
    /// Preset name (`teams`, `ffa`, ...).
    pub name: String,
    pub moves: MoveRules,
    pub geometry: Geometry,
    pub mate_timing: MateTiming,
    pub stalemate: StalemateRule,
    pub scoring: Scoring,
    pub placement: Placement,
    /// A resigned or timed-out player's king keeps moving automatically (`DeadKingWalking`,
    /// docs/rules.md, "Site FFA rules").
    pub dead_king_walking: bool,
    /// A mated player's king leaves the board (docs/rules.md, "Multiplayer chess proposal",
    /// "Quatro Chess") instead of staying as an inert piece (the site).
    pub mated_king_removed: bool,
    /// 50-move rule length in plies per remaining player: 2 for the site ("50 moves" of two
    /// plies as in chess), or counted in full cycles of the remaining players (50 x N plies,
    /// docs/rules.md, "Multiplayer chess proposal"). `None` means counted per remaining player.
    pub fifty_move_plies: Option<u32>,
    /// Points a remaining player gets for a draw (+10, docs/rules.md, "Site FFA rules").
    pub draw_bonus: i32,
    /// Points the last remaining player gets per resigned/timed-out king still on the board.
    pub walking_king_bonus: i32,
    /// Points for mating (+20) and for being stalemated on one's own turn (+20).
    pub mate_points: i32,
    pub self_stalemate_points: i32,
    /// Points each other remaining player gets when a player is stalemated (+10 in the 4 Man
    /// Chess Points Game: docs/rules.md, "4 Man Chess").
    pub others_on_stalemate: i32,
    /// Bonus for a double or triple check (FFA: +5 / +20, reduced +1 / +5).
    pub multi_check_points: MultiCheckPoints,
    /// The start when a record names none: `4PC`, `4PCo` or `Quatro`.
    pub default_setup: &'static str,
    /// Seats with no army at all (bit mask): the multi-player rules with three players leave
    /// Green's arm empty.
    pub absent_seats: u8,
    /// Draws by the 50-move rule and repetition only when a player claims them (docs/rules.md,
    /// "Multiplayer chess proposal"); otherwise they are automatic.
    pub draws_claimed: bool,
    /// RuleVariants tags that were not understood (kept and reported).
    pub unknown_variants: Vec<String>,
    /// RuleVariants tags that were understood, as written.
    pub applied_variants: Vec<String>,
}

/// The preset names accepted by `RuleSet::preset`.
pub const PRESET_NAMES: [&str; 14] = [
    "teams",
    "ffa",
    "solo",
    "four-man-team",
    "last-standing",
    "points",
    "quatro",
    "quatro-two-player",
    "quatro-three-player",
    "quatro-teams",
    "multiplayer",
    "multiplayer-three",
    "multiplayer-quatro",
    "multiplayer-quatro-three",
];

/// The rule variants `RuleSet::apply_variants` understands, as they are written (`<...>` stands
/// for a value).
pub const KNOWN_VARIANTS: [&str; 11] = [
    "EnPassant",
    "EnPassant=next",
    "EnPassant=off",
    "NoEnPassant",
    "DeadKingWalking",
    "PromoteTo=<piece letters>",
    "Prom=<rank>",
    "Stalemate=win",
    "Stalemate=draw",
    "Anonymous",
    "SemiAnonymous",
];

/// A rule set could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleSetError {
    UnknownPreset(String),
    /// A rule variant changes move legality in a way this core does not support.
    UnsupportedVariant(String),
    /// Rule variants typed by a user that this core does not know (a game record's unknown
    /// variants are kept instead, see `apply_variants`).
    UnknownVariants(Vec<String>),
}

impl fmt::Display for RuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleSetError::UnknownPreset(name) => write!(
                f,
                "unknown rule set '{name}' (known: {})",
                PRESET_NAMES.join(", ")
            ),
            RuleSetError::UnsupportedVariant(v) => write!(f, "unsupported rule variant '{v}'"),
            RuleSetError::UnknownVariants(words) => write!(
                f,
                "unknown rule variant {} (known: {})",
                words
                    .iter()
                    .map(|w| format!("'{w}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                KNOWN_VARIANTS.join(", ")
            ),
        }
    }
}

impl std::error::Error for RuleSetError {}

const fn kinds(list: &[PieceKind]) -> u8 {
    let mut mask = 0u8;
    let mut i = 0;
    while i < list.len() {
        mask |= 1 << list[i] as u8;
        i += 1;
    }
    mask
}

const CLASSIC_PROMOTIONS: u8 = kinds(&[
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
]);

/// 4 Man Chess promotes to a queen only (docs/rules.md, "4 Man Chess").
const QUEEN_ONLY: u8 = kinds(&[PieceKind::Queen]);

impl RuleSet {
    /// The site's Teams rules (docs/rules.md, "Site Teams rules"): partners R+Y vs B+G,
    /// promotion on the 11th rank, mate on the mated player's own turn, stalemate draws. En
    /// passant only with the `EnPassant` variant (the site plays games both with and without
    /// it).
    pub fn teams() -> RuleSet {
        RuleSet {
            name: "teams".into(),
            moves: MoveRules {
                friends: OPPOSITE_PARTNERS,
                en_passant: EnPassant::Off,
                promotion_rank: 11,
                promotion_pieces: CLASSIC_PROMOTIONS,
                promotes_on_opponents_back_rank: false,
                pawn_base_rank: 2,
                dead_capturable: true,
            },
            geometry: Geometry::FOUR_PLAYER,
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::Draw,
            scoring: Scoring::Teams,
            placement: Placement::Ranked,
            dead_king_walking: false,
            mated_king_removed: false,
            fifty_move_plies: Some(100),
            draw_bonus: 0,
            walking_king_bonus: 0,
            mate_points: 0,
            self_stalemate_points: 0,
            others_on_stalemate: 0,
            multi_check_points: MultiCheckPoints::NONE,
            default_setup: "4PC",
            absent_seats: 0,
            draws_claimed: false,
            unknown_variants: Vec::new(),
            applied_variants: Vec::new(),
        }
    }

    /// The site's Free-for-all (docs/rules.md, "Site FFA rules"): points for captures of
    /// active pieces, mates, self-stalemate and multiple checks; promotion on the 8th rank (to
    /// the 1-point queen with `PromoteTo=D`); dead pieces capturable for nothing.
    pub fn ffa() -> RuleSet {
        RuleSet {
            name: "ffa".into(),
            moves: MoveRules {
                friends: NO_PARTNERS,
                promotion_rank: 8,
                ..RuleSet::teams().moves
            },
            mate_timing: MateTiming::Immediately,
            stalemate: StalemateRule::EliminatesAndScores,
            scoring: Scoring::Points,
            // The site ends FFA games after 50 moves of every remaining player without a
            // capture or pawn move: 50 full cycles.
            fifty_move_plies: None,
            draw_bonus: 10,
            walking_king_bonus: 20,
            mate_points: 20,
            self_stalemate_points: 20,
            multi_check_points: MultiCheckPoints::SITE,
            ..RuleSet::teams()
        }
    }

    /// Solo (docs/rules.md, "Solo"): FFA scoring, rated winner-takes-all.
    pub fn solo() -> RuleSet {
        RuleSet {
            name: "solo".into(),
            placement: Placement::WinnerTakesAll,
            ..RuleSet::ffa()
        }
    }

    /// 4 Man Chess Team Play (docs/rules.md, "4 Man Chess"): queens on dark squares (`4PCo`),
    /// no en passant, a pawn promotes to a queen on its 11th rank or on an opponent's back
    /// rank, mate and stalemate judged on the threatened player's turn.
    pub fn four_man_team() -> RuleSet {
        let base = RuleSet::teams();
        RuleSet {
            name: "four-man-team".into(),
            moves: MoveRules {
                promotion_pieces: QUEEN_ONLY,
                promotes_on_opponents_back_rank: true,
                ..base.moves
            },
            default_setup: "4PCo",
            ..base
        }
    }

    /// 4 Man Chess Last Player Standing (docs/rules.md, "4 Man Chess"): `4PCo`, promotion to a
    /// queen on the 8th rank, eliminated armies stay as inert capturable pieces, stalemate
    /// removes the player, two left and a stalemate is a draw; the last player standing wins.
    pub fn last_standing() -> RuleSet {
        RuleSet {
            name: "last-standing".into(),
            moves: MoveRules {
                friends: NO_PARTNERS,
                promotion_rank: 8,
                promotion_pieces: QUEEN_ONLY,
                ..RuleSet::teams().moves
            },
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::EliminatesDrawWhenTwo,
            scoring: Scoring::LastStanding,
            fifty_move_plies: None,
            default_setup: "4PCo",
            ..RuleSet::teams()
        }
    }

    /// 4 Man Chess Points Game (docs/rules.md, "4 Man Chess"): FFA-like points on `4PCo`
    /// without en passant, promotion to a queen on the 8th rank, mate judged on the threatened
    /// player's turn, only a queen's multiple check reduced; a stalemated player scores 20
    /// ("stalemating yourself") and each other remaining player 10 ("stalemating an opponent").
    pub fn points() -> RuleSet {
        let ffa = RuleSet::ffa();
        RuleSet {
            name: "points".into(),
            moves: MoveRules {
                promotion_pieces: QUEEN_ONLY,
                ..ffa.moves
            },
            mate_timing: MateTiming::OnOwnTurn,
            walking_king_bonus: 0,
            others_on_stalemate: 10,
            // "Checking two kings simultaneously with a queen earns you 1 point": only a queen.
            multi_check_points: MultiCheckPoints {
                reduced_when: ReducedCheckBonus::WhenAQueenChecks,
                ..MultiCheckPoints::SITE
            },
            default_setup: "4PCo",
            ..ffa
        }
    }

    /// Quatro Chess, four players individually (docs/rules.md, "Quatro Chess"): 12x12 board
    /// minus 2x2 corners, promotion on the last square of the opposite arm, mated armies stay
    /// as uncapturable statues, 0/2/4/8 by elimination order, half points on stalemate.
    pub fn quatro() -> RuleSet {
        RuleSet {
            name: "quatro".into(),
            moves: MoveRules {
                friends: NO_PARTNERS,
                promotion_rank: 12,
                dead_capturable: false,
                ..RuleSet::teams().moves
            },
            geometry: Geometry::QUATRO,
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::EliminatesAndScores,
            scoring: Scoring::Placement0248,
            mated_king_removed: true,
            fifty_move_plies: None,
            default_setup: "Quatro",
            ..RuleSet::teams()
        }
    }

    /// Quatro Chess with other seatings (docs/rules.md, "Quatro Chess"): the colours of one
    /// player or team never capture or check each other, each colour still scores 0/2/4/8 by
    /// the order its king falls, a player's or team's score is the sum over its colours, and
    /// the game ends when one side is left.
    fn quatro_seated(name: &str, friends: Friends) -> RuleSet {
        let base = RuleSet::quatro();
        RuleSet {
            name: name.into(),
            moves: MoveRules {
                friends,
                ..base.moves
            },
            ..base
        }
    }

    /// Quatro Chess for two players, two adjacent colours each (docs/rules.md, "Quatro Chess").
    pub fn quatro_two_player() -> RuleSet {
        RuleSet::quatro_seated("quatro-two-player", ADJACENT_PAIRS)
    }

    /// Quatro Chess for three players, the strongest with Red and Blue (docs/rules.md,
    /// "Quatro Chess").
    pub fn quatro_three_player() -> RuleSet {
        RuleSet::quatro_seated("quatro-three-player", ONE_ADJACENT_PAIR)
    }

    /// Quatro Chess for two teams, partners opposite (docs/rules.md, "Quatro Chess").
    pub fn quatro_teams() -> RuleSet {
        RuleSet::quatro_seated("quatro-teams", OPPOSITE_PARTNERS)
    }

    /// General multiplayer rules (docs/rules.md, "Multiplayer chess proposal") for four
    /// players on the 4PC board: check only by active pieces, a king "caught in the shuffle"
    /// is captured and its player is out, stalemate removes the player but scores, 50-move
    /// rule in full cycles of remaining players and threefold repetition as claims, lone kings
    /// a draw at once, 1/N scoring.
    pub fn multiplayer() -> RuleSet {
        RuleSet {
            name: "multiplayer".into(),
            moves: MoveRules {
                friends: NO_PARTNERS,
                promotion_rank: 8,
                ..RuleSet::teams().moves
            },
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::EliminatesAndScores,
            scoring: Scoring::OneOverN,
            mated_king_removed: true,
            fifty_move_plies: None,
            draws_claimed: true,
            ..RuleSet::teams()
        }
    }

    /// The multiplayer rules for three players: Red, Blue and Yellow; Green's arm stays empty.
    pub fn multiplayer_three() -> RuleSet {
        RuleSet {
            name: "multiplayer-three".into(),
            absent_seats: 1 << Seat::Green.index(),
            ..RuleSet::multiplayer()
        }
    }

    /// The multiplayer rules on the Quatro board (pawns promote at the far edge, as there).
    pub fn multiplayer_quatro() -> RuleSet {
        let base = RuleSet::multiplayer();
        RuleSet {
            name: "multiplayer-quatro".into(),
            moves: MoveRules {
                promotion_rank: 12,
                ..base.moves
            },
            geometry: Geometry::QUATRO,
            default_setup: "Quatro",
            ..base
        }
    }

    /// The multiplayer rules on the Quatro board for three players (Green absent).
    pub fn multiplayer_quatro_three() -> RuleSet {
        RuleSet {
            name: "multiplayer-quatro-three".into(),
            absent_seats: 1 << Seat::Green.index(),
            ..RuleSet::multiplayer_quatro()
        }
    }

    /// A preset by name (see `PRESET_NAMES`).
    pub fn preset(name: &str) -> Result<RuleSet, RuleSetError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "teams" => Ok(RuleSet::teams()),
            "ffa" | "free-for-all" => Ok(RuleSet::ffa()),
            "solo" => Ok(RuleSet::solo()),
            "four-man-team" => Ok(RuleSet::four_man_team()),
            "last-standing" => Ok(RuleSet::last_standing()),
            "points" => Ok(RuleSet::points()),
            "quatro" => Ok(RuleSet::quatro()),
            "quatro-two-player" => Ok(RuleSet::quatro_two_player()),
            "quatro-three-player" => Ok(RuleSet::quatro_three_player()),
            "quatro-teams" => Ok(RuleSet::quatro_teams()),
            "multiplayer" => Ok(RuleSet::multiplayer()),
            "multiplayer-three" => Ok(RuleSet::multiplayer_three()),
            "multiplayer-quatro" => Ok(RuleSet::multiplayer_quatro()),
            "multiplayer-quatro-three" => Ok(RuleSet::multiplayer_quatro_three()),
            _ => Err(RuleSetError::UnknownPreset(name.to_string())),
        }
    }

    /// A preset name followed by space-separated rule variants, e.g. `teams EnPassant` or
    /// `ffa EnPassant=next` (used by the perft command line). Unlike a game record's tags, a
    /// spec is typed by hand: an unknown variant is an error, not ignored.
    pub fn from_spec(spec: &str) -> Result<RuleSet, RuleSetError> {
        let mut words = spec.split_whitespace();
        let name = words.next().unwrap_or("teams");
        let mut rules = RuleSet::preset(name)?;
        let rest: Vec<&str> = words.collect();
        rules.apply_variants(&rest.join(" "))?;
        if !rules.unknown_variants.is_empty() {
            return Err(RuleSetError::UnknownVariants(rules.unknown_variants));
        }
        Ok(rules)
    }

    /// Apply a PGN4 `RuleVariants` value (space separated). Unknown variants are kept in
    /// `unknown_variants`; a variant that changes legality in a way this core cannot play is
    /// an error.
    pub fn apply_variants(&mut self, variants: &str) -> Result<(), RuleSetError> {
        for word in variants.split_whitespace() {
            let (key, value) = match word.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (word, None),
            };
            let understood = match (key, value) {
                ("EnPassant", None) => {
                    self.moves.en_passant = EnPassant::UntilPusherMoves;
                    true
                }
                ("EnPassant", Some("next")) => {
                    self.moves.en_passant = EnPassant::NextPlayer;
                    true
                }
                ("EnPassant", Some("off")) | ("NoEnPassant", None) => {
                    self.moves.en_passant = EnPassant::Off;
                    true
                }
                ("DeadKingWalking", None) => {
                    self.dead_king_walking = true;
                    true
                }
                ("PromoteTo", Some(letters)) => {
                    let mut mask = 0u8;
                    for c in letters.chars() {
                        match PieceKind::from_letter(c) {
                            Some(kind) if kind != PieceKind::King && kind != PieceKind::Pawn => {
                                mask |= 1 << kind as u8
                            }
                            _ => {
                                return Err(RuleSetError::UnsupportedVariant(format!(
                                    "{word} (promotion to '{c}')"
                                )))
                            }
                        }
                    }
                    if mask == 0 {
                        return Err(RuleSetError::UnsupportedVariant(word.to_string()));
                    }
                    self.moves.promotion_pieces = mask;
                    true
                }
                ("Prom", Some(rank)) => match rank.parse::<u8>() {
                    Ok(r) if r >= 2 && r <= self.geometry.size() => {
                        self.moves.promotion_rank = r;
                        true
                    }
                    _ => return Err(RuleSetError::UnsupportedVariant(word.to_string())),
                },
                ("Stalemate", Some("win")) => {
                    // The stalemated player is out and scores, as in FFA.
                    self.stalemate = StalemateRule::EliminatesAndScores;
                    true
                }
                ("Stalemate", Some("draw")) => {
                    self.stalemate = StalemateRule::Draw;
                    true
                }
                // Presentation only: names hidden during the game; no effect on the rules.
                ("Anonymous", None) | ("SemiAnonymous", None) => true,
                _ => false,
            };
            if understood {
                self.applied_variants.push(word.to_string());
            } else {
                self.unknown_variants.push(word.to_string());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_name_builds() {
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect(name);
            assert_eq!(rules.name, name);
        }
        assert!(RuleSet::preset("chess960").is_err());
    }

    #[test]
    fn site_presets_differ_where_the_seeds_say() {
        let teams = RuleSet::teams();
        let ffa = RuleSet::ffa();
        assert!(teams.moves.has_partners() && !ffa.moves.has_partners());
        assert_eq!(teams.moves.promotion_rank, 11);
        assert_eq!(ffa.moves.promotion_rank, 8);
        assert_eq!(teams.mate_timing, MateTiming::OnOwnTurn);
        assert_eq!(teams.stalemate, StalemateRule::Draw);
        assert_eq!(RuleSet::solo().placement, Placement::WinnerTakesAll);
        assert_eq!(RuleSet::solo().scoring, Scoring::Points);
        assert_eq!(RuleSet::quatro().geometry, Geometry::QUATRO);
        assert!(!RuleSet::quatro().moves.dead_capturable);
        assert_eq!(RuleSet::multiplayer().scoring, Scoring::OneOverN);
        assert_eq!(RuleSet::four_man_team().moves.en_passant, EnPassant::Off);
    }

    #[test]
    fn the_site_reduces_every_multiple_check() {
        let ffa = RuleSet::ffa().multi_check_points;
        assert_eq!(ffa.for_checks(1, false), 0);
        assert_eq!(ffa.for_checks(2, false), 1);
        assert_eq!(ffa.for_checks(2, true), 1);
        assert_eq!(ffa.for_checks(3, false), 5);
        assert_eq!(ffa.for_checks(3, true), 5);
        for name in ["ffa", "solo"] {
            let rules = RuleSet::preset(name).expect(name);
            assert_eq!(rules.multi_check_points, ffa, "{name}");
        }
        assert_eq!(RuleSet::teams().multi_check_points, MultiCheckPoints::NONE);
    }

    #[test]
    fn four_man_chess_reduces_only_a_queens_multiple_check() {
        let points = RuleSet::points().multi_check_points;
        assert_eq!(points.for_checks(2, false), 5);
        assert_eq!(points.for_checks(2, true), 1);
        assert_eq!(points.for_checks(3, false), 20);
        assert_eq!(points.for_checks(3, true), 5);
        assert_eq!(points.for_checks(4, true), 0);
    }

    #[test]
    fn variants_apply_and_unknown_ones_are_kept() {
        let mut rules = RuleSet::ffa();
        rules
            .apply_variants("Anonymous DeadKingWalking EnPassant PromoteTo=D Play4Mate Prom=11")
            .expect("variants");
        assert_eq!(rules.moves.en_passant, EnPassant::UntilPusherMoves);
        assert!(rules.dead_king_walking);
        assert!(rules.moves.may_promote_to(PieceKind::OnePointQueen));
        assert!(!rules.moves.may_promote_to(PieceKind::Queen));
        assert_eq!(rules.moves.promotion_rank, 11);
        assert_eq!(rules.unknown_variants, vec!["Play4Mate".to_string()]);
    }

    #[test]
    fn fairy_promotion_is_a_precise_error() {
        let mut rules = RuleSet::teams();
        let err = rules.apply_variants("PromoteTo=VHE").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported rule variant 'PromoteTo=VHE (promotion to 'V')'"
        );
    }

    #[test]
    fn every_known_variant_is_understood() {
        for known in KNOWN_VARIANTS {
            let word = known
                .replace("<piece letters>", "QN")
                .replace("<rank>", "8");
            let mut rules = RuleSet::ffa();
            rules.apply_variants(&word).expect(known);
            assert_eq!(rules.applied_variants, vec![word], "{known}");
        }
    }

    #[test]
    fn spec_refuses_unknown_variants_and_lists_the_known_ones() {
        let err = RuleSet::from_spec("ffa EnPassant Play4Mate EnPassant=always").unwrap_err();
        assert_eq!(
            err,
            RuleSetError::UnknownVariants(vec![
                "Play4Mate".to_string(),
                "EnPassant=always".to_string()
            ])
        );
        let message = err.to_string();
        assert!(
            message.starts_with("unknown rule variant 'Play4Mate', 'EnPassant=always' (known: "),
            "{message}"
        );
        for known in KNOWN_VARIANTS {
            assert!(message.contains(known), "{message}");
        }
    }

    #[test]
    fn spec_reads_preset_and_variants() {
        let rules = RuleSet::from_spec("ffa EnPassant=next").expect("spec");
        assert_eq!(rules.moves.en_passant, EnPassant::NextPlayer);
        assert!(!rules.moves.has_partners());
    }
}
