//! Players the archive has seen (`archive_players`): each name with its folded form for
//! case-insensitive prefix search and its games count, kept current in each game's own
//! transaction.

use diesel::prelude::*;
use diesel::upsert::excluded;

use super::connection::DbConnection;
use super::schema::archive_players;

/// How names are compared in search: ASCII letters folded to lower case, everything else as
/// is (both backends fold the same way, and a prefix stays an index range).
pub fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Counts one more game for each of `names` (a game's seated players), in the caller's
/// transaction. Rows are written in name order, so two games with the same players never
/// wait on each other in opposite orders.
pub fn count_game(conn: &mut DbConnection, names: &[&str]) -> QueryResult<()> {
    let mut names = names.to_vec();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let folded = fold(name);
        on_backend!(conn, c => diesel::insert_into(archive_players::table)
            .values((
                archive_players::name.eq(name),
                archive_players::name_folded.eq(&folded),
                archive_players::games.eq(1_i64),
            ))
            .on_conflict(archive_players::name)
            .do_update()
            .set(archive_players::games.eq(archive_players::games + excluded(archive_players::games)))
            .execute(c))?;
    }
    Ok(())
}

/// One archive player.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct ArchivePlayer {
    pub name: String,
    pub name_folded: String,
    pub games: i64,
}

/// Players whose folded name starts with `prefix` (folded here), in folded-name order, after
/// the `(folded, name)` of the last row of the previous page.
pub fn search(
    conn: &mut DbConnection,
    prefix: &str,
    after: Option<(String, String)>,
    limit: i64,
) -> QueryResult<Vec<ArchivePlayer>> {
    let low = fold(prefix);
    // Every string that starts with `low` sorts below `low` followed by the largest
    // character, in byte order (both backends compare these columns bytewise).
    let high = format!("{low}\u{10FFFF}");
    let mut query = archive_players::table
        .filter(archive_players::name_folded.ge(low))
        .filter(archive_players::name_folded.lt(high))
        .order((
            archive_players::name_folded.asc(),
            archive_players::name.asc(),
        ))
        .select((
            archive_players::name,
            archive_players::name_folded,
            archive_players::games,
        ))
        .limit(limit)
        .into_boxed();
    if let Some((folded, name)) = after {
        query = query.filter(
            archive_players::name_folded
                .gt(folded.clone())
                .or(archive_players::name_folded
                    .eq(folded)
                    .and(archive_players::name.gt(name))),
        );
    }
    query.load(conn)
}
