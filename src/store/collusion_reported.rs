//! `collusion_reported`: the pairs a collusion finding was reported for, with their shared
//! games at the time. A pair is reported again only once its shared games have doubled since
//! (`usecases::judge_collusion`); the flagged pairs around a new finding make its ring.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::schema::collusion_reported;

/// The shared games of the pair (first and second in name order) when it was last reported.
pub fn games_when_reported(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
) -> QueryResult<Option<i64>> {
    collusion_reported::table
        .find((low, high))
        .select(collusion_reported::games)
        .first(conn)
        .optional()
}

/// Records that the pair was reported at `shared` shared games by automatic report `id`.
pub fn mark_reported(
    conn: &mut DbConnection,
    (low, high): (&str, &str),
    shared: i64,
    id: i64,
    now: NaiveDateTime,
) -> QueryResult<()> {
    let row = (
        collusion_reported::player_low.eq(low),
        collusion_reported::player_high.eq(high),
        collusion_reported::games.eq(shared),
        collusion_reported::automatic_report_id.eq(id),
        collusion_reported::reported_at.eq(now),
    );
    on_backend!(conn, c => diesel::insert_into(collusion_reported::table)
        .values(row)
        .on_conflict((collusion_reported::player_low, collusion_reported::player_high))
        .do_update()
        .set((
            collusion_reported::games.eq(shared),
            collusion_reported::automatic_report_id.eq(id),
            collusion_reported::reported_at.eq(now),
        ))
        .execute(c))?;
    Ok(())
}

/// The reported pairs `name` is one of: (first, second in name order, shared games when
/// reported).
pub fn pairs_of(conn: &mut DbConnection, name: &str) -> QueryResult<Vec<(String, String, i64)>> {
    collusion_reported::table
        .filter(
            collusion_reported::player_low
                .eq(name)
                .or(collusion_reported::player_high.eq(name)),
        )
        .select((
            collusion_reported::player_low,
            collusion_reported::player_high,
            collusion_reported::games,
        ))
        .load(conn)
}
