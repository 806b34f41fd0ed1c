//! Players who shared games: per pair, the games count and first and last game
//! (`archive_pairs`), and one row per pair and game (`game_pairs`), the index the pair history
//! walks newest game first. Kept current in each game's own transaction. A pair is stored once,
//! its names in byte order.

use chrono::NaiveDateTime;
use diesel::dsl::case_when;
use diesel::prelude::*;
use diesel::upsert::excluded;

use super::connection::DbConnection;
use super::schema::{archive_pairs, game_pairs};

/// The pair's key: the two names in byte order, or `None` when they are the same name.
pub fn pair_key<'a>(a: &'a str, b: &'a str) -> Option<(&'a str, &'a str)> {
    match a.cmp(b) {
        std::cmp::Ordering::Less => Some((a, b)),
        std::cmp::Ordering::Greater => Some((b, a)),
        std::cmp::Ordering::Equal => None,
    }
}

/// Every pair among a game's players (a name seated twice counts once), in key order.
pub fn pairs_of<'a>(players: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    let mut names = players.to_vec();
    names.sort_unstable();
    names.dedup();
    let mut pairs = Vec::with_capacity(names.len() * names.len().saturating_sub(1) / 2);
    for (i, low) in names.iter().enumerate() {
        for high in &names[i + 1..] {
            pairs.push((*low, *high));
        }
    }
    pairs
}

/// Records game `game_id`, played at `played_at`, for every pair among `players`, in the
/// caller's transaction: one statement per table. Rows are written in key order (no two games
/// wait on each other in opposite orders).
pub fn count_game(
    conn: &mut DbConnection,
    game_id: i64,
    played_at: NaiveDateTime,
    players: &[&str],
) -> QueryResult<()> {
    let pairs = pairs_of(players);
    if pairs.is_empty() {
        return Ok(());
    }
    let rows: Vec<_> = pairs
        .iter()
        .map(|(low, high)| {
            (
                game_pairs::player_low.eq(*low),
                game_pairs::player_high.eq(*high),
                game_pairs::game_id.eq(game_id),
            )
        })
        .collect();
    insert_all!(conn, game_pairs::table, &rows)?;
    let totals: Vec<_> = pairs
        .iter()
        .map(|(low, high)| {
            (
                archive_pairs::player_low.eq(*low),
                archive_pairs::player_high.eq(*high),
                archive_pairs::games.eq(1_i64),
                archive_pairs::first_played_at.eq(played_at),
                archive_pairs::last_played_at.eq(played_at),
            )
        })
        .collect();
    let first = archive_pairs::first_played_at;
    let last = archive_pairs::last_played_at;
    on_backend!(conn, c => diesel::insert_into(archive_pairs::table)
        .values(&totals)
        .on_conflict((archive_pairs::player_low, archive_pairs::player_high))
        .do_update()
        .set((
            archive_pairs::games.eq(archive_pairs::games + excluded(archive_pairs::games)),
            // Games may arrive out of played order (an import of old games).
            first.eq(case_when(excluded(first).lt(first), excluded(first)).otherwise(first)),
            last.eq(case_when(excluded(last).gt(last), excluded(last)).otherwise(last)),
        ))
        .execute(c))?;
    Ok(())
}

/// What two players shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairTotals {
    pub games: i64,
    pub first_played_at: NaiveDateTime,
    pub last_played_at: NaiveDateTime,
}

/// The totals of the pair `a`, `b` (in either order); `None` when they never shared a game.
pub fn totals(conn: &mut DbConnection, a: &str, b: &str) -> QueryResult<Option<PairTotals>> {
    let Some((low, high)) = pair_key(a, b) else {
        return Ok(None);
    };
    archive_pairs::table
        .find((low, high))
        .select((
            archive_pairs::games,
            archive_pairs::first_played_at,
            archive_pairs::last_played_at,
        ))
        .first::<(i64, NaiveDateTime, NaiveDateTime)>(conn)
        .optional()
        .map(|row| {
            row.map(|(games, first_played_at, last_played_at)| PairTotals {
                games,
                first_played_at,
                last_played_at,
            })
        })
}
