//! The refunds a decided case owes its victims, as the case view shows them
//! (docs/moderation.md, "Refunds").

use serde::Serialize;
use utoipa::ToSchema;

use crate::archive::SeatColour;
use crate::moderation::refund::totals_of;
use crate::moderation::RefundLine;

/// What a case owes: empty until a teaming, self-partnering or (Teams) sandbagging case is
/// upheld, and then as worked out at the decision.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct RefundsView {
    /// Per game and victim, oldest game first, then seat order.
    pub lines: Vec<RefundLineView>,
    /// Per victim, the largest sum first.
    pub totals: Vec<RefundTotalView>,
    /// Sum of every amount.
    pub total: i64,
}

/// What one victim is owed for one game.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefundLineView {
    /// The archive's id of the game.
    pub game_id: i64,
    /// The site's game number.
    pub game: i64,
    pub seat: SeatColour,
    pub player: String,
    /// The seat's final standing (1 = first).
    pub placement: i16,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    /// `rating_before - rating_after`; null when the game server sent no rating for the seat.
    pub amount: Option<i64>,
}

/// What one victim is owed in all.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefundTotalView {
    pub player: String,
    pub amount: i64,
    /// Games with an amount.
    pub games: u32,
    /// Games listed without an amount.
    pub unrated_games: u32,
}

impl RefundsView {
    pub fn from_lines(lines: Vec<RefundLine>) -> RefundsView {
        let totals: Vec<RefundTotalView> = totals_of(&lines)
            .into_iter()
            .map(|t| RefundTotalView {
                player: t.player,
                amount: t.amount,
                games: t.games,
                unrated_games: t.unrated_games,
            })
            .collect();
        RefundsView {
            total: totals.iter().map(|t| t.amount).sum(),
            totals,
            lines: lines.into_iter().map(RefundLineView::from).collect(),
        }
    }
}

impl From<RefundLine> for RefundLineView {
    fn from(l: RefundLine) -> Self {
        RefundLineView {
            game_id: l.game_id,
            game: l.number.0,
            // The store's CHECK keeps seats in 0..=3.
            seat: SeatColour::from_index(l.seat).unwrap_or(SeatColour::Red),
            player: l.player,
            placement: l.placement,
            rating_before: l.rating_before,
            rating_after: l.rating_after,
            amount: l.amount,
        }
    }
}
