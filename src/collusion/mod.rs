//! Collusion: PURE statistics of how pairs of players treat each other in FFA and Solo games
//! (no I/O, no clock).
//!
//! - [`interaction`]: per replayed game, what each player did to each opponent (chances to
//!   capture or check taken or not, pieces left hanging to one opponent) and the surprising
//!   moments with their plies;
//! - [`tally`]: running sums of those per channel and seat geometry, one per player (their
//!   baseline) and one per ordered pair, updated by addition as games arrive;
//! - [`ledger`]: those tallies for many games in memory (full recompute, evaluation);
//! - [`score`]: how far a pair's play is from what both players' own baselines predict, as a
//!   z score that grows with the evidence (few shared games cannot reach the threshold);
//! - [`summary`]: the evidence text of an automatic report;
//! - [`accounts`]: shared fingerprints and rating flows between two accounts;
//! - [`finding`]: prearranged teaming or self-partnering, never below the policy's game count;
//! - [`rings`]: groups of three or more accounts joined by flagged pairs;
//! - [`evaluation`]: recall and false positives on labelled (simulated) pairs.

pub mod accounts;
pub mod evaluation;
pub mod finding;
pub mod interaction;
pub mod ledger;
pub mod policy;
pub mod rings;
pub mod score;
pub mod summary;
pub mod tally;

pub use accounts::{link, AccountLink, SeatTrace};
pub use finding::{classify, Finding};
pub use interaction::{interactions, GameInteractions, PairPlay, SeatGeometry};
pub use ledger::Ledger;
pub use policy::{CollusionPolicy, CollusionSettings};
pub use rings::{rings, Ring};
pub use score::{score_pair, PairScore, Pattern};
pub use tally::{PairRecord, PlayerTallies, Sums, Tally, TallyKind};
