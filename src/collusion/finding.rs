//! What a scored pair amounts to: nothing, prearranged teaming, or self-partnering.

use super::accounts::AccountLink;
use super::policy::CollusionPolicy;
use super::score::PairScore;

/// A pair worth an admin's look, as a review-queue reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Finding {
    /// Two players who keep sparing or feeding each other: prearranged teaming
    /// (docs/moderation.md, "Rules of conduct").
    PrearrangedTeaming,
    /// The same, by accounts whose seats shared a device or network fingerprint: one person
    /// on two accounts (self-partnering, same section).
    SelfPartnering,
}

impl Finding {
    /// The review-queue reason code.
    pub fn reason(self) -> &'static str {
        match self {
            Finding::PrearrangedTeaming => "prearranged_teaming",
            Finding::SelfPartnering => "self_partnering",
        }
    }
}

/// The finding a pair's score and account link call for; never below `min_games` shared games.
pub fn classify(
    score: &PairScore,
    link: &AccountLink,
    policy: &CollusionPolicy,
) -> Option<Finding> {
    if link.shares_fingerprint() && score.reaches(policy.shared_fingerprint_threshold, policy) {
        Some(Finding::SelfPartnering)
    } else if score.reaches(policy.threshold, policy) {
        Some(Finding::PrearrangedTeaming)
    } else {
        None
    }
}
