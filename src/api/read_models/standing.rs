//! A player's standing: what they may do now, computed from sanctions and report timeouts at
//! read time, and the warning they must acknowledge. The JSON route and the console's player page read it here.

use chrono::NaiveDateTime;

use crate::api::error::ApiError;
use crate::api::views::standing::StandingView;
use crate::api::views::warnings::WarningNotice;
use crate::store::DbConnection;
use crate::store::{players, sanctions, warnings};

/// `name`'s standing at `now`; `name_key` also finds the player under an erased name.
pub fn standing(
    conn: &mut DbConnection,
    name: String,
    name_key: Option<&str>,
    now: NaiveDateTime,
) -> Result<StandingView, ApiError> {
    let ids = players::answering_to(conn, &name, name_key)?;
    let standing = sanctions::standing_of_players(conn, &ids, now)?;
    let awaiting = warnings::awaiting_of(conn, &ids)?;
    Ok(StandingView {
        player: name,
        at: standing.at,
        may_chat: standing.may_chat,
        chat_until: standing.chat_until,
        may_play: standing.may_play,
        play_until: standing.play_until,
        may_report: standing.may_report,
        report_until: standing.report_until,
        club_banned: standing.club_banned,
        club_until: standing.club_until,
        active_sanctions: standing.active_sanctions.iter().map(|s| s.0).collect(),
        must_acknowledge: awaiting.map(WarningNotice::from),
    })
}
