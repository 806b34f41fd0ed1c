//! Report timeouts (`report_timeouts`): periods in which a player may not report, earned by
//! reports dismissed as unjustified.

use diesel::prelude::*;

use super::connection::DbConnection;
use super::from_utc;
use super::schema::report_timeouts;
use crate::moderation::{CaseId, PlayerId, ReportTimeout};

/// Stores a timeout the decision of `case_id` earned `player_id`.
pub fn insert(
    conn: &mut DbConnection,
    player_id: PlayerId,
    timeout: &ReportTimeout,
    case_id: CaseId,
) -> QueryResult<()> {
    diesel::insert_into(report_timeouts::table)
        .values((
            report_timeouts::player_id.eq(player_id),
            report_timeouts::step.eq(i32::try_from(timeout.level).unwrap_or(i32::MAX)),
            report_timeouts::starts_at.eq(from_utc(timeout.starts_at)),
            report_timeouts::ends_at.eq(from_utc(timeout.until)),
            report_timeouts::case_id.eq(case_id),
        ))
        .execute(conn)?;
    Ok(())
}
