//! Rule sets as named presets: a small struct of switches, each documented with the text it
//! comes from (seed 000/001: the site's rules; 002: general multiplayer rules; 003: Quatro
//! Chess; 004: 4 Man Chess). PGN4 `RuleVariants` tags are applied on top of a preset.

use std::fmt;

use super::geometry::Geometry;
use super::piece::PieceKind;

/// Who may capture en passant, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EnPassant {
    /// No en-passant captures (seed 004: "En passant is not allowed").
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
    /// Only once the player's own turn is reached, so a partner may rescue (seed 000 Teams
    /// rule 6, seed 002 "Checkmate", seed 004).
    OnOwnTurn,
    /// As soon as any move leaves the player mated (the site's FFA: the real games mark the
    /// mating move `#` and the mated player's next turn simply vanishes).
    Immediately,
}

/// What a stalemate does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    /// The game is drawn (seed 000 Teams rule 8; seed 004 Team Play).
    Draw,
    /// The stalemated player is out but keeps a share of the result (seeds 000/001 FFA "stalemating
    /// yourself +20", 002 rule 4, 003 rule 5.5 half points).
    EliminatesAndScores,
    /// The stalemated player is out; with only two players left the game is drawn (seed 004
    /// Last Player Standing).
    EliminatesDrawWhenTwo,
}

/// How the final standing is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// First team to mate an opponent wins (seeds 000/001 Teams, 004 Team Play).
    Teams,
    /// FFA points; placement by points (seeds 000/001 FFA, 004 Points Game).
    Points,
    /// Last player standing wins (seed 004 Last Player Standing).
    LastStanding,
    /// 0/2/4/8 by elimination order, half on stalemate and draws (seed 003 section 4).
    Placement0248,
    /// Mated, king-captured or resigned players get 0; the others share 1 (seed 002 rule 12).
    OneOverN,
}

/// How rating placement follows from the final standing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// 1st..4th by score.
    Ranked,
    /// Only the winner wins, 2nd-4th lose equally (seed 001 "Solo").
    WinnerTakesAll,
}

/// The switches the move generator needs; small and `Copy` so positions carry them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveRules {
    /// Partners (R+Y, B+G) never capture or check each other (seed 000 rules 1-4).
    pub teams: bool,
    pub en_passant: EnPassant,
    /// Relative rank (1-based from the pawn's own edge) on which pawns promote.
    pub promotion_rank: u8,
    /// Bit `1 << kind` for each kind a pawn may promote to.
    pub promotion_pieces: u8,
    /// Relative rank (1-based) from which pawns may double-step.
    pub pawn_base_rank: u8,
    /// Pieces of eliminated players may be captured (seed 000 FFA rule 2: for no points;
    /// seed 003: no, they are statues).
    pub dead_capturable: bool,
}

impl MoveRules {
    pub fn may_promote_to(&self, kind: PieceKind) -> bool {
        self.promotion_pieces & (1 << kind as u8) != 0
    }
}

/// Points for checking two or three active kings with one move. "With a queen" is the reduced
/// case, when a line piece (bishop, rook or queen) gives one of the checks (see `rules::game`
/// for the games that show it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MultiCheckPoints {
    pub double: i32,
    pub double_with_queen: i32,
    pub triple: i32,
    pub triple_with_queen: i32,
}

impl MultiCheckPoints {
    /// No bonus (games not scored by points).
    pub const NONE: MultiCheckPoints = MultiCheckPoints {
        double: 0,
        double_with_queen: 0,
        triple: 0,
        triple_with_queen: 0,
    };

    /// The bonus for checking `kings` active kings at once (0 unless two or three).
    pub fn for_checks(&self, kings: usize, with_queen: bool) -> i32 {
        match (kings, with_queen) {
            (2, false) => self.double,
            (2, true) => self.double_with_queen,
            (3, false) => self.triple,
            (3, true) => self.triple_with_queen,
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
    /// seed 000 FFA rule 4).
    pub dead_king_walking: bool,
    /// A mated player's king leaves the board (seed 002 rule 2, 003 section 3) instead of
    /// staying as an inert piece (the site).
    pub mated_king_removed: bool,
    /// 50-move rule length in plies per remaining player: 2 for the site ("50 moves" of two
    /// plies as in chess), or counted in full cycles of the remaining players (seed 002 rule 7:
    /// 50 x N plies). `None` means counted per remaining player.
    pub fifty_move_plies: Option<u32>,
    /// Points a remaining player gets for a draw (+10, seeds 000/001 FFA rule 7).
    pub draw_bonus: i32,
    /// Points the last remaining player gets per resigned/timed-out king still on the board.
    pub walking_king_bonus: i32,
    /// Points for mating (+20) and for being stalemated on one's own turn (+20).
    pub mate_points: i32,
    pub self_stalemate_points: i32,
    /// Bonus for a double or triple check (FFA: +5 / +20, with a queen +1 / +5).
    pub multi_check_points: MultiCheckPoints,
    /// RuleVariants tags that were not understood (kept and reported).
    pub unknown_variants: Vec<String>,
    /// RuleVariants tags that were understood, as written.
    pub applied_variants: Vec<String>,
}

/// The preset names accepted by `RuleSet::preset`.
pub const PRESET_NAMES: [&str; 8] = [
    "teams",
    "ffa",
    "solo",
    "four-man-team",
    "last-standing",
    "points",
    "quatro",
    "multiplayer",
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

impl RuleSet {
    /// The site's Teams rules (seeds 000/001): partners R+Y vs B+G, promotion on the 11th rank,
    /// mate on the mated player's own turn, stalemate draws. En passant only with the
    /// `EnPassant` variant ("the game may be played with or without en-passant captures").
    pub fn teams() -> RuleSet {
        RuleSet {
            name: "teams".into(),
            moves: MoveRules {
                teams: true,
                en_passant: EnPassant::Off,
                promotion_rank: 11,
                promotion_pieces: CLASSIC_PROMOTIONS,
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
            multi_check_points: MultiCheckPoints::NONE,
            unknown_variants: Vec::new(),
            applied_variants: Vec::new(),
        }
    }

    /// The site's Free-for-all (seeds 000/001): points for captures of active pieces, mates,
    /// self-stalemate and multiple checks; promotion on the 8th rank (to the 1-point queen with
    /// `PromoteTo=D`); dead pieces capturable for nothing.
    pub fn ffa() -> RuleSet {
        RuleSet {
            name: "ffa".into(),
            moves: MoveRules {
                teams: false,
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
            multi_check_points: MultiCheckPoints {
                double: 5,
                double_with_queen: 1,
                triple: 20,
                triple_with_queen: 5,
            },
            ..RuleSet::teams()
        }
    }

    /// Solo (seed 001): FFA scoring, rated winner-takes-all.
    pub fn solo() -> RuleSet {
        RuleSet {
            name: "solo".into(),
            placement: Placement::WinnerTakesAll,
            ..RuleSet::ffa()
        }
    }

    /// 4 Man Chess Team Play (seed 004): classic setup, no en passant, promotion on the 11th
    /// rank, mate and stalemate judged on the threatened player's turn.
    pub fn four_man_team() -> RuleSet {
        RuleSet {
            name: "four-man-team".into(),
            ..RuleSet::teams()
        }
    }

    /// 4 Man Chess Last Player Standing (seed 004): 8th-rank promotion, eliminated armies stay
    /// as inert capturable pieces, stalemate removes the player, two left and a stalemate is a
    /// draw; the last player standing wins.
    pub fn last_standing() -> RuleSet {
        RuleSet {
            name: "last-standing".into(),
            moves: MoveRules {
                teams: false,
                promotion_rank: 8,
                ..RuleSet::teams().moves
            },
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::EliminatesDrawWhenTwo,
            scoring: Scoring::LastStanding,
            fifty_move_plies: None,
            ..RuleSet::teams()
        }
    }

    /// 4 Man Chess Points Game (seed 004): FFA-like points without en passant; mate judged on
    /// the threatened player's turn; stalemating an opponent gives +10 to each remaining player
    /// (handled as the draw bonus of a stalemate).
    pub fn points() -> RuleSet {
        RuleSet {
            name: "points".into(),
            mate_timing: MateTiming::OnOwnTurn,
            walking_king_bonus: 0,
            ..RuleSet::ffa()
        }
    }

    /// Quatro Chess (seed 003): 12x12 board minus 2x2 corners, promotion on the last square of
    /// the opposite arm, mated armies stay as uncapturable statues, 0/2/4/8 by elimination
    /// order, half points on stalemate.
    pub fn quatro() -> RuleSet {
        RuleSet {
            name: "quatro".into(),
            moves: MoveRules {
                teams: false,
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
            ..RuleSet::teams()
        }
    }

    /// General multiplayer rules (seed 002): check only by active pieces, a king "caught in the
    /// shuffle" is captured and its player is out, stalemate removes the player but scores,
    /// 50-move rule in full cycles of remaining players, 1/N scoring.
    pub fn multiplayer() -> RuleSet {
        RuleSet {
            name: "multiplayer".into(),
            moves: MoveRules {
                teams: false,
                promotion_rank: 8,
                ..RuleSet::teams().moves
            },
            mate_timing: MateTiming::OnOwnTurn,
            stalemate: StalemateRule::EliminatesAndScores,
            scoring: Scoring::OneOverN,
            mated_king_removed: true,
            fifty_move_plies: None,
            ..RuleSet::teams()
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
            "multiplayer" => Ok(RuleSet::multiplayer()),
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
        assert!(teams.moves.teams && !ffa.moves.teams);
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
    fn every_points_preset_carries_the_ffa_multi_check_bonus() {
        let ffa = RuleSet::ffa().multi_check_points;
        assert_eq!(ffa.for_checks(1, false), 0);
        assert_eq!(ffa.for_checks(2, false), 5);
        assert_eq!(ffa.for_checks(2, true), 1);
        assert_eq!(ffa.for_checks(3, false), 20);
        assert_eq!(ffa.for_checks(3, true), 5);
        for name in PRESET_NAMES {
            let rules = RuleSet::preset(name).expect(name);
            if rules.scoring == Scoring::Points {
                assert_eq!(rules.multi_check_points, ffa, "{name}");
            }
        }
        assert_eq!(RuleSet::teams().multi_check_points, MultiCheckPoints::NONE);
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
        assert!(!rules.moves.teams);
    }
}
