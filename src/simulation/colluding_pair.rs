//! The colluding pairs of a simulation: the ground truth a collusion detector should find.

/// The kind of collusion a pair practises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollusionKind {
    /// Neither captures the other's pieces nor checks the other's king.
    Sparing,
    /// Both never check each other, leave pieces en prise to the partner only, and take such
    /// gifts (a capture of the partner's piece only when the partner cannot take back).
    Feeding,
    /// `second` is an alt account of `first` (same device and network): the alt spares and
    /// feeds the main; the main takes the gifts and never checks the alt.
    SelfPartnering,
}

impl CollusionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CollusionKind::Sparing => "sparing",
            CollusionKind::Feeding => "feeding",
            CollusionKind::SelfPartnering => "self_partnering",
        }
    }
}

/// A colluding pair (the ground truth the detector should find).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColludingPair {
    pub first: String,
    pub second: String,
    pub kind: CollusionKind,
    /// Tables the pair arranges together (they may also meet by chance at random tables).
    pub arranged_games: u32,
}
