//! The case page's refunds: what an upheld teaming, self-partnering or (Teams) sandbagging
//! case owes each victim, per game and in all (docs/console.md, "Case page").

use maud::{html, Markup};

use super::text::{url_encoded, wire_name};
use crate::api::views::refunds::RefundsView;

/// The panel; nothing when the case owes no refund.
pub fn refunds_panel(refunds: &RefundsView) -> Markup {
    html! {
        @if !refunds.lines.is_empty() {
            section.panel aria-labelledby="refunds" {
                h2 #refunds { "Refunds owed" }
                p { (refunds.total) " rating points in all; the game site applies them (the "
                    code { "refunds_due" } " webhook event)." }
                table {
                    thead { tr { th { "Player" } th { "Points" } th { "Games" } th { "Without rating" } } }
                    tbody { @for t in &refunds.totals {
                        tr { td { a href={ "/admin/players/" (url_encoded(&t.player)) } { (t.player) } }
                             td.num { (t.amount) } td.num { (t.games) } td.num { (t.unrated_games) } }
                    } }
                }
                h3 { "Per game" }
                table {
                    thead { tr { th { "Game" } th { "Player" } th { "Seat" } th { "Placement" } th { "Rating" } th { "Points" } } }
                    tbody { @for l in &refunds.lines {
                        tr { td { a href={ "/admin/games/" (l.game_id) } { (l.game) } }
                             td { (l.player) } td { (wire_name(&l.seat)) } td.num { (l.placement) }
                             td { @match (l.rating_before, l.rating_after) {
                                 (Some(before), Some(after)) => { (before) " → " (after) },
                                 _ => { "not sent" },
                             } }
                             td.num { @match l.amount { Some(amount) => { (amount) }, None => { "—" } } } }
                    } }
                }
            }
        }
    }
}
