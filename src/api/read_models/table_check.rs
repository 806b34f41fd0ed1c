//! The table check: the seated players' sanctions read in two indexed queries, judged by
//! `moderation::check_table`.

use chrono::NaiveDateTime;

use crate::api::error::ApiError;
use crate::api::views::table_check::TableCheckView;
use crate::moderation::check_table;
use crate::store::{separations, to_utc, DbConnection};

/// Whether `names` (distinct, checked) may start a game together at `now`.
pub fn table_check(
    conn: &mut DbConnection,
    names: &[String],
    now: NaiveDateTime,
) -> Result<TableCheckView, ApiError> {
    let sanctions = separations::table_sanctions(conn, names, now)?;
    let verdict = check_table(names, &sanctions, to_utc(now));
    Ok(TableCheckView::new(verdict, to_utc(now)))
}
