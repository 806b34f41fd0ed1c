//! The `refunds_due` event: what game servers are told, once per case, when an upheld case
//! owes its victims rating points (docs/webhooks.md, "refunds_due"). The site applies it.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::refund::{RefundLine, Refunds, VictimTotal};
use super::types::{CaseId, Ground, ReportReason};
use super::webhook_event_kind::WebhookEventKind;

/// Seat colours in seat order, as PGN4 names them.
const SEATS: [&str; 4] = ["red", "blue", "yellow", "green"];

/// The case the refunds follow from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RefundCase {
    pub id: CaseId,
    pub reason: ReportReason,
    pub ground: Option<Ground>,
    /// The players found at fault: never owed anything.
    pub offenders: Vec<String>,
    pub decided_at: DateTime<Utc>,
}

/// One victim's refund for one game, by the site's game number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RefundDue {
    pub game: i64,
    pub player: String,
    pub seat: &'static str,
    pub placement: i16,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
    /// Points to give back; `null` when the game had no rating for the seat.
    pub amount: Option<i64>,
}

impl RefundDue {
    fn from_line(line: &RefundLine) -> RefundDue {
        RefundDue {
            game: line.number.0,
            player: line.player.clone(),
            seat: seat_name(line.seat),
            placement: line.placement,
            rating_before: line.rating_before,
            rating_after: line.rating_after,
            amount: line.amount,
        }
    }
}

/// A seat index's colour ("red" for 0); out of range reads as "red" (the store's CHECK keeps
/// seats in 0..=3).
pub fn seat_name(seat: i16) -> &'static str {
    usize::try_from(seat)
        .ok()
        .and_then(|i| SEATS.get(i))
        .copied()
        .unwrap_or(SEATS[0])
}

/// The event, serialised as the webhook's body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RefundsDueEvent {
    /// Unique per event: receivers deduplicate redeliveries by it.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: WebhookEventKind,
    pub created_at: DateTime<Utc>,
    pub case: RefundCase,
    pub refunds: Vec<RefundDue>,
    pub totals: Vec<VictimTotal>,
    /// Sum of every amount.
    pub total: i64,
}

impl RefundsDueEvent {
    pub fn new(
        id: String,
        case: RefundCase,
        refunds: &Refunds,
        now: DateTime<Utc>,
    ) -> RefundsDueEvent {
        RefundsDueEvent {
            id,
            kind: WebhookEventKind::RefundsDue,
            created_at: now,
            case,
            refunds: refunds.lines.iter().map(RefundDue::from_line).collect(),
            totals: refunds.totals.clone(),
            total: refunds.total(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::refund::totals_of;
    use crate::moderation::GameNumber;
    use chrono::TimeZone;

    #[test]
    fn the_body_names_games_by_number_and_seats_by_colour() {
        let lines = vec![RefundLine {
            game_id: 4,
            number: GameNumber(1001),
            seat: 3,
            player: "carl".into(),
            placement: 4,
            rating_before: Some(1500),
            rating_after: Some(1482),
            amount: Some(18),
        }];
        let refunds = Refunds {
            totals: totals_of(&lines),
            lines,
        };
        let at = Utc
            .with_ymd_and_hms(2026, 12, 7, 12, 0, 0)
            .single()
            .unwrap_or_default();
        let case = RefundCase {
            id: CaseId(9),
            reason: ReportReason::PrearrangedTeaming,
            ground: Some(Ground::PrearrangedTeaming),
            offenders: vec!["ann".into(), "bob".into()],
            decided_at: at,
        };
        let event = RefundsDueEvent::new("e1".into(), case, &refunds, at);
        let json = serde_json::to_value(&event).unwrap_or_default();
        assert_eq!(json["type"], "refunds_due");
        assert_eq!(json["case"]["id"], 9);
        assert_eq!(json["refunds"][0]["game"], 1001);
        assert_eq!(json["refunds"][0]["seat"], "green");
        assert_eq!(json["totals"][0]["amount"], 18);
        assert_eq!(json["total"], 18);
        assert_eq!(seat_name(7), "red");
    }
}
