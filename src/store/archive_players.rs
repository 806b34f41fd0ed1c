//! Players the archive has seen (`archive_players`): each name with its folded form for
//! case-insensitive prefix search, and their games counted by placement, aborts and variant
//! (`archive_player_variants`), kept current in each game's own transaction.

use diesel::prelude::*;
use diesel::upsert::excluded;

use super::connection::DbConnection;
use super::schema::{archive_player_variants, archive_players};

/// How names are compared in search: ASCII letters folded to lower case, everything else as
/// is (both backends fold the same way, and a prefix stays an index range).
pub fn fold(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// A player's part in one game, as the archive counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatTally<'a> {
    pub player: &'a str,
    /// 1 to 4.
    pub placement: i16,
    /// This seat aborted the game.
    pub aborted: bool,
}

/// Each player of a game once: a player seated twice counts with their best placement, and as
/// aborting if either seat aborted. In name order.
pub fn per_player<'a>(seats: &[SeatTally<'a>]) -> Vec<SeatTally<'a>> {
    let mut players: Vec<SeatTally<'a>> = Vec::with_capacity(seats.len());
    for seat in seats {
        match players.iter_mut().find(|p| p.player == seat.player) {
            Some(seen) => {
                seen.placement = seen.placement.min(seat.placement);
                seen.aborted |= seat.aborted;
            }
            None => players.push(*seat),
        }
    }
    players.sort_unstable_by(|a, b| a.player.cmp(b.player));
    players
}

/// Counts one more game for each of its players (games, placements, aborts, and games of
/// `variant`), in the caller's transaction: one statement per table. Rows are written in name
/// order, so two games with the same players never wait on each other in opposite orders.
pub fn count_game(
    conn: &mut DbConnection,
    variant: &str,
    seats: &[SeatTally<'_>],
) -> QueryResult<()> {
    let players = per_player(seats);
    let rows: Vec<_> = players
        .iter()
        .map(|p| {
            let placed = |n: i16| i64::from(p.placement == n);
            (
                archive_players::name.eq(p.player),
                archive_players::name_folded.eq(fold(p.player)),
                archive_players::games.eq(1_i64),
                archive_players::placed_first.eq(placed(1)),
                archive_players::placed_second.eq(placed(2)),
                archive_players::placed_third.eq(placed(3)),
                archive_players::placed_fourth.eq(placed(4)),
                archive_players::aborted.eq(i64::from(p.aborted)),
            )
        })
        .collect();
    on_backend!(conn, c => diesel::insert_into(archive_players::table)
        .values(&rows)
        .on_conflict(archive_players::name)
        .do_update()
        .set((
            archive_players::games.eq(archive_players::games + excluded(archive_players::games)),
            archive_players::placed_first
                .eq(archive_players::placed_first + excluded(archive_players::placed_first)),
            archive_players::placed_second
                .eq(archive_players::placed_second + excluded(archive_players::placed_second)),
            archive_players::placed_third
                .eq(archive_players::placed_third + excluded(archive_players::placed_third)),
            archive_players::placed_fourth
                .eq(archive_players::placed_fourth + excluded(archive_players::placed_fourth)),
            archive_players::aborted
                .eq(archive_players::aborted + excluded(archive_players::aborted)),
        ))
        .execute(c))?;
    let rows: Vec<_> = players
        .iter()
        .map(|p| {
            (
                archive_player_variants::player.eq(p.player),
                archive_player_variants::variant.eq(variant),
                archive_player_variants::games.eq(1_i64),
            )
        })
        .collect();
    on_backend!(conn, c => diesel::insert_into(archive_player_variants::table)
        .values(&rows)
        .on_conflict((archive_player_variants::player, archive_player_variants::variant))
        .do_update()
        .set(
            archive_player_variants::games
                .eq(archive_player_variants::games + excluded(archive_player_variants::games)),
        )
        .execute(c))?;
    Ok(())
}

/// A player's record in the archive.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayerSummary {
    pub games: i64,
    /// (variant, games), by variant name.
    pub by_variant: Vec<(String, i64)>,
    /// Games finished 1st, 2nd, 3rd, 4th.
    pub placements: [i64; 4],
    /// Games this player aborted.
    pub aborted: i64,
}

/// A player's record from the counts kept at ingest: two index look-ups whatever the number of
/// games. Zeros for a name the archive has not seen.
pub fn summary(conn: &mut DbConnection, player: &str) -> QueryResult<PlayerSummary> {
    let counts: Option<(i64, i64, i64, i64, i64, i64)> = archive_players::table
        .find(player)
        .select((
            archive_players::games,
            archive_players::placed_first,
            archive_players::placed_second,
            archive_players::placed_third,
            archive_players::placed_fourth,
            archive_players::aborted,
        ))
        .first(conn)
        .optional()?;
    let Some((games, first, second, third, fourth, aborted)) = counts else {
        return Ok(PlayerSummary::default());
    };
    let mut by_variant: Vec<(String, i64)> = archive_player_variants::table
        .filter(archive_player_variants::player.eq(player))
        .select((
            archive_player_variants::variant,
            archive_player_variants::games,
        ))
        .load(conn)?;
    // Byte order on both backends, whatever the database's collation.
    by_variant.sort_unstable();
    Ok(PlayerSummary {
        games,
        by_variant,
        placements: [first, second, third, fourth],
        aborted,
    })
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
